"""Helpers shared by test modules: one place to import them from, never another test file.

(Model factories live in tests/factories.py; fixtures used across files live in a conftest.py.)
"""

from __future__ import annotations

import datetime
import io
import threading
from collections.abc import Callable
from typing import Any

from django import forms
from django.db import close_old_connections, connection
from openpyxl import load_workbook

from tests.factories import cego, make_entries, make_event, make_player, make_round, make_season
from tournament import demo
from tournament.models import Entry, Event, Player, Prize, Season, Table
from tournament.paper import exports
from tournament.play import services
from tournament.play.forms import EventForm
from tournament.register import imports
from tournament.register import services as register_services
from tournament.results import standings

THREADS = 8


# --- forms as a browser posts them ------------------------------------------------------------


def as_browser_sends(form: forms.Form) -> dict[str, str]:
    """The POST a browser sends for a form left as rendered: every field with its initial value,
    an unticked checkbox left out (the event form keeps every game's settings in the page)."""
    data = {}
    for field in form:
        value = field.value()
        if isinstance(field.field, forms.BooleanField):
            if value:
                data[field.html_name] = "on"
        else:
            data[field.html_name] = "" if value is None else str(value)
    return data


def event_post(**fields: str) -> dict[str, str]:
    return {
        **as_browser_sends(EventForm()),
        "name": "Herbstturnier",
        "date": "2026-10-03",
        **fields,
    }


# --- an event played to given totals, and its prizes ------------------------------------------


def played(*tables: list[int], finish: bool = True) -> tuple[Event, list[Entry]]:
    """An event of one round whose tables end on the given totals; the entries are returned in
    the order of the totals (table by table, seat by seat)."""
    event = make_event(hands_per_round={"*": 1})
    make_entries(event, 4 * len(tables))
    rnd = make_round(event)
    entries = []
    for table, totals in zip(rnd.tables.order_by("number"), tables, strict=True):
        services.record_totals(table=table, totals=list(totals))
        entries += [s.entry for s in table.seats.select_related("entry").order_by("position")]
    services.close_round(round=rnd)
    if finish:
        services.finish_event(event=event)
    return Event.objects.get(pk=event.pk), entries


def prize(event, place=1, cents=0, goods="", ranking=Prize.Ranking.OVERALL, sponsor="") -> Prize:
    return Prize.objects.create(
        event=event, ranking=ranking, place=place, amount_cents=cents, goods=goods, sponsor=sponsor
    )


# --- what a reader of the demo season sees (standings and workbooks) --------------------------


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


# --- many writers at once ---------------------------------------------------------------------


def run_in_threads(work, count: int = THREADS) -> list[BaseException]:
    """Start ``count`` threads at the same moment; return what they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def runner(i: int) -> None:
        try:
            start.wait()
            work(i)
        except BaseException as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a writer hung"
    return errors


# --- a season of a finished and a running event -----------------------------------------------


def season_of_a_finished_and_a_running_event() -> tuple[Season, Player, list[Event]]:
    """Two Cego events of a season with the same four players and one game per round: the first
    finished (its leader ends on +1030), the second running with its game entered (the leader
    declares a Halbe and wins 60)."""
    season = make_season()
    players = [make_player() for _ in range(4)]
    events = []
    for name, day in (("Furtwangen", 3), ("Triberg", 31)):
        event = make_event(
            season=season, name=name, date=datetime.date(2026, 10, day), hands_per_round={"*": 1}
        )
        for player in players:
            register_services.register_player(event=event, player=player)
        events.append(event)
    first = make_round(events[0], seed=1).tables.get()
    services.record_totals(table=first, totals=[1030, -10, -500, -520])
    services.close_round(round=first.round)
    services.finish_event(event=events[0])
    leader = first.seats.get(position=0).entry.player
    second = make_round(events[1], seed=2).tables.get()
    declarer = second.seats.get(entry__player=leader).position
    services.record_hand(table=second, data=cego("halbe", declarer, 47))
    return season, leader, events


# --- a started table and the actions a user takes on it ---------------------------------------


def started(players: int = 4) -> Table:
    """A started round of one table with one game, all written without a user."""
    event = make_event(hands_per_round={"4": 2}, table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, players)
    table = make_round(event, seed=3).tables.get()
    services.record_hand(table=table, data=cego("halbe", 0, 34))
    return table


def _hand(table: Table) -> Any:
    return table.hands.get(number=1)


def _tied(table: Table) -> list[Entry]:
    # game 1 is a lost Halbe of seat 0: seats 1 to 3 are tied on +20
    return [s.entry for s in table.seats.filter(position__gt=0)]


def _imported(table: Table, user: Any) -> None:
    event = table.round.event
    rows = [["Vorname", "Nachname", "Verein"], ["Eva", "Neu", "CC"], ["Max", "Später", "CC"]]
    preview = imports.read_players(event, rows)
    imports.save_players(event, preview.payload(), user=user, key=preview.key)


# what is done first, without a user, before the action a case is about
PREPARED: dict[str, Callable[[Table], Any]] = {
    "record_totals": lambda t: services.delete_hand(hand=_hand(t), reason="Blatt verloren"),
    "restore_table": lambda t: services.void_table(table=t, reason="unleserlich"),
    "submit_table": lambda t: services.record_hand(table=t, data=cego("eine", 1, 41)),
    "reopen_table": lambda t: services.confirm_table(table=t),
    "reinstate_entry": lambda t: register_services.withdraw_entry(
        entry=t.seats.get(position=1).entry
    ),
    "void_table lapsing a lot": lambda t: services.decide_by_lot(
        event=t.round.event, entries=_tied(t), seed=5
    ),
}


ON_A_STARTED_TABLE: dict[str, Callable[[Table, Any], Any]] = {
    "record_hand": lambda t, u: services.record_hand(table=t, data=cego("eine", 1, 41), user=u),
    "edit_hand": lambda t, u: services.edit_hand(
        hand=_hand(t), data=cego("halbe", 0, 44), reason="verzählt", user=u
    ),
    "delete_hand": lambda t, u: services.delete_hand(hand=_hand(t), reason="doppelt", user=u),
    "record_totals": lambda t, u: services.record_totals(table=t, totals=[-60, 20, 20, 20], user=u),
    "void_table": lambda t, u: services.void_table(table=t, reason="unleserlich", user=u),
    "void_table lapsing a lot": lambda t, u: services.void_table(table=t, reason="weg", user=u),
    "restore_table": lambda t, u: services.restore_table(table=t, reason="lesbar", user=u),
    "submit_table": lambda t, u: services.submit_table(table=t, user=u),
    "confirm_table": lambda t, u: services.confirm_table(table=t, user=u),
    "reopen_table": lambda t, u: services.reopen_table(table=t, reason="noch eins", user=u),
    "register_player": lambda t, u: register_services.register_player(
        event=t.round.event, player=Player(first_name="Eva", last_name="Spät"), user=u
    ),
    "save_players": _imported,
    "withdraw_entry": lambda t, u: register_services.withdraw_entry(
        entry=t.seats.get(position=1).entry, user=u
    ),
    "reinstate_entry": lambda t, u: register_services.reinstate_entry(
        entry=t.seats.get(position=1).entry, user=u
    ),
    "decide_by_lot": lambda t, u: services.decide_by_lot(
        event=t.round.event, entries=_tied(t), user=u, seed=5
    ),
    "change_event_settings": lambda t, u: services.change_event_settings(
        event=t.round.event, values={"venue": "Festhalle"}, user=u
    ),
    "correct_player": lambda t, u: register_services.correct_player(
        player=t.seats.get(position=0).entry.player, values={"club": "CC Neu"}, user=u
    ),
}
