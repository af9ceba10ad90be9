"""The event form: bounds, reserved short names, rule changes, the game (issues 10 and 11)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.factories import (
    cego,
    make_season,
    make_table,
)
from tests.helpers.db import no_writes
from tests.helpers.forms import as_browser_sends, event_post
from tests.helpers.pages import messages_of
from tests.helpers.play import totals_by_seat
from tournament.models import Event, Season, Table
from tournament.play import hands
from tournament.play.forms import EventForm

pytestmark = pytest.mark.django_db


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
    hands.record_hand(table=table, data={"contract": "bettel", "declarer": 0, "declarer_tricks": 1})
    hands.record_hand(table=table, data=cego("halbe", 1, 47))
    return table.round.event, table


def test_a_rule_change_first_shows_how_many_games_are_rescored_and_saves_nothing(
    scorer: Client,
) -> None:
    event, _table = bettel_event()
    with no_writes():
        response = scorer.post(
            reverse("event_edit", args=[event.slug]), edit_post(event, cego__bettel="50")
        )
        assert response.status_code == 200
        content = response.content.decode()
        assert "2 stored games will be scored again with the new settings" in content
        assert "The totals of 4 players change." in content
        assert "Bettel is worth: <del>30</del> → <ins>50</ins>" in content
        assert 'name="reason"' in content


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


# an event's address (its slug) is made from its name as a German writes it without umlauts
def test_a_new_events_address_spells_out_its_umlauts(director: Client):
    response = director.post(reverse("event_create"), event_post(name="Turnier Gütenbach"))
    assert response.status_code == 302
    event = Event.objects.get(name="Turnier Gütenbach")
    assert event.slug == "turnier-guetenbach"
    assert director.get("/turnier/turnier-guetenbach/").status_code == 200
    director.post(reverse("event_create"), event_post(name="Übach-Palenberg Straßenfest"))
    assert Event.objects.get(name="Übach-Palenberg Straßenfest").slug == (
        "uebach-palenberg-strassenfest"
    )
