"""Fixtures shared by the tournament tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.factories import (
    afresh,
    built_once,
    cego,
    make_season,
    make_table,
    make_user,
    reread,
)
from tests.helpers.world import WORLD_REASON, World
from tournament.models import Entry, Seat, Team
from tournament.play import services as play_services


@pytest.fixture
def scorer(client: Client) -> Client:
    client.force_login(make_user())
    return client


@pytest.fixture(scope="module")
def built_world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """A season with a Cego event: one started round, one table, one game entered, one squad;
    built once for the module's tests (``built_once``)."""
    with built_once(django_db_blocker):
        season = make_season()
        table = make_table(season=season)
        event = table.round.event
        squad = Team.objects.create(event=event, name="Spielgemeinschaft Rohrbach")
        Entry.objects.filter(event=event).update(squad=squad)
        hand = play_services.record_hand(table=table, data=cego())
        hand = play_services.edit_hand(hand=hand, data=cego(points=20), reason=WORLD_REASON)
        player = Seat.objects.get(table=table, position=0).entry.player
        yield reread(World(season, event, table.round, table, hand, player, squad))


@pytest.fixture
def world(built_world: World) -> World:
    return afresh(built_world)


@pytest.fixture
def english():
    """The messages are checked in English, whatever catalogue the default language has."""
    with translation.override("en"):
        yield


@pytest.fixture
def director(client: Client) -> Client:
    user = make_user()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
