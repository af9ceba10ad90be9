"""The player's own way through the day (issue 29), through the pages: online registration with
its waiting list, the check-in desk, the draw of the players present, the personal link."""

from __future__ import annotations

import datetime
import gzip
import io
import re
import uuid

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    challenge,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_table,
    make_user,
)
from tests.helpers.db import no_writes, run_in_threads
from tests.helpers.forms import cego_post
from tests.helpers.pages import messages_of
from tests.helpers.results import standings_result, ziege_season
from tournament.access import ORGANISER
from tournament.models import Confirmation, Entry, EntryFee, FeeCategory, Player, Seat
from tournament.play import confirmations, events, hands, rounds
from tournament.register import online

pytestmark = pytest.mark.django_db


def en() -> Client:
    """A phone or browser set to English: the tests read the English words."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def open_event(**kwargs):
    return make_event(registration_open=True, **kwargs)


def register(client: Client, event, first: str, last: str, club: str = "CC Test", **extra):
    page = client.get(reverse("event_register", args=[event.slug]))
    found = re.search(r'name="submission" value="([^"]+)"', page.content.decode())
    key = found.group(1) if found else str(uuid.uuid4())  # a closed form shows none
    data = {
        "first_name": first,
        "last_name": last,
        "club": club,
        "town": "",
        "category": "",
        "consent": "on",
        "submission": key,
        **extra,
    }
    return client.post(reverse("event_register", args=[event.slug]), data), data


def test_a_player_registers_online_and_lands_on_the_personal_link():
    event = open_event(capacity=2)
    response, _data = register(en(), event, "Egon", "Maier")
    entry = Entry.objects.get(event=event)
    assert response.status_code == 302
    assert response["Location"] == reverse("personal_link", args=[entry.token])
    assert entry.source == Entry.Source.ONLINE and entry.is_active
    page = en().get(response["Location"])
    text = page.content.decode()
    assert "Egon Maier" in text and "<svg" in text  # the QR code of the link itself
    assert entry.token in text


def test_a_full_event_keeps_a_waiting_list_in_order_and_a_cancellation_moves_the_first_up():
    event = open_event(capacity=2)
    client = en()
    for first, last in [("Anna", "Eins"), ("Berta", "Zwei"), ("Carl", "Drei"), ("Dora", "Vier")]:
        register(client, event, first, last)
    waiting = list(event.entries.filter(status=Entry.Status.WAITING).order_by("registered_at"))
    assert [str(e.player) for e in waiting] == ["Carl Drei", "Dora Vier"]
    assert online.waiting_place(waiting[1]) == 2
    listed = client.get(reverse("event_participants", args=[event.slug])).content.decode()
    waiting_part = listed.split("Waiting list", 1)[-1] if "Waiting list" in listed else listed
    assert waiting_part.index("Carl Drei") < waiting_part.index("Dora Vier")
    # the public list names name and club only: no town, no category, no start number, no link
    assert "Test-Town" not in listed and "/m/" not in listed
    first = event.entries.get(player__first_name="Anna")
    response = client.post(reverse("personal_cancel", args=[first.token]), {"sure": "1"})
    assert response.status_code == 302
    carl = event.entries.get(player__first_name="Carl")
    assert carl.is_active
    assert event.entries.get(player__first_name="Dora").is_waiting
    assert event.entries.get(player__first_name="Anna").status == Entry.Status.WITHDRAWN
    history = carl.history.first()
    assert history.history_change_reason == "moved up from the waiting list"


def test_the_same_form_sent_twice_registers_once():
    event = open_event()
    client = en()
    first, data = register(client, event, "Hans", "Doppelt")
    second = client.post(reverse("event_register", args=[event.slug]), data)
    assert second["Location"] == first["Location"]
    assert event.entries.count() == 1 and Player.objects.filter(last_name="Doppelt").count() == 1


def _known_player(**fields):
    """Egon Meier of CC Furtwangen, who played an event of the season before."""
    known = make_player(
        first_name="Egon", last_name="Meier", club="CC Furtwangen", town="Furtwangen", **fields
    )
    Entry.objects.create(event=make_event(), player=known, start_number=1)
    return known


@pytest.mark.parametrize(
    "typed",
    [
        {"club": "CC Furtwangen", "town": "Furtwangen"},  # written the same in every part
        {"club": "CC Furtwangen", "town": ""},  # the town left empty
        {"club": "Cego-Club Furtwangen", "town": "Furtwangen"},  # the club spelt otherwise
    ],
)
def test_registering_under_a_known_name_never_binds_the_known_player_nor_shows_who_is_known(
    typed,
):
    """Typing a known player's name, club and town proves nothing: the registration is a player
    of its own, waiting for the desk, and the public form shows nobody's club, town or
    identifier (issue 43.1, 43.2)."""
    known = _known_player()
    event = open_event()
    client = en()
    response, _data = register(client, event, "Egon", "Meier", **typed)
    assert response.status_code == 302  # registered at the first send: no question, no 422
    entry = event.entries.get()
    assert entry.player != known and entry.identity_pending
    assert known.entries.count() == 1  # the known player is not entered by a stranger
    page = client.get(response["Location"]).content.decode()
    assert str(known.uid) not in page and "Furtwangen" not in page.replace(typed["club"], "")
    assert "the desk asks you once" in page
    # nor does a form sent with an error name the known player
    again = register(en(), event, "Egon", "Meier", consent="")[0].content.decode()
    assert str(known.uid) not in again and "Are you one of these players?" not in again


def test_the_same_person_registering_twice_is_told_and_a_namesake_is_not_turned_away():
    event = open_event()
    register(en(), event, "Egon", "Meier", town="Furtwangen")
    twice = register(en(), event, "Egon", "Meier", town="Furtwangen")[0]
    assert "already registered for this event" in twice.content.decode()
    assert register(en(), event, "Egon", "Meier", town="Vöhrenbach")[0].status_code == 302
    assert event.entries.count() == 2


def test_the_desk_asks_who_registered_under_a_known_name_and_joins_the_known_player():
    """At the check-in the desk sees the person: "the same person" moves the registration to
    the known player (one person, one player: the season adds both events up), fills the blank
    category typed online, and the typed player is gone (issue 43.1, 43.4)."""
    known = _known_player()
    event = open_event()
    register(en(), event, "Egon", "Meier", town="", category="senioren")
    entry = event.entries.get()
    client = desk(event)
    url = reverse("checkin", args=[event.slug])
    listed = client.get(reverse("event_players", args=[event.slug])).content.decode()
    assert "identity to confirm at the desk" in listed  # the player list says so, and leads here
    page = client.get(url, {"q": "Meier"}).content.decode()
    assert "Registered online under a name the register knows" in page
    assert f'name="known" value="{known.uid}"' in page and "Furtwangen" in page
    # a plain tap is refused: nothing checked in, nobody merged
    plain = client.post(url, {"action": "check_in", "entry": entry.pk, "q": "Meier"}, follow=True)
    assert "Ask who they are" in " ".join(messages_of(plain))
    entry.refresh_from_db()
    assert entry.present_at is None and entry.identity_pending
    done = client.post(
        url, {"action": "check_in", "entry": entry.pk, "known": str(known.uid)}, follow=True
    )
    assert "is checked in" in " ".join(messages_of(done))
    entry.refresh_from_db()
    known.refresh_from_db()
    assert entry.player == known and entry.present_at and not entry.identity_pending
    assert known.category == Player.Category.SENIORS  # the blank filled from the form
    assert Player.objects.filter(last_name="Meier").count() == 1
    assert known.entries.count() == 2


def test_the_desk_is_told_where_the_form_and_the_register_disagree():
    known = _known_player(category=Player.Category.WOMEN)
    event = open_event()
    register(en(), event, "Egon", "Meier", category="senioren")
    entry = event.entries.get()
    done = desk(event).post(
        reverse("checkin", args=[event.slug]),
        {"action": "check_in", "entry": entry.pk, "known": str(known.uid)},
        follow=True,
    )
    said = " ".join(messages_of(done))
    assert "the register says category “Women”, the online form said “Seniors”" in said
    known.refresh_from_db()
    assert known.category == Player.Category.WOMEN


def test_a_different_person_at_the_desk_stays_a_player_of_their_own_and_is_not_asked_again():
    known = _known_player()
    event = open_event()
    register(en(), event, "Egon", "Meier", club="TV Triberg", town="Triberg")
    entry = event.entries.get()
    client = desk(event)
    url = reverse("checkin", args=[event.slug])
    client.post(url, {"action": "check_in", "entry": entry.pk, "known": "new"})
    entry.refresh_from_db()
    assert entry.player != known and entry.present_at and not entry.identity_pending
    assert "Registered online under" not in client.get(url, {"q": "Meier"}).content.decode()
    # the register no longer flags the pair as one person
    client.force_login(make_user())
    register_page = client.get(reverse("register"), {"q": "Meier"}).content.decode()
    assert "possible duplicate" not in register_page


def test_the_register_flags_the_duplicates_the_old_form_made():
    """Before, "None of them" made a second player for a known person (town left empty, club
    spelt otherwise): the register's duplicate finder shows every such pair for a merge."""
    known = _known_player()
    for club, town in [("CC Furtwangen", ""), ("Cego-Club Furtwangen", "Furtwangen")]:
        twin = make_player(first_name="Egon", last_name="Meier", club=club, town=town)
        Entry.objects.create(event=make_event(), player=twin, start_number=1)
    director = en()
    director.force_login(make_user())
    page = director.get(reverse("register"), {"q": "Meier"}).content.decode()
    assert page.count("possible duplicate") >= 2
    assert f"?other={known.uid}" in page


@pytest.mark.parametrize(
    ("known", "typed"),
    [(("Spieler1", "Test"), ("Spieler2", "Test")), (("Gast.", "Test"), ("Gast!", "Test"))],
)
def test_a_name_that_differs_in_a_digit_or_punctuation_is_another_person(known, typed):
    earlier = make_player(first_name=known[0], last_name=known[1], club="CC Test", town="")
    event = open_event()
    # the registrant said "new" (as after a question): never merged into the other name
    response, _data = register(en(), event, *typed, same_person="new")
    assert response.status_code == 302
    entry = event.entries.get()
    assert entry.player != earlier
    assert str(entry.player) == " ".join(typed)
    # and nobody is asked whether two such names are one person
    other = open_event()
    response, _data = register(en(), other, *typed)
    assert response.status_code == 302
    assert "Is it you?" not in response.content.decode()
    assert str(other.entries.get().player) == " ".join(typed)


def test_bad_input_and_no_consent_store_nothing_and_say_what_is_wrong():
    event = open_event()
    response, _data = register(en(), event, "", "Maier", consent="")
    assert response.status_code == 422
    assert not event.entries.exists()
    assert "Without this consent we cannot register you." in response.content.decode()


def test_registration_closed_at_its_time_or_when_not_open():
    event = open_event(registration_closes=timezone.now() - datetime.timedelta(minutes=1))
    response, _data = register(en(), event, "Zu", "Spät")
    assert not event.entries.exists()
    assert "closed" in response.content.decode()
    shut = make_event()
    assert "not open" in en().get(reverse("event_register", args=[shut.slug])).content.decode()


def test_the_closing_time_is_written_as_the_reader_writes_a_date():
    """English day first as in Europe (05/12/2026), German with dots (05.12.2026)."""
    closes = timezone.make_aware(datetime.datetime(2025, 12, 5, 18, 0))  # long past
    event = open_event(registration_closes=closes)
    url = reverse("event_register", args=[event.slug])
    english = en().get(url).content.decode()
    german = Client().get(url).content.decode()
    assert "Online registration closed on 05/12/2025 18:00." in english
    assert "05.12.2025 18:00" in german


def test_one_address_is_limited(monkeypatch):
    monkeypatch.setattr(online, "LIMIT", 3)
    event = open_event()
    client = en()
    names = ["Anton", "Bruno", "Cäsar", "Dieter", "Emil"]
    statuses = [register(client, event, name, "Spammer")[0].status_code for name in names]
    assert statuses == [302, 302, 302, 429, 429]
    assert event.entries.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_burst_from_one_address_gets_exactly_the_limit_through(monkeypatch):
    """Forms sent at the same moment from one address are counted one after the other: a burst
    of twelve against a limit of six registers six, never seven (on PostgreSQL the count and the
    insert of concurrent requests used to overlap: 31 of 60 against a limit of 30)."""
    monkeypatch.setattr(online, "LIMIT", 6)
    event = open_event()
    statuses: list[int] = []

    def send(i: int) -> None:
        statuses.append(register(en(), event, f"Spieler{chr(65 + i)}", "Schwall")[0].status_code)

    assert run_in_threads(send, count=12) == []
    assert sorted(statuses) == [302] * 6 + [429] * 6
    assert event.entries.count() == 6


# --- the check-in desk --------------------------------------------------------------------------


def desk(event) -> Client:
    client = en()
    client.force_login(make_role(event, ORGANISER))
    return client


def test_the_desk_finds_by_two_letters_or_number_and_checks_in_with_the_fee_in_one_tap():
    event = make_event()
    FeeCategory.objects.create(event=event, name="Startgeld", amount_cents=1200)
    make_entries(event, 3)
    mine = Entry.objects.filter(event=event).first()
    mine.player.last_name = "Schäuble"
    mine.player.save()
    client = desk(event)
    found = client.get(reverse("checkin", args=[event.slug]), {"q": "sc"}).content.decode()
    assert "Schäuble" in found and "12.00" in found
    by_number = client.get(reverse("checkin", args=[event.slug]), {"q": str(mine.start_number)})
    assert "Schäuble" in by_number.content.decode()
    client.post(
        reverse("checkin", args=[event.slug]),
        {"action": "check_in", "entry": mine.pk, "fee": "cash", "q": "sc"},
    )
    mine.refresh_from_db()
    assert mine.present_at is not None
    assert mine.fee.status == EntryFee.Status.CASH and mine.fee.paid_cents == 1200
    # the other desk taps the same player a moment later: once, nothing changes
    again = desk(event).post(
        reverse("checkin", args=[event.slug]),
        {"action": "check_in", "entry": mine.pk, "fee": "cash"},
        follow=True,
    )
    assert "checked in already" in " ".join(messages_of(again))
    page = client.get(reverse("checkin", args=[event.slug])).content.decode()
    assert re.search(r"<strong>3</strong> registered", page)
    assert re.search(r"<strong>1</strong> present", page)
    assert re.search(r"<strong>2</strong> missing", page)


def test_a_walk_in_is_registered_and_present_and_two_desks_make_one_entry():
    event = make_event()
    make_entries(event, 2)
    post = {
        "action": "walk_in",
        "first_name": "Neu",
        "last_name": "Ankömmling",
        "club": "",
        "town": "",
        "category": "",
        "same_person": "",
        "fee": "",
    }
    desk(event).post(reverse("checkin", args=[event.slug]), post)
    desk(event).post(reverse("checkin", args=[event.slug]), {**post, "same_person": "new"})
    entries = event.entries.filter(player__last_name="Ankömmling")
    assert entries.count() == 1
    assert entries.get().source == Entry.Source.WALK_IN and entries.get().present_at


def test_the_draw_seats_only_the_present_and_the_draw_page_names_who_did_not_come():
    event = make_event()
    entries = make_entries(event, 6)
    client = desk(event)
    for entry in entries[:4]:
        client.post(
            reverse("checkin", args=[event.slug]), {"action": "check_in", "entry": entry.pk}
        )
    rnd = rounds.add_round(event=event)
    page = client.get(reverse("round_seating", args=[event.slug, 1])).content.decode()
    assert str(entries[4].player) in page and str(entries[5].player) in page
    refused = client.post(reverse("round_draw", args=[event.slug, 1]), follow=True)
    assert "have not checked in" in " ".join(messages_of(refused))
    assert not Seat.objects.filter(round=rnd).exists()
    client.post(reverse("remove_missing", args=[event.slug]), {"round": "1"})
    client.post(reverse("round_draw", args=[event.slug, 1]))
    seated = set(Seat.objects.filter(round=rnd).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in entries[:4]}


@pytest.mark.parametrize("sent", ["", "abc", "²", "-1", "99999999999999999999"])
def test_a_tap_on_an_entry_that_is_no_number_is_not_found_and_changes_nothing(sent):
    event = make_event()
    make_entries(event, 2)
    client = desk(event)
    client.raise_request_exception = False
    with no_writes():
        response = client.post(
            reverse("checkin", args=[event.slug]), {"action": "check_in", "entry": sent}
        )
    assert response.status_code == 404


def test_the_desk_needs_the_organiser():
    event = make_event()
    response = en().get(reverse("checkin", args=[event.slug]))
    assert response.status_code == 302
    scorer = en()
    scorer.force_login(make_role(event, "scorer"))
    assert scorer.get(reverse("checkin", args=[event.slug])).status_code == 403


# --- the personal link ---------------------------------------------------------------------------


def seated_event(games: int = 1):
    event = make_event(hands_per_round={"*": games})
    entries = make_entries(event, 4)
    rnd = rounds.add_round(event=event)
    rounds.draw_round(round=rnd, seed=3)
    return event, entries, rnd


def test_the_personal_page_shows_seat_and_table_then_confirms_for_the_person_on_any_phone():
    _event, entries, rnd = seated_event()
    me = entries[0]
    page = en().get(reverse("personal_link", args=[me.token])).content.decode()
    seat = Seat.objects.get(round=rnd, entry=me)
    assert f"table {seat.table.number}, seat {seat.position + 1}" in page
    for other in entries[1:]:
        assert str(other.player) in page
    rounds.start_round(round=rnd)
    table = seat.table
    page = en().get(reverse("personal_link", args=[me.token])).content.decode()
    assert table_key(page) and table.token not in page  # its own key, not the table's token
    hands.record_totals(table=table, totals=[30, -10, -10, -10])
    confirmations.submit_table(table=table)
    borrowed = en()  # not the phone that entered the games, no cookie of any table
    response = borrowed.post(reverse("personal_confirm", args=[me.token]))
    assert response.status_code == 302
    mine = Confirmation.objects.get(table=table, position=seat.position)
    assert mine.via == Confirmation.Via.PLAYER
    # the same phone confirms for a neighbour without a phone, through the neighbour's link
    neighbour = Seat.objects.filter(table=table).exclude(entry=me).first()
    borrowed.post(reverse("personal_confirm", args=[neighbour.entry.token]))
    assert Confirmation.objects.filter(table=table).count() == 2
    page = borrowed.get(reverse("personal_link", args=[me.token])).content.decode()
    assert "You have confirmed this sheet" in page


def test_a_reissued_link_stops_the_old_one():
    event, entries, _rnd = seated_event()
    old = entries[0].token
    client = desk(event)
    client.post(
        reverse("checkin", args=[event.slug]), {"action": "reissue", "entry": entries[0].pk}
    )
    assert en().get(reverse("personal_link", args=[old])).status_code == 404
    new = Entry.objects.get(pk=entries[0].pk).token
    assert new != old and en().get(reverse("personal_link", args=[new])).status_code == 200
    assert en().post(reverse("personal_confirm", args=[old])).status_code == 404


def table_key(page: str) -> str:
    """The key of the table link a personal page hands out ("Enter this table's games")."""
    found = re.search(r'href="/t/([^/"]+)/"', page)
    assert found, "the personal page offers no table link"
    return found.group(1)


def personal_table_link(entry: Entry) -> str:
    page = en().get(reverse("personal_link", args=[entry.token])).content.decode()
    return reverse("table_link", args=[table_key(page)])


REPLACED = "This table link came from a personal link that has been replaced"


def test_a_reissued_link_takes_the_table_away_from_the_old_links_holder():
    # issue 43: the table link a personal page showed stayed with whoever held the lost link
    event, entries, rnd = seated_event(games=4)
    rounds.start_round(round=rnd)
    table = rnd.tables.get()
    lost, other = entries[0], entries[1]
    stolen = personal_table_link(lost)
    thief = en()
    assert thief.get(stolen).status_code == 200
    assert thief.post(stolen, cego_post()).status_code == 302  # entered a game, as its players do
    assert table.hands.count() == 1
    desk(event).post(reverse("checkin", args=[event.slug]), {"action": "reissue", "entry": lost.pk})
    with no_writes():
        refused = thief.get(stolen)
        assert refused.status_code == 403
        assert REPLACED in refused.content.decode()
        assert thief.post(stolen, cego_post(declarer="1")).status_code == 403
        key = stolen.split("/")[2]
        sent = thief.post(
            reverse("link_send", args=[key]), {**cego_post(declarer="1"), "number": "2"}
        )
        assert sent.status_code == 403 and REPLACED in sent.json()["message"]
        assert thief.post(reverse("link_preview", args=[key]), cego_post()).status_code == 403
        assert thief.post(reverse("link_submit", args=[key])).status_code == 403
    # the other players' table links and the printed one work as before
    for url in (personal_table_link(other), reverse("table_link", args=[table.token])):
        assert en().get(url).status_code == 200
    assert en().post(personal_table_link(other), cego_post(declarer="2")).status_code == 302
    # and the player's new personal link hands out a new key that works
    fresh = personal_table_link(Entry.objects.get(pk=lost.pk))
    assert fresh != stolen
    assert en().post(fresh, cego_post(declarer="3")).status_code == 302
    assert table.hands.count() == 3


def test_a_forged_table_key_admits_nobody():
    _event, entries, rnd = seated_event()
    rounds.start_round(round=rnd)
    table = rnd.tables.get()
    real = personal_table_link(entries[0]).split("/")[2]
    forged = real[:-32] + ("0" if real[-1] != "0" else "1") * 32
    assert en().get(reverse("table_link", args=[forged])).status_code == 403
    elsewhere = f"{table.pk}.{entries[0].pk + 100}.{real[-32:]}"  # no such player at the table
    assert en().get(reverse("table_link", args=[elsewhere])).status_code == 404
    assert not table.hands.exists()


def test_a_guessed_token_finds_nothing():
    assert en().get(reverse("personal_link", args=["x" * 32])).status_code == 404
    assert en().get(reverse("personal_link", args=["short"])).status_code == 404


def test_confirming_stops_when_the_round_closes():
    _event, entries, rnd = seated_event()
    rounds.start_round(round=rnd)
    table = Seat.objects.get(round=rnd, entry=entries[0]).table
    hands.record_totals(table=table, totals=[30, -10, -10, -10])
    confirmations.confirm_table(table=table)
    rounds.close_round(round=rnd)
    response = en().post(reverse("personal_confirm", args=[entries[0].token]), follow=True)
    assert Confirmation.objects.filter(table=table, via=Confirmation.Via.PLAYER).count() == 0
    assert response.status_code == 200


def test_after_the_event_the_page_shows_the_result_and_the_player_page():
    event, _entries, rnd = seated_event()
    rounds.start_round(round=rnd)
    table = rnd.tables.get()
    hands.record_totals(table=table, totals=[30, -10, -10, -10])
    confirmations.confirm_table(table=table)
    rounds.close_round(round=rnd)
    events.finish_event(event=event)
    winner = Seat.objects.get(table=table, position=0).entry
    page = en().get(reverse("personal_link", args=[winner.token])).content.decode()
    assert "Your result" in page and "Rank 1 of 4" in page
    assert winner.player.get_absolute_url() in page


def test_the_personal_page_of_a_ziege_player_shows_the_matches_won_the_standings_rank_by():
    """Not the defeat points taken with a plus ("total +22" beside a difference of −2 in the
    standings): the result the standings rank by, under its heading."""
    ziege = ziege_season()
    for entry in (ziege.winner, ziege.loser):
        page = en().get(reverse("personal_link", args=[entry.token]))
        line = re.search(r'<p class="big-figure">(.*?)</p>', page.content.decode(), re.S)
        text = re.sub(r"<[^>]+>", "", line.group(1))
        result = standings_result(ziege.event, entry)
        assert text.endswith(f"· Matches won {result}")
        assert "+" not in text
    assert standings_result(ziege.event, ziege.winner) == 2


def test_the_personal_page_of_a_hennes_sibbe_player_shows_penalty_cards_without_a_plus():
    table = make_table("hennes_sibbe", 3)
    hands.record_hand(table=table, data=challenge(loser=0))
    loser = table.seats.get(position=0).entry
    page = en().get(reverse("personal_link", args=[loser.token])).content.decode()
    assert "Rank 3 of 3</strong> · Penalty cards 1</p>" in page


# --- query counts -------------------------------------------------------------------------------


def test_query_counts_of_the_personal_page_and_the_desk():
    event, entries, rnd = seated_event()
    rounds.start_round(round=rnd)
    url = reverse("personal_link", args=[entries[0].token])
    en().get(url)  # the table's sheet is computed and kept
    with CaptureQueriesContext(connection) as kept:
        response = en().get(url)
    assert response.status_code == 200
    # 1. the entry by its token, with its player, event and season; 2. the event's latest round
    # drawn; 3. the player's seat in it, with its table; 4. the table's seats and the version of
    # its sheet. The sheet, the event's ranking and the page itself (kept whole for what it
    # shows) come from the page cache.
    assert len(kept) == 4, [q["sql"] for q in kept]
    table = rnd.tables.get()
    hands.record_totals(table=table, totals=[30, -10, -10, -10])
    with CaptureQueriesContext(connection) as computed:
        en().get(reverse("personal_link", args=[entries[1].token]))
    # the four above; the sheet of the table's new version: 5. its seats with the players,
    # 6. its games, 7. their results; 8. the ranking of the event's new version (the standings)
    assert len(computed) == 8, [q["sql"] for q in computed]
    confirmations.submit_table(table=table)
    en().get(url)
    with CaptureQueriesContext(connection) as handed_in:
        en().get(url)
    # the four above and 5. who has confirmed the handed-in sheet
    assert len(handed_in) == 5, [q["sql"] for q in handed_in]
    make_user()
    organiser = desk(event)
    organiser.get(reverse("checkin", args=[event.slug]), {"q": "Na"})
    with CaptureQueriesContext(connection) as searched:
        organiser.get(reverse("checkin", args=[event.slug]), {"q": "Na"})
    assert len(searched) <= 11, [q["sql"] for q in searched]


# --- what a saved game changes on the personal pages ---------------------------------------------


def two_tables():
    """A started round of two tables of four: the player, and a player of the other table."""
    event = make_event(hands_per_round={"*": 4})
    make_entries(event, 8)
    rnd = rounds.add_round(event=event)
    rounds.draw_round(round=rnd, seed=3)
    rounds.start_round(round=rnd)
    mine, other = rnd.tables.order_by("number")
    me = Seat.objects.filter(table=mine).select_related("entry").first().entry
    return me, mine, other


def reads_games(queries: CaptureQueriesContext) -> bool:
    return any('SELECT "tournament_hand"."id"' in q["sql"] for q in queries)


def save_game(table) -> None:
    """A game entered on the table's phone, as its page offers it."""
    response = en().post(reverse("table_link", args=[table.token]), cego_post())
    assert response.status_code == 302


def test_a_game_at_another_table_does_not_compute_this_tables_sheet_again():
    me, _mine, other = two_tables()
    url = reverse("personal_link", args=[me.token])
    assert "Rank 1 of 8" in en().get(url).content.decode()
    save_game(other)
    with CaptureQueriesContext(connection) as after:
        page = en().get(url).content.decode()
    assert not reads_games(after)  # the sheet of this table came from the page cache
    assert "No games entered yet." in page
    # the ranking is the new version's: three of the other table won 20 each, this player has 0
    assert "Rank 4 of 8" in page


def test_a_rank_moved_by_a_game_elsewhere_shows_without_the_page_computed_again():
    """A game at another table moves this player's rank but nothing else on the page: the phone
    reads the new rank (and is not told 'not modified'), while the page around it is the one
    kept, not computed again: at ten times the hall's rate every game moved most players' ranks
    and every personal page was computed anew (issue 29)."""
    me, _mine, other = two_tables()
    url = reverse("personal_link", args=[me.token])
    phone = en()
    first = phone.get(url)
    assert "Rank 1 of 8" in first.content.decode()
    save_game(other)
    again = phone.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "Rank 4 of 8" in again.content.decode()
    # only the rank line was rendered; the page came whole from the page cache
    assert [t.name for t in again.templates] == ["tournament/includes/personal_standing.html"]
    # a phone that asks with gzip gets the same page, the rank put in
    packed = phone.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip"
    assert "Rank 4 of 8" in gzip.decompress(packed.content).decode()
    assert phone.get(url, headers={"If-None-Match": again["ETag"]}).status_code == 304


def test_a_game_saved_at_the_table_and_taken_back_shows_on_its_players_pages_at_once():
    me, mine, _other = two_tables()
    url = reverse("personal_link", args=[me.token])
    assert "No games entered yet." in en().get(url).content.decode()
    phone = en()
    phone.post(reverse("table_link", args=[mine.token]), cego_post())
    page = en().get(url).content.decode()
    assert "No games entered yet." not in page
    hand = mine.hands.get()
    phone.post(
        reverse("link_undo", args=[mine.token]),
        {"hand": hand.pk, "reason": "wrong declarer"},
    )
    assert "No games entered yet." in en().get(url).content.decode()


def test_a_renamed_player_shows_on_the_table_sheet_of_the_personal_page():
    me, mine, _other = two_tables()
    save_game(mine)
    url = reverse("personal_link", args=[me.token])
    en().get(url)
    mate = Seat.objects.filter(table=mine).exclude(entry=me).first().entry.player
    mate.last_name = "Umbenannt"
    mate.save()
    assert en().get(url).content.decode().count("Umbenannt") >= 2  # the seats and the sheet


def test_a_polling_phone_gets_not_modified_until_its_page_changes():
    me, mine, _other = two_tables()
    url = reverse("personal_link", args=[me.token])
    phone = en()
    first = phone.get(url)
    etag = first["ETag"]
    again = phone.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag
    save_game(mine)
    changed = phone.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "No games entered yet." not in changed.content.decode()


@pytest.mark.django_db(transaction=True)
def test_registrations_travel_to_the_hall_in_the_bundle_with_their_personal_links(tmp_path):
    """Registered on the association's server before the day, the event moves to the hall's
    laptop as a bundle (players and entries before any round): the waiting list keeps its
    order and each personal link keeps working there."""
    event = open_event(capacity=2)
    client = en()
    for first in ("Anna", "Berta", "Carla"):
        register(client, event, first, "Vorher")
    tokens = dict(event.entries.values_list("player__first_name", "token"))
    path = tmp_path / "event.cego.json.gz"
    call_command("export_event", event.slug, "--output", str(path), stdout=io.StringIO())
    call_command("flush", interactive=False)
    assert not Entry.objects.exists()
    call_command("import_event", str(path), stdout=io.StringIO())
    hall = {e.player.first_name: e for e in Entry.objects.select_related("player")}
    assert {name: e.status for name, e in hall.items()} == {
        "Anna": "active",
        "Berta": "active",
        "Carla": "waiting",
    }
    assert all(e.source == Entry.Source.ONLINE for e in hall.values())
    for name, token in tokens.items():
        assert hall[name].token == token
        page = en().get(reverse("personal_link", args=[token]))
        assert page.status_code == 200 and f"{name} Vorher" in page.content.decode()


def one_did_not_come(event, players: int) -> tuple[Client, list[Entry]]:
    """All but the last of ``players`` checked in at the desk, round 1 added and the last one
    removed as not come, as the director does before the draw; the desk and the entries."""
    entries = make_entries(event, players)
    client = desk(event)
    for entry in entries[:-1]:
        client.post(
            reverse("checkin", args=[event.slug]), {"action": "check_in", "entry": entry.pk}
        )
    rounds.add_round(event=event)
    client.post(reverse("remove_missing", args=[event.slug]), {"round": "1"})
    return client, entries


def test_a_player_removed_as_not_come_who_comes_after_all_is_back_in_one_tap_at_the_desk():
    event = make_event()
    FeeCategory.objects.create(event=event, name="Startgeld", amount_cents=1200)
    client, entries = one_did_not_come(event, 8)
    late = Entry.objects.get(pk=entries[7].pk)
    assert late.status == Entry.Status.WITHDRAWN
    # the desk finds the player, says why a plain check-in does not do, and offers the way back
    name = late.player.last_name
    page = client.get(reverse("checkin", args=[event.slug]), {"q": name}).content.decode()
    assert "Back in the event and check in · paid €12.00 cash" in page
    plain = client.post(
        reverse("checkin", args=[event.slug]),
        {"action": "check_in", "entry": late.pk, "q": name},
        follow=True,
    )
    assert "tap “Back in the event and check in”" in " ".join(messages_of(plain))
    late.refresh_from_db()
    assert late.status == Entry.Status.WITHDRAWN and late.present_at is None
    # one tap: back in, present, the fee taken; the draw seats the player
    back = client.post(
        reverse("checkin", args=[event.slug]),
        {"action": "reinstate", "entry": late.pk, "fee": "cash", "q": name},
        follow=True,
    )
    assert "is back in the event and checked in" in " ".join(messages_of(back))
    late.refresh_from_db()
    assert late.status == Entry.Status.ACTIVE and late.present_at is not None
    assert late.fee.status == EntryFee.Status.CASH and late.fee.paid_cents == 1200
    assert "came after all" in late.history.first().history_change_reason
    client.post(reverse("round_draw", args=[event.slug, 1]))
    seated = set(Seat.objects.filter(round__event=event).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in entries}


def test_a_player_back_after_the_draw_is_told_when_they_are_seated():
    event = make_event()
    client, entries = one_did_not_come(event, 5)
    client.post(reverse("round_draw", args=[event.slug, 1]))
    back = client.post(
        reverse("checkin", args=[event.slug]),
        {"action": "reinstate", "entry": entries[4].pk},
        follow=True,
    )
    told = " ".join(messages_of(back))
    assert "The seats of round 1 are drawn already: draw them again" in told
    # after the event: nobody comes back
    other = make_entries(event, 1)[0]
    other.status = Entry.Status.WITHDRAWN
    other.save()
    event.status = event.Status.FINISHED
    event.save()
    refused = client.post(
        reverse("checkin", args=[event.slug]),
        {"action": "reinstate", "entry": other.pk},
        follow=True,
    )
    assert "The event is finished." in " ".join(messages_of(refused))
    other.refresh_from_db()
    assert other.status == Entry.Status.WITHDRAWN
