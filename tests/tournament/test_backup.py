"""manage.py backup: a consistent copy of the running database that restores the same standings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.factories import cego, make_table
from tournament import services
from tournament.models import Entry

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)

STANDINGS = (
    "import json, django; django.setup();"
    "from tournament.models import Entry, Event;"
    "e = Event.objects.get(slug='{slug}');"
    "print(json.dumps([[x.start_number, x.rank, x.total] for x in Entry.objects.standings(e)]))"
)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's online backup")
def test_a_backup_restored_on_a_fresh_checkout_gives_the_same_standings(tmp_path):
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 34))
    services.record_hand(table=table, data=cego("solo", 2, 55))
    event = table.round.event
    expected = [[e.start_number, e.rank, e.total] for e in Entry.objects.standings(event)]
    backup = tmp_path / "backup.sqlite3"
    call_command("backup", str(backup))
    # "restore": a new process whose database is the backup file
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "DJANGO_SECRET_KEY": "x" * 50,
        "DATABASE_URL": f"sqlite:///{backup}",
    }
    result = subprocess.run(
        [sys.executable, "-c", STANDINGS.format(slug=event.slug)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected
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
