"""German first, English on request: the language switch, not the browser, chooses."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import challenge, make_event, make_table, make_user
from tournament.play import hands

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


def _reader(language: str) -> Client:
    reader = Client()
    reader.post("/i18n/setlang/", {"language": language, "next": "/"})
    reader.force_login(make_user())
    return reader


def test_english_writes_dates_day_first_as_in_europe_and_german_stays_german():
    event = make_event(date=datetime.date(2026, 12, 5), name="Nikolausturnier")
    english, german = _reader("en"), _reader("de")
    page = english.get(reverse("event", args=[event.slug])).content.decode()
    assert "5 December 2026" in page
    assert "Dec. 5" not in page and "December 5" not in page
    # the home page's list of events: the short date, day before month
    home = english.get("/").content.decode()
    assert "<td>05/12/2026</td>" in home
    assert "12/05/2026" not in home
    assert "5. Dezember 2026" in german.get(reverse("event", args=[event.slug])).content.decode()
    assert "<td>05.12.2026</td>" in german.get("/").content.decode()


def test_crazy_solo_trumps_are_named_in_the_readers_language():
    table = make_table("crazy_solo", 4)
    url = reverse("table", args=[table.pk])

    def offered(reader: Client) -> list[str]:
        page = reader.get(url).content.decode()
        select = re.search(r'<select name="trump"[^>]*>(.*?)</select>', page, re.S)[1]
        return re.findall(r'<option value="[a-z]+"[^>]*>([^<]+)</option>', select)

    assert offered(_reader("en")) == ["Clubs", "Spades", "Diamonds"]
    assert offered(_reader("de")) == ["Kreuz", "Pik", "Karo"]


def test_hennes_sibbe_colours_are_named_in_the_readers_language():
    """The claim's colour on the form and in the sheet's game column: Yellow in English, Gelb
    in German; the cards are still typed with the game's short words (RULES.md 5)."""
    table = make_table("hennes_sibbe", 3)
    hands.record_hand(
        table=table,
        data=challenge(),
    )
    url = reverse("table", args=[table.pk])

    def colours(reader: Client) -> list[str]:
        page = reader.get(url).content.decode()
        select = re.search(r'<select name="claim_colour"[^>]*>(.*?)</select>', page, re.S)[1]
        return re.findall(r'<option value="[a-z]+"[^>]*>([^<]+)</option>', select)

    assert colours(_reader("en")) == ["Red", "Orange", "Yellow", "Green", "Blue", "Purple"]
    assert colours(_reader("de")) == ["Rot", "Orange", "Gelb", "Grün", "Blau", "Lila"]
    assert ": 5 Yellow, " in _reader("en").get(url).content.decode()
    assert ": 5 Gelb, " in _reader("de").get(url).content.decode()
