"""The table link of a Ziege table in fixed pairs: who is pair A and pair B, the matches, and the
defeat points as counts ("2", never "+2")."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import make_round
from tests.helpers.forms import form_as_shown
from tests.helpers.pages import messages_of, page_text
from tests.helpers.pairs import fixed_pair_event, pair_at
from tournament.play import hands

pytestmark = pytest.mark.django_db


def test_the_phone_names_both_pairs_shows_the_matches_and_writes_defeat_points_unsigned(client):
    event, _teams = fixed_pair_event(2)
    table = make_round(event, seed=3).tables.get()
    for _ in range(2):
        hands.record_hand(table=table, data={"team_a_points": 75})
    pairs = pair_at(table)

    text = page_text(client.get(reverse("table_link", args=[table.token])))

    assert f"Team A : {pairs['a'][0]} & {pairs['a'][1]}" in text
    assert f"Team B : {pairs['b'][0]} & {pairs['b'][1]}" in text
    # two deals of 2 defeat points for team B end the match at the limit of 4
    assert "Matches Match Team A Team B Result 1 0 4 Team B is the Ziege" in text
    sheet = text.split(" Sheet ", 1)[1]
    assert "0 2 0 2" in sheet
    assert "+" not in sheet.split("Take back", 1)[0]
    for name in pairs["b"]:
        assert f"{name} 4 " in text


def test_a_game_sent_from_the_phone_is_confirmed_and_shown_to_the_scorer_without_a_plus(
    client, director
):
    """The phone sends a deal through its form as the page shows it: the message that it was
    saved, and the scorer's table page, write defeat points as counts ("2", not "+2")."""
    event, _teams = fixed_pair_event(2)
    table = make_round(event, seed=3).tables.get()
    url = reverse("table_link", args=[table.token])
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    data = {**form_as_shown(phone.get(url), "hand-form"), "team_a_points": "75", "action": "save"}
    response = phone.post(url, data, follow=True)
    saved = [m for m in messages_of(response) if m.startswith("Game 1 saved")]
    assert saved and "+" not in saved[0] and " 2" in saved[0], messages_of(response)
    sheet = page_text(director.get(reverse("table", args=[table.pk])))
    assert "No games entered yet." not in sheet
    assert "+2" not in sheet
