"""The rating page and the settlement pages as a player and an organiser see them (Chromium): in
German and English, at 1366 px and 360 px, without sideways scrolling on the phone."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings

from tests.browser.conftest import log_in, shoot
from tests.factories import make_event, make_player, make_round, make_user
from tournament.models import Event
from tournament.play import hands, rounds
from tournament.register import services

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = {"desktop": 1366, "phone": 360}
NAMES = [
    ("Hans-Peter", "Schwörer-Oberkirchner"),
    ("Anna-Lena", "Schäuble-Furtwängler"),
    ("Karl-Heinz", "Dold-Kienzler"),
    ("Maria-Theresia", "Wehrle-Hettich"),
    ("Wolfgang", "Kirner-Scherzinger"),
    ("Ursula", "Faller"),
    ("Bernd", "Kaltenbach"),
    ("Sieglinde", "Hummel-Rombach"),
]


def rated_cego_season() -> None:
    players = [make_player(first_name=f, last_name=last) for f, last in NAMES]
    for day in (3, 10):
        event = make_event(date=datetime.date(2026, 11, day), hands_per_round={"4": 1})
        for player in players:
            services.register_player(event=event, player=player)
        for number in range(2):
            rnd = make_round(event, seed=day + number)
            for table in rnd.tables.all():
                seats = [s.entry.player_id for s in table.seats.select_related("entry")]
                order = sorted(range(4), key=lambda i: seats[i])
                totals = [0] * 4
                for share, i in zip([90, 30, -30, -90], order, strict=True):
                    totals[i] = share
                hands.record_totals(table=table, totals=totals)
            rounds.close_round(round=rnd)


def money_table() -> tuple[Event, int]:
    event = make_event(
        "crazy_solo",
        target_table_size=6,
        table_policy=Event.TablePolicy.MIXED,
        point_value_cents=5,
        name="Crazy-Solo-Abend im Gasthaus Hirschen",
    )
    for first, last in NAMES[:6]:
        services.register_player(event=event, player=make_player(first_name=first, last_name=last))
    table = make_round(event).tables.get()
    for bidder, partner, points in ((0, 3, 74), (1, 4, 50), (2, None, 85)):
        contract = "alleingang" if partner is None else "solo"
        hands.record_hand(
            table=table,
            data={
                "contract": contract,
                "bidder": bidder,
                "partner": partner,
                "soloist_points": points,
            },
        )
    return event, table.pk


def page_at(request, device: str, language: str, base: str):
    """The phone or the laptop of the browser tests (``tests/browser/conftest.py``), reading
    ``language``."""
    page = request.getfixturevalue(device)
    page.set_viewport_size({"width": WIDTHS[device], "height": 800})
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    )
    return page


def no_sideways_scrolling(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_rating_and_the_table_settlement_fit_a_phone_and_a_laptop(
    live_server, request, language
):
    rated_cego_season()
    _event, table = money_table()
    for device, width in WIDTHS.items():
        page = page_at(request, device, language, live_server.url)
        page.goto(f"{live_server.url}/wertung/")
        assert page.locator("table.rating tbody tr").count() == len(NAMES)
        assert no_sideways_scrolling(page), f"rating page scrolls sideways at {width}"
        shoot(page, f"rating-{language}-{device}")
        page.goto(f"{live_server.url}/tisch/{table}/abrechnung/")
        assert page.locator("li.transfer").count() >= 3
        assert no_sideways_scrolling(page), f"table settlement scrolls sideways at {width}"
        shoot(page, f"settlement-table-{language}-{device}")


def test_the_organiser_prints_the_events_settlement(live_server, request):
    event, _table = money_table()
    make_user("kasse", "money-test-2026")
    page = page_at(request, "desktop", "de", live_server.url)
    log_in(page, live_server.url, "kasse", "money-test-2026")
    page.goto(f"{live_server.url}/turnier/{event.slug}/")
    page.click("text=Abrechnung")
    assert page.locator("h1").first.inner_text().startswith("Abrechnung")
    # the event's transfers and the table's: one table, so the same ones twice
    assert page.locator("li.transfer").count() % 2 == 0
    shoot(page, "settlement-event-de")
