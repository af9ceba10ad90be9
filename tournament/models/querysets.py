"""Reads, named for their use. Pages, print views and exports share these, so a query is fixed once.

Standings are one SQL query: the seats' sums of their counting results (one seat per entry and
round, written with the results) are summed per entry (``Sum`` with a filter per round) and ranked
with ``Window(Rank())``, so equal scores share a rank. Only entries that played are
ranked; a withdrawn entry that played keeps its place and points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.db import connection, models
from django.db.models import Exists, F, OuterRef, Q, Sum, Value, Window
from django.db.models.base import ModelState
from django.db.models.expressions import BaseExpression, CombinedExpression
from django.db.models.functions import Coalesce, Rank
from django.db.models.query import ModelIterable
from django.db.transaction import TransactionManagementError

from tournament.games.base import GameType

# The models import these querysets, so the querysets name an event or a round as a Model and
# reach related models through ``_meta``: the models package has no import circle.
STANDINGS_FIELDS = (
    "event_id",
    "start_number",
    "status",
    "lot",
    "squad_id",
    "player__first_name",
    "player__last_name",
    "player__club",
    "player__category",
    # the name links to the player's page (issue 16)
    "player__uid",
)


# the standings add up the seats' sums (``Seat.points`` ...): a few rows per entry, one per round
SEATS = "seats__"


class _Whole:
    """A whole number, taken as the database gives it: the standings' sums and ranks are Python
    ints from SQLite and PostgreSQL alike, and Django's converter for them (``int(value)``, called
    for every value) was a noticeable share of a big event's standings. This holds because every
    figure is a sum of the seats' ``IntegerField`` sums times whole weights (``games.base``): a sum
    of a ``BigIntegerField`` or a division would come back from PostgreSQL as a Decimal."""

    convert_value = staticmethod(BaseExpression._convert_value_noop)


class WholeSum(_Whole, Coalesce):
    pass


class WholeRank(_Whole, Window):
    pass


class WholeSumOrNone(_Whole, Sum):
    """A sum that stays NULL (None) where there is nothing to sum: a round the entry did not
    play at a table, shown "—", not 0."""


def _sum(field: F | CombinedExpression, condition: Q | None = None) -> Coalesce:
    """An entry's sum of a figure over its seats (each seat holds its counting results summed)."""
    return WholeSum(Sum(field, filter=condition), Value(0))


def ranking_order(game: GameType) -> list:
    """RULES.md 6: the standings order of a game, most important figure first."""
    return [F(name).desc() if order == "desc" else F(name).asc() for name, order in game.ranking]


def _loader(
    klass_info: dict[str, Any], select: list, db: str, from_db: bool = False
) -> Callable[[tuple], Any]:
    """Builds the instances of one row for ``klass_info`` (the model and the ones it joins with
    ``select_related``), as ``Model.from_db`` does, without ``Model.__init__``: the instance's
    dict is filled from the row directly. ``from_db``: through each model's ``from_db`` after
    all (a model may have its own, as ``Versioned`` has)."""
    model = klass_info["model"]
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    attnames = [column[0].target.attname for column in select[start:end]]
    pk = attnames.index(model._meta.pk.attname)
    related = [
        (_loader(info, select, db, from_db), info["local_setter"], info["remote_setter"])
        for info in klass_info.get("related_klass_infos", [])
    ]

    def load(row: tuple) -> Any:
        values = row[start:end]
        if values[pk] is None:  # an outer join found nothing
            return None
        if from_db:
            obj = model.from_db(db, attnames, values)
        else:
            obj = model.__new__(model)
            state = ModelState()
            state.adding = False
            state.db = db
            obj.__dict__.update(zip(attnames, values, strict=True))
            obj.__dict__["_state"] = state
        for build, local_setter, remote_setter in related:
            other = build(row)
            local_setter(obj, other)
            if other is not None:
                remote_setter(other, obj)
        return obj

    return load


class Prepared:
    """A read of every saved game, whose SQL the ORM writes once per process and database.

    ``build`` gives the query for its values; the SQL it compiles to, its converters and how a
    row becomes instances (``select_related`` included) are kept from the first run, and every
    later run sends the same statement with its own values. For the reads of a saved game the
    ORM took longer to build the SQL than the database took to answer it (a table with its round
    and event, or a table's players; issue 13). ``build``'s
    values must be the statement's parameters, in their order, as the database takes them
    (numbers and text): checked when the SQL is written; later values go to the database as they
    are, unprepared."""

    def __init__(self, build: Callable[..., models.QuerySet]) -> None:
        self.build = build
        self._written: dict[str, tuple[str, list, Callable[[tuple], Any], bool]] = {}

    def _statement(self, values: tuple) -> tuple[str, list, Callable[[tuple], Any], bool]:
        key = f"{connection.alias}:{connection.vendor}"
        written = self._written.get(key)
        if written is None:
            queryset = self.build(*values)
            compiler = queryset.query.get_compiler(using=queryset.db)
            sql, params = compiler.as_sql()
            if list(params) != list(values):
                raise ValueError(f"the query's parameters {params!r} are not {values!r}")
            fields = [column[0] for column in compiler.select[: compiler.col_count]]
            written = (
                sql,
                list(compiler.get_converters(fields).items()),
                _loader(compiler.klass_info, compiler.select, queryset.db, from_db=True),
                bool(queryset.query.select_for_update),
            )
            self._written[key] = written
        return written

    def all(self, *values: Any) -> list[Any]:
        sql, converters, load, locks = self._statement(values)
        if locks and connection.get_autocommit():  # as the ORM refuses it, every time
            raise TransactionManagementError(
                "select_for_update cannot be used outside a transaction"
            )
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            rows = cursor.fetchall()
        found = []
        for row in rows:
            if converters:  # as SQLCompiler.apply_converters, with this thread's connection
                row = list(row)
                for position, (functions, expression) in converters:
                    value = row[position]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[position] = value
            found.append(load(row))
        return found

    def first(self, *values: Any) -> Any:
        found = self.all(*values)
        return found[0] if found else None


class StandingsIterable(ModelIterable):
    """Entries (with their players) of a standings query, built without ``Model.__init__``:
    for 1,000 rows the per-field work of ``__init__`` and its two signals per instance cost as
    much as the query itself on PostgreSQL. Neither Entry nor Player has an init signal
    receiver or a custom ``from_db``, and neither inherits from another model; a query from a
    related manager (known related objects) is left to Django's own iterable."""

    def __iter__(self) -> Iterator[Any]:
        queryset = self.queryset
        if queryset._known_related_objects:
            yield from super().__iter__()
            return
        db = queryset.db
        compiler = queryset.query.get_compiler(using=db)
        results = compiler.execute_sql(chunked_fetch=self.chunked_fetch, chunk_size=self.chunk_size)
        load = _loader(compiler.klass_info, compiler.select, db)
        annotations = list(compiler.annotation_col_map.items())
        for row in compiler.results_iter(results):
            obj = load(row)
            attributes = obj.__dict__
            for name, position in annotations:
                attributes[name] = row[position]
            yield obj


class EntryQuerySet(models.QuerySet):
    def standings(
        self, event: models.Model, rounds: list[models.Model] | None = None
    ) -> EntryQuerySet:
        """Every entry of the event with its total, its game's figures and rank; ``rounds`` adds a
        column per round (``round_<number>``: the game's round figure). One query."""
        # Only the columns the standings show: SQLite groups by every selected column, and a
        # narrow GROUP BY keeps this query within a small factor of a bare SUM ... GROUP BY.
        qs = self.filter(event=event).played().select_related("player").only(*STANDINGS_FIELDS)
        game = event.game_type
        annotations = {"total": _sum(game.total.expression(SEATS))}
        per_round = game.round_figure.expression(SEATS)
        for rnd in rounds or []:
            # None for a round the entry did not play (sat out, came later, not drawn yet)
            annotations[f"round_{rnd.number}"] = WholeSumOrNone(
                per_round, filter=Q(seats__round_id=rnd.pk, seats__table__isnull=False)
            )
        for figure in game.figures:
            annotations[figure.name] = _sum(figure.expression(SEATS))
        qs = qs.annotate(**annotations)
        keys = ranking_order(game)
        rank_keys = [*keys, F("lot").asc(nulls_last=True)]
        qs = qs.annotate(rank=WholeRank(expression=Rank(), order_by=rank_keys)).order_by(
            *rank_keys, "player__last_name", "player__first_name", "start_number"
        )
        qs._iterable_class = StandingsIterable
        return qs

    def active(self) -> EntryQuerySet:
        return self.filter(status="active")

    def played(self) -> EntryQuerySet:
        """Entries that sat at a table in some round ("One person, one player": an entry that
        never played in the event is not ranked). A subquery, not a join: no extra rows."""
        seats = self.model._meta.get_field("seats").related_model.objects
        return self.filter(Exists(seats.filter(entry=OuterRef("pk"), table__isnull=False)))


class SeatQuerySet(models.QuerySet):
    def for_round(self, rnd: models.Model) -> SeatQuerySet:
        """Seats of a round with players and tables, by table and position; sit-outs last."""
        return (
            self.filter(round=rnd)
            .select_related("entry__player", "table")
            .order_by(F("table__number").asc(nulls_last=True), "position")
        )


class HandQuerySet(models.QuerySet):
    """Hand.objects; no helpers of its own at present."""
