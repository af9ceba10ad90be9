"""Reads, named for their use. Pages, print views and exports share these, so a query is fixed once.

Standings are one SQL query: per-seat results are summed per entry (``Sum`` with a filter per round)
and ranked with ``Window(Rank())``, so equal scores share a rank. Only entries that played are
ranked; a withdrawn entry that played keeps its place and points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Exists, F, OuterRef, Q, Sum, Value, Window
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce, Rank

if TYPE_CHECKING:
    from .models import Event, Round, Table


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
)


def _sum(field: str | F | CombinedExpression, condition: Q | None = None) -> Coalesce:
    counted = Q(results__counts=True)
    if condition is not None:
        counted &= condition
    value = f"results__{field}" if isinstance(field, str) else field
    return Coalesce(Sum(value, filter=counted), Value(0))


# Ziege: the defeat points a seat's team dealt out minus those it took; more is better, so a
# round's column reads the right way round with its sign (+4: the team did well)
ZIEGE_DIFFERENCE = F("results__inflicted") - F("results__points")


def ranking_fields(game: str) -> tuple[str, ...]:
    """RULES.md 6: the standings figures that decide a place, most important first; entries equal
    on all of them are tied (and only a draw by lot separates them)."""
    if game == "ziege":
        return ("matches", "difference", "conceded")
    if game == "hennes_sibbe":
        return ("total", "games_lost")
    return ("total",)


def ranking_order(game: str) -> list:
    """RULES.md 6: the standings order of each game; a recorded draw by lot breaks a tie."""
    if game == "ziege":
        keys = [F("matches").desc(), F("difference").desc(), F("conceded").asc()]
    elif game == "hennes_sibbe":
        keys = [F("total").asc(), F("games_lost").asc()]
    else:  # Cego points, Crazy Solo chips: higher first
        keys = [F("total").desc()]
    return keys


class EntryQuerySet(models.QuerySet):
    def standings(self, event: Event, rounds: list[Round] | None = None) -> EntryQuerySet:
        """Every entry of the event with its totals and rank; ``rounds`` adds a column per round
        (``round_<number>``: the round's points, for Ziege its defeat points difference). One
        query."""
        # Only the columns the standings show: SQLite groups by every selected column, and a
        # narrow GROUP BY keeps this query within a small factor of a bare SUM ... GROUP BY.
        qs = self.filter(event=event).played().select_related("player").only(*STANDINGS_FIELDS)
        annotations = {"total": _sum("points")}
        per_round = ZIEGE_DIFFERENCE if event.game == "ziege" else "points"
        for rnd in rounds or []:
            annotations[f"round_{rnd.number}"] = _sum(per_round, Q(results__round_id=rnd.pk))
        if event.game == "ziege":
            annotations |= {
                "matches": _sum("matches_won"),
                "inflicted": _sum("inflicted"),
                "conceded": _sum("points"),
            }
        if event.game == "hennes_sibbe":
            annotations["games_lost"] = _sum("games_lost")
        qs = qs.annotate(**annotations)
        if event.game == "ziege":
            qs = qs.annotate(difference=F("inflicted") - F("conceded"))
        keys = ranking_order(event.game)
        rank_keys = [*keys, F("lot").asc(nulls_last=True)]
        return qs.annotate(rank=Window(expression=Rank(), order_by=rank_keys)).order_by(
            *rank_keys, "player__last_name", "player__first_name", "start_number"
        )

    def active(self) -> EntryQuerySet:
        return self.filter(status="active")

    def played(self) -> EntryQuerySet:
        """Entries that sat at a table in some round ("One person, one player": an entry that
        never played in the event is not ranked). A subquery, not a join: no extra rows."""
        from .models import Seat

        return self.filter(Exists(Seat.objects.filter(entry=OuterRef("pk"), table__isnull=False)))


def provisional_entries(event: Event) -> set[int]:
    """Entries seated at a counting table with games whose sheet is not confirmed yet (one query,
    over the seats: a few thousand rows even at championship size)."""
    from .models import Seat

    return set(
        Seat.objects.filter(
            round__event=event,
            table__voided=False,
            table__confirmed_at__isnull=True,
            table__hands__isnull=False,
        )
        .values_list("entry_id", flat=True)
        .distinct()
    )


class SeatQuerySet(models.QuerySet):
    def for_round(self, rnd: Round) -> SeatQuerySet:
        """Seats of a round with players and tables, by table and position; sit-outs last."""
        return (
            self.filter(round=rnd)
            .select_related("entry__player", "table")
            .order_by(F("table__number").asc(nulls_last=True), "position")
        )


class HandQuerySet(models.QuerySet):
    def for_table(self, table: Table) -> HandQuerySet:
        """Hands of a table in order, with their per-seat results (two queries)."""
        return (
            self.filter(table=table)
            .select_related("entered_by")
            .prefetch_related("results")
            .order_by("number")
        )
