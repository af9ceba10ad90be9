"""The web views as a scorer, a director and an anonymous visitor meet them.

Reads are public; every change needs a login and a POST (healthchecks' ``front/views.py``), and
every refused input comes back as a message the scorer can act on, never as a server error.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlsplit

import openpyxl
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils.html import escape

from tests.factories import (
    afresh,
    built_once,
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_season,
    make_table,
    make_user,
    reread,
)
from tests.helpers import as_browser_sends, event_post
from tournament import urls as tournament_urls
from tournament.models import (
    Entry,
    Event,
    Hand,
    LotDraw,
    Player,
    Result,
    Round,
    Season,
    Seat,
    Table,
    Team,
)
from tournament.play import services as play_services
from tournament.play.forms import EventForm
from tournament.register import services
from tournament.register.forms import RegisterForm

pytestmark = pytest.mark.django_db

MINUS = "\u2212"  # the sheet writes −60 with a real minus sign, as on paper

# Cego, Halbe, declarer in seat 0 with 34 card points: lost, RULES.md 7 gives [−60, +20, +20, +20]
HALBE_LOST = {"contract": "halbe", "declarer": "0", "declarer_points": "34"}
HALBE_LOST_RESULTS = [-60, 20, 20, 20]


# --- helpers ----------------------------------------------------------------------------------


@pytest.fixture
def scorer(client: Client) -> Client:
    client.force_login(make_user())
    return client


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
    assert parse_qs(target.query)["next"] == [urlsplit(url).path]


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


# --- who may read and who may change what ---------------------------------------------------------


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


@pytest.fixture(scope="module")
def built_world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """A season with a Cego event: one started round, one table, one game entered, one squad;
    built once for the module's tests (``built_once``)."""
    with built_once(django_db_blocker):
        season = make_season()
        table = make_table(season=season)
        event = table.round.event
        squad = Team.objects.create(event=event, name="Spielgemeinschaft Rohrbach")
        Entry.objects.filter(event=event).update(squad=squad)
        hand = play_services.record_hand(table=table, data=cego())
        hand = play_services.edit_hand(hand=hand, data=cego(points=20), reason=WORLD_REASON)
        player = Seat.objects.get(table=table, position=0).entry.player
        yield reread(World(season, event, table.round, table, hand, player, squad))


@pytest.fixture
def world(built_world: World) -> World:
    return afresh(built_world)


# url name → (url of it in the world, a text the page must show)
PUBLIC_PAGES: dict[str, Callable[[World], tuple[str, str]]] = {
    "home": lambda w: (reverse("home"), w.event.name),
    "event": lambda w: (reverse("event", args=[w.event.slug]), w.event.name),
    "event_standings": lambda w: (
        reverse("event_standings", args=[w.event.slug]),
        w.player.sort_name,
    ),
    "event_teams": lambda w: (reverse("event_teams", args=[w.event.slug]), w.squad.name),
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


# pages for a logged-in organiser or scorer: url name → (url, a piece of HTML the page shows)
DIRECTOR_PAGES: dict[str, Callable[[World], tuple[str, str]]] = {
    "event_create": lambda w: (reverse("event_create"), 'name="game"'),
    "event_edit": lambda w: (
        reverse("event_edit", args=[w.event.slug]),
        f'value="{w.event.name}"',
    ),
    "season_create": lambda w: (reverse("season_create"), 'name="best_of"'),
    "event_players": lambda w: (
        reverse("event_players", args=[w.event.slug]),
        w.player.sort_name,
    ),
    "hand_edit": lambda w: (w.hand.get_absolute_url(), 'name="reason"'),
    "import_players": lambda w: (
        reverse("import_players", args=[w.event.slug]),
        'type="file"',
    ),
    "import_results": lambda w: (
        reverse("import_results", args=[w.event.slug, 1]),
        'type="file"',
    ),
    "result_template": lambda w: (
        reverse("result_template", args=[w.event.slug, 1]),
        w.player.last_name,
    ),
    "table_history": lambda w: (reverse("table_history", args=[w.table.pk]), WORLD_REASON),
    "event_settlement": lambda w: (
        reverse("event_settlement", args=[w.event.slug]),
        w.event.name,
    ),
    "event_history": lambda w: (reverse("event_history", args=[w.event.slug]), WORLD_REASON),
    "player_edit": lambda w: (
        reverse("player_edit", args=[w.event.slug, entry_of(w).pk]),
        f'value="{w.player.last_name}"',
    ),
    "player_merge": lambda w: (
        reverse("player_merge", args=[w.event.slug, entry_of(w).pk]),
        'name="other"',
    ),
    "register": lambda w: (reverse("register"), w.player.sort_name),
    "register_player": lambda w: (
        reverse("register_player", args=[w.player.uid]),
        f'value="{w.player.last_name}"',
    ),
    "register_merge": lambda w: (reverse("register_merge", args=[w.player.uid]), 'name="q"'),
    # the season as a zip of its static website: the file names
    "season_publish": lambda w: (
        reverse("season_publish", args=[w.season.slug]),
        f"{w.season.slug}/de/index.html",
    ),
    "bundle_import": lambda w: (reverse("bundle_import"), 'type="file"'),
    "event_bundle": lambda w: (reverse("event_bundle", args=[w.event.slug]), w.player.last_name),
    # the world's round is drawn: the page explains that only withdrawing is left
    "entry_remove": lambda w: (
        reverse("entry_remove", args=[w.event.slug, entry_of(w).pk]),
        "can no longer be removed",
    ),
    # prizes, fees and the cash book (issue 17); the prize-giving list is the organiser's until
    # the event is finished
    "prize_table": lambda w: (reverse("prize_table", args=[w.event.slug]), 'name="prize-0-place"'),
    "prize_giving": lambda w: (reverse("prize_giving", args=[w.event.slug]), "prize-giving"),
    "print_prize_giving": lambda w: (
        reverse("print_prize_giving", args=[w.event.slug]),
        "prize-giving",
    ),
    "fee_list": lambda w: (reverse("fee_list", args=[w.event.slug]), w.player.sort_name),
    "fee_categories": lambda w: (
        reverse("fee_categories", args=[w.event.slug]),
        'name="fee-0-amount"',
    ),
    "cash_book": lambda w: (reverse("cash_book", args=[w.event.slug]), 'name="description"'),
    "print_cash_report": lambda w: (
        reverse("print_cash_report", args=[w.event.slug]),
        "Cash box counted",
    ),
}


def entry_of(w: World) -> Entry:
    return Entry.objects.get(event=w.event, player=w.player)


# what a director would POST to the pages that take one (hand_edit is among the writes below)
DIRECTOR_POSTS: dict[str, Callable[[World], dict[str, Any]]] = {
    "event_create": lambda w: event_post(),
    "event_edit": lambda w: event_post(name="Umbenannt", slug=w.event.slug),
    "season_create": lambda w: {"name": "Saison 2027", "slug": "saison-2027"},
    "event_players": lambda w: register_post(first_name="Anna", last_name="Maier"),
    "import_players": lambda w: {"action": "confirm", "payload": ""},
    "import_results": lambda w: {"action": "confirm", "payload": ""},
    "prize_table": lambda w: {
        "prize-TOTAL_FORMS": "1",
        "prize-INITIAL_FORMS": "0",
        "prize-0-ranking": "overall",
        "prize-0-place": "1",
        "prize-0-amount": "150",
    },
    "fee_categories": lambda w: {
        "fee-TOTAL_FORMS": "1",
        "fee-INITIAL_FORMS": "0",
        "fee-0-name": "Voll",
        "fee-0-amount": "15",
    },
    "cash_book": lambda w: {
        "description": "Hallenmiete",
        "direction": "out",
        "via": "box",
        "amount": "80",
    },
}


@dataclass
class Write:
    """A change a logged-in user may make: where to POST what, and how to see that it happened."""

    url: str
    data: dict[str, Any]
    happened: Callable[[HttpResponse], None]


def withdraw_entry() -> Write:
    event = make_event()
    entry = make_entries(event, 4)[0]

    def happened(response: HttpResponse) -> None:
        entry.refresh_from_db()
        assert entry.status == Entry.Status.WITHDRAWN
        assert response["Location"] == reverse("event_players", args=[event.slug])

    return Write(reverse("entry_status", args=[event.slug, entry.pk]), {}, happened)


def remove_entry() -> Write:
    event = make_event()
    mistake = make_entries(event, 5)[4]

    def happened(response: HttpResponse) -> None:
        assert not Entry.objects.filter(pk=mistake.pk).exists()
        assert response["Location"] == reverse("event_players", args=[event.slug])

    return Write(reverse("entry_remove", args=[event.slug, mistake.pk]), {}, happened)


def correct_player() -> Write:
    event = make_event()
    entry = make_entries(event, 1)[0]
    data = {"first_name": "Uwe", "last_name": "Maier", "club": "CC Triberg", "town": "Triberg"}

    def happened(response: HttpResponse) -> None:
        entry.player.refresh_from_db()
        assert str(entry.player) == "Uwe Maier"
        assert entry.player.club == "CC Triberg"

    return Write(reverse("player_edit", args=[event.slug, entry.pk]), data, happened)


def merge_players() -> Write:
    event = make_event()
    entry = make_entries(event, 1)[0]
    twin = make_player()
    other_entry = services.register_player(event=make_event(), player=twin)

    def happened(response: HttpResponse) -> None:
        other_entry.refresh_from_db()
        assert other_entry.player_id == entry.player_id
        assert not Player.objects.filter(pk=twin.pk).exists()

    url = reverse("player_merge", args=[event.slug, entry.pk])
    return Write(url, {"other": twin.pk}, happened)


def add_round() -> Write:
    event = make_event()
    make_entries(event, 4)

    def happened(response: HttpResponse) -> None:
        assert list(event.rounds.values_list("number", "status")) == [(1, Round.Status.DRAFT)]
        assert response["Location"] == reverse("round_seating", args=[event.slug, 1])

    return Write(reverse("round_add", args=[event.slug]), {}, happened)


def draw_seats() -> Write:
    event = make_event()
    make_entries(event, 8)
    rnd = play_services.add_round(event=event)

    def happened(response: HttpResponse) -> None:
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.SEATED
        assert rnd.seed == 7
        assert [t.size for t in rnd.tables.all()] == [4, 4]
        assert Seat.objects.filter(round=rnd, table__isnull=False).count() == 8

    url = reverse("round_action", args=[event.slug, 1, "draw"])
    return Write(url, {"seed": "7"}, happened)


def pair_players() -> Write:
    event = make_event("ziege", pairing=Event.Pairing.FIXED)
    first, second = make_entries(event, 4)[:2]

    def happened(response: HttpResponse) -> None:
        pair = Team.objects.get(event=event, kind=Team.Kind.PAIR)
        assert pair.name == "Die Ziegenhirten"
        assert set(pair.pair_members.all()) == {first, second}

    url = reverse("event_pair", args=[event.slug])
    return Write(
        url, {"first": first.pk, "second": second.pk, "name": "Die Ziegenhirten"}, happened
    )


def start_round() -> Write:
    event = make_event()
    make_entries(event, 4)
    rnd = make_round(event, start=False)

    def happened(response: HttpResponse) -> None:
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.PLAYING

    return Write(reverse("round_action", args=[event.slug, 1, "start"]), {}, happened)


def close_round() -> Write:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    play_services.record_hand(table=rnd.tables.get(), data=cego())

    def happened(response: HttpResponse) -> None:
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.CLOSED

    # the table has not confirmed its sheet: the director has said "close all the same"
    url = reverse("round_action", args=[event.slug, 1, "close"])
    return Write(url, {"confirmed": "1"}, happened)


def remove_round() -> Write:
    event = make_event()
    make_entries(event, 4)
    rnd = make_round(event, start=False)  # drawn, not started

    def happened(response: HttpResponse) -> None:
        assert not event.rounds.exists()
        assert not Seat.objects.filter(round_id=rnd.pk).exists()
        assert response["Location"] == event.get_absolute_url()

    # its seats are drawn: the director has said "remove all the same"
    url = reverse("round_action", args=[event.slug, 1, "remove"])
    return Write(url, {"confirmed": "1"}, happened)


def swap_seats() -> Write:
    event = make_event()
    make_entries(event, 4)
    rnd = make_round(event, start=False)
    first, second = Seat.objects.filter(round=rnd).order_by("position")[:2]

    def happened(response: HttpResponse) -> None:
        assert Seat.objects.get(pk=first.pk).position == 1
        assert Seat.objects.get(pk=second.pk).position == 0

    url = reverse("round_action", args=[event.slug, 1, "swap"])
    return Write(url, {"first": first.entry_id, "second": second.entry_id}, happened)


def enter_totals() -> Write:
    table = make_table()

    def happened(response: HttpResponse) -> None:
        hand = table.hands.get()
        assert hand.kind == Hand.Kind.TOTALS
        assert totals_by_seat(table) == [30, -10, -10, -10]

    data = {"total_0": "30", "total_1": "-10", "total_2": "-10", "total_3": "-10"}
    return Write(reverse("table_totals", args=[table.pk]), data, happened)


def void_table() -> Write:
    table = make_table()
    play_services.record_hand(table=table, data=cego())

    def happened(response: HttpResponse) -> None:
        table.refresh_from_db()
        assert table.voided
        assert table.void_reason == "Tisch hat mit falschem Blatt gespielt"
        assert totals_by_seat(table) == [0, 0, 0, 0]

    data = {"reason": "Tisch hat mit falschem Blatt gespielt"}
    return Write(reverse("table_void", args=[table.pk]), data, happened)


def preview_hand() -> Write:
    table = make_table()

    def happened(response: HttpResponse) -> None:
        assert response.json() == {"ok": True, "results": HALBE_LOST_RESULTS}
        assert not table.hands.exists()

    return Write(reverse("hand_preview", args=[table.pk]), dict(HALBE_LOST), happened)


def decide_lot() -> Write:
    # two players tied on 0 at a drawn table (only players who played are ranked and tied)
    table = make_table()
    event = table.round.event
    first, second = (s.entry for s in table.seats.select_related("entry").order_by("position")[:2])

    def happened(response: HttpResponse) -> None:
        draw = LotDraw.objects.get(event=event)
        assert sorted(draw.entries) == sorted([first.start_number, second.start_number])
        drawn = Entry.objects.filter(pk__in=[first.pk, second.pk])
        assert sorted(drawn.values_list("lot", flat=True)) == [1, 2]

    url = reverse("decide_lot", args=[event.slug])
    return Write(url, {"entry": [first.pk, second.pk], "confirmed": "1"}, happened)


def confirm_sheet() -> Write:
    table = make_table()
    play_services.record_hand(table=table, data=cego())

    def happened(response: HttpResponse) -> None:
        table.refresh_from_db()
        assert table.confirmed_at is not None
        assert sorted(table.confirmations.values_list("position", flat=True)) == [0, 1, 2, 3]

    return Write(reverse("table_confirm", args=[table.pk]), {}, happened)


def record_hand() -> Write:
    table = make_table()

    def happened(response: HttpResponse) -> None:
        assert results(table.hands.get()) == HALBE_LOST_RESULTS

    return Write(reverse("table", args=[table.pk]), cego_post(), happened)


def correct_hand() -> Write:
    table = make_table()
    hand = play_services.record_hand(table=table, data=cego())

    def happened(response: HttpResponse) -> None:
        hand.refresh_from_db()
        assert hand.data == cego(points=50)
        assert hand.version == 2

    data = cego_post(declarer_points="50", reason="Karten falsch gezählt", version=hand.version)
    return Write(hand.get_absolute_url(), data, happened)


def finish_event() -> Write:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    play_services.record_hand(table=rnd.tables.get(), data=cego())
    play_services.close_round(round=rnd)

    def happened(response: HttpResponse) -> None:
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED

    return Write(reverse("event_finish", args=[event.slug]), {"action": "finish"}, happened)


def set_fee() -> Write:
    from tournament.models import EntryFee, FeeCategory

    event = make_event()
    entry = make_entries(event, 1)[0]
    FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)

    def happened(response: HttpResponse) -> None:
        fee = EntryFee.objects.get(entry=entry)
        assert (fee.status, fee.paid_cents) == (EntryFee.Status.CASH, 1500)

    return Write(reverse("fee_set", args=[event.slug, entry.pk]), {"status": "cash"}, happened)


def remove_cash_item() -> Write:
    from tournament.models import CashItem

    event = make_event()
    item = CashItem.objects.create(event=event, description="Miete", amount_cents=8000)

    def happened(response: HttpResponse) -> None:
        assert not CashItem.objects.filter(pk=item.pk).exists()

    return Write(reverse("cash_item_remove", args=[event.slug, item.pk]), {}, happened)


# the players' own page of a table, opened from the sheet's QR code (tested further below)
TABLE_LINK_PAGES = {
    "table_link",
    "link_preview",
    "link_action",
    "link_send",
    "table_service_worker",  # tests/browser/test_offline.py
}

# (url name, how to make the change); round_action once for each of its actions
WRITES: list[tuple[str, Callable[[], Write]]] = [
    ("entry_status", withdraw_entry),
    ("entry_remove", remove_entry),
    ("player_edit", correct_player),
    ("player_merge", merge_players),
    ("event_pair", pair_players),
    ("round_add", add_round),
    ("round_action", draw_seats),
    ("round_action", start_round),
    ("round_action", close_round),
    ("round_action", swap_seats),
    ("round_action", remove_round),
    ("table_totals", enter_totals),
    ("table_void", void_table),
    ("table_confirm", confirm_sheet),
    ("hand_preview", preview_hand),
    ("decide_lot", decide_lot),
    ("table", record_hand),
    ("hand_edit", correct_hand),
    ("event_finish", finish_event),
    ("fee_set", set_fee),
    ("cash_item_remove", remove_cash_item),
]
WRITE_IDS = [make.__name__ for _name, make in WRITES]
# endpoints that only take a POST (the table page and hand_edit also show a page on GET)
POST_ONLY = [
    (name, make)
    for name, make in WRITES
    if name not in ("table", "hand_edit", "entry_remove", "player_edit", "player_merge")
]


def test_the_matrix_covers_every_url_name() -> None:
    names = {p.name for p in tournament_urls.urlpatterns if isinstance(p, URLPattern)}
    covered = set(PUBLIC_PAGES) | set(DIRECTOR_PAGES) | {name for name, _make in WRITES}
    covered |= TABLE_LINK_PAGES
    # logging in and out, and the language switch, are tested on their own (tests/test_language.py)
    assert names - {"login", "logout", "set_language"} == covered


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_anyone_can_read_a_public_page(client: Client, world: World, name: str) -> None:
    url, text = PUBLIC_PAGES[name](world)
    response = client.get(url)
    assert response.status_code == 200
    assert shows(response, text)


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_a_logged_in_user_reads_the_same_public_page(
    scorer: Client, world: World, name: str
) -> None:
    url, text = PUBLIC_PAGES[name](world)
    response = scorer.get(url)
    assert response.status_code == 200
    assert shows(response, text)


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_a_director_page_sends_an_anonymous_visitor_to_the_login(
    client: Client, world: World, name: str
) -> None:
    url, _html = DIRECTOR_PAGES[name](world)
    assert_sent_to_login(client.get(url), url)


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_a_director_page_opens_for_a_logged_in_user(
    scorer: Client, world: World, name: str
) -> None:
    url, html = DIRECTOR_PAGES[name](world)
    response = scorer.get(url)
    assert response.status_code == 200
    if "spreadsheetml" in response["Content-Type"]:  # the result template to fill in offline
        assert shows(response, html)
    elif response["Content-Type"] == "application/zip":  # the season's published website
        assert html in zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    elif response["Content-Type"] == "application/gzip":  # the event bundle
        assert html in gzip.decompress(response.content).decode()
    else:
        assert html in response.content.decode()


@pytest.mark.parametrize("name", DIRECTOR_POSTS)
def test_an_anonymous_post_to_a_director_page_changes_nothing(
    client: Client, world: World, name: str
) -> None:
    url, data = DIRECTOR_PAGES[name](world)[0], DIRECTOR_POSTS[name](world)
    before = snapshot()
    assert_sent_to_login(client.post(url, data), url)
    assert snapshot() == before


@pytest.mark.parametrize("name", ["event_create", "event_edit", "season_create", "event_players"])
def test_a_director_post_is_saved(scorer: Client, world: World, name: str) -> None:
    # the POSTs of the test above are real changes: anonymous, they were refused for the login
    before = snapshot()
    response = scorer.post(DIRECTOR_PAGES[name](world)[0], DIRECTOR_POSTS[name](world))
    assert response.status_code == 302
    assert snapshot() != before


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_an_anonymous_post_changes_nothing_and_asks_for_a_login(
    client: Client, name: str, make: Callable[[], Write]
) -> None:
    write = make()
    before = snapshot()
    response = client.post(write.url, write.data)
    assert_sent_to_login(response, write.url)
    assert snapshot() == before


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_a_logged_in_post_does_what_it_says(
    scorer: Client, name: str, make: Callable[[], Write]
) -> None:
    write = make()
    response = scorer.post(write.url, write.data)
    assert response.status_code in (200, 302)
    assert not [m for m in get_messages(response.wsgi_request) if m.level_tag == "error"]
    write.happened(response)


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_a_logged_in_user_without_a_role_may_change_nothing(
    client: Client, name: str, make: Callable[[], Write]
) -> None:
    write = make()
    client.force_login(make_user("visitor", staff=False))
    before = snapshot()
    assert client.post(write.url, write.data).status_code == 403
    assert snapshot() == before


@pytest.mark.parametrize(("name", "make"), POST_ONLY, ids=[m.__name__ for _n, m in POST_ONLY])
def test_a_get_on_a_post_only_endpoint_answers_405(
    scorer: Client, name: str, make: Callable[[], Write]
) -> None:
    write = make()
    before = snapshot()
    assert scorer.get(write.url).status_code == 405
    assert snapshot() == before


@pytest.mark.parametrize("name", [n for n in PUBLIC_PAGES if n != "table"])
def test_a_read_page_refuses_a_post(scorer: Client, world: World, name: str) -> None:
    url, _text = PUBLIC_PAGES[name](world)
    assert scorer.post(url).status_code == 405


def test_an_unknown_round_action_is_not_found(scorer: Client) -> None:
    event = make_event()
    make_entries(event, 4)
    make_round(event, start=False)
    before = snapshot()
    url = reverse("round_action", args=[event.slug, 1, "shuffle"])
    assert scorer.post(url).status_code == 404
    assert snapshot() == before


# --- entering a hand on the table page ------------------------------------------------------------


def test_a_valid_cego_hand_is_saved_and_shown_on_the_sheet(scorer: Client) -> None:
    table = make_table()
    url = reverse("table", args=[table.pk])
    response = scorer.post(url, cego_post(), follow=True)
    assert response.redirect_chain == [(url, 302)]
    hand = table.hands.get()
    assert hand.data == cego()
    assert hand.entered_by == make_user()
    assert results(hand) == HALBE_LOST_RESULTS
    sheet = response.content.decode().split('<table class="sheet">', 1)[1].split("</table>", 1)[0]
    assert f"{MINUS}60" in sheet
    assert sheet.count("+20") >= 3


def test_preview_shows_the_result_and_saves_nothing(scorer: Client) -> None:
    table = make_table()
    before = snapshot()
    response = scorer.post(reverse("table", args=[table.pk]), cego_post(action="preview"))
    assert response.status_code == 200
    assert response.context["preview"] == HALBE_LOST_RESULTS
    preview = response.content.decode().split('id="preview"', 1)[1].split("</div>", 1)[0]
    assert f"{MINUS}60" in preview
    assert preview.count("+20") == 3
    assert snapshot() == before


def test_it_rejects_declarer_points_above_79_next_to_the_field(scorer: Client) -> None:
    table = make_table()
    before = snapshot()
    response = scorer.post(reverse("table", args=[table.pk]), cego_post(declarer_points="80"))
    assert response.status_code == 200
    assert "79" in " ".join(response.context["form"].errors["declarer_points"])
    assert "79" in field_error(response.content.decode(), "declarer_points")
    assert snapshot() == before


def test_a_raeuber_hand_takes_each_seats_card_points(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "raeuber", "action": "save"}
    data |= {f"points_{i}": str(p) for i, p in enumerate([10, 20, 30, 19])}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data == {"contract": "raeuber", "points": [10, 20, 30, 19], "announcer": None}
    # seat 2 took the most card points: it pays the Räuber value to each of the others
    assert results(hand) == [40, 40, -120, 40]


def test_a_raeuber_hand_without_every_seats_points_is_refused(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "raeuber", "points_0": "40", "points_1": "39", "action": "save"}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 200
    # said at the first empty field (the third player's)
    assert response.context["form"].errors["points_2"] == ["enter every player's card points"]
    assert not table.hands.exists()


def test_a_raeuber_hand_whose_points_do_not_add_up_is_said_of_all_of_them(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "raeuber", "action": "save"}
    data.update({f"points_{i}": p for i, p in enumerate(("40", "20", "20", "5"))})
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.non_field_errors() == ["Räuber card points: must add up to 79 card points, got 85"]
    assert not any(name.startswith("points_") for name in form.errors)
    assert not table.hands.exists()


def test_a_ziege_deal_is_saved(scorer: Client) -> None:
    table = make_table("ziege", 4)
    response = scorer.post(
        reverse("table", args=[table.pk]), {"team_a_points": "80", "action": "save"}
    )
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data == {"team_a_points": 80}
    # team B (seats 1 and 3) made 40 card points and is charged defeat points
    assert results(hand) == [0, 2, 0, 2]


def test_a_crazy_solo_deal_is_saved_at_a_table_of_seven(scorer: Client) -> None:
    table = make_table("crazy_solo", 7)
    assert table.size == 7
    data = {
        "contract": "solo",
        "bidder": "0",
        "partner": "1",
        "soloist_points": "80",
        "trump": "",
        "action": "save",
    }
    response = scorer.post(reverse("table", args=[table.pk]), data, follow=True)
    hand = table.hands.get()
    assert hand.data == {"contract": "solo", "bidder": 0, "partner": 1, "soloist_points": 80}
    assert results(hand) == [120, 80, -40, -40, -40, -40, -40]
    # the balance row: the start balance of 150 chips plus the bidder's 120
    assert '<th class="num">270</th>' in response.content.decode()


def test_a_hennes_sibbe_challenge_with_the_tables_verdict_is_saved(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    data = {
        "claimant": "0",
        "challenger": "1",
        "claim_count": "5",
        "claim_colour": "rot",
        "claim_correct": "yes",
        "action": "save",
    }
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data == {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 5, "colour": "rot"},
        "claim_correct": True,
    }
    # the claim was right: the challenger who called "Lüge!" takes the penalty card
    assert results(hand) == [0, 1, 0, 0]


def test_hand_preview_returns_the_results_as_json(scorer: Client) -> None:
    table = make_table()
    response = scorer.post(reverse("hand_preview", args=[table.pk]), HALBE_LOST)
    assert response.status_code == 200
    assert response.json() == {"ok": True, "results": HALBE_LOST_RESULTS}


def test_hand_preview_returns_the_engines_reason_as_json(scorer: Client) -> None:
    table = make_table()
    url = reverse("hand_preview", args=[table.pk])
    response = scorer.post(url, {**HALBE_LOST, "declarer_points": "80"})
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False
    assert list(body["errors"]) == ["declarer_points"]
    assert "79" in body["errors"]["declarer_points"][0]
    assert not table.hands.exists()


def test_a_hand_on_a_voided_table_is_refused_with_a_message(scorer: Client) -> None:
    table = make_table()
    play_services.void_table(table=table, reason="Tisch aufgelöst")
    before = snapshot()
    response = scorer.post(reverse("table", args=[table.pk]), cego_post())
    assert response.status_code == 200
    assert messages_of(response)
    assert snapshot() == before


# --- corrections need a reason --------------------------------------------------------------------


@pytest.fixture
def played() -> tuple[Table, Hand]:
    table = make_table()
    return table, play_services.record_hand(table=table, data=cego())


def test_a_correction_without_a_reason_changes_nothing(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    before = snapshot()
    response = scorer.post(hand.get_absolute_url(), cego_post(declarer_points="50", reason=""))
    assert response.status_code == 200
    assert response.context["reason_form"].errors["reason"]
    assert snapshot() == before
    assert totals_by_seat(table) == HALBE_LOST_RESULTS


def test_a_correction_with_a_reason_changes_the_hand_and_the_standings(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    data = cego_post(declarer_points="50", reason="Stiche falsch gezählt", version=hand.version)
    response = scorer.post(hand.get_absolute_url(), data)
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.data == cego(points=50)
    # Halbe with 50 card points is won: +90 for the declarer, −30 for each opponent
    assert totals_by_seat(table) == [90, -30, -30, -30]
    standings = scorer.get(reverse("event_standings", args=[table.round.event.slug]))
    assert "+90" in standings.content.decode()
    latest = hand.history.first()
    assert latest.history_change_reason == "Stiche falsch gezählt"
    assert latest.history_user == make_user()


def test_a_correction_of_an_outdated_version_is_refused(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    _table, hand = played
    play_services.edit_hand(hand=hand, data=cego(points=20), reason="erste Korrektur")
    before = snapshot()
    data = cego_post(declarer_points="50", reason="zweite Korrektur", version="1")
    response = scorer.post(hand.get_absolute_url(), data)
    assert response.status_code == 200
    assert any(m.level_tag == "error" for m in get_messages(response.wsgi_request))
    assert snapshot() == before


def test_a_deletion_without_a_reason_keeps_the_hand(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    before = snapshot()
    response = scorer.post(hand.get_absolute_url(), {"action": "delete"})
    assert response.status_code == 200
    assert response.context["reason_form"].errors["reason"]
    assert snapshot() == before
    assert totals_by_seat(table) == HALBE_LOST_RESULTS


def test_a_deletion_with_a_reason_removes_the_hand_and_its_points(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    url = hand.get_absolute_url()
    response = scorer.post(url, {"action": "delete", "reason": "doppelt eingetragen"})
    assert response.status_code == 302
    assert not Hand.objects.filter(pk=hand.pk).exists()
    assert not Result.objects.filter(table=table).exists()
    assert totals_by_seat(table) == [0, 0, 0, 0]
    deleted = Hand.history.get(id=hand.pk, history_type="-")
    assert deleted.history_change_reason == "doppelt eingetragen"


# --- bad input never answers 500 ------------------------------------------------------------------


def register_post(**fields: str) -> dict[str, str]:
    return {**as_browser_sends(RegisterForm()), **fields}


def _table_url() -> str:
    return reverse("table", args=[make_table().pk])


def _preview_url() -> str:
    return reverse("hand_preview", args=[make_table().pk])


def _totals_url() -> str:
    return reverse("table_totals", args=[make_table().pk])


def _register_url() -> str:
    event = make_event()
    make_entries(event, 2)
    return reverse("event_players", args=[event.slug])


def _pair_url() -> str:
    event = make_event("ziege", pairing=Event.Pairing.FIXED)
    make_entries(event, 4)
    return reverse("event_pair", args=[event.slug])


def _draw_url() -> str:
    event = make_event()
    make_entries(event, 4)
    play_services.add_round(event=event)
    return reverse("round_action", args=[event.slug, 1, "draw"])


def _hand_edit_url() -> str:
    table = make_table()
    return play_services.record_hand(table=table, data=cego()).get_absolute_url()


def _link_url() -> str:
    return reverse("table_link", args=[make_table().token])


def _link_confirm_url() -> str:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    play_services.record_hand(table=table, data=cego())
    play_services.submit_table(table=table)
    return reverse("link_action", args=[table.token, "confirm"])


def _lot_url() -> str:
    return reverse("decide_lot", args=[make_table().round.event.slug])


TARGETS: dict[str, Callable[[], str]] = {
    "table": _table_url,
    "hand_preview": _preview_url,
    "table_totals": _totals_url,
    "event_create": lambda: reverse("event_create"),
    "event_players": _register_url,
    "event_pair": _pair_url,
    "draw": _draw_url,
    "hand_edit": _hand_edit_url,
    "decide_lot": _lot_url,
    "table_link": _link_url,
    "link_confirm": _link_confirm_url,
    "player_edit": lambda: _entry_url("player_edit"),
    "player_merge": lambda: _entry_url("player_merge"),
    "entry_remove": lambda: _entry_url("entry_remove", drawn=True),
    "register_player": lambda: reverse("register_player", args=[make_player().uid]),
    "register_merge": lambda: reverse("register_merge", args=[make_player().uid]),
}


def _entry_url(name: str, drawn: bool = False) -> str:
    event = make_event()
    entry = make_entries(event, 4)[0]
    if drawn:
        make_round(event, start=False)
    return reverse(name, args=[event.slug, entry.pk])


def player_post(**fields: str) -> dict[str, str]:
    return {"first_name": "Uwe", "last_name": "Maier", "club": "", "town": "", **fields}


HUGE = str(10**30)
SCRIPT = "<script>alert(1)</script>"


def raeuber_post(*points: str, **fields: str) -> dict[str, str]:
    data = {"contract": "raeuber", "action": "save", **fields}
    return data | {f"points_{i}": p for i, p in enumerate(points)}


A_HAND: list[tuple[str, dict[str, Any]]] = [
    ("points-text", cego_post(declarer_points="abc")),
    ("points-huge", cego_post(declarer_points=HUGE)),
    ("points-negative", cego_post(declarer_points="-5")),
    ("points-decimal", cego_post(declarer_points="34.5")),
    ("declarer-9", cego_post(declarer="9")),
    ("declarer-text", cego_post(declarer="abc")),
    ("declarer-negative", cego_post(declarer="-1")),
    ("missing-everything", {"action": "save"}),
    ("missing-points", cego_post(declarer_points="")),
    ("contract-script", cego_post(contract=SCRIPT)),
    ("forfeit-unknown", cego_post(forfeit="everyone")),
    ("tricks-huge", cego_post(contract="bettel", declarer_tricks=HUGE)),
    ("raeuber-huge", raeuber_post(HUGE, "0", "0", "0")),
    ("raeuber-negative", raeuber_post("-1", "40", "20", "20")),
    ("raeuber-announcer-9", raeuber_post("19", "20", "20", "20", announcer="9")),
]
# (target, case, the POST); every one of them is refused
HOSTILE: list[tuple[str, str, Callable[[], dict[str, Any]]]] = [
    *(("table", case, lambda data=data: data) for case, data in A_HAND),
    *(("hand_preview", case, lambda data=data: data) for case, data in A_HAND),
    *(("table_link", case, lambda data=data: data) for case, data in A_HAND),
    ("link_confirm", "position-missing", lambda: {}),
    ("link_confirm", "position-text", lambda: {"position": "abc"}),
    ("link_confirm", "position-9", lambda: {"position": "9"}),
    ("link_confirm", "position-negative", lambda: {"position": "-1"}),
    ("link_confirm", "position-huge", lambda: {"position": HUGE}),
    ("link_confirm", "position-superscript", lambda: {"position": "²"}),
    ("table_totals", "text", lambda: {"total_0": "abc", "total_1": "0", "total_2": "0"}),
    (
        "table_totals",
        "huge-but-adding-up-to-zero",
        lambda: {"total_0": HUGE, "total_1": "-" + HUGE, "total_2": "0", "total_3": "0"},
    ),
    ("table_totals", "missing", lambda: {"total_0": "10", "total_1": "-10"}),
    ("table_totals", "decimal", lambda: {"total_0": "0.5", "total_1": "-0.5"}),
    ("event_create", "date-text", lambda: event_post(date="abc")),
    ("event_create", "name-missing", lambda: event_post(name="")),
    ("event_create", "name-too-long", lambda: event_post(name="x" * 201)),
    ("event_create", "slug-path", lambda: event_post(slug="../../etc")),
    ("event_create", "game-script", lambda: event_post(game=SCRIPT)),
    ("event_create", "table-size-huge", lambda: event_post(target_table_size=HUGE)),
    ("event_create", "table-size-text", lambda: event_post(target_table_size="vier")),
    (
        "event_create",
        "crazy-solo-table-of-2",
        lambda: event_post(game="crazy_solo", target_table_size="2"),
    ),
    ("event_create", "rounds-negative", lambda: event_post(rounds_planned="-1")),
    ("event_create", "rule-negative", lambda: event_post(cego__bettel="-5")),
    ("event_create", "rule-text", lambda: event_post(cego__bettel="viel")),
    ("event_create", "rule-choice-script", lambda: event_post(cego__solo_double=SCRIPT)),
    ("event_create", "rule-missing", lambda: event_post(cego__bettel="")),
    ("event_create", "games-text", lambda: event_post(hands_per_round="viele")),
    ("event_create", "games-zero", lambda: event_post(hands_per_round="4: 0")),
    ("event_create", "games-superscript", lambda: event_post(hands_per_round="²")),
    # issue 11: "0" gave a server error; 99,999 was taken although "4: 10001" was not
    ("event_create", "games-zero-for-every-table", lambda: event_post(hands_per_round="0")),
    ("event_create", "games-99999", lambda: event_post(hands_per_round="99999")),
    ("event_create", "games-size-99999", lambda: event_post(hands_per_round="4: 99999")),
    ("event_create", "games-size-10001", lambda: event_post(hands_per_round="4: 10001")),
    # issue 11: a short name that is a page of the site ("neu" hid the event behind the login)
    *(
        ("event_create", f"slug-{word}", lambda word=word: event_post(slug=word))
        for word in ("neu", "bearbeiten", "rangliste", "durchgang", "excel")
    ),
    ("event_create", "name-neu", lambda: event_post(name="Neu", slug="")),
    ("event_players", "nobody", lambda: register_post()),
    ("event_players", "last-name-missing", lambda: register_post(first_name="Anna")),
    (
        "event_players",
        "first-name-too-long",
        lambda: register_post(first_name="x" * 101, last_name="Maier"),
    ),
    ("event_players", "player-text", lambda: register_post(player="abc")),
    ("event_players", "player-unknown", lambda: register_post(player="999999")),
    (
        "event_players",
        "category-unknown",
        lambda: register_post(first_name="Anna", last_name="Maier", category="x"),
    ),
    (
        "event_players",
        "team-too-long",
        lambda: register_post(first_name="Anna", last_name="Maier", team="x" * 151),
    ),
    ("event_pair", "nobody", lambda: {}),
    ("event_pair", "entries-text", lambda: {"first": "abc", "second": "def"}),
    ("event_pair", "entries-unknown", lambda: {"first": "999998", "second": "999999"}),
    ("draw", "seed-text", lambda: {"seed": "abc"}),
    ("draw", "seed-negative", lambda: {"seed": "-5"}),
    ("draw", "seed-decimal", lambda: {"seed": "1.5"}),
    ("draw", "seed-superscript", lambda: {"seed": "²"}),
    ("draw", "seed-huge", lambda: {"seed": HUGE}),
    ("hand_edit", "no-reason", lambda: cego_post(declarer_points="50", reason="")),
    ("hand_edit", "huge-points", lambda: cego_post(declarer_points=HUGE, reason="Tippfehler")),
    ("hand_edit", "reason-too-long", lambda: cego_post(declarer_points="50", reason="x" * 301)),
    ("decide_lot", "entries-text", lambda: {"entry": ["abc", "def"]}),
    ("decide_lot", "entries-superscript", lambda: {"entry": ["²", "³"]}),
    ("player_edit", "last-name-missing", lambda: player_post(last_name="")),
    ("player_edit", "name-too-long", lambda: player_post(first_name="x" * 101)),
    ("player_edit", "category-unknown", lambda: player_post(category=SCRIPT)),
    ("player_merge", "other-missing", lambda: {}),
    ("player_merge", "other-text", lambda: {"other": "abc"}),
    ("player_merge", "other-unknown", lambda: {"other": "999999"}),
    ("player_merge", "other-huge", lambda: {"other": HUGE}),
    ("player_merge", "other-superscript", lambda: {"other": "²"}),
    ("entry_remove", "after-the-draw", lambda: {}),
    ("register_player", "last-name-missing", lambda: player_post(last_name="")),
    ("register_player", "name-too-long", lambda: player_post(first_name="x" * 101)),
    ("register_player", "category-unknown", lambda: player_post(category=SCRIPT)),
    ("register_merge", "other-missing", lambda: {}),
    ("register_merge", "other-text", lambda: {"other": "abc"}),
    ("register_merge", "other-unknown", lambda: {"other": "12345678-1234-5678-1234-567812345678"}),
    ("register_merge", "other-huge", lambda: {"other": HUGE}),
    ("register_merge", "other-superscript", lambda: {"other": "²"}),
]


def said_why(response: HttpResponse) -> bool:
    """The refusal reached the user: a JSON error, a message after the redirect, or an error
    shown in the form on the page."""
    if response["Content-Type"].startswith("application/json"):
        body = response.json()
        return body["ok"] is False and bool(body.get("errors") or body.get("error"))
    if response.status_code == 302:
        return bool(messages_of(response))
    content = response.content.decode()
    return 'class="error"' in content or "errorlist" in content or bool(messages_of(response))


@pytest.mark.parametrize(
    ("target", "post"),
    [(target, post) for target, _case, post in HOSTILE],
    ids=[f"{target}-{case}" for target, case, _post in HOSTILE],
)
def test_hostile_input_is_refused_with_a_message_and_stores_nothing(
    scorer: Client, target: str, post: Callable[[], dict[str, Any]]
) -> None:
    url = TARGETS[target]()
    data = post()
    before = snapshot()
    scorer.raise_request_exception = False
    response = scorer.post(url, data)
    assert response.status_code in (200, 302)
    assert said_why(response)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("target", "data"),
    [
        ("hand_preview", {**HALBE_LOST, "number": "²"}),
        ("hand_preview", {**HALBE_LOST, "number": HUGE}),
        ("hand_edit", cego_post(reason="Tippfehler", version="²")),
        ("hand_edit", cego_post(reason="Tippfehler", version=HUGE)),
    ],
    ids=[
        "preview-number-superscript",
        "preview-number-huge",
        "edit-version-superscript",
        "edit-version-huge",
    ],
)
def test_a_garbled_hidden_number_is_ignored_without_a_server_error(
    scorer: Client, target: str, data: dict[str, Any]
) -> None:
    # the game number of a preview and the version of a correction are hints the page sends
    scorer.raise_request_exception = False
    assert scorer.post(TARGETS[target](), data).status_code in (200, 302)


def test_the_browser_post_of_the_event_form_creates_an_event(scorer: Client) -> None:
    # the hostile cases above change one field of this POST: it must be valid as it is
    response = scorer.post(reverse("event_create"), event_post())
    assert response.status_code == 302
    event = Event.objects.get(name="Herbstturnier")
    assert (event.game, event.rules, event.hands_per_round) == ("cego", {}, {})


def test_a_huge_rule_value_never_breaks_hand_entry(scorer: Client) -> None:
    """A rule setting whose scores cannot be stored is refused, or at least a hand played under
    it is refused with a reason instead of a server error."""
    scorer.raise_request_exception = False
    response = scorer.post(reverse("event_create"), event_post(cego__bettel=HUGE))
    assert response.status_code in (200, 302)
    event = Event.objects.filter(name="Herbstturnier").first()
    if event is None:
        assert said_why(response)
        return
    make_entries(event, 4)
    table = make_round(event).tables.get()
    before = snapshot()
    data = {"contract": "bettel", "declarer": "0", "declarer_tricks": "0", "action": "save"}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code in (200, 302)
    assert said_why(response)
    assert snapshot() == before


def test_markup_in_a_players_name_is_shown_as_text(scorer: Client) -> None:
    event = make_event()
    response = scorer.post(
        reverse("event_players", args=[event.slug]),
        register_post(first_name=SCRIPT, last_name="Mustermann", club=SCRIPT, team=SCRIPT),
    )
    assert response.status_code == 302
    assert Player.objects.filter(first_name=SCRIPT, last_name="Mustermann").exists()
    make_entries(event, 3)
    make_round(event)
    for url in (
        reverse("event_standings", args=[event.slug]),
        reverse("event_teams", args=[event.slug]),
        reverse("round_seating", args=[event.slug, 1]),
        reverse("round_results", args=[event.slug, 1]),
        reverse("event_players", args=[event.slug]),
        reverse("table", args=[Table.objects.get(round__event=event).pk]),
    ):
        content = scorer.get(url).content.decode()
        assert escape(SCRIPT) in content, url
        assert SCRIPT not in content, url


def test_markup_in_an_events_name_is_shown_as_text(scorer: Client) -> None:
    response = scorer.post(reverse("event_create"), event_post(name=SCRIPT, venue=SCRIPT))
    assert response.status_code == 302
    event = Event.objects.get(name=SCRIPT)
    for url in (reverse("home"), reverse("event", args=[event.slug])):
        content = scorer.get(url).content.decode()
        assert escape(SCRIPT) in content, url
        assert SCRIPT not in content, url


# --- the table link: the players' own page, without a login ---------------------------------


def link(name: str, table: Table, *args: str) -> str:
    return reverse(name, args=[table.token, *args])


def test_the_table_link_lets_the_players_enter_a_game_without_a_login(client: Client) -> None:
    table = make_table()
    url = link("table_link", table)
    page = client.get(url)
    assert page.status_code == 200
    for name in Seat.objects.filter(table=table).select_related("entry__player"):
        assert escape(str(name.entry.player)) in page.content.decode()
    response = client.post(url, cego_post())
    assert response.status_code == 302
    hand = table.hands.get()
    assert results(hand) == HALBE_LOST_RESULTS
    assert hand.entered_by is None


def test_the_table_link_previews_a_game(client: Client) -> None:
    table = make_table()
    response = client.post(link("link_preview", table), HALBE_LOST)
    assert response.json() == {"ok": True, "results": HALBE_LOST_RESULTS}
    assert not table.hands.exists()


@pytest.mark.parametrize("token", ["x" * 32, "short", "x" * 65])
def test_a_wrong_table_link_is_not_found(client: Client, token: str) -> None:
    make_table()
    before = snapshot()
    assert client.get(reverse("table_link", args=[token])).status_code == 404
    assert client.post(reverse("table_link", args=[token]), cego_post()).status_code == 404
    assert snapshot() == before


def phones(count: int) -> list[Client]:
    """The players' own phones: each keeps its own cookies, so each is its own device."""
    clients = [Client() for _ in range(count)]
    for phone in clients:
        phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return clients


def test_the_table_link_hands_in_the_sheet_and_each_player_confirms(client: Client) -> None:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    assert client.post(link("table_link", table), cego_post()).status_code == 302
    client.post(link("link_action", table, "submit"))
    table.refresh_from_db()
    assert table.submitted_at is not None
    for position, phone in enumerate(phones(4)):
        phone.get(link("table_link", table))  # opening the link gives the phone its device id
        phone.post(link("link_action", table, "confirm"), {"position": str(position)})
    table.refresh_from_db()
    assert sorted(table.confirmations.values_list("position", flat=True)) == [0, 1, 2, 3]
    assert len(set(table.confirmations.values_list("device", flat=True))) == 4
    assert table.confirmed_at is not None
    # a handed-in sheet takes no more games from the link
    before = snapshot()
    client.post(link("table_link", table), cego_post())
    assert snapshot() == before


def handed_in_table() -> Table:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    play_services.record_hand(table=table, data=cego())
    return play_services.submit_table(table=table)


def test_one_phone_cannot_confirm_a_second_seat_of_the_table() -> None:
    # issue 11, finding 11: any holder of the link could confirm every seat of the table
    table = handed_in_table()
    phone, other = phones(2)
    phone.get(link("table_link", table))
    phone.post(link("link_action", table, "confirm"), {"position": "0"})
    response = phone.post(link("link_action", table, "confirm"), {"position": "1"})
    assert any("already confirmed" in m for m in messages_of(response))
    assert list(table.confirmations.values_list("position", flat=True)) == [0]
    page = phone.get(link("table_link", table)).content.decode()
    assert "I am" not in page  # this phone has no more confirm buttons
    other.get(link("table_link", table))
    other.post(link("link_action", table, "confirm"), {"position": "1"})
    assert list(table.confirmations.values_list("position", flat=True)) == [0, 1]


def test_a_phone_that_keeps_no_cookie_cannot_confirm() -> None:
    table = handed_in_table()
    (phone,) = phones(1)
    response = phone.post(link("link_action", table, "confirm"), {"position": "0"})
    assert any("scorer" in m for m in messages_of(response))
    assert not table.confirmations.exists()


def test_the_history_shows_which_phone_confirmed_a_seat(scorer: Client) -> None:
    table = handed_in_table()
    (phone,) = phones(1)
    phone.get(link("table_link", table))
    phone.post(link("link_action", table, "confirm"), {"position": "2"})
    device = table.confirmations.get().device
    text = scorer.get(reverse("table_history", args=[table.pk])).content.decode()
    assert f"phone {device[:6]}" in text


def test_the_link_of_a_closed_round_shows_the_sheet_read_only(client: Client) -> None:
    table = handed_in_table()
    play_services.close_round(round=table.round)
    client.get(link("table_link", table))
    before = snapshot()
    response = client.post(link("link_action", table, "confirm"), {"position": "0"})
    assert messages_of(response)
    assert snapshot() == before
    page = client.get(link("table_link", table)).content.decode()
    assert "Round 1 is closed" in page
    assert "ask the scorer" in page
    assert 'id="hand-form"' not in page
    assert "I am" not in page
    assert "/undo/" not in page
    assert escape(str(Seat.objects.filter(table=table).first().entry.player)) in page


def test_the_link_of_a_handed_in_sheet_shows_it_read_only_and_asks_for_confirmations(
    client: Client,
) -> None:
    table = handed_in_table()
    page = client.get(link("table_link", table)).content.decode()
    assert "ask the scorer" in page
    assert 'id="hand-form"' not in page
    assert "/undo/" not in page
    assert page.count("I am ") == 4


def test_after_the_last_game_the_link_shows_hand_in_the_sheet_at_the_top(client: Client) -> None:
    table = make_table(hands_per_round={"4": 2})
    play_services.record_hand(table=table, data=cego())
    page = client.get(link("table_link", table)).content.decode()
    assert 'id="hand-form"' in page
    assert "Hand in the sheet" not in page
    play_services.record_hand(table=table, data=cego())
    page = client.get(link("table_link", table)).content.decode()
    assert 'id="hand-form"' not in page  # no form for a game 3 that the round does not have
    assert "Game 3" not in page
    assert "All games of the round are entered (2 of 2)" in page
    assert page.index("Hand in the sheet") < page.index("totals-strip")


def test_after_the_last_game_the_scorers_page_shows_hand_in_the_sheet_at_the_top(
    scorer: Client,
) -> None:
    table = make_table(hands_per_round={"4": 1})
    play_services.record_hand(table=table, data=cego())
    page = scorer.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="hand-form"' not in page
    assert "All games of the round are entered (1 of 1)" in page
    assert page.index("Hand in the sheet") < page.index('class="sheet"')
    response = scorer.post(reverse("table_confirm", args=[table.pk]), {"action": "submit"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.submitted_at is not None
    assert table.confirmed_at is None


def test_a_resent_game_form_with_other_values_is_refused_and_shows_the_stored_game(
    client: Client,
) -> None:
    # issue 11, finding 6: the resend answered "Game 1 saved" with the new values
    table = make_table()
    key = "6f1c2b1e-8a47-4a55-9d0e-0c1f5a3b9e11"
    client.post(link("table_link", table), cego_post(submission=key), follow=True)
    stored = table.hands.get()
    response = client.post(
        link("table_link", table), cego_post(declarer_points="50", submission=key)
    )
    said = messages_of(response)
    assert not any("saved:" in m for m in said)
    assert any("already saved as game 1" in m and "34" in m for m in said), said
    assert response.status_code == 200
    assert escape(said[0]) in response.content.decode()
    assert key not in response.content.decode()  # a fresh form: saving again is a new choice
    assert list(table.hands.values_list("pk", "data")) == [(stored.pk, cego())]


def test_a_resent_game_form_with_the_same_values_says_saved_with_the_stored_results(
    client: Client,
) -> None:
    table = make_table()
    key = "6f1c2b1e-8a47-4a55-9d0e-0c1f5a3b9e12"
    client.post(link("table_link", table), cego_post(submission=key))
    response = client.post(link("table_link", table), cego_post(submission=key))
    assert response.status_code == 302
    assert any("Game 1 saved" in m for m in messages_of(response))
    assert table.hands.count() == 1


def test_the_message_after_a_saved_game_names_each_players_result_as_stored(
    client: Client,
) -> None:
    table = make_table()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.post(link("table_link", table), cego_post(), follow=True)  # game 1, its message read
    response = client.post(link("table_link", table), cego_post(declarer="2"))  # game 2
    stored = table.hands.get(number=2).results.order_by("position")
    names = [str(seat.entry.player) for seat in table.seats.order_by("position")]
    # as the paper sheet writes them: +20, −60 (a minus sign), 0
    expected = ", ".join(
        f"{name} {'+' if r.points > 0 else ''}{r.points}".replace("-", "\u2212")
        for name, r in zip(names, stored, strict=True)
    )
    assert [m for m in messages_of(response) if "saved" in m] == [f"Game 2 saved: {expected}"]
    assert {r.points for r in stored} != {0}  # a game that moved points


def test_the_table_link_takes_back_the_last_game_only_with_a_reason(client: Client) -> None:
    table = make_table()
    first = play_services.record_hand(table=table, data=cego())
    last = play_services.record_hand(table=table, data=cego(points=50))
    page = client.get(link("table_link", table)).content.decode()
    assert "Take back game 2" in page
    assert f'name="hand" value="{last.pk}"' in page
    before = snapshot()
    response = client.post(link("link_action", table, "undo"), {"reason": "", "hand": last.pk})
    assert response.status_code == 302
    assert messages_of(response)
    assert snapshot() == before
    response = client.post(
        link("link_action", table, "undo"), {"reason": "falsch eingetippt", "hand": last.pk}
    )
    assert "Game 2 taken back." in messages_of(response)
    assert list(table.hands.values_list("pk", flat=True)) == [first.pk]
    assert Hand.history.get(id=last.pk, history_type="-").history_change_reason == (
        "falsch eingetippt"
    )


def test_taking_back_a_game_is_refused_when_another_phone_saved_a_game_since(
    client: Client,
) -> None:
    # issue 11, finding 7: phone A shows games 1-2 and takes back game 2 while phone B has just
    # saved game 3: game 3 was deleted
    table = make_table()
    play_services.record_hand(table=table, data=cego())
    second = play_services.record_hand(table=table, data=cego(points=50))
    third = play_services.record_hand(table=table, data=cego("eine", 2, 41))
    before = snapshot()
    response = client.post(
        link("link_action", table, "undo"), {"reason": "vertippt", "hand": second.pk}
    )
    said = messages_of(response)
    assert any("Game 2 is no longer the last game" in m for m in said), said
    assert snapshot() == before
    assert table.hands.filter(pk=third.pk).exists()


def test_taking_back_without_naming_the_game_is_refused(client: Client) -> None:
    table = make_table()
    play_services.record_hand(table=table, data=cego())
    before = snapshot()
    response = client.post(link("link_action", table, "undo"), {"reason": "vertippt"})
    assert messages_of(response)
    assert snapshot() == before


def test_the_table_link_writes_nothing_once_the_round_is_closed(client: Client) -> None:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    table = rnd.tables.get()
    play_services.record_hand(table=table, data=cego())
    play_services.close_round(round=rnd)
    before = snapshot()
    response = client.post(link("table_link", table), cego_post())
    assert response.status_code == 302
    assert messages_of(response)
    assert client.post(link("link_preview", table), HALBE_LOST).json()["ok"] is False
    client.post(link("link_action", table, "undo"), {"reason": "zu spät"})
    assert snapshot() == before


@pytest.mark.parametrize(("name", "args"), [("link_preview", ()), ("link_action", ("submit",))])
def test_the_table_links_actions_take_only_a_post(
    client: Client, name: str, args: tuple[str, ...]
) -> None:
    assert client.get(link(name, make_table(), *args)).status_code == 405


def test_an_unknown_table_link_action_is_not_found(client: Client) -> None:
    assert client.post(link("link_action", make_table(), "shuffle")).status_code == 404


# --- the card counter -----------------------------------------------------------------------------


@pytest.fixture
def counter_url() -> str:
    """The card counter of a Cego event (the game that has one)."""
    return reverse("card_points", args=[make_event("cego").slug])


def test_the_card_counter_adds_a_king_and_another_card(counter_url: str) -> None:
    response = Client().get(counter_url, {"cc-king": "1", "cc-other": "1"})
    assert response.json() == {"ok": True, "points": "5", "value": 5.0}


def test_the_card_counter_shows_a_half_point(counter_url: str) -> None:
    body = Client().get(counter_url, {"cc-other": "1"}).json()
    assert body["ok"] is True
    assert body["value"] == 0.5
    assert body["points"] in ("0½", "½")


@pytest.mark.parametrize(
    "query",
    [{"cc-king": "9"}, {"cc-king": "-1"}, {"cc-queen": "abc"}, {"cc-other": HUGE}],
    ids=["more-kings-than-the-deck", "negative", "text", "huge"],
)
def test_the_card_counter_refuses_impossible_counts_with_a_message(
    query: dict[str, str], counter_url: str
) -> None:
    response = Client().get(counter_url, query)
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False
    assert body["error"]


def test_a_game_without_a_card_counter_has_no_counter_page() -> None:
    response = Client().get(reverse("card_points", args=[make_event("ziege").slug]))
    assert response.status_code == 404


# --- the paper fallback: totals for the round -----------------------------------------------------


def test_totals_adding_up_to_zero_are_saved_and_ranked(scorer: Client) -> None:
    table = make_table()
    data = {"total_0": "30", "total_1": "-10", "total_2": "-20", "total_3": "0"}
    response = scorer.post(reverse("table_totals", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert (hand.kind, hand.data) == (Hand.Kind.TOTALS, {"totals": [30, -10, -20, 0]})
    assert totals_by_seat(table) == [30, -10, -20, 0]
    content = scorer.get(reverse("event_standings", args=[table.round.event.slug])).content
    text = content.decode()
    for total in ("+30", f"{MINUS}10", f"{MINUS}20"):
        assert total in text
    ranked = [e.total for e in Entry.objects.standings(table.round.event)]
    assert ranked == [30, 0, -10, -20]


def test_cego_totals_not_adding_up_to_zero_are_refused(scorer: Client) -> None:
    table = make_table()
    before = snapshot()
    data = {"total_0": "30", "total_1": "-10", "total_2": "-10", "total_3": "0"}
    response = scorer.post(reverse("table_totals", args=[table.pk]), data, follow=True)
    assert response.redirect_chain[0][1] == 302
    errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
    assert len(errors) == 1
    assert "10" in errors[0]  # the sum the totals actually add up to
    assert escape(errors[0]) in response.content.decode()
    assert snapshot() == before


def test_a_stale_correction_is_refused_and_shows_the_game_as_it_is_now(client):
    table = make_table()
    hand = play_services.record_hand(table=table, data=cego("halbe", 0, 34))
    play_services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="first scorer", version=1)
    client.force_login(make_user())
    response = client.post(
        hand.get_absolute_url(),
        {
            "contract": "halbe",
            "declarer": "0",
            "declarer_points": "20",
            "reason": "second scorer, on the old version",
            "version": "1",
            "action": "save",
        },
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "changed by someone else" in text
    assert "47 points" in text  # the game as it is now
    assert 'value="47"' in text  # and the form set to it
    assert Hand.objects.get(pk=hand.pk).data["declarer_points"] == 47


# --- the event form: bounds, reserved short names, rule changes, the game (issues 10 and 11) -----


def test_the_most_games_per_round_are_accepted_for_every_table_at_once(scorer: Client) -> None:
    response = scorer.post(reverse("event_create"), event_post(hands_per_round="10000"))
    assert response.status_code == 302
    assert Event.objects.get(name="Herbstturnier").hands_per_round == {"*": 10000}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "A round has at least one game."),
        ("99999", "A round has at most 10,000 games."),
        ("4: 10001", "A round has at most 10,000 games."),
    ],
)
def test_games_per_round_out_of_bounds_are_refused_with_a_clear_message(
    scorer: Client, text: str, message: str
) -> None:
    response = scorer.post(reverse("event_create"), event_post(hands_per_round=text))
    assert response.status_code == 200
    assert escape(message) in response.content.decode()
    assert not Event.objects.filter(name="Herbstturnier").exists()


def test_a_short_name_that_is_a_page_of_the_site_is_refused(scorer: Client) -> None:
    response = scorer.post(reverse("event_create"), event_post(slug="neu"))
    assert "is the name of a page of this site" in response.content.decode()
    response = scorer.post(reverse("season_create"), {"name": "Neu", "slug": "neu"})
    assert "is the name of a page of this site" in response.content.decode()
    assert not Season.objects.filter(slug="neu").exists()
    # the address of a new event still opens the form for a new event
    assert scorer.get("/turnier/neu/").status_code == 200


def edit_post(event: Event, **fields: str) -> dict[str, str]:
    return {**as_browser_sends(EventForm(instance=event)), **fields}


def bettel_event() -> tuple[Event, Table]:
    """A Cego event with a lost Bettel (seat 0, −90 at the default value 30) and a won Halbe."""
    table = make_table()
    play_services.record_hand(
        table=table, data={"contract": "bettel", "declarer": 0, "declarer_tricks": 1}
    )
    play_services.record_hand(table=table, data=cego("halbe", 1, 47))
    return table.round.event, table


def test_a_rule_change_first_shows_how_many_games_are_rescored_and_saves_nothing(
    scorer: Client,
) -> None:
    event, _table = bettel_event()
    before = snapshot()
    response = scorer.post(
        reverse("event_edit", args=[event.slug]), edit_post(event, cego__bettel="50")
    )
    assert response.status_code == 200
    content = response.content.decode()
    assert "2 stored games will be scored again with the new settings" in content
    assert "The totals of 4 players change." in content
    assert "Bettel is worth: <del>30</del> → <ins>50</ins>" in content
    assert 'name="reason"' in content
    assert snapshot() == before


def test_a_confirmed_rule_change_rescores_the_games_and_keeps_the_reason(scorer: Client) -> None:
    event, table = bettel_event()
    url = reverse("event_edit", args=[event.slug])
    first = scorer.post(url, edit_post(event, cego__bettel="50"))
    token = re.search(r'name="confirm_rules" value="([^"]*)"', first.content.decode()).group(1)
    data = edit_post(event, cego__bettel="50", reason="Hausregel", confirm_rules=unescape(token))
    response = scorer.post(url, data)
    assert response.status_code == 302
    assert "2 games scored again" in messages_of(response)[0]
    assert totals_by_seat(table) == [-170, 110, 30, 30]
    history = scorer.get(reverse("event_history", args=[event.slug])).content.decode()
    assert "Hausregel" in history


def test_a_confirmation_without_a_reason_asks_for_one_and_saves_nothing(scorer: Client) -> None:
    event, table = bettel_event()
    url = reverse("event_edit", args=[event.slug])
    token = json.dumps({"bettel": 50})
    response = scorer.post(url, edit_post(event, cego__bettel="50", confirm_rules=token))
    assert response.status_code == 200
    assert "Give a reason for the change" in response.content.decode()
    assert totals_by_seat(table) == [-110, 90, 10, 10]


def test_a_confirmation_counts_only_for_the_settings_it_was_shown_for(scorer: Client) -> None:
    event, table = bettel_event()
    url = reverse("event_edit", args=[event.slug])
    shown_for_50 = json.dumps({"bettel": 50})
    data = edit_post(event, cego__bettel="70", reason="Hausregel", confirm_rules=shown_for_50)
    response = scorer.post(url, data)
    assert response.status_code == 200
    assert "will be scored again" in response.content.decode()
    assert totals_by_seat(table) == [-110, 90, 10, 10]


def test_a_rule_change_that_makes_a_stored_game_invalid_is_refused_naming_it(
    scorer: Client,
) -> None:
    event, table = bettel_event()
    response = scorer.post(
        reverse("event_edit", args=[event.slug]),
        edit_post(event, cego__total_points="40", cego__win_threshold="20"),
    )
    assert response.status_code == 200
    assert "Game 2 at table 1 of round 1" in response.content.decode()
    assert totals_by_seat(table) == [-110, 90, 10, 10]


def test_changing_the_game_after_the_first_draw_is_refused(scorer: Client) -> None:
    event, _table = bettel_event()
    response = scorer.post(reverse("event_edit", args=[event.slug]), edit_post(event, game="ziege"))
    assert response.status_code == 200
    assert "cannot be changed after the first draw" in response.content.decode()
    event.refresh_from_db()
    assert event.game == "cego"


def test_other_settings_save_without_a_confirmation(scorer: Client) -> None:
    event, _table = bettel_event()
    response = scorer.post(
        reverse("event_edit", args=[event.slug]), edit_post(event, venue="Festhalle")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.venue == "Festhalle"


def test_an_event_of_another_game_is_refused_for_a_season(scorer: Client) -> None:
    season = make_season()  # a Cego season
    response = scorer.post(reverse("event_create"), event_post(game="ziege", season=str(season.pk)))
    assert response.status_code == 200
    assert "is a season for Cego" in response.content.decode()
    assert not season.events.exists()


def test_the_season_page_says_which_game_it_holds(client: Client) -> None:
    season = make_season(game="hennes_sibbe")
    assert "Season for Hennes Sibbe" in client.get(season.get_absolute_url()).content.decode()


# --- hand-made addresses: page, per_page, q, sort and filters never cause an error 500 ------------

HOSTILE_QUERY_VALUES = [
    "99999999999999999999",
    "999999999999999999",
    "-1",
    "0",
    "1e9",
    "abc",
    "\x00ab",
    "rank\x00",
    "-total",
    "x" * 3000,
]
QUERY_PARAMETERS = ["page", "per_page", "q", "sort", "category", "table", "refresh", "prize"]


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_no_query_parameter_breaks_a_public_page(client: Client, world: World, name: str) -> None:
    url = PUBLIC_PAGES[name](world)[0].split("?")[0]
    failed = []
    for parameter in QUERY_PARAMETERS:
        for value in HOSTILE_QUERY_VALUES:
            response = client.get(url, {parameter: value})
            if response.status_code >= 500:
                failed.append((parameter, value[:20], response.status_code))
    assert failed == []


def test_a_page_number_beyond_any_list_shows_the_first_page_of_the_standings(
    client: Client, world: World
) -> None:
    url = reverse("event_standings", args=[world.event.slug])
    response = client.get(url, {"page": "99999999999999999999"})
    assert response.status_code == 200
    assert shows(response, world.player.sort_name)


def test_a_page_size_beyond_any_list_shows_the_standings(client: Client, world: World) -> None:
    url = reverse("event_standings", args=[world.event.slug])
    response = client.get(url, {"per_page": "99999999999999999999"})
    assert response.status_code == 200
    assert shows(response, world.player.sort_name)


def test_a_nul_character_in_the_seat_search_is_ignored(client: Client, world: World) -> None:
    url = reverse("where_do_i_sit", args=[world.event.slug])
    response = client.get(url, {"q": "\x00" + world.player.last_name})
    assert response.status_code == 200
    assert shows(response, str(world.player))


def test_a_rounds_name_on_the_event_page_leads_to_its_seating(scorer: Client) -> None:
    # on a phone the table of rounds is wider than the screen: the first column, always in
    # view, is the way to the round
    table = make_table()
    event = table.round.event
    page = scorer.get(event.get_absolute_url()).content.decode()
    seating = reverse("round_seating", args=[event.slug, 1])
    assert f'<td><a href="{seating}">Round 1</a></td>' in page


def test_the_scorer_sees_who_has_confirmed_a_handed_in_sheet_and_who_not(scorer: Client) -> None:
    table = make_table(hands_per_round={"4": 1})
    play_services.record_hand(table=table, data=cego())
    play_services.submit_table(table=table)
    names = [str(s.entry.player) for s in table.seats.order_by("position")]
    play_services.confirm_seat(table=table, position=0, device="phone-a")
    play_services.confirm_seat(table=table, position=2, device="phone-c")
    page = " ".join(
        unescape(
            re.sub(r"<[^>]+>", " ", scorer.get(f"/tisch/{table.pk}/").content.decode())
        ).split()
    )
    assert f"Confirmed by: {names[0]}, {names[2]} · Still to confirm: {names[1]}, {names[3]}" in (
        page
    )
    # the reason belongs to reopening, in a form of its own
    assert "Reason for reopening" in page
    play_services.confirm_table(table=table)
    page = scorer.get(f"/tisch/{table.pk}/").content.decode()
    assert "Still to confirm" not in page
