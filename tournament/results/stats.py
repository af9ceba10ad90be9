"""Statistics from the stored hands: a player's page and an event's statistics page (issue 16).

Everything is read in a fixed number of queries, however many hands, players or events there
are: the hands' input (``Hand.data``) and the per-seat results come as plain ``values_list`` rows
and are counted in one pass in Python, the sums per entry in one grouped query.

What counts: only results that count (``Result.counts``: a voided table's round counts nothing).
A table in the paper fallback has one *totals* hand per round: it counts for points, ranks and the
spread of a table's results, but it is no game, so it counts for no game statistic (hands played,
contracts, best hand).

What each game's numbers mean lives in its plug-in package (``games/<game>/stats.py``: a
``PLAYER`` and an ``EVENT`` collector, subclasses of ``PlayerGame`` and ``EventGame`` here), named
by the plug-in's ``statistics`` path; a game without one shows the hands played only.
"""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.db.models import Count, IntegerField, Max, Min, OuterRef, Q, Subquery, Sum, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournament import games
from tournament.games.base import GameType
from tournament.models import Entry, Event, Hand, Player, Result, Season
from tournament.results.charts import Chart, number
from tournament.results.standings import (
    as_shown,
    ranking_key,
    season_sums,
    shared_ranks,
    still_running,
)

HAND = Hand.Kind.HAND
FIELDS = ("points", "inflicted", "matches_won", "games_lost")


@dataclass(frozen=True)
class Place:
    """Where a hand was played: event, round, table and game number."""

    event: str
    round: int
    table: int
    number: int

    def __str__(self) -> str:
        return _("%(event)s, round %(round)s, table %(table)s, game %(number)s") % {
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "number": self.number,
        }


@dataclass
class NotableHand:
    """A best or worst hand: its result for the player, what was played, and where."""

    points: int
    what: str
    place: Place
    player: str = ""


@dataclass
class ContractLine:
    """One contract: how often it was declared and won, and the declarer's results."""

    key: str
    name: str
    played: int = 0
    won: int = 0
    total: int = 0
    # False for a game nobody declares (Räuber): it has no declarer's result
    declared: bool = True

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def average(self) -> float | None:
        return self.total / self.played if self.played and self.declared else None


def contract_lines(names: dict[str, str]) -> dict[str, ContractLine]:
    return {key: ContractLine(key, name) for key, name in names.items()}


def declared(lines: dict[str, ContractLine]) -> list[ContractLine]:
    """The contracts declared at least once, in the game's order."""
    return [line for line in lines.values() if line.played]


def contract_chart(lines: list[ContractLine], x_title: str, game: GameType) -> Chart:
    """The contracts declared and won as bars, titled with the game they were played in."""
    return Chart(
        title=_("%(game)s: contracts declared and won") % {"game": game.name},
        x_title=x_title,
        y_title=_("Games"),
        labels=[line.name for line in lines],
        series=[
            (_("declared"), [line.played for line in lines]),
            (_("won"), [line.won for line in lines]),
        ],
        kind="bar",
        whole=True,
    )


# --- a player -----------------------------------------------------------------------------


@dataclass
class Row:
    """One of the player's counting results with its hand, as the query gives it."""

    event: Event
    kind: str
    data: dict[str, Any]
    number: int
    position: int
    points: int
    inflicted: int
    matches_won: int
    games_lost: int
    table: int
    size: int
    round: int

    @property
    def place(self) -> Place:
        return Place(self.event.name, self.round, self.table, self.number)


class PlayerGame:
    """A player's numbers in one game; subclasses add the game's own."""

    template = ""

    def __init__(self, game: GameType) -> None:
        self.game = game
        self.hands = 0

    def add(self, row: Row) -> None:
        self.hands += 1


def _collector(game: GameType, name: str) -> Any:
    """The game's own collector class (``PLAYER`` or ``EVENT`` in the module its plug-in names
    as ``statistics``), or None: a game without one shows the hands played only."""
    if not game.statistics:
        return None
    return getattr(import_module(game.statistics), name, None)


@dataclass
class Played:
    """An event the player played: the entry, its rank and the game's main figure."""

    entry: Entry
    event: Event
    rank: int | None
    value: int
    text: str
    # the event is still running: rank and result may change (``standings.still_running``)
    provisional: bool = False


@dataclass
class Trajectory:
    """A season as it went for the player: after each event, the season rank and total (the
    sum of the game's result figure, as the season page shows it)."""

    season: Season
    events: list[Event]
    ranks: list[int | None]
    totals: list[int | None]
    played: list[bool]
    # per event: still running with results, so the season's rank and total after it may change
    running: list[bool]

    @property
    def provisional(self) -> list[bool]:
        """Per event: the season's rank and total after it include an event still running (this
        one or an earlier one), so they may still change."""
        seen, out = False, []
        for running in self.running:
            seen = seen or running
            out.append(seen)
        return out

    @property
    def rows(self) -> list[tuple[Event, bool, int | None, int | None]]:
        return list(zip(self.events, self.played, self.ranks, self.totals, strict=True))

    def labels(self) -> list[str]:
        return axis_labels(self.events)

    @property
    def table(self) -> Chart:
        """Both charts' numbers in one table, each event named in full."""
        return Chart(
            title=_("Season rank and total after each event"),
            x_title=_("Event"),
            y_title="",
            labels=self.labels(),
            names=[
                event_label(event, played=played, running=running, provisional=provisional)
                for event, played, running, provisional in zip(
                    self.events, self.played, self.running, self.provisional, strict=True
                )
            ],
            series=[(_("Season rank"), list(self.ranks)), (_("Season total"), list(self.totals))],
            # the season total as the season page writes it (the game's result figure: Ziege's
            # matches won, no plus)
            texts=(number, games.get(self.season.game).result_figure().text),
        )

    @property
    def rank_chart(self) -> Chart:
        return Chart(
            title=_("Season rank after each event"),
            x_title=_("Event"),
            y_title=_("Season rank"),
            labels=self.labels(),
            series=[(_("Season rank"), list(self.ranks))],
            inverted=True,
            whole=True,
        )

    @property
    def total_chart(self) -> Chart:
        return Chart(
            title=_("Season total after each event"),
            x_title=_("Event"),
            y_title=_("Season total"),
            labels=self.labels(),
            series=[(_("Season total"), list(self.totals))],
        )


def short_label(event: Event) -> str:
    """An event on a chart's axis: its date, short (the table below names it)."""
    return date_format(event.date, "SHORT_DATE_FORMAT")


def axis_labels(events: list[Event]) -> list[str]:
    """Events along a chart's axis: their dates, or their names where two share a date."""
    dates = [short_label(event) for event in events]
    return dates if len(set(dates)) == len(dates) else [event.name for event in events]


def long_label(event: Event) -> str:
    """An event in a chart's table: date and name."""
    return f"{short_label(event)} {event.name}"


def event_label(
    event: Event, *, played: bool = True, running: bool = False, provisional: bool = False
) -> str:
    """An event in a chart's table, saying where the player did not play it, where it is still
    running, and where the season's figures after it are ``provisional`` because they include
    an earlier event still running (as the season page marks them)."""
    label = long_label(event)
    if not played and running:
        return _("%(event)s (not played, still running)") % {"event": label}
    if running:
        return _("%(event)s (still running)") % {"event": label}
    if not played and provisional:
        return _("%(event)s (not played; season figures provisional)") % {"event": label}
    if provisional:
        return _("%(event)s (season figures provisional)") % {"event": label}
    if not played:
        return _("%(event)s (not played)") % {"event": label}
    return label


@dataclass
class PlayerStats:
    played: list[Played]
    trajectories: list[Trajectory]
    games: list[PlayerGame]
    per_event: list[tuple[GameType, Chart]] = field(default_factory=list)


def _sums(entries: Any) -> list[tuple[Any, ...]]:
    """Each entry's counting sums: (pk, event, player, lot, points, inflicted, matches won, games
    lost), added up from its seats' sums as the standings do. One grouped query."""
    return list(
        entries.played()
        .values_list("pk", "event_id", "player_id", "lot")
        .annotate(**{f"sum_{name}": Coalesce(Sum(f"seats__{name}"), Value(0)) for name in FIELDS})
        .order_by()
    )


def _event_ranks(game: GameType, rows: list[tuple[Any, ...]]) -> dict[int, tuple[int, dict]]:
    """Rank and sums per entry of one event, in the standings' order (RULES.md 6; equal
    figures share a rank unless a lot split them, as ``EntryQuerySet.standings``)."""
    keyed = []
    for pk, _event, _player, lot, *values in rows:
        sums = dict(zip(FIELDS, values, strict=True))
        lot_key = lot if lot is not None else float("inf")
        keyed.append(((ranking_key(game, sums), lot_key), pk, sums))
    keyed.sort(key=lambda item: item[0])
    ranks = shared_ranks([key for key, _pk, _sums in keyed])
    return {pk: (rank, sums) for rank, (_key, pk, sums) in zip(ranks, keyed, strict=True)}


def _trajectory(
    season: Season, events: list[Event], rows: list[tuple[Any, ...]], player: Player
) -> Trajectory:
    """The season standings after each of its events (``standings.season_standings`` for the
    events up to then: its order, its best-N rule), for one player."""
    game = games.get(season.game)
    result = game.result_figure()
    by_event: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        by_event[row[1]].append(row)
    figures: dict[int, list[dict[str, int]]] = defaultdict(list)
    ranks: list[int | None] = []
    totals: list[int | None] = []
    played: list[bool] = []
    running: list[bool] = []
    for event in events:
        here = by_event.get(event.pk, [])
        running.append(bool(here) and still_running(event))
        rules = event.full_rules()
        for _pk, _event, player_id, _lot, *values in here:
            figures[player_id].append(as_shown(game, dict(zip(FIELDS, values, strict=True)), rules))
        played.append(any(row[2] == player.pk for row in here))
        standing = []
        for player_id, sums_list in figures.items():
            sums = season_sums(game, sums_list, season.best_of, FIELDS)
            standing.append((ranking_key(game, sums), player_id, result.of_sums(sums)))
        standing.sort(key=lambda item: item[0])
        rank_of = shared_ranks([key for key, _p, _t in standing])
        mine: tuple[int | None, int | None] = (None, None)
        for rank, (_key, player_id, total) in zip(rank_of, standing, strict=True):
            if player_id == player.pk:
                mine = (rank, total)
        ranks.append(mine[0])
        totals.append(mine[1])
    return Trajectory(season, events, ranks, totals, played, running)


def player_stats(player: Player) -> PlayerStats:
    """Everything the player page shows beyond the name. Four queries: the entries with their
    events, the events of those events' seasons, every entry's sums in those events, and the
    player's own results with their hands."""
    entries = list(
        player.entries.played()
        .select_related("event__season")
        .order_by("-event__date", "-event__pk")
    )
    events = {entry.event_id: entry.event for entry in entries}
    seasons = {e.season_id: e.season for e in events.values() if e.season_id}
    season_events: dict[int, list[Event]] = defaultdict(list)
    if seasons:
        for event in Event.objects.filter(season_id__in=list(seasons)).order_by("date", "pk"):
            season_events[event.season_id].append(event)
            events.setdefault(event.pk, event)
    rows = _sums(Entry.objects.filter(event_id__in=list(events)))
    per_event: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        per_event[row[1]].append(row)

    played = []
    for entry in entries:
        event = entry.event
        game = event.game_type
        rank, sums = _event_ranks(game, per_event[event.pk]).get(entry.pk, (None, None))
        figure = game.figure(game.projector_figure)
        value = figure.of_sums(sums) if sums else 0
        if figure.name == "total":
            value = game.shown_total(value, event.full_rules())
        # as the event's standings write it (signed where it is a change: +1030)
        played.append(Played(entry, event, rank, value, figure.text(value), still_running(event)))

    trajectories = [
        _trajectory(
            season,
            season_events[season.pk],
            [row for e in season_events[season.pk] for row in per_event[e.pk]],
            player,
        )
        for season in sorted(seasons.values(), key=lambda s: -s.pk)
    ]

    results = (
        Result.objects.filter(entry__player=player, counts=True, hand__kind=HAND)
        .values_list(
            "event_id",
            "hand__kind",
            "hand__data",
            "hand__number",
            "position",
            *FIELDS,
            "table__number",
            "table__size",
            "round__number",
        )
        .order_by("event__date", "event_id", "round__number", "hand__number")
    )
    collected: dict[str, PlayerGame] = {}
    for event_id, *values in results:
        event = events[event_id]
        row = Row(event, *values)
        if event.game not in collected:
            game = event.game_type
            collected[event.game] = (_collector(game, "PLAYER") or PlayerGame)(game)
        collected[event.game].add(row)
    order = [game.key for game in games.all_games()]
    game_stats = sorted(collected.values(), key=lambda g: order.index(g.game.key))

    charts = []
    oldest_first = list(reversed(played))
    for key in dict.fromkeys(p.event.game for p in oldest_first):
        game = games.get(key)
        mine = [p for p in oldest_first if p.event.game == key]
        figure = game.figure(game.projector_figure)
        charts.append(
            (
                game,
                Chart(
                    title=_("%(game)s: result per event") % {"game": game.name},
                    x_title=_("Event"),
                    y_title=str(figure.heading),
                    labels=axis_labels([p.event for p in mine]),
                    names=[event_label(p.event, running=p.provisional) for p in mine],
                    series=[(str(figure.heading), [p.value for p in mine])],
                    kind="bar",
                    texts=(figure.text,),
                ),
            )
        )
    return PlayerStats(played, trajectories, game_stats, charts)


# --- an event -----------------------------------------------------------------------------


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
    collector = (_collector(game_type, "EVENT") or EventGame)(game_type, event.full_rules())
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
    for position, first, last in Result.objects.filter(hand_id=hand.pk).values_list(
        "position", "entry__player__first_name", "entry__player__last_name"
    ):
        if position < hand.size:
            names[position] = f"{first} {last}"
    return names


def event_figures(entries: list[Entry]) -> dict[int, tuple[Any, str]]:
    """Each entry's result in its event as the player page writes it (the game's projector
    figure: Cego's shown total, Ziege's matches, Hennes Sibbe's penalty cards ...): (value,
    text) by entry id; entries that never played are left out. One grouped query; the entries
    come with their events."""
    by_pk = {entry.pk: entry for entry in entries}
    figures = {}
    for pk, _event, _player, _lot, *values in _sums(Entry.objects.filter(pk__in=list(by_pk))):
        event = by_pk[pk].event
        game = event.game_type
        figure = game.figure(game.projector_figure)
        value = figure.of_sums(dict(zip(FIELDS, values, strict=True)))
        if figure.name == "total":
            value = game.shown_total(value, event.full_rules())
        figures[pk] = (value, figure.text(value))
    return figures
