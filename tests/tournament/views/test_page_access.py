"""Who may read and who may change what through the web pages: reads are public, every change
needs a login and a POST."""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, reverse

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_table,
    make_user,
)
from tests.helpers.db import no_writes
from tests.helpers.forms import HALBE_LOST, HALBE_LOST_RESULTS, cego_post, event_post, register_post
from tests.helpers.pages import assert_sent_to_login, shows
from tests.helpers.play import results, totals_by_seat
from tests.helpers.world import PUBLIC_PAGES, WORLD_REASON, World
from tournament import urls as tournament_urls
from tournament.models import Entry, Event, Hand, LotDraw, Player, Round, Season, Seat, Team
from tournament.play import services as play_services
from tournament.register import checkin, services

pytestmark = pytest.mark.django_db


# --- who may read and who may change what ---------------------------------------------------------


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
    # the player's day (issue 29): the desk finds the world's player, the start cards name them
    "checkin": lambda w: (
        reverse("checkin", args=[w.event.slug]) + f"?q={w.player.last_name}",
        w.player.last_name,
    ),
    "start_cards": lambda w: (reverse("start_cards", args=[w.event.slug]), w.player.last_name),
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
    "checkin": lambda w: {"action": "check_in", "entry": entry_of(w).pk},
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
    event = make_event(hands_per_round={"4": 1}, rounds_planned=1)
    make_entries(event, 4)
    rnd = make_round(event)
    play_services.record_hand(table=rnd.tables.get(), data=cego())
    play_services.confirm_table(table=rnd.tables.get())
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


def remove_missing() -> Write:
    # check-in has begun: one player came, the other registered and did not
    event = make_event()
    came, stayed_home = make_entries(event, 2)
    checkin.check_in(entry=came)

    def happened(response: HttpResponse) -> None:
        stayed_home.refresh_from_db()
        came.refresh_from_db()
        assert (came.status, stayed_home.status) == (Entry.Status.ACTIVE, Entry.Status.WITHDRAWN)

    return Write(reverse("remove_missing", args=[event.slug]), {}, happened)


# the players' own way in, without a login (tests/tournament/views/test_player_day.py): the public
# registration form, and the personal link whose unguessable token is the permission
PLAYER_PAGES = {"event_register", "personal_link", "personal_action"}

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
    ("remove_missing", remove_missing),
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
    covered |= TABLE_LINK_PAGES | PLAYER_PAGES
    # logging in and out, and the language switch, are tested on their own (tests/test_language.py),
    # so is /favicon.ico, a redirect to the static icon (tests/tournament/views/test_public.py);
    # the handbook's pages show files, not the world (tests/tournament/views/test_help.py)
    handbook = {
        f"{book}{page}" for book in ("handbook", "guide") for page in ("", "_chapter", "_image")
    }
    assert names - {"login", "logout", "set_language", "favicon"} - handbook == covered


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
    with no_writes():
        assert_sent_to_login(client.post(url, data), url)


# how each of these POSTs is seen saved
SAVED: dict[str, Callable[[], bool]] = {
    "event_create": lambda: Event.objects.filter(name="Herbstturnier").exists(),
    "event_edit": lambda: Event.objects.filter(name="Umbenannt").exists(),
    "season_create": lambda: Season.objects.filter(slug="saison-2027").exists(),
    "event_players": lambda: Entry.objects.filter(player__last_name="Maier").exists(),
}


@pytest.mark.parametrize("name", SAVED)
def test_a_director_post_is_saved(scorer: Client, world: World, name: str) -> None:
    # the POSTs of the test above are real changes: anonymous, they were refused for the login
    response = scorer.post(DIRECTOR_PAGES[name](world)[0], DIRECTOR_POSTS[name](world))
    assert response.status_code == 302
    assert SAVED[name]()


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_an_anonymous_post_changes_nothing_and_asks_for_a_login(
    client: Client, name: str, make: Callable[[], Write]
) -> None:
    write = make()
    with no_writes():
        response = client.post(write.url, write.data)
        assert_sent_to_login(response, write.url)


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
    with no_writes():
        assert client.post(write.url, write.data).status_code == 403


@pytest.mark.parametrize(("name", "make"), POST_ONLY, ids=[m.__name__ for _n, m in POST_ONLY])
def test_a_get_on_a_post_only_endpoint_answers_405(
    scorer: Client, name: str, make: Callable[[], Write]
) -> None:
    write = make()
    with no_writes():
        assert scorer.get(write.url).status_code == 405


@pytest.mark.parametrize("name", [n for n in PUBLIC_PAGES if n != "table"])
def test_a_read_page_refuses_a_post(scorer: Client, world: World, name: str) -> None:
    url, _text = PUBLIC_PAGES[name](world)
    assert scorer.post(url).status_code == 405


def test_an_unknown_round_action_is_not_found(scorer: Client) -> None:
    event = make_event()
    make_entries(event, 4)
    make_round(event, start=False)
    with no_writes():
        url = reverse("round_action", args=[event.slug, 1, "shuffle"])
        assert scorer.post(url).status_code == 404
