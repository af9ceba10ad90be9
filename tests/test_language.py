"""German first, English on request: the language switch, not the browser, chooses."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def test_pages_are_german_whatever_the_browser_asks_for():
    response = Client().get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response["Content-Language"] == "de"
    assert "Kartenturniere" in response.content.decode()


def test_the_language_switch_makes_pages_english_and_german_again():
    browser = Client()
    response = browser.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert response["Content-Language"] == "en"
    assert "Card tournaments" in response.content.decode()
    response = browser.post("/i18n/setlang/", {"language": "de", "next": "/"}, follow=True)
    assert "Kartenturniere" in response.content.decode()


def test_an_unknown_language_in_the_cookie_falls_back_to_german():
    browser = Client()
    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "xx"
    assert browser.get("/")["Content-Language"] == "de"


def test_the_draw_explains_itself_in_the_readers_language():
    from django.utils import translation

    from tests.factories import make_entries, make_event, make_round

    event = make_event()
    make_entries(event, 8)
    with translation.override("en"):  # drawn by an English-speaking director
        rnd = make_round(event, start=False)
    page = Client().get(f"/turnier/{event.slug}/durchgang/{rnd.number}/").content.decode()
    assert "8 Spieler" in page
    assert "8 players" not in page
