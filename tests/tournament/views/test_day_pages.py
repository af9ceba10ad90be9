"""What the day's pages say (issue 28, point 9): the round page's "game arrived at" is the
game's own time, a round a player did not play is "—" and not 0."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import cego, make_entries, make_event, make_round, make_table
from tests.helpers.draw import SIT_OUT, play_and_close, sitting_out
from tests.helpers.forms import cego_post
from tournament.models import Entry, Event, Hand
from tournament.play import hands

pytestmark = pytest.mark.django_db


def english() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_round_page_says_when_the_last_game_arrived_not_when_it_was_corrected(
    director: Client,
) -> None:
    table = make_table(hands_per_round={"4": 30})
    for declarer in range(3):
        hands.record_hand(table=table, data=cego("halbe", declarer, 40))
    arrived = timezone.make_aware(dt.datetime(2026, 12, 2, 14, 7))
    Hand.objects.filter(table=table, number=3).update(entered_at=arrived, updated_at=arrived)
    Event.objects.filter(rounds__tables=table).update(last_result_at=arrived)  # as it arrived
    Hand.objects.filter(table=table, number__lt=3).update(
        entered_at=arrived - dt.timedelta(minutes=20), updated_at=arrived - dt.timedelta(minutes=20)
    )
    hand = table.hands.get(number=3)
    response = director.post(  # game 3 corrected now, hours later
        reverse("hand_edit", args=[table.pk, 3]),
        {**cego_post(declarer_points="50"), "version": hand.version, "reason": "Zählfehler"},
    )
    assert response.status_code == 302
    rnd = table.round
    page = director.get(reverse("round_seating", args=[rnd.event.slug, rnd.number]))
    text = page.content.decode()
    assert "Game 3 arrived at 14:07" in text
    # the projector's status line too: its last result came in at 14:07 (in the hall's time)
    rows = director.get(reverse("projector_rows", args=[rnd.event.slug])).content.decode()
    assert "last result 14:07" in rows


def standings_cells(client: Client, slug: str) -> dict[str, list[str]]:
    """Each standings row's cells by the player's last name, as a reader reads them."""
    html = client.get(reverse("event_standings", args=[slug])).content.decode()
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        if len(cells) > 3:
            rows[cells[2].split(",")[0].split("*")[0].strip()] = cells
    return rows


def test_a_round_a_player_did_not_play_shows_a_dash_not_0() -> None:
    event = make_event("cego", table_policy=SIT_OUT, hands_per_round={"4": 1})
    make_entries(event, 5)
    first = make_round(event, seed=1)
    (out_id,) = sitting_out(first)
    play_and_close(first)
    second = make_round(event, seed=2)
    assert out_id not in sitting_out(second)  # who sat out plays the next round
    out = Entry.objects.select_related("player").get(pk=out_id)
    rows = standings_cells(english(), event.slug)
    cells = rows[out.player.last_name]
    # rank, no., name, club, R1, R2, ...: sat out in round 1, seated in round 2
    assert cells[4] == "—" and cells[5] != "—", cells
    played = next(c for name, c in rows.items() if name != out.player.last_name)
    assert played[4] != "—", played
    printed = english().get(reverse("print_standings", args=[event.slug])).content.decode()
    # the one who sat out round 1, and the one who sits out round 2
    assert printed.count('<td class="pts">—</td>') == 2
