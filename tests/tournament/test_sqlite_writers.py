"""SQLite's writers take turns at a file lock (tournament/sqlite/base.py): a game posted while
another is being stored waits for exactly that one, and no writer is ever turned away or left
waiting on SQLite's own busy handler."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap
import threading
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import close_old_connections, connection, transaction

from tests.factories import cego, make_table
from tournament.core import errors as core_errors
from tournament.models import Hand
from tournament.play import hands
from tournament.sqlite.base import lock_path

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "tournament.sqlite",
        reason="the file lock is SQLite's; PostgreSQL wakes its waiting writers itself",
    ),
]

ROOT = Path(__file__).resolve().parents[2]


def lock_is_free() -> bool:
    """Whether nobody holds the database's writer lock (asked from a descriptor of our own)."""
    fd = os.open(lock_path(connection.settings_dict["NAME"]), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def in_thread(work) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            # no busy wait at all: without the file lock this writer's BEGIN IMMEDIATE would
            # fail at once with "database is locked" while the other writer holds SQLite's lock
            connection.ensure_connection()
            connection.connection.execute("PRAGMA busy_timeout = 0")
            work()
        except BaseException as exc:  # asserted on below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


def test_a_second_game_waits_for_the_first_and_is_stored_after_it_without_a_busy_wait():
    table = make_table()
    holding, release = threading.Event(), threading.Event()

    def first() -> None:
        with transaction.atomic():
            hands.record_hand(table=table, data=cego("halbe", 0, 40), submission_key=uuid.uuid4())
            holding.set()
            release.wait(10)

    def second() -> None:
        hands.record_hand(table=table, data=cego("halbe", 1, 50), submission_key=uuid.uuid4())

    one, errors_one = in_thread(first)
    assert holding.wait(10)
    assert not lock_is_free()
    two, errors_two = in_thread(second)
    two.join(0.3)
    assert two.is_alive(), "the second game went ahead while the first was being stored"
    assert list(Hand.objects.filter(table=table)) == []  # the first is not committed yet
    release.set()
    one.join(10)
    two.join(10)
    assert (errors_one, errors_two) == ([], [])
    played = Hand.objects.filter(table=table).order_by("number")
    assert [(h.number, h.data["declarer_points"]) for h in played] == [(1, 40), (2, 50)]
    assert lock_is_free()


def test_a_game_refused_mid_way_rolls_back_and_lets_the_next_one_in():
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego("halbe", 0, 40), submission_key=uuid.uuid4())

    def refused() -> None:
        # the round's one game is stored: the second is refused inside its transaction
        hands.record_hand(table=table, data=cego("halbe", 1, 50), submission_key=uuid.uuid4())

    thread, errors = in_thread(refused)
    thread.join(10)
    assert [type(e) for e in errors] == [core_errors.Refused]
    assert lock_is_free()
    other = make_table()
    thread, errors = in_thread(
        lambda: hands.record_hand(
            table=other, data=cego("halbe", 2, 60), submission_key=uuid.uuid4()
        )
    )
    thread.join(10)
    assert errors == []
    assert Hand.objects.filter(table=other).count() == 1


def test_a_killed_server_process_leaves_no_writer_waiting():
    table = make_table()
    name = connection.settings_dict["NAME"]
    # a process of its own (as a gunicorn worker is) opens a transaction and is killed in it
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import time, django
                django.setup()
                from django.db import connection, transaction
                with transaction.atomic():
                    connection.cursor().execute("UPDATE tournament_table SET number = number")
                    print("holding", flush=True)
                    time.sleep(60)
                """
            ),
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": f"sqlite:///{name}",
        },
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        assert not lock_is_free()
        thread, errors = in_thread(
            lambda: hands.record_hand(
                table=table, data=cego("halbe", 0, 40), submission_key=uuid.uuid4()
            )
        )
        thread.join(0.3)
        assert thread.is_alive(), "a game was stored while another process held the lock"
        holder.kill()
        holder.wait(10)
        thread.join(20)
        assert not thread.is_alive(), "the game still waits for a lock its holder took to the grave"
        assert errors == []
    finally:
        holder.kill()
        holder.wait(10)
    assert Hand.objects.filter(table=table).count() == 1
    assert lock_is_free()
