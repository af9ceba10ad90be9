"""An event's address (its slug) made from its name as a German writes it without umlauts."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.helpers.forms import event_post
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_a_new_events_address_spells_out_its_umlauts(director: Client):
    response = director.post(reverse("event_create"), event_post(name="Turnier Gütenbach"))
    assert response.status_code == 302
    event = Event.objects.get(name="Turnier Gütenbach")
    assert event.slug == "turnier-guetenbach"
    assert director.get("/turnier/turnier-guetenbach/").status_code == 200
    director.post(reverse("event_create"), event_post(name="Übach-Palenberg Straßenfest"))
    assert Event.objects.get(name="Übach-Palenberg Straßenfest").slug == (
        "uebach-palenberg-strassenfest"
    )
