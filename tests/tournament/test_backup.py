"""manage.py backup: a consistent copy of the running database that restores the same standings."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.factories import cego, make_table
from tournament.models import Entry
from tournament.play import hands

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)

STANDINGS = (
    "import json, django; django.setup();"
    "from tournament.models import Entry, Event;"
    "e = Event.objects.get(slug='{slug}');"
    "print(json.dumps([[x.start_number, x.rank, x.total] for x in Entry.objects.standings(e)]))"
)


def standings_in(database: Path, slug: str) -> list[list[int]]:
    """The event's standings as a new process reads them from the SQLite file ``database``."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "DJANGO_SECRET_KEY": "x" * 50,
        "DATABASE_URL": f"sqlite:///{database}",
    }
    result = subprocess.run(
        [sys.executable, "-c", STANDINGS.format(slug=slug)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's online backup")
def test_a_backup_restored_on_a_fresh_checkout_gives_the_same_standings(tmp_path):
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.record_hand(table=table, data=cego("solo", 2, 55))
    event = table.round.event
    expected = [[e.start_number, e.rank, e.total] for e in Entry.objects.standings(event)]
    backup = tmp_path / "backup.sqlite3"
    call_command("backup", str(backup))
    # "restore": a new process whose database is the backup file
    assert standings_in(backup, event.slug) == expected
    assert expected[0][2] != 0


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's online backup")
def test_a_backup_never_overwrites_an_existing_file(tmp_path):
    target = tmp_path / "kept.sqlite3"
    target.write_text("an older backup")
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(target))
    assert target.read_text() == "an older backup"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
def test_on_postgresql_the_backup_command_points_to_pg_dump(tmp_path):
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup", str(tmp_path / "x"))


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's online backup")
def test_a_backup_restored_as_the_readme_says_over_a_database_with_later_writes(tmp_path):
    """The restore of docs/deployment.md: the server stopped, the old database's -wal and -shm
    deleted, the backup copied to its name. The database it replaces has later writes still in its
    write-ahead log; they must not leak into the restored file."""
    import shutil

    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    event = table.round.event
    expected = [[e.start_number, e.rank, e.total] for e in Entry.objects.standings(event)]
    backup = tmp_path / "backup.sqlite3"
    call_command("backup", str(backup))
    live = tmp_path / "db.sqlite3"
    shutil.copy(backup, live)
    # the day went on after the backup, and the server was killed rather than stopped: its
    # last writes are still in the write-ahead log beside the database
    killed = (
        "import os, sqlite3, sys; db = sqlite3.connect(sys.argv[1]);"
        " db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA wal_autocheckpoint=0');"
        " db.execute('UPDATE tournament_seat SET points = points + 1000'); db.commit();"
        " os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", killed, str(live)], check=True, timeout=60)
    assert (tmp_path / "db.sqlite3-wal").stat().st_size > 0
    # the steps of docs/deployment.md
    for leftover in ("db.sqlite3-wal", "db.sqlite3-shm"):
        (tmp_path / leftover).unlink(missing_ok=True)
    shutil.copy(backup, live)
    assert standings_in(live, event.slug) == expected


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's online backup")
def test_standings_after_restoring_a_backup_with_the_page_cache_left_running(tmp_path):
    """The handbook's restore, with the page cache (and the phones' ETags) of the games the
    restore wipes still there: the next game's standings are the database's, never a page kept
    for a version the wiped games had (issue 42)."""
    from django.core.cache import cache
    from django.test import Client

    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    event = table.round.event
    url = f"/turnier/{event.slug}/rangliste/"
    phone = Client()
    assert phone.get(url).status_code == 200
    backup = tmp_path / "backup.sqlite3"
    call_command("backup", str(backup))
    hands.record_hand(table=table, data=cego("solo", 2, 55))  # the game the restore wipes
    wiped = phone.get(url)
    assert wiped.status_code == 200
    # the restore: the backup's pages written over the database (the cache is not touched)
    with sqlite3.connect(backup) as source:
        source.backup(connection.connection)
    source.close()
    assert table.hands.count() == 1
    hands.record_hand(table=table, data=cego("eine", 1, 41))  # the day goes on
    again = phone.get(url, headers={"If-None-Match": wiped["ETag"]})
    assert again.status_code == 200  # not "unchanged": the phone's page is of the wiped game
    expected = [[e.start_number, e.rank, e.total] for e in Entry.objects.standings(event)]
    shown = again.content.decode()
    cache.clear()
    assert Client().get(url).content.decode() == shown  # the page as computed from the database
    assert expected[0][2] != 0
