"""Public pages name a player only as far as the consent reaches (issue 46.1): without a
recorded consent to the public lists a neutral label (initials and start number) and no club,
on every public page and print, in the projector's lines and in the published season; the
season's website needs the consent to it too; the town only with its own consent. The
director's own pages name everybody."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_round,
    make_season,
)
from tournament.access import ORGANISER
from tournament.models import Consent, Entry
from tournament.play import hands
from tournament.register import services

pytestmark = pytest.mark.django_db

SECRET = {
    "first_name": "Gisela",
    "last_name": "Geheimnisvoll",
    "club": "Verschwiegene Kartler",
    "town": "Verborgenheim",
}


def en() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def played_with(**consent: bool) -> tuple[Entry, Entry]:
    """A played Cego event of a season: the secret player (with ``consent``) and three others;
    the secret player's entry and another's."""
    season = make_season(slug="saison-geheim")
    event = make_event(season=season, slug="geheim", registration_open=True)
    player = make_player(**SECRET, **consent)
    secret = services.register_player(event=event, player=player)
    others = make_entries(event, 3)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego(points=50))
    return secret, others[0]


def public_urls(entry: Entry) -> list[str]:
    event = entry.event
    return [
        reverse("event_standings", args=[event.slug]),
        reverse("projector_rows", args=[event.slug]),
        reverse("projector", args=[event.slug]),
        reverse("round_seating", args=[event.slug, 1]),
        reverse("round_results", args=[event.slug, 1]),
        reverse("print_standings", args=[event.slug]),
        reverse("print_seating", args=[event.slug, 1]),
        reverse("event_participants", args=[event.slug]),
        reverse("player", args=[entry.player.uid]),
        reverse("season", args=[event.season.slug]),
        reverse("print_season", args=[event.season.slug]),
        reverse("where_do_i_sit", args=[event.slug]) + f"?q={entry.start_number}",
        reverse("event_statistics", args=[event.slug]),
        reverse("event_xlsx", args=[event.slug]),
        reverse("season_xlsx", args=[event.season.slug]),
    ]


def read(url: str) -> str:
    """What the public reads at ``url``: the page, or every cell of the workbook."""
    response = en().get(url)
    if "spreadsheetml" in response["Content-Type"]:
        book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
        return "\n".join(
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if value is not None
        )
    return response.content.decode()


def test_without_a_consent_every_public_page_shows_the_initials_and_start_number_only():
    secret, other = played_with(public_lists=False, public_season=False)
    label = f"G. G. (No. {secret.start_number})"
    for url in public_urls(secret):
        page = read(url)
        for word in SECRET.values():
            assert word not in page, (url, word)
        if "statistik" in url:
            continue  # names only the notable games' players, if any
        # the player's page and the season have no start number: the initials alone
        assert label in page or "G. G." in page, url
        if not any(part in url for part in ("saison", "/spieler/", "excel")):
            assert label in page, url
    # the others, who agreed, are named as before
    standings = en().get(reverse("event_standings", args=[other.event.slug])).content.decode()
    assert other.player.last_name in standings


def test_the_directors_list_of_players_names_everybody():
    secret, _other = played_with(public_lists=False)
    director = en()
    director.force_login(make_role(secret.event, ORGANISER))
    page = director.get(reverse("event_players", args=[secret.event.slug])).content.decode()
    assert SECRET["last_name"] in page and SECRET["club"] in page


def test_the_town_is_on_no_public_page_without_its_consent_and_on_the_player_page_with_it():
    secret, _other = played_with()  # name and club agreed to, not the town
    for url in public_urls(secret):
        assert SECRET["town"] not in read(url), url
    secret.player.town_shown = True
    secret.player.save()
    page = en().get(reverse("player", args=[secret.player.uid])).content.decode()
    assert SECRET["town"] in page


def test_a_consent_recorded_later_names_the_player_on_the_cached_pages_at_once():
    secret, _other = played_with(public_lists=False)
    url = reverse("event_standings", args=[secret.event.slug])
    assert SECRET["last_name"] not in en().get(url).content.decode()
    services.record_consents(
        consents=[
            Consent(
                player=secret.player,
                lists=True,
                wording=Consent.WORDING,
                via=Consent.Via.DESK,
                given_at=timezone.now(),
            )
        ]
    )
    assert SECRET["last_name"] in en().get(url).content.decode()


def test_the_published_season_names_only_who_agreed_to_the_website(tmp_path: Path):
    # name and club in the lists agreed to, the season's website not
    secret, other = played_with(public_lists=True, public_season=False)
    live = en().get(reverse("event_standings", args=[secret.event.slug])).content.decode()
    assert SECRET["last_name"] in live
    call_command(
        "publish_season", secret.event.season.slug, "--output", str(tmp_path), stdout=io.StringIO()
    )
    files = list(tmp_path.rglob("*.html"))
    assert files
    text = "\n".join(p.read_text() for p in files)
    for word in SECRET.values():
        assert word not in text, word
    assert other.player.last_name in text
    # the app's own pages still name the player afterwards (the page cache keeps them apart)
    live = en().get(reverse("event_standings", args=[secret.event.slug])).content.decode()
    assert SECRET["last_name"] in live


def test_where_do_i_sit_finds_a_player_without_consent_by_start_number_not_by_name():
    # a guessed name must not tell anyone that the person plays, nor their number
    secret, other = played_with(public_lists=False, public_season=False)
    url = reverse("where_do_i_sit", args=[secret.event.slug])
    by_name = en().get(url, {"q": "Gisela"}).content.decode()
    assert f"No. {secret.start_number}" not in by_name and "G. G." not in by_name
    assert "Nobody called" in by_name
    by_number = en().get(url, {"q": str(secret.start_number)}).content.decode()
    assert f"G. G. (No. {secret.start_number})" in by_number and "Table 1" in by_number
    # who agreed is found by name as before
    named = en().get(url, {"q": other.player.last_name}).content.decode()
    assert other.player.last_name in named
