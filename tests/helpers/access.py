"""The access matrix's lists, shared by the access tests (tests/tournament/views/test_access.py)
and the handbook's (tests/test_handbook.py): the pages behind the login, and every write with how
to see that it happened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.urls import reverse

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_table,
)
from tests.helpers.forms import HALBE_LOST, HALBE_LOST_RESULTS, cego_post
from tests.helpers.pairs import fixed_pair_event
from tests.helpers.play import results, totals_by_seat
from tests.helpers.world import WORLD_REASON, World
from tournament.models import (
    CashItem,
    Entry,
    EntryFee,
    Event,
    FeeCategory,
    Hand,
    LotDraw,
    Player,
    Round,
    Seat,
    Team,
)
from tournament.play import confirmations, hands, rounds
from tournament.register import checkin, services

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
    # what anonymising does, and the reason asked (issue 46.4); the POST is among the writes
    "register_anonymise": lambda w: (
        reverse("register_anonymise", args=[w.player.uid]),
        'name="reason"',
    ),
    # everything held about a player, for their request (issue 46.3): a page and its file
    "register_player_data": lambda w: (
        reverse("register_player_data", args=[w.player.uid]),
        w.player.last_name,
    ),
    "register_player_data_json": lambda w: (
        reverse("register_player_data_json", args=[w.player.uid]),
        f'"last_name": "{w.player.last_name}"',
    ),
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
    # after the laptop change (issue 45): each table of the round, linked to its sheet
    "after_restore": lambda w: (
        reverse("after_restore", args=[w.event.slug]),
        f'href="{reverse("table", args=[w.table.pk])}"',
    ),
}


def entry_of(w: World) -> Entry:
    return Entry.objects.get(event=w.event, player=w.player)


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
    rnd = rounds.add_round(event=event)

    def happened(response: HttpResponse) -> None:
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.SEATED
        assert rnd.seed == 7
        assert [t.size for t in rnd.tables.all()] == [4, 4]
        assert Seat.objects.filter(round=rnd, table__isnull=False).count() == 8

    url = reverse("round_draw", args=[event.slug, 1])
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

    return Write(reverse("round_start", args=[event.slug, 1]), {}, happened)


def close_round() -> Write:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    hands.record_hand(table=rnd.tables.get(), data=cego())

    def happened(response: HttpResponse) -> None:
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.CLOSED

    # the table has not confirmed its sheet: the director has said "close all the same"
    url = reverse("round_close", args=[event.slug, 1])
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
    url = reverse("round_remove", args=[event.slug, 1])
    return Write(url, {"confirmed": "1"}, happened)


def swap_seats() -> Write:
    event = make_event()
    make_entries(event, 4)
    rnd = make_round(event, start=False)
    first, second = Seat.objects.filter(round=rnd).order_by("position")[:2]

    def happened(response: HttpResponse) -> None:
        assert Seat.objects.get(pk=first.pk).position == 1
        assert Seat.objects.get(pk=second.pk).position == 0

    url = reverse("round_swap", args=[event.slug, 1])
    return Write(url, {"first": first.entry_id, "second": second.entry_id}, happened)


def swap_pairs() -> Write:
    event, teams = fixed_pair_event(4)
    rnd = make_round(event, seed=3, start=False)
    seats = {s.entry_id: (s.table_id, s.position) for s in Seat.objects.filter(round=rnd)}
    first = list(teams[0].pair_members.all())
    # a pair at the other table: one at the same table would only change sides
    second = next(
        team
        for team in teams[1:]
        if seats[team.pair_members.first().pk][0] != seats[first[0].pk][0]
    )
    taken = {seats[e.pk] for e in second.pair_members.all()}

    def happened(response: HttpResponse) -> None:
        now = {s.entry_id: (s.table_id, s.position) for s in Seat.objects.filter(round=rnd)}
        assert {now[e.pk] for e in first} == taken

    url = reverse("round_swap_pairs", args=[event.slug, 1])
    return Write(url, {"pairs-first": teams[0].pk, "pairs-second": second.pk}, happened)


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
    hands.record_hand(table=table, data=cego())

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
    hands.record_hand(table=table, data=cego())

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
    hand = hands.record_hand(table=table, data=cego())

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
    hands.record_hand(table=rnd.tables.get(), data=cego())
    confirmations.confirm_table(table=rnd.tables.get())
    rounds.close_round(round=rnd)

    def happened(response: HttpResponse) -> None:
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED

    return Write(reverse("event_finish", args=[event.slug]), {"action": "finish"}, happened)


def set_fee() -> Write:
    event = make_event()
    entry = make_entries(event, 1)[0]
    FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)

    def happened(response: HttpResponse) -> None:
        fee = EntryFee.objects.get(entry=entry)
        assert (fee.status, fee.paid_cents) == (EntryFee.Status.CASH, 1500)

    return Write(reverse("fee_set", args=[event.slug, entry.pk]), {"status": "cash"}, happened)


def remove_cash_item() -> Write:
    event = make_event()
    item = CashItem.objects.create(event=event, description="Miete", amount_cents=8000)

    def happened(response: HttpResponse) -> None:
        assert not CashItem.objects.filter(pk=item.pk).exists()

    return Write(reverse("cash_item_remove", args=[event.slug, item.pk]), {}, happened)


def anonymise_player() -> Write:
    """A director anonymises a player on the player's request (issue 46.4)."""
    entry = make_entries(make_event(), 1)[0]
    player = entry.player

    def happened(response: HttpResponse) -> None:
        player.refresh_from_db()
        assert (player.first_name, player.last_name) == ("Anonym", str(player.pk))
        assert response["Location"] == reverse("register_player", args=[player.uid])

    url = reverse("register_anonymise", args=[player.uid])
    return Write(url, {"reason": "Bitte per E-Mail"}, happened)


def withdraw_consent() -> Write:
    """A director records a player's withdrawal of the consent (issue 46): nothing ticked."""
    entry = make_entries(make_event(), 1)[0]
    player = entry.player

    def happened(response: HttpResponse) -> None:
        player.refresh_from_db()
        assert not player.public_lists
        assert response["Location"] == reverse("register_player", args=[player.uid])

    url = reverse("register_consent", args=[player.uid])
    return Write(url, {"consent-reason": "per E-Mail"}, happened)


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
PLAYER_PAGES = {"event_register", "personal_link", "personal_confirm", "personal_cancel"}


# the players' own page of a table, opened from the sheet's QR code (tested further below)
TABLE_LINK_PAGES = {
    "table_link",
    "link_preview",
    "link_undo",
    "link_submit",
    "link_confirm",
    "link_send",
    "table_service_worker",  # tests/browser/test_offline.py
}


# (url name, how to make the change)
WRITES: list[tuple[str, Callable[[], Write]]] = [
    ("entry_status", withdraw_entry),
    ("entry_remove", remove_entry),
    ("player_edit", correct_player),
    ("player_merge", merge_players),
    ("event_pair", pair_players),
    ("round_add", add_round),
    ("round_draw", draw_seats),
    ("round_start", start_round),
    ("round_close", close_round),
    ("round_swap", swap_seats),
    ("round_swap_pairs", swap_pairs),
    ("round_remove", remove_round),
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
    ("register_anonymise", anonymise_player),
    ("register_consent", withdraw_consent),
]


WRITE_IDS = [make.__name__ for _name, make in WRITES]


# endpoints that only take a POST (the table page and hand_edit also show a page on GET)
POST_ONLY = [
    (name, make)
    for name, make in WRITES
    if name
    not in (
        "table",
        "hand_edit",
        "entry_remove",
        "player_edit",
        "player_merge",
        "register_anonymise",
    )
]
