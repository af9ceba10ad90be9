"""The kept PostgreSQL connection's health check (tournament/postgresql/base.py): a healthy
connection is taken as it is, without a question to the server; one the server has ended is
found out and replaced, so the next request is answered normally."""

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
        settings.DATABASES["default"]["ENGINE"] != "tournament.postgresql",
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


def last_statement(observer: psycopg.Connection, pid: int) -> str:
    return observer.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[
        0
    ]


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_healthy_kept_connection_is_used_without_a_question_to_the_server(observer):
    pid = backend_pid()
    assert last_statement(observer, pid) == "SELECT pg_backend_pid()"
    assert connection.is_usable()
    # Django's own check would have sent SELECT 1: the server saw nothing
    assert last_statement(observer, pid) == "SELECT pg_backend_pid()"
    assert backend_pid() == pid  # and the connection goes on serving


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
