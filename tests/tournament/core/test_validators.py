"""Text that reaches a page, a printout or a workbook is one line of ordinary characters: control
characters are refused where the text comes in (forms, the admin, imports), with a message that
says which character and where (issue 11, finding 4)."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_season,
    make_table,
    make_user,
)
from tests.helpers.imports import GERMAN, PLAYERS, upload, xlsx_file
from tests.helpers.pages import html_tables
from tournament.access import ORGANISER
from tournament.core import validators
from tournament.core.fields import ReasonForm
from tournament.models import Event, Player, Season, Table, Team
from tournament.play import confirmations, hands
from tournament.play.forms import EventForm, SeasonForm
from tournament.register.forms import PairForm, PlayerForm, RegisterForm

pytestmark = pytest.mark.django_db

HOSTILE = [
    "J\x00rg",
    "J\x01\x0börg",
    "Tab\there",
    "Zeile\nzwei",
    "CR\r",
    "DEL\x7f",
    "C1\x85",
    "\u2028",
]
ORDINARY = ["Anna-Lena Müller", "O'Brien", "Zoë Ødegård", "李 小龙", "Jörg 🂡", "  spaced  "]


@pytest.mark.parametrize("text", HOSTILE)
def test_the_validator_refuses_control_characters_naming_the_character(text: str):
    with pytest.raises(ValidationError) as caught:
        validators.single_line(text)
    message = caught.value.messages[0]
    assert "control character" in message
    bad = next(ch for ch in text if validators.CONTROL.match(ch))
    assert f"U+{ord(bad):04X}" in message


@pytest.mark.parametrize("text", ORDINARY)
def test_the_validator_lets_ordinary_names_through(text: str):
    validators.single_line(text)


def test_one_line_turns_tabs_and_line_breaks_into_single_spaces():
    assert validators.one_line("  Anna\tMaria\r\n Müller \n") == "Anna Maria Müller"
    assert validators.one_line("Jö\x00rg") == "Jö\x00rg"  # not whitespace: left for the validator


@pytest.mark.parametrize(
    ("model", "values", "field"),
    [
        (Player, {"first_name": "J\x01rg", "last_name": "W"}, "first_name"),
        (Player, {"first_name": "J", "last_name": "W", "club": "CC\x0b"}, "club"),
        (Player, {"first_name": "J", "last_name": "W", "town": "Ort\n"}, "town"),
        (Season, {"name": "Saison\x07", "slug": "s"}, "name"),
        (
            Event,
            {"name": "T", "slug": "t", "date": datetime.date(2026, 1, 1), "venue": "Halle\x1b"},
            "venue",
        ),
    ],
)
def test_full_clean_refuses_control_characters_in_text_fields(model, values, field):
    with pytest.raises(ValidationError) as caught:
        model(**values).full_clean()
    assert field in caught.value.message_dict


def test_team_names_and_void_reasons_are_checked_too():
    event = make_event()
    with pytest.raises(ValidationError) as caught:
        Team(event=event, name="Team\x00").full_clean(exclude=["event"])
    assert "name" in caught.value.message_dict
    field = Table._meta.get_field("void_reason")
    with pytest.raises(ValidationError):
        field.run_validators("fehlt\x01")


@pytest.mark.parametrize(
    ("form", "data", "field"),
    [
        (PlayerForm, {"first_name": "J\x01rg", "last_name": "Weiß"}, "first_name"),
        (RegisterForm, {"first_name": "Jörg", "last_name": "We\x0biß"}, "last_name"),
        (RegisterForm, {"first_name": "Jörg", "last_name": "Weiß", "club": "CC\tX"}, "club"),
        (RegisterForm, {"first_name": "J", "last_name": "W", "team": "Die\x1bAsse"}, "team"),
        (SeasonForm, {"name": "Saison\x01", "slug": "saison"}, "name"),
        (ReasonForm, {"reason": "Tippfehler\x08"}, "reason"),
    ],
)
def test_forms_refuse_control_characters_with_a_message_on_the_field(form, data, field):
    bound = form(data)
    assert not bound.is_valid()
    assert "control character" in " ".join(bound.errors[field])


def test_the_event_form_refuses_a_control_character_in_the_name_and_venue():
    form = EventForm(
        {
            "name": "Turnier\x01",
            "date": "2026-10-03",
            "venue": "Hal\x0ble",
            "game": "cego",
            "table_policy": "exact",
            "target_table_size": 4,
            "rounds_planned": 2,
            "pairing": "drawn",
        }
    )
    assert not form.is_valid()
    assert "control character" in " ".join(form.errors["name"])
    assert "control character" in " ".join(form.errors["venue"])


def test_the_pair_form_refuses_a_control_character_in_the_pair_name():
    event = make_event(game="ziege")
    first, second = make_entries(event, 2)
    form = PairForm({"first": first.pk, "second": second.pk, "name": "Paar\x01"}, event=event)
    assert not form.is_valid()
    assert "control character" in " ".join(form.errors["name"])


def test_registering_a_player_with_control_characters_saves_nothing(client: Client):
    client.force_login(make_user())
    event = make_event()
    response = client.post(
        reverse("event_players", args=[event.slug]),
        {"first_name": "\x01\x0bEva", "last_name": "Maier"},
    )
    assert response.status_code == 200
    assert "control character" in response.content.decode()
    # the field's own error only: not also "give the first and last name" for the whole form
    assert response.context["form"].non_field_errors() == []
    assert Player.objects.count() == 0


def test_an_admin_edit_passes_through_the_same_check(client: Client):
    admin = make_user("admin")
    admin.is_superuser = True
    admin.save(update_fields=["is_superuser"])
    client.force_login(admin)
    player = make_player(first_name="Eva", last_name="Maier")
    response = client.post(
        reverse("admin:tournament_player_change", args=[player.pk]),
        {"first_name": "Eva\x01", "last_name": "Maier", "club": "", "town": "", "category": ""},
    )
    assert response.status_code == 200  # the form again, with the error
    player.refresh_from_db()
    assert player.first_name == "Eva"
    season = make_season()
    response = client.post(
        reverse("admin:tournament_season_change", args=[season.pk]),
        {"name": "Ne\x0bu", "slug": season.slug, "best_of": ""},
    )
    assert response.status_code == 200
    season.refresh_from_db()
    assert "\x0b" not in season.name


def submitted_table() -> Table:
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
    return confirmations.submit_table(table=table)


@pytest.mark.parametrize(
    ("reason", "says"),
    [("x" * 101, "at most 100 characters"), ("Tipp\x00fehler", "control character")],
    ids=["longer-than-the-history-keeps", "nul"],
)
def test_a_reason_the_history_cannot_keep_is_refused_with_a_message(client: Client, reason, says):
    """PostgreSQL refused a reason over 100 characters (the history's column) with an error 500,
    and any text with a NUL."""
    client.force_login(make_user())
    table = submitted_table()
    assert not ReasonForm({"reason": reason}).is_valid()
    response = client.post(
        reverse("table_confirm", args=[table.pk]), {"action": "reopen", "reason": reason}
    )
    assert response.status_code == 302
    assert any(says in str(m) for m in get_messages(response.wsgi_request))
    table.refresh_from_db()
    assert table.submitted_at is not None  # still handed in
    response = client.post(reverse("table_void", args=[table.pk]), {"reason": reason})
    assert any(says in str(m) for m in get_messages(response.wsgi_request))
    table.refresh_from_db()
    assert not table.voided


# --- direction marks (issue 43): a name turned round on the screen reads as another's ------------

# "Anna" + RIGHT-TO-LEFT OVERRIDE + "leirbaG": shown raw, the page reads "AnnaGabriel"
TURNED = "Anna\u202eleirbaG"
DIRECTION_MARKS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067"]
DIRECTION_MARKS += ["\u2068", "\u2069", "\u200e", "\u200f", "\u061c"]


@pytest.mark.parametrize("mark", DIRECTION_MARKS, ids=lambda m: f"U+{ord(m):04X}")
def test_the_validator_refuses_every_direction_mark_naming_it(mark: str):
    with pytest.raises(ValidationError) as caught:
        validators.single_line(f"Anna{mark}Maier")
    message = caught.value.messages[0]
    assert f"U+{ord(mark):04X}" in message and "position 5" in message
    assert "direction mark" in message


def english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_online_registration_refuses_a_turned_name_and_saves_nothing():
    event = make_event(registration_open=True)
    client = english(Client())
    page = client.get(reverse("event_register", args=[event.slug])).content.decode()
    key = re.search(r'name="submission" value="([^"]+)"', page).group(1)
    response = client.post(
        reverse("event_register", args=[event.slug]),
        {
            "first_name": TURNED,
            "last_name": "Maier",
            "club": "",
            "town": "",
            "category": "",
            "consent": "on",
            "submission": key,
        },
    )
    assert "Remove the invisible direction mark U+202E" in html.unescape(response.content.decode())
    assert not event.entries.exists() and not Player.objects.exists()


def test_the_desk_and_the_check_in_refuse_a_turned_name(client: Client):
    event = make_event()
    client.force_login(make_role(event, ORGANISER))
    english(client)
    response = client.post(
        reverse("event_players", args=[event.slug]), {"first_name": "Eva", "last_name": TURNED}
    )
    assert "Remove the invisible direction mark U+202E" in html.unescape(response.content.decode())
    walk_in = {
        "action": "walk_in",
        "first_name": TURNED,
        "last_name": "Maier",
        "club": "",
        "town": "",
        "category": "",
        "same_person": "new",
        "fee": "",
    }
    response = client.post(reverse("checkin", args=[event.slug]), walk_in, follow=True)
    assert "Remove the invisible direction mark U+202E" in html.unescape(response.content.decode())
    assert not event.entries.exists() and not Player.objects.exists()


def test_the_player_register_refuses_to_turn_a_players_name(client: Client):
    player = make_player(first_name="Eva", last_name="Maier")
    staff = make_user()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    english(client).force_login(staff)
    response = client.post(
        reverse("register_player", args=[player.uid]),
        {"first_name": "Eva", "last_name": TURNED, "club": "", "town": "", "category": ""},
    )
    assert "Remove the invisible direction mark U+202E" in html.unescape(response.content.decode())
    player.refresh_from_db()
    assert player.last_name == "Maier"


def test_a_player_list_with_a_turned_name_is_refused_at_its_row(client: Client):
    staff = make_user()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    english(client).force_login(staff)
    event = make_event()
    rows = [GERMAN, PLAYERS[0], ["Anna", TURNED, "", "", ""]]
    response = upload(
        client, reverse("import_players", args=[event.slug]), "spieler.xlsx", xlsx_file(rows)
    )
    shown = [row for _caption, body in html_tables(response.content.decode()) for row in body]
    refused = next(row for row in shown if "direction mark" in " ".join(row))
    assert "3" in refused  # the file's line
    assert "last name: Remove the invisible direction mark U+202E" in " ".join(refused)
    assert not event.entries.exists()
