"""The player page and the event statistics in a real Chromium, in German and English, on a
laptop (1366 px) and a phone (360 px): nothing scrolls sideways, the charts are drawn, and the
screenshots are written to screenshots/ to be looked at."""

from __future__ import annotations

import datetime

import pytest

from tests.browser.conftest import shoot
from tests.factories import cego, make_season, make_table
from tournament.models import Entry
from tournament.play import hands

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = [
    cego("halbe", 0, 34),
    cego("eine", 0, 41),
    cego("halbe", 1, 47),
    cego("solo", 0, 45),
    {"contract": "cego", "declarer": 2, "declarer_took_trick": False},
    {"contract": "raeuber", "announcer": 0, "points": [25, 20, 18, 16]},
    {"contract": "bettel", "declarer": 3, "declarer_tricks": 1},
    {"contract": "ulti", "declarer": 1, "won": True},
    cego("zwei_verschiedene", 2, 52),
]


def a_season():
    """Two events of a season; the first table's seat 0 plays both (Vorname Langername-Müller,
    a long name for the phone)."""
    season = make_season(name="Schwarzwaldmeisterschaft 2026/27")
    first = make_table(
        "cego", season=season, name="Herbstturnier Schonach", date=datetime.date(2026, 11, 7)
    )
    second = make_table(
        "cego", season=season, name="Wintercup Triberg", date=datetime.date(2026, 12, 5)
    )
    player = first.seats.get(position=0).entry.player
    player.first_name, player.last_name = "Hans-Joachim", "Langername-Müller"
    player.save()
    Entry.objects.filter(pk=second.seats.get(position=0).entry_id).update(player=player)
    for data in HANDS:
        hands.record_hand(table=first, data=data)
    for data in HANDS[:5]:
        hands.record_hand(table=second, data=data)
    return player, first.round.event


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(("device", "width"), [("phone", 360), ("desktop", 1366)])
def test_player_page_and_event_statistics_fit_the_screen(
    live_server, request, device, width, language
):
    page = request.getfixturevalue(device)
    page.set_viewport_size({"width": width, "height": 800})
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    player, event = a_season()
    headings = {
        "de": ("Saisonplatz nach jedem Turnier", "Gespielte und gewonnene Spiele nach Spielart"),
        "en": ("Season rank after each event", "Contracts played and won"),
    }[language]

    page.goto(f"{live_server.url}/spieler/{player.uid}/")
    assert headings[0] in page.inner_text("main")
    assert page.locator("figure.chart svg").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shoot(page, f"stats-player-{language}-{width}")

    page.goto(f"{live_server.url}/turnier/{event.slug}/statistik/")
    assert headings[1] in page.inner_text("main")
    assert page.locator("figure.chart svg").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shoot(page, f"stats-event-{language}-{width}")
