"""The table link: the players' own page, without a login."""

from __future__ import annotations

import logging
import re
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_round,
    make_table,
)
from tests.helpers.db import no_writes
from tests.helpers.forms import HALBE_LOST, HALBE_LOST_RESULTS, cego_post, form_as_shown
from tests.helpers.pages import messages_of
from tests.helpers.play import results
from tournament import access
from tournament.models import Hand, Seat, Table
from tournament.play import confirmations, hands, rounds

pytestmark = pytest.mark.django_db


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
    with no_writes():
        assert client.get(reverse("table_link", args=[token])).status_code == 404
        assert client.post(reverse("table_link", args=[token]), cego_post()).status_code == 404


def phones(count: int) -> list[Client]:
    """The players' own phones: each keeps its own cookies, so each is its own device."""
    clients = [Client() for _ in range(count)]
    for phone in clients:
        phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return clients


NO_SEAT = "The table link confirms no seat. Confirm your own seat on your personal link"


def test_the_table_link_hands_in_the_sheet_and_each_player_confirms_on_their_own_link(
    client: Client,
) -> None:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    assert client.post(link("table_link", table), cego_post()).status_code == 302
    client.post(link("link_submit", table))
    table.refresh_from_db()
    assert table.submitted_at is not None
    page = client.get(link("table_link", table)).content.decode()
    assert "Now every player confirms on their own personal link." in page
    entries = [s.entry for s in table.seats.order_by("position").select_related("entry")]
    for position, phone in enumerate(phones(4)):
        phone.post(reverse("personal_confirm", args=[entries[position].token]))
    table.refresh_from_db()
    assert sorted(table.confirmations.values_list("position", "via")) == [
        (0, "player"),
        (1, "player"),
        (2, "player"),
        (3, "player"),
    ]
    assert table.confirmed_at is not None
    assert "Confirmed by every player" in client.get(link("table_link", table)).content.decode()
    # a handed-in sheet takes no more games from the link
    with no_writes():
        client.post(link("table_link", table), cego_post())


def handed_in_table() -> Table:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego())
    return confirmations.submit_table(table=table)


def test_the_table_link_confirms_no_seat_whatever_phone_cookie_is_sent() -> None:
    # issue 43: "one phone, one seat" rested on a cookie the phone chooses; one person confirmed
    # all four seats by sending a new cookie before each tap
    table = handed_in_table()
    with no_writes():
        for position in range(4):
            (phone,) = phones(1)  # a fresh cookie jar each time: a new phone id
            phone.get(link("table_link", table))
            response = phone.post(
                link("link_confirm", table), {"position": str(position)}, follow=True
            )
            assert any(NO_SEAT in m for m in messages_of(response))
            assert escape(NO_SEAT) in response.content.decode()
    page = phones(1)[0].get(link("table_link", table)).content.decode()
    assert "I am" not in page  # no confirm buttons on the table link
    assert "/confirm/" not in page
    assert page.count("not confirmed yet") == 4


def test_the_history_names_the_phone_that_entered_a_game(scorer: Client) -> None:
    table = make_table()
    (phone,) = phones(1)
    phone.get(link("table_link", table))
    phone.post(link("table_link", table), cego_post())
    device = access.link_device(phone.get(link("table_link", table)).wsgi_request)
    assert device
    text = scorer.get(reverse("table_history", args=[table.pk])).content.decode()
    assert f"phone {device[:6]}" in text


def test_the_link_of_a_closed_round_shows_the_sheet_read_only(client: Client) -> None:
    table = handed_in_table()
    rounds.close_round(round=table.round)
    client.get(link("table_link", table))
    with no_writes():
        response = client.post(link("link_confirm", table), {"position": "0"})
        assert messages_of(response)
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
    assert "I am " not in page  # the players confirm on their personal links (issue 43)
    assert page.count("not confirmed yet") == 4
    assert "Each player confirms their own seat on their personal link" in page


def test_after_the_last_game_the_link_shows_hand_in_the_sheet_at_the_top(client: Client) -> None:
    table = make_table(hands_per_round={"4": 2})
    hands.record_hand(table=table, data=cego())
    page = client.get(link("table_link", table)).content.decode()
    assert 'id="hand-form"' in page
    assert "Hand in the sheet" not in page
    hands.record_hand(table=table, data=cego())
    page = client.get(link("table_link", table)).content.decode()
    assert 'id="hand-form"' not in page  # no form for a game 3 that the round does not have
    assert "Game 3" not in page
    assert "All games of the round are entered (2 of 2)" in page
    assert page.index("Hand in the sheet") < page.index("totals-strip")


def test_after_the_last_game_the_scorers_page_shows_hand_in_the_sheet_at_the_top(
    scorer: Client,
) -> None:
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
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
    first = hands.record_hand(table=table, data=cego())
    last = hands.record_hand(table=table, data=cego(points=50))
    page = client.get(link("table_link", table)).content.decode()
    assert "Take back game 2" in page
    assert f'name="hand" value="{last.pk}"' in page
    with no_writes():
        response = client.post(link("link_undo", table), {"reason": "", "hand": last.pk})
        assert response.status_code == 302
        assert messages_of(response)
    response = client.post(
        link("link_undo", table), {"reason": "falsch eingetippt", "hand": last.pk}
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
    hands.record_hand(table=table, data=cego())
    second = hands.record_hand(table=table, data=cego(points=50))
    third = hands.record_hand(table=table, data=cego("eine", 2, 41))
    with no_writes():
        response = client.post(link("link_undo", table), {"reason": "vertippt", "hand": second.pk})
        said = messages_of(response)
        assert any("Game 2 is no longer the last game" in m for m in said), said
    assert table.hands.filter(pk=third.pk).exists()


def test_taking_back_without_naming_the_game_is_refused(client: Client) -> None:
    table = make_table()
    hands.record_hand(table=table, data=cego())
    with no_writes():
        response = client.post(link("link_undo", table), {"reason": "vertippt"})
        assert messages_of(response)


def test_the_table_link_writes_nothing_once_the_round_is_closed(client: Client) -> None:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    table = rnd.tables.get()
    hands.record_hand(table=table, data=cego())
    rounds.close_round(round=rnd)
    with no_writes():
        response = client.post(link("table_link", table), cego_post())
        assert response.status_code == 302
        assert messages_of(response)
        assert client.post(link("link_preview", table), HALBE_LOST).json()["ok"] is False
        client.post(link("link_undo", table), {"reason": "zu spät"})


@pytest.mark.parametrize("name", ["link_preview", "link_undo", "link_submit", "link_confirm"])
def test_the_table_links_actions_take_only_a_post(client: Client, name: str) -> None:
    assert client.get(link(name, make_table())).status_code == 405


def test_an_unknown_table_link_action_is_not_found(client: Client) -> None:
    shuffle = link("link_submit", make_table()).replace("/submit/", "/shuffle/")
    assert client.post(shuffle).status_code == 404


# --- the sheet on the table's phones, and what a page costs ---------------------------------------


def reads_games(queries: CaptureQueriesContext) -> bool:
    return any('SELECT "tournament_hand"."id"' in q["sql"] for q in queries)


def test_the_sheet_is_computed_once_per_change_of_the_table_not_per_phone_or_per_game_elsewhere():
    event = make_event(hands_per_round={"*": 4})
    make_entries(event, 8)
    mine, other = make_round(event).tables.order_by("number")
    first, second = phones(2)
    first.post(link("table_link", mine), cego_post())
    page = first.get(link("table_link", mine)).content.decode()
    assert "No games entered yet." not in page
    with CaptureQueriesContext(connection) as another_phone:
        page = second.get(link("table_link", mine)).content.decode()
    assert not reads_games(another_phone) and "No games entered yet." not in page
    assert Client().post(link("table_link", other), cego_post()).status_code == 302
    with CaptureQueriesContext(connection) as after_another_table:
        second.get(link("table_link", mine))
    assert not reads_games(after_another_table)


def test_query_counts_of_the_table_link_page() -> None:
    table = make_table(hands_per_round={"*": 1})
    url = link("table_link", table)
    phone, other = phones(2)
    phone.post(url, cego_post())
    phone.get(url)  # the sheet of the table's version is computed
    with CaptureQueriesContext(connection) as playing:
        assert other.get(url).status_code == 200
    # 1. the table by its token, with its round and event; 2. its seats and the version of its
    # sheet; 3. the game numbers taken (the form's next game). The sheet comes from the page cache.
    assert len(playing) == 3, [q["sql"] for q in playing]
    with CaptureQueriesContext(connection) as kept:
        assert phones(1)[0].get(url).status_code == 200
    # the page is kept whole since the other phone's view: 1. and 2. as above, no form made
    assert len(kept) == 2, [q["sql"] for q in kept]
    confirmations.submit_table(table=table)
    phone.get(url)
    with CaptureQueriesContext(connection) as handed_in:
        assert other.get(url).status_code == 200
    # 1. and 2. as above; 3. who has confirmed the handed-in sheet
    assert len(handed_in) == 3, [q["sql"] for q in handed_in]


def test_query_counts_of_the_table_link_a_personal_page_hands_out() -> None:
    table = make_table(hands_per_round={"*": 1})
    entry = table.seats.get(position=0).entry
    url = reverse("table_link", args=[access.personal_table_key(entry, table)])
    phone, other, third = phones(3)
    phone.post(url, cego_post())
    phone.get(url)  # with the message of the saved game: not kept whole
    other.get(url)  # kept whole
    with CaptureQueriesContext(connection) as kept:
        assert third.get(url).status_code == 200
    # 1. the table by its id, with its round and event; 2. the current token of the key's player,
    # if seated at that table (a reissued personal link's key no longer holds); 3. its seats and
    # the version of its sheet. The page is kept whole, under the key it names.
    assert len(kept) == 3, [q["sql"] for q in kept]


def test_phones_that_get_the_kept_page_each_send_their_own_game_with_their_own_key() -> None:
    """The page is kept whole for the table's phones (issue 29), but each phone gets a form
    token and a one-time key of its own: two phones that open the page at the same moment and
    each save a game store two games, and a phone sending its game twice stores it once."""
    table = make_table(hands_per_round={"*": 4})
    url = link("table_link", table)
    first, second, third = (Client(enforce_csrf_checks=True) for _ in range(3))
    first.get(url)  # computes the page and keeps it
    shown = [form_as_shown(phone.get(url), "hand-form") for phone in (second, third)]
    keys = {form["submission"] for form in shown}
    assert len(keys) == 2 and all(uuid.UUID(key) for key in keys)
    assert all(form["csrfmiddlewaretoken"] for form in shown)
    for phone, form in zip((second, third), shown, strict=True):
        sent = {**form, **cego_post(), "submission": form["submission"]}
        sent["csrfmiddlewaretoken"] = form["csrfmiddlewaretoken"]
        assert phone.post(url, sent).status_code == 302
        phone.post(url, sent)  # the same send again (a double tap): stored once
    assert table.hands.count() == 2
    page = first.get(url).content.decode()
    assert "Game 3" in page or "Spiel 3" in page
    assert escape(str(Seat.objects.filter(table=table).first().entry.player)) in page


def form_renderings(caplog: pytest.LogCaptureFixture) -> int:
    return sum("computed link_form of" in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize(("players", "per_game"), [(4, False), (5, True)])
def test_the_game_form_is_rendered_once_per_table_not_once_per_game(
    caplog: pytest.LogCaptureFixture, players: int, per_game: bool
) -> None:
    """Rendering the game form's inputs was most of a table link page of a new version (issue
    29). At a table of four the form is the same for every game: rendered once. At a Cego table
    of five the dealer sits out, so each game's form is its own; the page offers the right one."""
    table = make_table(players=players, hands_per_round={"*": 6})
    url = link("table_link", table)
    phone = phones(1)[0]
    caplog.set_level(logging.INFO, logger="tournament.pagecache.pages")
    for number in (1, 2, 3):
        page = phone.get(url)
        form = form_as_shown(page, "hand-form")
        assert f"Game {number}" in page.content.decode()
        uuid.UUID(form["submission"])
        # the game's own form (not the one kept for another game): its dealer is not offered
        main = page.content.decode().split('<template class="inputs-ahead"')[0]
        offered = re.search(r'<select name="declarer".*?</select>', main, re.S).group(0)
        dealer = (number - 1) % players
        assert (f'value="{dealer}"' not in offered) == per_game, offered
        declarer = 1 if players == 4 else number % players
        sent = {**form, **cego_post(declarer=str(declarer))}
        assert phone.post(url, sent).status_code == 302
    assert table.hands.count() == 3
    assert form_renderings(caplog) == (3 if per_game else 1)


def test_the_phone_asks_for_penalty_cards_only_from_the_players_holding_some() -> None:
    """Issue 43: the Hennes Sibbe form asked every player for penalty cards (at eight players a
    phone form 3,940 px long); after a challenge the phone asks the player who took the card,
    and the form kept for the table follows."""
    table = make_table("hennes_sibbe", 8)
    url = link("table_link", table)
    phone = phones(1)[0]
    page = phone.get(url)
    assert re.findall(r'name="penalty_(\d)"', page.content.decode()) == []
    form = form_as_shown(page, "hand-form")
    verdict = {"claimant": "2", "challenger": "5", "claim_count": "4", "claim_colour": "rot"}
    sent = {**form, **verdict, "claim_correct": "no", "action": "save"}
    assert phone.post(url, sent).status_code == 302
    # the claim was wrong: the claimant (third player) holds a penalty card now
    page = phone.get(url)
    assert re.findall(r'name="penalty_(\d)"', page.content.decode()) == ["2"]
    # and deals the next challenge (RULES.md 5.1); who deals the one after is not known yet
    name = escape(str(table.seats.get(position=2).entry.player))
    assert f'<span class="dealer-name">{name}</span>' in page.content.decode()
    dealers = page.context["dealers"]
    assert (dealers[2], dealers[3]) == (str(table.seats.get(position=2).entry.player), "—")
