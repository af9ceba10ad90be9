"""Hand-made addresses: page, per_page, q, sort and filters never cause an error 500."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    cego,
    make_table,
)
from tests.helpers.pages import shows
from tests.helpers.world import PUBLIC_PAGES, World
from tournament.play import services as play_services

pytestmark = pytest.mark.django_db


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
    play_services.confirm_as_player(entry=table.seats.get(position=0).entry)
    play_services.confirm_as_player(entry=table.seats.get(position=2).entry)
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
