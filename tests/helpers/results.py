"""Seasons and events the standings, exports and publication tests read, and what a reader of them
sees."""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass
from typing import Any

from openpyxl import load_workbook

from tests.factories import (
    cego,
    make_event,
    make_player,
    make_round,
    make_season,
)
from tests.helpers.pairs import fixed_pair_event
from tournament import demo
from tournament.models import (
    Entry,
    Event,
    Player,
    Season,
)
from tournament.paper import exports
from tournament.play import events, hands, rounds
from tournament.register import services as register_services
from tournament.results import standings


def workbook_values(content: io.BytesIO) -> list[list[list[Any]]]:
    workbook = load_workbook(io.BytesIO(content.getvalue()), read_only=True)
    return [
        [sheet.title, *[list(row) for row in sheet.iter_rows(values_only=True)]]
        for sheet in workbook.worksheets
    ]


def event_standings(event: Event) -> list[tuple[Any, ...]]:
    rounds = standings.rounds_of(event)
    fields = [name for name, _order in event.game_type.ranking]
    return [
        (
            e.rank,
            e.start_number,
            str(e.player),
            str(e.player.uid),
            *(getattr(e, f"round_{r.number}") for r in rounds),
            *(getattr(e, f) for f in fields),
        )
        for e in Entry.objects.standings(event, rounds)
    ]


def season_rows(season: Season) -> list[tuple[Any, ...]]:
    events, rows = standings.season_standings(season)
    return [
        (
            r["rank"],
            r["name"],
            r["club"],
            r["total"],
            *(r[f"event_{e.pk}"] for e in events),
            sorted(e.slug for e in events if e.pk in r["withdrawn"]),
        )
        for r in rows
    ]


def what_a_reader_sees() -> dict[str, Any]:
    season = Season.objects.get(slug=demo.DEMO_SEASON)
    seen: dict[str, Any] = {
        "season": season_rows(season),
        "season workbook": workbook_values(exports.season_workbook(season)),
    }
    for slug in demo.DEMO_EVENTS:
        event = Event.objects.get(slug=slug)
        seen[slug] = event_standings(event)
        seen[f"{slug} workbook"] = workbook_values(exports.event_workbook(event))
    return seen


def season_of_a_finished_and_a_running_event() -> tuple[Season, Player, list[Event]]:
    """Two Cego events of a season with the same four players and one game per round: the first
    finished (its leader ends on +1030), the second running with its game entered (the leader
    declares a Halbe and wins 60)."""
    season = make_season()
    players = [make_player() for _ in range(4)]
    event_list = []
    for name, day in (("Furtwangen", 3), ("Triberg", 31)):
        event = make_event(
            season=season, name=name, date=datetime.date(2026, 10, day), hands_per_round={"*": 1}
        )
        for player in players:
            register_services.register_player(event=event, player=player)
        event_list.append(event)
    first = make_round(event_list[0], seed=1).tables.get()
    hands.record_totals(table=first, totals=[1030, -10, -500, -520])
    rounds.close_round(round=first.round)
    events.finish_event(event=event_list[0])
    leader = first.seats.get(position=0).entry.player
    second = make_round(event_list[1], seed=2).tables.get()
    declarer = second.seats.get(entry__player=leader).position
    hands.record_hand(table=second, data=cego("halbe", declarer, 47))
    return season, leader, event_list


def season_with_two_events(best_of=None):
    season = make_season(best_of=best_of)
    players = [make_player() for _ in range(4)]
    events = []
    for n, declarer_points in enumerate((47, 34)):
        event = make_event(season=season)
        for player in players:
            register_services.register_player(event=event, player=player)
        table = make_round(event, seed=n + 1).tables.get()
        declarer = next(s.position for s in table.seats.all() if s.entry.player == players[0])
        hands.record_hand(table=table, data=cego("halbe", declarer, declarer_points))
        events.append(event)
    return season, players, events


def by_seat(table) -> list[Entry]:
    return [s.entry for s in table.seats.select_related("entry").order_by("position")]


# a Ziege round (matches to 10 defeat points, RULES.md 3) that team A wins on matches with more
# defeat points taken than dealt out: two matches won by five deals of 75 (team B takes 2 each),
# then one lost (4, 4 and 6 taken: 14) and one running (4 and 4): matches 2 to 1, defeat points
# dealt out 20, taken 22, difference −2 for team A, +2 for team B
ZIEGE_DEALS = [75] * 10 + [20, 20, 0, 20, 20]


@dataclass
class ZiegeSeason:
    season: Season
    event: Event
    # team A's player in the first seat, team B's in the second (partners sit opposite)
    winner: Entry
    loser: Entry


def ziege_season() -> ZiegeSeason:
    """A Ziege season of one event in two fixed pairs, one round of ``ZIEGE_DEALS`` played:
    team A ranks first by matches won (2) with a difference of −2 and 22 defeat points taken."""
    season = make_season(game="ziege")
    event, _pairs = fixed_pair_event(
        2,
        season=season,
        rules={"match_limit": 10},
        hands_per_round={"4": len(ZIEGE_DEALS)},
    )
    table = make_round(event, seed=1).tables.get()
    for points in ZIEGE_DEALS:
        hands.record_hand(table=table, data={"team_a_points": points})
    seats = {s.position: s.entry for s in table.seats.select_related("entry__player")}
    return ZiegeSeason(season, event, seats[0], seats[1])


def standings_result(event: Event, entry: Entry) -> int:
    """An entry's result figure (``GameType.result``) as the event's standings give it."""
    game = event.game_type
    figure = game.result_figure()
    row = next(e for e in Entry.objects.standings(event) if e.pk == entry.pk)
    return game.shown(figure, getattr(row, figure.name), event.full_rules())
