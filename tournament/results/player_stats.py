"""A player's statistics, for the player page (issue 16): every event played with its rank and
result, each season's course after each of its events, and per game what the cards said (the
game's own ``PLAYER`` collector, ``counting.collector``). Also each entry's result as the page
writes it, for other lists of a player's events (``event_figures``).

Everything is read in a fixed number of queries, however many events or hands the player has:
the results with their hands' input come as plain ``values_list`` rows and are counted in one
pass in Python, the sums per entry in one grouped query. What counts is in ``counting``; the
charts are built in ``charts``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Sum, Value
from django.db.models.functions import Coalesce

from tournament import games
from tournament.games.base import GameType
from tournament.models import Entry, Event, Player, Result, Season
from tournament.results import charts
from tournament.results.charts import Chart
from tournament.results.counting import FIELDS, HAND, Place, collector
from tournament.results.standings import (
    as_shown,
    ranking_key,
    season_sums,
    shared_ranks,
    still_running,
)


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

    @property
    def table(self) -> Chart:
        """Both charts' numbers in one table, each event named in full."""
        return charts.season_course_table(
            self.events,
            played=self.played,
            running=self.running,
            provisional=self.provisional,
            ranks=self.ranks,
            totals=self.totals,
            # the season total as the season page writes it (the game's result figure: Ziege's
            # matches won, no plus)
            total_text=games.get(self.season.game).result_figure().text,
        )

    @property
    def rank_chart(self) -> Chart:
        return charts.season_rank_chart(self.events, self.ranks)

    @property
    def total_chart(self) -> Chart:
        return charts.season_total_chart(self.events, self.totals)


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
            collected[event.game] = (collector(game, "PLAYER") or PlayerGame)(game)
        collected[event.game].add(row)
    order = [game.key for game in games.all_games()]
    game_stats = sorted(collected.values(), key=lambda g: order.index(g.game.key))

    per_game = []
    oldest_first = list(reversed(played))
    for key in dict.fromkeys(p.event.game for p in oldest_first):
        game = games.get(key)
        mine = [p for p in oldest_first if p.event.game == key]
        chart = charts.event_results_chart(
            game,
            game.figure(game.projector_figure),
            [p.event for p in mine],
            [p.value for p in mine],
            [p.provisional for p in mine],
        )
        per_game.append((game, chart))
    return PlayerStats(played, trajectories, game_stats, per_game)


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
