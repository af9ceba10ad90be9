"""The privacy notice (issue 46.2): one page in German and English that names who answers for
the players' data, linked from every public page's footer, the registration form, the personal
page and the prints, and published with the season."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.checks import registry
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import make_entries, make_event, make_played_season, make_round

pytestmark = pytest.mark.django_db

CONTROLLER = {
    "name": "Cego-Verband Schwarzwald e.V.",
    "address": "Hauptstraße 1, 78120 Furtwangen",
    "email": "datenschutz@cego-verband.example",
}
PRIVACY = reverse("privacy")


def speaking(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@override_settings(PRIVACY_CONTROLLER=CONTROLLER)
@pytest.mark.parametrize(
    ("language", "heading"), [("de", "Datenschutzhinweise"), ("en", "Privacy notice")]
)
def test_the_notice_names_the_controller_in_german_and_in_english(language, heading):
    page = speaking(language).get(PRIVACY).content.decode()
    assert f"<h1>{heading}</h1>" in page
    assert CONTROLLER["name"] in page and "Hauptstraße 1, 78120 Furtwangen" in page
    assert f'href="mailto:{CONTROLLER["email"]}"' in page


@override_settings(PRIVACY_CONTROLLER={"name": "", "address": "", "email": ""})
def test_without_the_controllers_details_the_notice_says_whom_to_ask():
    page = speaking("en").get(PRIVACY).content.decode()
    assert "The organiser has not entered their details yet" in page


def test_the_notice_is_linked_from_public_pages_the_registration_form_and_the_personal_page():
    event = make_event(registration_open=True)
    [entry] = make_entries(event, 1)
    make_entries(event, 3)
    make_round(event)
    client = speaking("en")
    for url in (
        reverse("home"),
        reverse("event", args=[event.slug]),
        reverse("event_standings", args=[event.slug]),
        reverse("round_seating", args=[event.slug, 1]),
        reverse("player", args=[entry.player.uid]),
        reverse("print_standings", args=[event.slug]),
        reverse("personal_link", args=[entry.token]),
    ):
        assert f'href="{PRIVACY}"' in client.get(url).content.decode(), url
    # the registration form of an event that takes registrations (the one above is drawn)
    form = client.get(reverse("event_register", args=[make_event(registration_open=True).slug]))
    form = form.content.decode()
    # beside the consent box, inside the form
    inside = form.split('name="consent"', 1)[1].split("</form>", 1)[0]
    assert f'href="{PRIVACY}"' in inside


def test_the_published_season_carries_the_notice_and_links_it_from_every_page(tmp_path: Path):
    season = make_played_season()
    with override_settings(PRIVACY_CONTROLLER=CONTROLLER):
        call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    for language in ("de", "en"):
        notice = (tmp_path / language / "datenschutz.html").read_text()
        assert CONTROLLER["name"] in notice
        folder = tmp_path / language
        for page in folder.rglob("*.html"):
            depth = len(page.relative_to(folder).parts) - 1
            assert f'href="{"../" * depth}datenschutz.html"' in page.read_text(), page


@pytest.mark.parametrize(
    ("controller", "warned"),
    [
        (CONTROLLER, False),
        ({"name": ""}, True),
        # deploy/cego.env as it comes, before the recipe puts the association's name in
        ({"name": "CHANGE-ME-association"}, True),
    ],
)
def test_the_deployment_check_warns_while_nobody_is_named(controller, warned):
    with override_settings(PRIVACY_CONTROLLER=controller):
        found = registry.run_checks(include_deployment_checks=True)
    assert any(check.id == "tournament.W004" for check in found) is warned
