"""Helpers shared by test modules: one place to import them from, never another test file.

(Model factories live in tests/factories.py; fixtures used across files live in a conftest.py.)
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import itertools
import json
import math
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import openpyxl
import pytest
from django import forms
from django.apps import apps
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import close_old_connections, connection
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from openpyxl import Workbook, load_workbook

import scoring
from scoring import InvalidHand
from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_season,
)
from tournament import demo, games
from tournament.core import reading
from tournament.models import (
    Entry,
    Event,
    Hand,
    Player,
    Prize,
    Result,
    Round,
    Season,
    Seat,
    Table,
    Team,
)
from tournament.paper import exports
from tournament.play import confirmations, draw, events, hands, lots, rounds
from tournament.play.forms import EventForm
from tournament.register import imports
from tournament.register import services as register_services
from tournament.register.forms import RegisterForm
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


class _FormReader(HTMLParser):
    """The fields of one form of a page, as a browser sends it left as shown."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.select, self.textarea = form_id, False, None, None
        self.templates = 0  # inside a <template>: not part of the form as sent
        self.data: dict[str, str] = {}
        self.first_option: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "template":
            self.templates += 1
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        elif not self.inside or self.templates:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button"):
                self.data[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select:
            self.first_option.setdefault(self.select, a.get("value", ""))
            if "selected" in a:
                self.data[self.select] = a.get("value", "")
        elif tag == "textarea":
            self.textarea = a.get("name")
            self.data[self.textarea] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self.templates -= 1
        elif tag == "form":
            self.inside = False
        elif tag == "select":
            if self.select and self.select not in self.data:
                self.data[self.select] = self.first_option.get(self.select, "")
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.data[self.textarea] += data


def form_as_shown(page: HttpResponse | str, form_id: str) -> dict[str, str]:
    """What a browser sends for the form ``form_id`` of a page left as the page shows it (read
    from the HTML, not from the view's form: its hidden one-time key and token as rendered);
    the inputs of ``<template>``s inside it are not part of it."""
    text = page if isinstance(page, str) else page.content.decode()
    reader = _FormReader(form_id)
    reader.feed(text)
    return reader.data


def event_post(**fields: str) -> dict[str, str]:
    return {
        **as_browser_sends(EventForm()),
        "name": "Herbstturnier",
        "date": "2026-10-03",
        **fields,
    }


def register_post(**fields: str) -> dict[str, str]:
    return {**as_browser_sends(RegisterForm()), **fields}


HUGE = str(10**30)


# --- an event played to given totals, and its prizes ------------------------------------------


def played(*tables: list[int], finish: bool = True) -> tuple[Event, list[Entry]]:
    """An event of one round whose tables end on the given totals; the entries are returned in
    the order of the totals (table by table, seat by seat)."""
    event = make_event(hands_per_round={"*": 1}, rounds_planned=1)
    make_entries(event, 4 * len(tables))
    rnd = make_round(event)
    entries = []
    for table, totals in zip(rnd.tables.order_by("number"), tables, strict=True):
        hands.record_totals(table=table, totals=list(totals))
        # the players signed the paper sheet: the scorer confirms it for them
        confirmations.confirm_table(table=table)
        entries += [s.entry for s in table.seats.select_related("entry").order_by("position")]
    rounds.close_round(round=rnd)
    if finish:
        events.finish_event(event=event)
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


# --- a started table and the actions a user takes on it ---------------------------------------


def started(players: int = 4) -> Table:
    """A started round of one table with one game, all written without a user."""
    event = make_event(hands_per_round={"4": 2}, table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, players)
    table = make_round(event, seed=3).tables.get()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
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
    "record_totals": lambda t: hands.delete_hand(hand=_hand(t), reason="Blatt verloren"),
    "restore_table": lambda t: hands.void_table(table=t, reason="unleserlich"),
    "submit_table": lambda t: hands.record_hand(table=t, data=cego("eine", 1, 41)),
    "reopen_table": lambda t: confirmations.confirm_table(table=t),
    "reinstate_entry": lambda t: register_services.withdraw_entry(
        entry=t.seats.get(position=1).entry
    ),
    "void_table lapsing a lot": lambda t: lots.decide_by_lot(
        event=t.round.event, entries=_tied(t), seed=5
    ),
}


ON_A_STARTED_TABLE: dict[str, Callable[[Table, Any], Any]] = {
    "record_hand": lambda t, u: hands.record_hand(table=t, data=cego("eine", 1, 41), user=u),
    "edit_hand": lambda t, u: hands.edit_hand(
        hand=_hand(t), data=cego("halbe", 0, 44), reason="verzählt", user=u
    ),
    "delete_hand": lambda t, u: hands.delete_hand(hand=_hand(t), reason="doppelt", user=u),
    "record_totals": lambda t, u: hands.record_totals(table=t, totals=[-60, 20, 20, 20], user=u),
    "void_table": lambda t, u: hands.void_table(table=t, reason="unleserlich", user=u),
    "void_table lapsing a lot": lambda t, u: hands.void_table(table=t, reason="weg", user=u),
    "restore_table": lambda t, u: hands.restore_table(table=t, reason="lesbar", user=u),
    "submit_table": lambda t, u: confirmations.submit_table(table=t, user=u),
    "confirm_table": lambda t, u: confirmations.confirm_table(table=t, user=u),
    "reopen_table": lambda t, u: confirmations.reopen_table(table=t, reason="noch eins", user=u),
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
    "decide_by_lot": lambda t, u: lots.decide_by_lot(
        event=t.round.event, entries=_tied(t), user=u, seed=5
    ),
    "change_event_settings": lambda t, u: events.change_event_settings(
        event=t.round.event, values={"venue": "Festhalle"}, user=u
    ),
    "correct_player": lambda t, u: register_services.correct_player(
        player=t.seats.get(position=0).entry.player, values={"club": "CC Neu"}, user=u
    ),
}


# --- what the web pages answer ----------------------------------------------------------------

MINUS = "\u2212"  # the sheet writes −60 with a real minus sign, as on paper

# Cego, Halbe, declarer in seat 0 with 34 card points: lost, RULES.md 7 gives [−60, +20, +20, +20]
HALBE_LOST = {"contract": "halbe", "declarer": "0", "declarer_points": "34"}
HALBE_LOST_RESULTS = [-60, 20, 20, 20]


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the app, history included: equal snapshots mean a request
    changed nothing at all."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_app_config("tournament").get_models()
    }


def results(hand: Hand) -> list[int]:
    return list(hand.results.order_by("position").values_list("points", flat=True))


def totals_by_seat(table: Table) -> list[int]:
    """Each seat's event total, from the standings query the pages use."""
    totals = {e.pk: e.total for e in Entry.objects.standings(table.round.event)}
    seats = Seat.objects.filter(table=table).order_by("position")
    return [totals[seat.entry_id] for seat in seats]


def assert_sent_to_login(response: HttpResponse, url: str) -> None:
    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert target.path == reverse("login")
    # back to the page asked for after the login, with its search (the desk's ?q=) if it had one
    asked = urlsplit(url)
    assert parse_qs(target.query)["next"] == [
        asked.path + (f"?{asked.query}" if asked.query else "")
    ]


def messages_of(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def field_error(content: str, field: str) -> str:
    """The error shown next to one field of a hand form (its ``data-field`` block)."""
    block = content.split(f'data-field="{field}"', 1)[1].split("data-field=", 1)[0]
    match = re.search(r'<div class="error">(.*?)</div>', block, re.S)
    assert match, f"no error shown next to {field}"
    return match.group(1)


def cego_post(**fields: Any) -> dict[str, Any]:
    return {**HALBE_LOST, "action": "save", **fields}


# --- the world the page access tests read ------------------------------------------------------


@dataclass
class World:
    season: Season
    event: Event
    round: Round
    table: Table
    hand: Hand
    player: Player
    squad: Team


WORLD_REASON = "Zählfehler am Tisch 1"


# url name → (url of it in the world, a text the page must show)
PUBLIC_PAGES: dict[str, Callable[[World], tuple[str, str]]] = {
    "home": lambda w: (reverse("home"), w.event.name),
    "event": lambda w: (reverse("event", args=[w.event.slug]), w.event.name),
    "event_standings": lambda w: (
        reverse("event_standings", args=[w.event.slug]),
        w.player.sort_name,
    ),
    "event_teams": lambda w: (reverse("event_teams", args=[w.event.slug]), w.squad.name),
    # the world plays Cego: a Ziege event in fixed pairs of its own, one round played
    "event_pairs": lambda w: _pair_ranking_page(),
    "event_statistics": lambda w: (reverse("event_statistics", args=[w.event.slug]), w.event.name),
    "player": lambda w: (reverse("player", args=[w.player.uid]), str(w.player)),
    "round_seating": lambda w: (reverse("round_seating", args=[w.event.slug, 1]), str(w.player)),
    "round_results": lambda w: (reverse("round_results", args=[w.event.slug, 1]), str(w.player)),
    "season": lambda w: (reverse("season", args=[w.season.slug]), w.season.name),
    "table": lambda w: (reverse("table", args=[w.table.pk]), str(w.player)),
    "card_points": lambda w: (reverse("card_points", args=[w.event.slug]) + "?cc-king=1", "4.5"),
    "print_standings": lambda w: (
        reverse("print_standings", args=[w.event.slug]),
        w.player.sort_name,
    ),
    "print_seating": lambda w: (reverse("print_seating", args=[w.event.slug, 1]), str(w.player)),
    "print_sheets": lambda w: (reverse("print_sheets", args=[w.event.slug, 1]), str(w.player)),
    "print_season": lambda w: (reverse("print_season", args=[w.season.slug]), w.player.sort_name),
    "rule_card": lambda w: (reverse("rule_card", args=[w.event.slug]), w.event.name),
    "event_xlsx": lambda w: (reverse("event_xlsx", args=[w.event.slug]), w.player.last_name),
    "season_xlsx": lambda w: (reverse("season_xlsx", args=[w.season.slug]), w.player.last_name),
    "projector": lambda w: (reverse("projector", args=[w.event.slug]), str(w.player)),
    "projector_rows": lambda w: (reverse("projector_rows", args=[w.event.slug]), str(w.player)),
    "where_do_i_sit": lambda w: (
        reverse("where_do_i_sit", args=[w.event.slug]) + f"?q={w.player.last_name}",
        str(w.player),
    ),
    "rating": lambda w: (reverse("rating"), "Plackett-Luce"),
    "rating_game": lambda w: (reverse("rating_game", args=["ziege"]), "Plackett-Luce"),
    "table_settlement": lambda w: (reverse("table_settlement", args=[w.table.pk]), w.event.name),
    # who registered: name and club only (issue 29)
    "event_participants": lambda w: (
        reverse("event_participants", args=[w.event.slug]),
        w.player.last_name,
    ),
}


def shows(response: HttpResponse, text: str) -> bool:
    """The text is on the page, in the JSON, or in a cell of the downloaded workbook."""
    kind = response["Content-Type"]
    if "spreadsheetml" in kind:
        book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
        cells = (
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if value is not None
        )
        return any(text in cell for cell in cells)
    if kind.startswith("application/json"):
        return text in response.content.decode()
    return escape(text) in response.content.decode()


@dataclass
class ProjectorLine:
    """A line of the projector as its script writes it (static/js/projector.js)."""

    rank: str
    name: str
    marks: list[str]  # the marks after the name, as written: "*", "(withdrawn)", "last place"
    club: str
    value: str

    @property
    def text(self) -> str:
        return " ".join([self.rank, self.name, *self.marks, self.club, self.value])


def projector_lines(content: str | bytes) -> tuple[list[ProjectorLine], str]:
    """The projector's lines and its status line, from its rows' JSON or from the projector page
    (the lines it shows first are in the page), as the script writes them."""
    text = content.decode() if isinstance(content, bytes) else content
    if found := re.search(
        r'<script id="projector-lines" type="application/json">(.*?)</script>', text, re.S
    ):
        text = found.group(1)
    data = json.loads(text)
    lines = [
        ProjectorLine(f"{rank}.", name, [data["marks"][m][1] for m in marks], club, value)
        for rank, name, club, value, marks in data["lines"]
    ]
    return lines, data["status"]


# --- player files to import ----------------------------------------------------------------------


GERMAN = ["Vorname", "Nachname", "Verein", "Ort", "Kategorie"]


PLAYERS = [
    ["Anna", "Müller", "CC Rottweil", "Rottweil", "Damen"],
    ["Jörg", "Weiß", "Cego-Freunde Hüfingen", "Hüfingen", ""],
    ["Lena", "Schäfer", "", "Titisee-Neustadt", "Jugend"],
]


def counts() -> tuple[int, int]:
    return Player.objects.count(), Entry.objects.count()


def csv_file(rows: list[list[Any]], encoding: str) -> bytes:
    """As German Excel saves "CSV": semicolons, CRLF, UTF-8 with a BOM or Windows-1252."""
    text = io.StringIO()
    csv.writer(text, delimiter=";").writerows(rows)
    return text.getvalue().encode(encoding)


def preview_of(event: Event, rows: list[list[Any]], fmt: str = "xlsx") -> imports.PlayerImport:
    name, make = FORMATS[fmt]
    return imports.read_players(event, reading.read_table(io.BytesIO(make(rows)), name))


def upload(client: Client, url: str, name: str, content: bytes) -> HttpResponse:
    return client.post(url, {"file": SimpleUploadedFile(name, content)})


def xlsx_file(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    output = io.BytesIO()
    book.save(output)
    return output.getvalue()


FORMATS: dict[str, tuple[str, Callable[[list[list[Any]]], bytes]]] = {
    "xlsx": ("spieler.xlsx", xlsx_file),
    "csv-utf8-bom": ("spieler.csv", lambda rows: csv_file(rows, "utf-8-sig")),
    "csv-cp1252": ("spieler.csv", lambda rows: csv_file(rows, "cp1252")),
}


# --- scoring a Cego hand ----------------------------------------------------------------------


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


def declarer_loses(v: int, seats: int = 4) -> list[int]:
    return [-(seats - 1) * v] + [v] * (seats - 1)


def declarer_wins(v: int, seats: int = 4) -> list[int]:
    return [(seats - 1) * v] + [-v] * (seats - 1)


def make_hand(contract: str, **fields: Any) -> dict[str, Any]:
    """A Cego hand with the declarer in seat 0 unless the test says otherwise."""
    hand: dict[str, Any] = {"contract": contract}
    if contract != "raeuber":
        hand["declarer"] = 0
    hand.update(fields)
    return hand


def rejection(hand: Any, seats: Any = 4, rules: Any = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        scoring.score("cego", hand, seats, rules)
    return info.value


def score(hand: dict[str, Any], seats: int = 4, rules: dict[str, Any] | None = None) -> list[int]:
    return scoring.score("cego", hand, seats, rules)


# --- seasons and tables the standings tests read ---------------------------------------------


def _season_with_two_events(best_of=None):
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


# --- seating draws: plans, meetings, sit-outs -----------------------------------------------


EXACT = Event.TablePolicy.EXACT


MIXED = Event.TablePolicy.MIXED


SIT_OUT = Event.TablePolicy.SIT_OUT


def fewest_repeats_for_two_tables_of_four(players: Sequence[int], met: set[frozenset[int]]) -> int:
    """Brute force over every split of eight players into two tables of four."""
    first, *others = players
    best = math.inf
    for rest in itertools.combinations(others, 3):
        table = [first, *rest]
        other = [p for p in players if p not in table]
        best = min(best, repeats([table, other], met))
    return int(best)


def mentions(text: str, number: int) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def met_before(rnd: Round) -> set[frozenset[int]]:
    """Pairs who shared a table in the event's rounds before ``rnd``."""
    earlier = Round.objects.filter(event_id=rnd.event_id, number__lt=rnd.number)
    return set().union(*(pairs_at(tables_of(r)) for r in earlier))


def next_round(event: Event, seed: int) -> Round:
    rnd = rounds.add_round(event=event)
    return rounds.draw_round(round=rnd, seed=seed)


def pairs_at(tables: Iterable[Sequence[int]]) -> set[frozenset[int]]:
    """Every two players who share a table (computed here, independently of the draw module)."""
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


def place(rnd: Round, entry: Entry) -> tuple[int | None, int | None]:
    seat = Seat.objects.select_related("table").get(round=rnd, entry=entry)
    return (seat.table.number if seat.table else None, seat.position)


def plan_of(n: int, game: str, policy: str, target: int = 4) -> draw.Plan:
    """The game's table plan for ``n`` players (its plug-in decides, the draw module helps)."""
    return draw.plan_tables(games.get(game), n, policy, target)


def play_and_close(rnd: Round) -> Round:
    """Start the round if needed, fill every table's sheet and close it, as the tables would."""
    if rnd.status == Round.Status.SEATED:
        rnd = rounds.start_round(round=rnd)
    event = rnd.event
    for table in rnd.tables.all():
        if event.game == "ziege":
            for _ in range(event.hands_for(table.size)):
                hands.record_hand(table=table, data={"team_a_points": 75})
        else:
            hands.record_totals(table=table, totals=[0] * table.size)
    return rounds.close_round(round=rnd)


def repeats(tables: Iterable[Sequence[int]], met: set[frozenset[int]]) -> int:
    return len(pairs_at(tables) & met)


def seating(rnd: Round) -> list[tuple[int, int, int]]:
    """(table number, position, entry id) of every seated player, in table order."""
    return list(
        Seat.objects.filter(round=rnd, table__isnull=False)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "entry_id")
    )


def sitting_out(rnd: Round) -> set[int]:
    return set(
        Seat.objects.filter(round=rnd, table__isnull=True).values_list("entry_id", flat=True)
    )


def tables_of(rnd: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, _position, entry_id in seating(rnd):
        tables.setdefault(number, []).append(entry_id)
    return list(tables.values())


# --- the totals a hand gave ---------------------------------------------------------------------


def totals(table) -> list[int]:
    """Each seat's sum of counted results at a table, in seat order."""
    sums = [0] * table.size
    for result in Result.objects.filter(table=table, counts=True):
        sums[result.position] += result.points
    return sums


# --- what a reader reads of a page's tables ------------------------------------------------------


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self._cell: list[str] | None = None
        self._caption: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append(("", []))
        elif tag == "caption":
            self._caption = []
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption" and self._caption is not None:
            self.tables[-1] = (" ".join("".join(self._caption).split()), self.tables[-1][1])
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        for part in (self._cell, self._caption):
            if part is not None:
                part.append(data)


def html_tables(html: str) -> list[tuple[str, list[list[str]]]]:
    """Each table of a page as a reader reads it: its caption and its rows of cell texts (a line
    break in a cell read as a space)."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


# --- Ziege in fixed pairs ---------------------------------------------------------------------


def fixed_pair_event(pairs: int, **kwargs: Any) -> tuple[Event, list[Team]]:
    """A Ziege event of ``pairs`` fixed pairs registered as teams ("Paar 1", "Paar 2", ...), two
    deals a round and matches to 4 defeat points: two deals won make a match."""
    kwargs.setdefault("rules", {"match_limit": 4})
    kwargs.setdefault("hands_per_round", {"4": 2})
    kwargs.setdefault("pairing", Event.Pairing.FIXED)
    event = make_event("ziege", **kwargs)
    entries = make_entries(event, 2 * pairs)
    teams = [
        register_services.create_pair(event=event, name=f"Paar {i}", entries=[a, b])
        for i, (a, b) in enumerate(zip(entries[0::2], entries[1::2], strict=True), start=1)
    ]
    return event, teams


def play_pairs_round(rnd: Round, strength: Sequence[Team]) -> Round:
    """Start the round if needed and play every table: the pair earlier in ``strength`` wins both
    deals (75 card points) and so the match; then close the round."""
    if rnd.status == Round.Status.SEATED:
        rnd = rounds.start_round(round=rnd)
    order = {team.pk: i for i, team in enumerate(strength)}
    for table in rnd.tables.all():
        seats = list(table.seats.select_related("entry").order_by("position"))
        a, b = seats[0].entry.pair_id, seats[1].entry.pair_id
        points = 75 if order[a] < order[b] else 45
        for _ in range(2):
            hands.record_hand(table=table, data={"team_a_points": points})
    return rounds.close_round(round=rnd)


def pair_at(table: Table) -> dict[str, list[str]]:
    """Team A's and team B's players at ``table``, by name."""
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    return {
        "a": [str(seats[0].entry.player), str(seats[2].entry.player)],
        "b": [str(seats[1].entry.player), str(seats[3].entry.player)],
    }


def page_text(response: HttpResponse) -> str:
    """What a reader reads of an HTML page: its text without the tags, spaces collapsed."""
    body = re.sub(r"(?s)<(script|template|style)\b.*?</\1>", " ", response.content.decode())
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", text)


def _pair_ranking_page() -> tuple[str, str]:
    event, teams = fixed_pair_event(2)
    play_pairs_round(make_round(event, seed=1), teams)
    return reverse("event_pairs", args=[event.slug]), teams[0].name


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


def html_table(content: str | bytes, marker: str = 'class="standings') -> list[dict[str, str]]:
    """The rows of the first table whose opening tag holds ``marker``, as a reader reads them:
    each row's cells by their column's heading, tags left out, spaces collapsed."""
    text = content.decode() if isinstance(content, bytes) else content
    start = text.index(marker)
    table = text[text.rindex("<table", 0, start) : text.index("</table>", start)]

    def words(cell: str) -> str:
        return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", cell))).strip()

    head, _sep, body = table.partition("</thead>")
    headings = [words(c) for c in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)]
    return [
        dict(
            zip(
                headings,
                (words(c) for c in re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)),
                strict=False,
            )
        )
        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S)
    ]
