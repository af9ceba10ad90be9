"""The check that a request changed nothing (``tests.helpers.db.no_writes``) fails when something
was written, and only then: the tests of refused input rest on it."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from tests.factories import make_event, make_player
from tests.helpers.db import no_writes
from tournament.models import Event, Player

pytestmark = pytest.mark.django_db


def test_it_catches_an_update() -> None:
    event = make_event()
    with pytest.raises(AssertionError, match=r'UPDATE "tournament_event"'), no_writes():
        Event.objects.filter(pk=event.pk).update(venue="Festhalle")


def test_it_catches_a_save_an_insert_and_a_delete() -> None:
    player = make_player()
    player.club = "CC Neu"
    with pytest.raises(AssertionError, match="UPDATE"), no_writes():
        player.save()
    with pytest.raises(AssertionError, match="INSERT"), no_writes():
        make_player()
    with pytest.raises(AssertionError, match="DELETE"), no_writes():
        Player.objects.filter(pk=player.pk).delete()


def test_it_lets_reads_pass() -> None:
    make_event()
    with no_writes():
        assert list(Event.objects.values_list("venue", flat=True)) == [""]


def test_it_lets_a_named_table_be_written_and_no_other() -> None:
    with no_writes(except_in={"django_session"}):
        Session.objects.create(session_key="k" * 32, session_data="", expire_date=timezone.now())
    with (
        pytest.raises(AssertionError, match="tournament_player"),
        no_writes(except_in={"django_session"}),
    ):
        make_player()
