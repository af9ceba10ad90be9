"""The live copy's state as the director's event page says it: off, fresh, behind, nothing copied
yet, the folder gone or not writable, on the database's own disk; and a restore that moves the
database in its way aside instead of overwriting it.

Litestream's folder is built here as Litestream lays it out (``ltx/<level>/<first>-<last>.ltx``,
dated when written); tests/test_live_copy.py runs the real Litestream."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings

from tournament.core import replica
from tournament.core.replica import State

T = 1_796_450_000.0  # a moment of the day, in seconds since the epoch


def ltx(folder: Path, level: int, first: int, last: int, written: float) -> Path:
    """A file of the copy as Litestream names it, dated ``written``."""
    path = folder / "ltx" / str(level) / f"{first:016x}-{last:016x}.ltx"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"LTX1")
    os.utime(path, (written, written))
    return path


def database(folder: Path, changed: float, *, wal: float | None = None) -> Path:
    """A SQLite file last changed at ``changed``, with a write-ahead log changed at ``wal``."""
    path = folder / "db.sqlite3"
    path.write_bytes(b"SQLite format 3\0")
    os.utime(path, (changed, changed))
    if wal is not None:
        log = Path(f"{path}-wal")
        log.write_bytes(b"")
        os.utime(log, (wal, wal))
    return path


def at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def test_without_a_folder_the_copy_is_off_and_nothing_is_to_be_done(tmp_path):
    copy = replica.status(None, database(tmp_path, T))
    assert copy.state == State.OFF
    assert not copy.warning


def test_a_copy_written_after_the_last_change_is_current_and_says_when(tmp_path):
    folder = tmp_path / "usb" / "cego"
    ltx(folder, 9, 1, 1, T - 600)  # the day's snapshot
    ltx(folder, 1, 1, 40, T - 20)
    ltx(folder, 0, 41, 41, T - 5)
    ltx(folder, 0, 42, 42, T)
    copy = replica.status(folder, database(tmp_path, T - 300, wal=T - 0.5), now=T + 60)
    assert copy.state == State.CURRENT
    assert copy.written == at(T)
    assert copy.behind == 0


def test_a_quiet_database_is_current_however_old_its_copy(tmp_path):
    # the lunch break: the last game came in an hour ago and is on the copy since
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 7, T)
    copy = replica.status(folder, database(tmp_path, T - 10, wal=T - 1), now=T + 3600)
    assert copy.state == State.CURRENT
    assert copy.behind == 0


def test_the_first_game_after_a_quiet_hour_is_on_its_way_not_behind(tmp_path):
    # a game saved a second ago: Litestream writes it within the next second; the copy's last
    # write an hour before says nothing about a lag (the event page showed "43 s behind" here)
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 7, T - 3600)
    copy = replica.status(folder, database(tmp_path, T - 7200, wal=T), now=T + 1)
    assert copy.state == State.CURRENT
    assert copy.behind == 1


def test_a_change_not_on_the_copy_after_half_a_minute_is_behind(tmp_path):
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 7, T)
    copy = replica.status(folder, database(tmp_path, T - 60, wal=T + 5), now=T + 36)
    assert copy.state == State.BEHIND
    assert copy.warning
    assert copy.behind == 31
    assert copy.written == at(T)
    # still on its way at 29 s
    assert replica.status(folder, database(tmp_path, T - 60, wal=T + 5), now=T + 34).state == (
        State.CURRENT
    )


def test_a_checkpoint_into_the_database_file_is_no_change_to_copy(tmp_path):
    # Litestream's checkpoint moves pages it copied from the log into the file: the file's time
    # moves on, the log's does not, nothing is left to copy
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 7, T)
    copy = replica.status(folder, database(tmp_path, T + 45, wal=T - 1), now=T + 600)
    assert copy.state == State.CURRENT


def test_without_a_log_the_database_file_is_the_last_change(tmp_path):
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 7, T)
    assert replica.status(folder, database(tmp_path, T + 45), now=T + 90).state == State.BEHIND


def test_the_newest_file_of_any_level_is_when_the_copy_was_written(tmp_path):
    # a compaction keeps the time of what it compacted; the level-0 files go after 5 minutes
    folder = tmp_path / "cego"
    ltx(folder, 1, 1, 50, T)
    ltx(folder, 0, 1, 1, T - 400)
    assert replica.last_written(folder) == T


def test_a_folder_that_is_gone_is_a_missing_copy(tmp_path):
    copy = replica.status(tmp_path / "usb" / "cego", database(tmp_path, T))
    assert copy.state == State.MISSING
    assert copy.warning


def test_a_file_where_the_folder_should_be_is_a_missing_copy(tmp_path):
    (tmp_path / "cego").write_text("")
    assert replica.status(tmp_path / "cego", database(tmp_path, T)).state == State.MISSING


def test_a_folder_that_may_not_be_written_is_said_so(tmp_path, monkeypatch):
    # a write-protected stick; the tests run as root here, for whom every folder is writable
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 1, T)
    monkeypatch.setattr(replica.os, "access", lambda path, mode: False)
    copy = replica.status(folder, database(tmp_path, T))
    assert copy.state == State.READ_ONLY
    assert copy.warning


def test_a_folder_without_anything_of_litestream_holds_no_copy_yet(tmp_path):
    folder = tmp_path / "cego"
    (folder / "ltx" / "0").mkdir(parents=True)
    (folder / "notes.txt").write_text("not Litestream's")
    copy = replica.status(folder, database(tmp_path, T))
    assert copy.state == State.EMPTY
    assert copy.warning


def test_a_copy_on_the_databases_own_disk_is_a_warning_even_when_current(tmp_path):
    folder = tmp_path / "cego"
    ltx(folder, 0, 1, 1, T)
    copy = replica.status(folder, database(tmp_path, T))
    assert copy.state == State.CURRENT
    assert copy.same_disk
    assert copy.warning


@pytest.mark.skipif(
    not Path("/dev/shm").is_dir() or os.stat("/dev/shm").st_dev == os.stat("/tmp").st_dev,
    reason="needs a second file system",
)
def test_a_copy_on_another_disk_is_no_warning(tmp_path):
    import tempfile

    with tempfile.TemporaryDirectory(dir="/dev/shm") as other:
        folder = Path(other) / "cego"
        ltx(folder, 0, 1, 1, T)
        copy = replica.status(folder, database(tmp_path, T))
    assert copy.state == State.CURRENT
    assert not copy.same_disk
    assert not copy.warning


# --- restoring --------------------------------------------------------------------------------


def test_a_restore_moves_the_database_in_its_way_aside_with_its_log(tmp_path):
    db = database(tmp_path, T, wal=T)
    Path(f"{db}-shm").write_bytes(b"")
    (tmp_path / ".db.sqlite3-litestream").mkdir()
    (tmp_path / "db.sqlite3-writer.lock").write_bytes(b"")
    aside = replica.move_aside(db, datetime(2026, 10, 3, 14, 5, 9))
    assert aside == tmp_path / "db.sqlite3.before-restore-20261003-140509"
    assert sorted(p.name for p in aside.iterdir()) == [
        ".db.sqlite3-litestream",
        "db.sqlite3",
        "db.sqlite3-shm",
        "db.sqlite3-wal",
    ]
    assert not db.exists() and not Path(f"{db}-wal").exists()
    assert (tmp_path / "db.sqlite3-writer.lock").exists()  # no state of its own: it may stay


def test_a_restore_onto_a_fresh_laptop_moves_nothing(tmp_path):
    assert replica.move_aside(tmp_path / "db.sqlite3", datetime(2026, 10, 3)) is None
    assert list(tmp_path.iterdir()) == []


def test_restore_replica_needs_the_folder_named(tmp_path):
    with override_settings(REPLICA=None), pytest.raises(CommandError, match="CEGO_REPLICA="):
        call_command("restore_replica")


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the live copy is the laptop's (SQLite)")
def test_restore_replica_refuses_a_folder_without_a_copy_and_keeps_the_database(tmp_path):
    (tmp_path / "cego").mkdir()
    here = Path(connection.settings_dict["NAME"])
    with override_settings(REPLICA=tmp_path / "cego"), pytest.raises(CommandError, match="No copy"):
        call_command("restore_replica")
    assert not list(here.parent.glob(f"{here.name}.before-restore-*"))
