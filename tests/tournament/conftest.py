"""Fixtures shared by the tournament tests."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.utils import translation

from tests.factories import cego, make_season, make_table, make_user
from tests.helpers.world import WORLD_REASON, World
from tournament.models import Entry, Seat, Team
from tournament.play import hands


@pytest.fixture
def scorer(client: Client) -> Client:
    client.force_login(make_user())
    return client


@pytest.fixture(scope="module")
def built_world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """A season with a Cego event: one started round, one table, one game entered and corrected,
    one squad; built once for the module's tests, as Django's ``TestCase.setUpTestData`` builds a
    class's data: in a transaction rolled back after the module's last test, each test in a
    savepoint inside it (pytest-django), so that what a test writes is gone before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        season = make_season()
        table = make_table(season=season)
        event = table.round.event
        squad = Team.objects.create(event=event, name="Spielgemeinschaft Rohrbach")
        Entry.objects.filter(event=event).update(squad=squad)
        hand = hands.record_hand(table=table, data=cego())
        hand = hands.edit_hand(hand=hand, data=cego(points=20), reason=WORLD_REASON)
        player = Seat.objects.get(table=table, position=0).entry.player
        world = World(season, event, table.round, table, hand, player, squad)
        for row in vars(world).values():
            row.refresh_from_db()  # as the database has them after the writes above
        yield world
        transaction.set_rollback(True)


@pytest.fixture
def world(built_world: World) -> World:
    """The shared world for one test: a deep copy, as ``setUpTestData`` gives each test its data,
    so that no test sees another's changes to the objects."""
    return copy.deepcopy(built_world)


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
