"""The kept PostgreSQL connection's health check (Django's ``CONN_HEALTH_CHECKS``, settings): a
connection the server has ended (a restart, an administrator) is found out and replaced, so the
next request is answered normally."""

from __future__ import annotations

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from tests.factories import make_event
from tournament.models import Event

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),  # between requests: no transaction open
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="PostgreSQL's backend",
    ),
]


@pytest.fixture
def observer():
    """A connection of its own, to watch the app's connection from the server's side."""
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"],
        dbname=db["NAME"],
        autocommit=True,
    ) as watching:
        yield watching


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_connection_the_server_ended_is_replaced_before_the_next_request_uses_it(observer):
    make_event(name="Herbstturnier")
    pid = backend_pid()
    # a restart or an administrator: the server process behind the app's connection is gone
    assert observer.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone() == (True,)
    assert not connection.is_usable()
    # what Django does before each request with a kept connection
    connection.health_check_done = False
    connection.close_if_health_check_failed()
    assert backend_pid() != pid
    assert Event.objects.get().name == "Herbstturnier"
