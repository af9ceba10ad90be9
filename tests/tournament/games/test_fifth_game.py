"""A fifth game, made up here and nowhere else, runs through a whole event: the proof that a game is
a plug-in (tournament.games) and that no page, form, export or service knows the four real ones.

"Würfelglück" is a trivial game: each hand one seat wins; the winner takes the hand's points from
every other player (zero-sum), played at tables of three to six. It is a package of its own
(``tests/tournament/games/wuerfelglueck``: core, hand form, empty statistics); nothing outside it
is changed for it: the test registers it and takes it out again.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from scoring import InvalidHand
from tests.factories import make_player, make_user
from tests.helpers.forms import as_browser_sends
from tests.tournament.games import wuerfelglueck
from tournament import games
from tournament.games.base import GameType
from tournament.models import Event, Round, Season, Table
from tournament.play import hands, reads, rounds
from tournament.play.forms import EventForm
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db

KEY = wuerfelglueck.KEY
MINUS = "\u2212"


@pytest.fixture(autouse=True)
def fifth_game() -> Iterator[GameType]:
    game = games.register(wuerfelglueck.GAME)
    yield game
    games.unregister(KEY)


@pytest.fixture
def director() -> Client:
    client = Client()
    client.force_login(make_user())
    return client


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_registry_offers_the_new_game_to_events_and_seasons():
    assert (KEY, "Würfelglück") in games.choices()
    assert KEY in dict(Event._meta.get_field("game").choices)
    assert KEY in dict(Season._meta.get_field("game").choices)


def test_a_made_up_game_runs_through_a_whole_event(director: Client):
    # the director creates a season and the event for the new game through the forms
    season = Season.objects.create(name="Würfelsaison", slug="wuerfelsaison", game=KEY)
    page = text(director.get(reverse("event_create")))
    assert "Würfelglück" in page and "Höchstens Augen pro Spiel" in page
    response = director.post(
        reverse("event_create"),
        {
            **as_browser_sends(EventForm()),  # every field as the page filled it in
            "name": "Würfelabend",
            "slug": "wuerfelabend",
            "season": season.pk,
            "date": "2026-12-05",
            "game": KEY,
            "table_policy": Event.TablePolicy.MIXED,
            "target_table_size": "3",
            "rounds_planned": "1",
            "pairing": Event.Pairing.DRAWN,
            f"{KEY}__most_points": "40",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    event = Event.objects.get(slug="wuerfelabend")
    assert event.game == KEY and event.full_rules() == {"most_points": 40}

    # six players, a round drawn by the game's own table plan: two tables of three
    names = ["Anna", "Bernd", "Clara", "Dieter", "Emma", "Fritz"]
    for name in names:
        register_services.register_player(event=event, player=make_player(first_name=name))
    rnd = rounds.add_round(event=event)
    director.post(reverse("round_draw", args=[event.slug, rnd.number]))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.SEATED
    assert sorted(t.size for t in rnd.tables.all()) == [3, 3]
    seating = text(director.get(reverse("round_seating", args=[event.slug, 1])))
    assert "an Tischen mit etwa 3 (erlaubt 3 bis 6)" in seating
    rounds.start_round(round=rnd)
    first, second = rnd.tables.order_by("number")
    players = [str(s.entry.player) for s in first.seats.order_by("position")]

    # the scorer enters at the table page: the game's form, its preview and its results
    sheet_url = reverse("table", args=[first.pk])
    form_page = director.get(sheet_url).content.decode()
    assert 'name="winner"' in form_page and 'name="points"' in form_page
    response = director.post(sheet_url, {"winner": "0", "points": "10", "action": "save"})
    assert response.status_code == 302
    response = director.post(sheet_url, {"winner": "1", "points": "99", "action": "save"})
    assert "muss zwischen 1 und 40 liegen, eingegeben: 99" in text(response)  # the setting
    director.post(sheet_url, {"winner": "1", "points": "5", "action": "save"})
    page = text(director.get(sheet_url))
    assert f"{players[0]} würfelt 10" in page and f"{players[1]} würfelt 5" in page
    assert "+15" in page and f"{MINUS}15" in page  # running totals: 20 − 5, −10 + 10, −10 − 5

    # the players enter the third hand on a phone through the table link
    phone = Client()
    link = reverse("table_link", args=[first.token])
    assert 'name="winner"' in phone.get(link).content.decode()
    response = phone.post(link, {"winner": "2", "points": "20", "action": "save"})
    assert response.status_code == 302
    assert first.hands.count() == 3
    # the game's default of three hands is reached: the phone offers to hand in the sheet
    assert "Liste abgeben" in text(phone.get(link))  # the hand-in button (German pages)

    # the other table plays its three hands, all won by its first seat
    for _ in range(3):
        hands.record_hand(table=second, data={"winner": 0, "points": 1})

    # standings, projector, print pages, season and Excel all show the results
    results = {players[0]: 20 - 5 - 20, players[1]: -10 + 10 - 20, players[2]: -10 - 5 + 40}
    assert sum(results.values()) == 0
    standings = text(director.get(reverse("event_standings", args=[event.slug])))
    assert "+25" in standings and f"{MINUS}20" in standings and f"{MINUS}5" in standings
    projector = text(director.get(reverse("projector", args=[event.slug])))
    assert "+25" in projector
    printed = text(director.get(reverse("print_standings", args=[event.slug])))
    assert "+25" in printed
    sheets = text(director.get(reverse("print_sheets", args=[event.slug, 1])))
    assert f"{players[2]} würfelt 20" in sheets
    rule_card = text(director.get(reverse("rule_card", args=[event.slug])))
    assert "Höchstens Augen pro Spiel" in rule_card and "40" in rule_card
    season_page = text(director.get(reverse("season", args=[season.slug])))
    assert "+25" in season_page

    workbook = openpyxl.load_workbook(
        io.BytesIO(director.get(reverse("event_xlsx", args=[event.slug])).content)
    )
    standings_rows = list(workbook.worksheets[0].iter_rows(values_only=True))
    best = next(row for row in standings_rows if row and row[0] == 1)
    assert best[-2] == 25  # the total, before the status column
    hands_sheet = next(ws for ws in workbook.worksheets if ws.title in ("Games", "Spiele"))
    described = [row[4] for row in hands_sheet.iter_rows(min_row=2, values_only=True)]
    assert f"{players[2]} würfelt 20" in described

    # the round closes (every table has its three hands) and the sheet history names the game
    rounds.close_round(round=rnd)
    history = text(director.get(reverse("table_history", args=[first.pk])))
    assert f"{players[0]} würfelt 10" in history


def test_an_invalid_stored_hand_of_the_new_game_is_named_when_rules_tighten():
    event = Event.objects.create(
        name="Würfeln",
        slug="wuerfeln",
        date="2026-12-05",
        game=KEY,
        target_table_size=3,
        table_policy=Event.TablePolicy.MIXED,
    )
    for name in ("A", "B", "C"):
        register_services.register_player(event=event, player=make_player(first_name=name))
    rnd = rounds.draw_round(round=rounds.add_round(event=event), seed=1)
    rounds.start_round(round=rnd)
    table: Table = rnd.tables.get()
    hands.record_hand(table=table, data={"winner": 0, "points": 30})
    with pytest.raises(reads.InvalidStoredHand, match="Game 1 at table 1"):
        reads.rule_change_effect(event=event, rules={"most_points": 20})
    with pytest.raises(InvalidHand):
        wuerfelglueck.Engine.score({"winner": 5, "points": 1}, 3)
