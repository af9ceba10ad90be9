"""Reads, named for their use. Pages, print views and exports share these, so a query is fixed once.

Standings are one SQL query over the event's entries: each entry's sums of its counting results
are stored with it by the write (``Entry.sum_points`` ...), ranked with ``Window(Rank())``, so
equal scores share a rank, and ordered by the database down to the German name order within a
rank (``Player.name_key``). Only entries that played are ranked; a withdrawn entry that played
keeps its place and points.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Exists, F, FilteredRelation, OuterRef, Q, Window
from django.db.models.functions import Rank

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
    # how far the consent lets a public page name the player (issue 46, ``core.shown``)
    "player__public_lists",
    "player__public_season",
)


# the standings read each entry's stored sums of its seats (``Entry.sum_points`` ...)
SUMS = "sum_"


def ranking_order(game: GameType) -> list:
    """RULES.md 6: the standings order of a game, most important figure first."""
    return [F(name).desc() if order == "desc" else F(name).asc() for name, order in game.ranking]


def ranking_keys(game: GameType) -> list:
    """What decides a rank: the game's order, then a draw by lot among the tied."""
    return [*ranking_order(game), F("lot").asc(nulls_last=True)]


class EntryQuerySet(models.QuerySet):
    def figures(self, event: models.Model) -> EntryQuerySet:
        """The event's entries that played, with the game's total and figures, made of each
        entry's stored sums (``Entry.sum_points`` ...)."""
        game = event.game_type
        annotations: dict[str, Any] = {"total": game.total.expression(SUMS)}
        for figure in game.figures:
            annotations[figure.name] = figure.expression(SUMS)
        return self.filter(event=event).played().annotate(**annotations)

    def standings(
        self, event: models.Model, rounds: list[models.Model] | None = None
    ) -> EntryQuerySet:
        """Every entry of the event that played, with its total, its game's figures and rank, in
        standings order (a rank's players in German name order, ``Player.name_key``). One query:
        sliced, it reads only those rows. ``rounds`` adds a column per round
        (``round_<number>``: the game's round figure), a join each: the whole list with its
        rounds (print, workbook) or a sort by a round's column. A page of the standings reads
        its rows' rounds in one query instead (``SeatQuerySet.round_figures``)."""
        game = event.game_type
        qs = self.figures(event).select_related("player").only(*STANDINGS_FIELDS)
        for rnd in rounds or []:
            # the entry's seat at a table of the round, joined (one at most): None for a round
            # the entry did not play (sat out, came later, not drawn yet)
            seat = f"seat_{rnd.number}"
            played = Q(seats__round_id=rnd.pk, seats__table__isnull=False)
            qs = qs.alias(**{seat: FilteredRelation("seats", condition=played)}).annotate(
                **{f"round_{rnd.number}": game.round_figure.expression(f"{seat}__")}
            )
        rank_keys = ranking_keys(game)
        return qs.annotate(rank=Window(expression=Rank(), order_by=rank_keys)).order_by(
            *rank_keys, "player__name_key", "start_number"
        )

    def last_place(self, event: models.Model) -> tuple[Any, ...] | None:
        """What ranks the last place (the game's figures and the lot, ``ranking_keys``): one
        query sorting the entries the other way round, without ranking them."""
        game = event.game_type
        backwards = [key.copy() for key in ranking_keys(game)]
        for key in backwards:
            key.reverse_ordering()
        names = [name for name, _order in game.ranking]
        return self.figures(event).order_by(*backwards).values_list(*names, "lot").first()

    def active(self) -> EntryQuerySet:
        return self.filter(status="active")

    def played(self) -> EntryQuerySet:
        """Entries that sat at a table in some round ("One person, one player": an entry that
        never played in the event is not ranked). A subquery, not a join: no extra rows."""
        seats = self.model._meta.get_field("seats").related_model.objects
        return self.filter(Exists(seats.filter(entry=OuterRef("pk"), table__isnull=False)))


class SeatQuerySet(models.QuerySet):
    def round_figures(self, game: GameType) -> dict[tuple[int, int], Any]:
        """The game's round figure of these seats' entries in each round they sat at a table:
        {(entry id, round number): figure}, one query (the round columns of the standings)."""
        found = (
            self.filter(table__isnull=False)
            .annotate(figure=game.round_figure.expression(""))
            .values_list("entry_id", "round__number", "figure")
        )
        return {(entry, number): figure for entry, number, figure in found}

    def for_round(self, rnd: models.Model) -> SeatQuerySet:
        """Seats of a round with players and tables, by table and position; sit-outs last."""
        return (
            self.filter(round=rnd)
            .select_related("entry__player", "entry__pair", "table")
            .order_by(F("table__number").asc(nulls_last=True), "position")
        )


class HandQuerySet(models.QuerySet):
    """Hand.objects; no helpers of its own at present."""
