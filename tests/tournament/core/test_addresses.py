"""The address phones in the hall use: what a director may enter, which addresses reach only this
machine, the server's setting, and the event page's field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import make_event, make_table, make_user
from tests.helpers.forms import event_post
from tournament import checks
from tournament.core import addresses


@pytest.mark.parametrize(
    "value",
    ["http://192.168.1.20:8000", "http://192.168.1.20:8000/", "https://turnier.example.org", ""],
)
def test_an_address_with_scheme_host_and_port_is_accepted(value: str):
    addresses.validate_origin(value)


@pytest.mark.parametrize(
    "value",
    [
        "192.168.1.20:8000",  # no scheme: a phone's camera app would not open it
        "ftp://192.168.1.20",
        "http://",
        "http://192.168.1.20:8000/turnier/",
        "http://192.168.1.20:80a0",
        "http://192.168.1.20/?x=1",
        "http://user@192.168.1.20",
    ],
)
def test_an_address_with_more_or_less_than_scheme_host_and_port_is_rejected(value: str):
    with pytest.raises(ValidationError, match=re.escape("for example http://192.168.1.20:8000")):
        addresses.validate_origin(value)


@pytest.mark.parametrize(
    ("value", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.0.1.1:8000", True),
        ("http://localhost:8000", True),
        ("http://LOCALHOST", True),
        ("http://[::1]:8000", True),
        ("http://0.0.0.0:8000", True),
        ("http://192.168.1.20:8000", False),
        ("http://[fd00::2]:8000", False),
        ("http://turnier.local:8000", False),
    ],
)
def test_loopback_addresses_are_recognised(value: str, loopback: bool):
    assert addresses.is_loopback(value) is loopback


@pytest.mark.django_db
def test_the_director_sets_the_address_for_phones_on_the_event_page(client: Client):
    event = make_event()
    client.force_login(make_user())
    url = reverse("event_edit", args=[event.slug])
    response = client.post(
        url, event_post(name=event.name, slug=event.slug, public_url="http://192.168.1.20:8000")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.public_url == "http://192.168.1.20:8000"
    assert 'value="http://192.168.1.20:8000"' in client.get(url).content.decode()


@pytest.mark.django_db
def test_a_wrong_address_for_phones_is_rejected_with_an_example(client: Client):
    event = make_event()
    client.force_login(make_user())
    response = client.post(
        reverse("event_edit", args=[event.slug]),
        event_post(name=event.name, slug=event.slug, public_url="192.168.1.20"),
    )
    assert response.status_code == 200
    assert "for example http://192.168.1.20:8000" in response.content.decode()
    event.refresh_from_db()
    assert event.public_url == ""


@pytest.mark.parametrize(
    ("value", "ids"),
    [
        ("", []),
        ("http://192.168.1.20:8000", []),
        ("192.168.1.20", ["tournament.W002"]),
        ("http://127.0.0.1:8000", ["tournament.W003"]),
    ],
)
def test_the_system_check_warns_about_a_public_url_phones_cannot_use(
    settings: Any, value: str, ids: list[str]
):
    settings.PUBLIC_URL = value
    assert [w.id for w in checks.public_url_is_an_address(None)] == ids


@pytest.mark.django_db
def test_the_scorers_table_page_shows_the_table_link_at_the_address_for_phones(client: Client):
    table = make_table(public_url="http://192.168.1.20:8000")
    client.force_login(make_user())
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert f"http://192.168.1.20:8000/t/{table.token}/" in html
