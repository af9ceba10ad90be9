"""A place decided by lot is marked where the standings are read (issue 28, point 3): the page,
the print page and the workbook write "3 (by lot)", and the history says the draw in words."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import cego, make_table
from tournament.models import Entry, Event
from tournament.play import hands

pytestmark = pytest.mark.django_db


def tied_for_place_3() -> tuple[Event, list[Entry]]:
    """Four players: seat 0 on +80, seat 1 on 0, seats 2 and 3 tied on -40 for place 3."""
    table = make_table(hands_per_round={"4": 2})
    hands.record_hand(table=table, data=cego("halbe", 0, 50))  # +90 -30 -30 -30
    hands.record_hand(table=table, data=cego("halbe", 1, 40))  # -10 +30 -10 -10
    tied = [table.seats.get(position=p).entry for p in (2, 3)]
    return table.round.event, tied


def drawn(director: Client) -> tuple[Event, list[Entry]]:
    event, tied = tied_for_place_3()
    response = director.post(
        reverse("decide_lot", args=[event.slug]),
        {"entry": [e.pk for e in tied], "confirmed": "1"},
    )
    assert response.status_code == 302
    return event, tied


def cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", html)]


def test_the_standings_page_marks_the_places_decided_by_lot(director: Client) -> None:
    event, _tied = drawn(director)
    reader = Client()  # everybody's page, cached: without a login
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = reader.get(reverse("event_standings", args=[event.slug]))
    ranks = [c for c in cells(page.content.decode("utf-8")) if re.fullmatch(r"\d+( \(.*\))?", c)]
    assert "1" in ranks and "2" in ranks
    assert "3 (by lot)" in ranks and "4 (by lot)" in ranks


def test_the_print_page_marks_the_places_decided_by_lot(director: Client) -> None:
    event, _tied = drawn(director)
    page = director.get(reverse("print_standings", args=[event.slug])).content.decode()
    found = cells(page)
    assert "1." in found and "3 (by lot)" in found and "4 (by lot)" in found


def test_the_workbook_marks_the_places_decided_by_lot(director: Client) -> None:
    event, _tied = drawn(director)
    content = director.get(reverse("event_xlsx", args=[event.slug])).content
    sheet = load_workbook(BytesIO(content))["Standings"]
    ranks = [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert ranks == [1, 2, "3 (by lot)", "4 (by lot)"]


def test_the_history_says_the_draw_by_lot_in_words(director: Client) -> None:
    event, _tied = drawn(director)
    page = director.get(reverse("event_history", args=[event.slug])).content.decode()
    assert "place 3 decided by lot between 2 tied players" in page
    assert "drawn in place 1 of the tie" in page and "drawn in place 2 of the tie" in page
    assert "Lot</" not in page and "— → 2" not in page
