"""An event's statistics, for its statistics page (issue 16): what the cards said (the game's own
``EVENT`` collector, ``counting.collector``), the biggest hand, the spread of results per table
and round; and for the director how fast each table entered its games (``table_pace``).

Everything is read in a fixed number of queries, however many hands or players the event has:
the hands' input (``Hand.data``) and the per-seat results come as plain ``values_list`` rows and
are counted in one pass in Python. What counts is in ``counting``.
"""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, IntegerField, Max, Min, OuterRef, Q, Subquery, Sum, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce

from tournament.core import shown
from tournament.games.base import GameType
from tournament.models import Event, Hand, Result
from tournament.results import counting
from tournament.results.charts import Chart
from tournament.results.counting import HAND, NotableHand, Place


@dataclass
class EventHand:
    """A counting hand of the event, with each seat's result."""

    pk: int
    kind: str
    data: dict[str, Any]
    number: int
    table_id: int
    table: int
    size: int
    round: int
    # the result of the seat the game's statistics follow (Cego's declarer, ...), if any
    seat_result: int = 0

    @property
    def place(self) -> tuple[int, int, int]:
        return (self.round, self.table, self.number)


class EventGame:
    """An event's numbers for its game; subclasses add the game's own."""

    template = ""
    # the hand's key naming the seat whose result the statistics follow (``seat_result``)
    seat_key: str | None = None

    def __init__(self, game: GameType, rules: dict[str, Any]) -> None:
        self.game = game
        self.rules = rules
        self.hands = 0

    def add(self, hand: EventHand) -> None:
        self.hands += 1

    def ended(self, *, matches: int, games: int) -> None:
        """How many hands ended a Ziege match and a Hennes Sibbe game (``Result`` says so)."""

    @property
    def chart(self) -> Chart | None:
        return None


@dataclass
class TableSpread:
    """A table's round: its players' highest and lowest result, and the difference."""

    table: int
    high: int
    low: int

    @property
    def spread(self) -> int:
        return self.high - self.low


@dataclass
class RoundSpread:
    round: int
    tables: list[TableSpread]

    @property
    def widest(self) -> TableSpread:
        return max(self.tables, key=lambda t: (t.spread, -t.table))

    @property
    def average(self) -> float:
        return statistics.fmean(t.spread for t in self.tables)


@dataclass
class TablePace:
    """For the director: how fast a table entered its games (``Hand.entered_at``)."""

    round: int
    table: int
    hands: int
    first: datetime.datetime
    last: datetime.datetime

    @property
    def minutes_per_hand(self) -> float | None:
        if self.hands < 2:
            return None
        return (self.last - self.first).total_seconds() / 60 / (self.hands - 1)


@dataclass
class EventStats:
    event: Event
    game: EventGame
    biggest: NotableHand | None
    spreads: list[RoundSpread]


def _event_hands(event: Event, seat_key: str | None) -> list[EventHand]:
    """The event's counting hands (voided tables left out), each with the result of the seat
    its ``seat_key`` names (a declarer's, a bidder's), looked up per hand through the results'
    (hand, position) index: one query, one row per hand."""
    fields = [
        "pk",
        "kind",
        "data",
        "number",
        "table_id",
        "table__number",
        "table__size",
        "table__round__number",
    ]
    hands = Hand.objects.filter(table__round__event=event, table__voided=False)
    if seat_key:
        seat = Cast(KeyTextTransform(seat_key, "hand__data"), IntegerField())
        hands = hands.annotate(
            seat_result=Coalesce(
                Subquery(
                    Result.objects.filter(hand=OuterRef("pk"), position=seat, counts=True).values(
                        "points"
                    )[:1]
                ),
                Value(0),
            )
        )
        fields.append("seat_result")
    rows = hands.values_list(*fields).order_by("table__round__number", "table__number", "number")
    return [EventHand(*row) for row in rows]


def event_stats(event: Event) -> EventStats:
    """The event statistics page's numbers, in five queries whatever the size of the event: the
    hands with the followed seat's results, each table's totals per seat, the biggest result,
    the names at its table, and the matches or games that ended."""
    game_type = event.game_type
    collector = (counting.collector(game_type, "EVENT") or EventGame)(game_type, event.full_rules())
    hands = _event_hands(event, collector.seat_key)
    tables: dict[int, tuple[int, int]] = {}
    for hand in hands:
        tables[hand.table_id] = (hand.round, hand.table)
        if hand.kind == HAND:
            collector.add(hand)
    counted = Result.objects.filter(event=event, counts=True)
    ended = counted.aggregate(
        matches=Count("hand_id", filter=Q(matches_won__gt=0), distinct=True),
        games=Count("hand_id", filter=Q(games_lost__gt=0), distinct=True),
    )
    collector.ended(matches=ended["matches"], games=ended["games"])
    totals: dict[tuple[int, int], list[int]] = defaultdict(list)
    for table_id, _position, points in (
        counted.values_list("table_id", "position").annotate(points=Sum("points")).order_by()
    ):
        if table_id in tables:
            totals[tables[table_id]].append(points)
    spreads: dict[int, list[TableSpread]] = defaultdict(list)
    for (round_number, table_number), values in sorted(totals.items()):
        spreads[round_number].append(TableSpread(table_number, max(values), min(values)))
    notable = None
    if game_type.zero_sum:
        # the biggest hand: the most one player won in a game (where a game is won and lost:
        # zero-sum), the first one played where several are as big
        top = (
            counted.filter(hand__kind=HAND, points__gt=0)
            .order_by("-points", "round__number", "table__number", "hand__number", "position")
            .values_list("hand_id", "position", "points")
            .first()
        )
        hand = next((h for h in hands if h.pk == top[0]), None) if top else None
        if hand is not None:
            names = _names_at(hand)
            notable = NotableHand(
                top[2],
                game_type.describe(hand.data, names),
                Place(event.name, hand.round, hand.table, hand.number),
                player=names[top[1]],
            )
    return EventStats(
        event,
        collector,
        notable,
        [RoundSpread(number, rows) for number, rows in sorted(spreads.items())],
    )


def table_pace(event: Event) -> list[TablePace]:
    """For the director: games entered per table with the first and last time, the slowest
    tables of each round first. One grouped query."""
    rows = (
        Hand.objects.filter(table__round__event=event, table__voided=False, kind=HAND)
        .values_list("table__round__number", "table__number")
        .annotate(hands=Count("pk"), first=Min("entered_at"), last=Max("entered_at"))
        .order_by()
    )
    return sorted(
        (TablePace(*row) for row in rows),
        key=lambda p: (p.round, -(p.minutes_per_hand or 0), p.table),
    )


def _names_at(hand: EventHand) -> list[str]:
    """The players at the hand's table, by seat (one query)."""
    names = ["?"] * hand.size
    for position, number, first, last, lists, on_site in Result.objects.filter(
        hand_id=hand.pk
    ).values_list(
        "position",
        "entry__start_number",
        "entry__player__first_name",
        "entry__player__last_name",
        "entry__player__public_lists",
        "entry__player__public_season",
    ):
        if position < hand.size:
            # a public page: as far as the consent reaches (``core.shown``)
            names[position] = shown.name(first, last, lists=lists, season=on_site, number=number)
    return names
