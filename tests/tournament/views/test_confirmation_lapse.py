"""A correction after the players confirmed their sheet (issue 28, point 2): if it moves a total,
their confirmations lapse, the sheet says so on the table page and on every phone, and the
standings are provisional again; a correction that moves no total keeps them."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import make_entries, make_event, make_round
from tests.helpers.forms import cego_post
from tournament.models import Table

pytestmark = pytest.mark.django_db

LAPSED = "Changed after confirmation: confirm again."


def link(name: str, table: Table, *args: str) -> str:
    return reverse(name, args=[table.token, *args])


def personal(table: Table, position: int, name: str = "personal_link") -> str:
    entry = table.seats.get(position=position).entry
    return reverse(name, args=[entry.token])


def confirmed_on_four_phones(client: Client) -> tuple[Table, list[Client]]:
    """A table of four that entered its one game and handed in on a phone, each player then
    confirming on their own phone, through their personal link (issue 43: the table link
    confirms no seat)."""
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    assert client.post(link("table_link", table), cego_post()).status_code == 302
    client.post(link("link_submit", table))
    phones = []
    for position in range(4):
        phone = Client()
        phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        phone.get(personal(table, position))
        phone.post(personal(table, position, "personal_confirm"))
        phones.append(phone)
    table.refresh_from_db()
    assert table.confirmed_at is not None
    return table, phones


def correct_game_1(scorer: Client, table: Table, points: str) -> None:
    hand = table.hands.get(number=1)
    response = scorer.post(
        reverse("hand_edit", args=[table.pk, 1]),
        {**cego_post(declarer_points=points), "version": hand.version, "reason": "Zählfehler"},
    )
    assert response.status_code == 302


def standings(client: Client, table: Table) -> str:
    return client.get(reverse("event_standings", args=[table.round.event.slug])).content.decode()


def test_a_correction_that_moves_a_total_makes_the_confirmations_lapse(scorer: Client) -> None:
    table, phones = confirmed_on_four_phones(Client())
    assert "Provisional:" not in standings(scorer, table)
    assert "Confirmed by every player" in phones[0].get(link("table_link", table)).content.decode()
    correct_game_1(scorer, table, "50")  # the declarer's -60 becomes +90
    table_page = scorer.get(reverse("table", args=[table.pk])).content.decode()
    assert LAPSED in table_page
    assert "Still to confirm" in table_page
    for position, phone in enumerate(phones):
        page = phone.get(link("table_link", table)).content.decode()
        assert LAPSED in page
        assert "Confirmed by every player" not in page
        assert "not confirmed yet" in page
        own = phone.get(personal(table, position)).content.decode()
        assert LAPSED in own
        # each may confirm the new totals
        assert personal(table, position, "personal_confirm") in own
    assert "Provisional: results marked *" in standings(scorer, table)
    # the old confirmations stay in the history, with why they lapsed
    history = scorer.get(reverse("table_history", args=[table.pk])).content.decode()
    assert history.count("changed after confirmation: the totals moved, confirm again") >= 4
    # confirmed again on the four phones, the sheet is final again
    for position, phone in enumerate(phones):
        phone.post(personal(table, position, "personal_confirm"))
    assert LAPSED not in scorer.get(reverse("table", args=[table.pk])).content.decode()
    assert "Provisional:" not in standings(scorer, table)


def test_a_correction_that_moves_no_total_keeps_the_confirmations(scorer: Client) -> None:
    table, phones = confirmed_on_four_phones(Client())
    correct_game_1(scorer, table, "30")  # still lost: every total as it was
    table.refresh_from_db()
    assert table.confirmed_at is not None
    assert table.confirmations.count() == 4
    assert LAPSED not in scorer.get(reverse("table", args=[table.pk])).content.decode()
    assert "Confirmed by every player" in phones[0].get(link("table_link", table)).content.decode()
    assert "Provisional:" not in standings(scorer, table)


def test_deleting_a_game_of_a_confirmed_sheet_makes_the_confirmations_lapse(
    scorer: Client,
) -> None:
    table, phones = confirmed_on_four_phones(Client())
    scorer.post(reverse("hand_edit", args=[table.pk, 1]), {"action": "delete", "reason": "doppelt"})
    assert LAPSED in phones[1].get(link("table_link", table)).content.decode()


def test_a_players_personal_page_says_the_sheet_changed_and_asks_to_confirm_again(
    scorer: Client,
) -> None:
    """The player's own link (issue 29) tells the lapse as the table's phones do, and the player
    confirms the new totals through it."""
    table, _phones = confirmed_on_four_phones(Client())
    entry = table.seats.get(position=2).entry
    own = Client()
    own.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("personal_link", args=[entry.token])
    assert LAPSED not in own.get(url).content.decode()
    correct_game_1(scorer, table, "50")
    page = own.get(url).content.decode()
    assert LAPSED in page
    assert reverse("personal_confirm", args=[entry.token]) in page
    own.post(reverse("personal_confirm", args=[entry.token]))
    assert table.confirmations.filter(position=2).exists()
