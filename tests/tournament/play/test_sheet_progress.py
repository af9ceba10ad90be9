"""How far a table's round is, as the table page and the table link say it: games played (a
totals sheet is not a game), and when the round is complete enough to hand in."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import cego, challenge, make_table, make_user
from tournament.play import hands

pytestmark = pytest.mark.django_db

HAND_IN = "Hand in the sheet"


@pytest.fixture
def page(client: Client):
    """The table link as the players see it (in English, see tests/conftest.py)."""

    def get(table) -> str:
        return client.get(reverse("table_link", args=[table.token])).content.decode()

    return get


def test_a_hennes_sibbe_table_is_not_complete_in_the_middle_of_a_game(page) -> None:
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    hands.record_hand(table=table, data=challenge(0))
    html = page(table)
    assert HAND_IN not in html
    assert "1 challenge, 0 games finished" in html


def test_a_hennes_sibbe_table_may_hand_in_once_a_game_is_over(page) -> None:
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    for loser in (0, 0):  # seat 0 reaches the limit: the game is over
        hands.record_hand(table=table, data=challenge(loser))
    html = page(table)
    assert HAND_IN in html
    assert "The game is over. When the round" in html
    assert "All games of the round are entered" not in html
    assert "2 challenges, 1 game finished" in html
    hands.record_hand(table=table, data=challenge(1))  # the next game has started
    assert HAND_IN not in page(table)


def test_a_cego_table_is_complete_only_with_all_its_games(page) -> None:
    table = make_table(hands_per_round={"4": 2})
    hands.record_hand(table=table, data=cego())
    html = page(table)
    assert "1 of 2 games" in html and HAND_IN not in html
    hands.record_hand(table=table, data=cego())
    html = page(table)
    assert "2 of 2 games" in html and HAND_IN in html
    assert "All games of the round are entered (2 of 2)" in html


def test_a_totals_sheet_is_not_counted_as_a_played_game(page, client: Client) -> None:
    table = make_table()
    hands.record_totals(table=table, totals=[30, -10, -20, 0])
    html = page(table)
    assert "totals for the round entered" in html
    assert "1 of 24 games" not in html
    # nothing more to enter: no hand form, but the sheet can be handed in
    assert 'id="hand-form"' not in html
    assert HAND_IN in html
    client.force_login(make_user())
    sheet = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "totals for the round entered" in sheet
    assert "1 of 24 games" not in sheet
    assert 'id="hand-form"' not in sheet
    assert "entered directly: it has no games to add" in sheet


def test_a_hennes_sibbe_form_is_headed_as_a_challenge_not_as_a_game(page, client: Client) -> None:
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 1})
    hands.record_hand(table=table, data=challenge(0))  # one challenge, and the game is over
    phone = page(table)
    assert "1 challenge, 1 game finished" in phone
    assert '<span class="game-title">Challenge 2</span>' in phone
    # the phone's queue names the games it keeps the same way
    assert '<span data-key="game-title">Challenge §</span>' in phone
    client.force_login(make_user())
    sheet = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "<h2>Challenge 2 <small>" in sheet
    assert "Game 2" not in phone + sheet
    client.cookies["django_language"] = "de"
    german = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "<h2>„Lüge!“-Ruf 2 <small>" in german and "Spiel 2" not in german


def test_a_cego_form_is_still_headed_as_a_game(page) -> None:
    table = make_table()
    hands.record_hand(table=table, data=cego())
    assert '<span class="game-title">Game 2</span>' in page(table)
