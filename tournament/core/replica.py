"""How fresh the live copy of the laptop's database is: what the director's event page says.

On the day, ``make serve`` runs Litestream beside the server when CEGO_REPLICA names a folder (a
USB stick, a second laptop's shared folder): every second it writes what changed in the SQLite
file to that folder, as LTX files under ``ltx/<level>/``, each named by its first and last
transaction id and dated by Litestream when it wrote it. ``status`` compares the newest of them
with the database's write-ahead log, where every write of the app lands first: a change the copy
has not received ``BEHIND_AFTER`` seconds after it was made is behind (Litestream stopped, the
stick is full or was pulled). A quiet database is never behind, however old its copy: the
lateness is counted from the change, not from the copy's last write. Only what Litestream
writes is looked at, one file a level, so a look costs a few directory reads however long the
day.
"""

from __future__ import annotations

import enum
import os
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection

# Litestream writes every second; a copy half a minute older than the database is not catching up
BEHIND_AFTER = 30.0


class State(enum.StrEnum):
    OFF = "off"  # no folder named: no copy is kept
    MISSING = "missing"  # the folder is not there (the stick is out) or is no folder
    READ_ONLY = "read_only"  # the folder is there, but may not be written
    EMPTY = "empty"  # nothing copied yet: Litestream has not written to the folder
    BEHIND = "behind"  # the database changed after the copy was last written, and long enough ago
    CURRENT = "current"


@dataclass(frozen=True)
class Copy:
    """The live copy as the event page shows it."""

    state: State
    folder: Path | None = None
    written: datetime | None = None  # when Litestream last wrote to the copy
    changed: datetime | None = None  # when the database last changed
    # the copy sits on the database's own disk (a stick that is not mounted leaves its mount
    # point as an empty folder on the laptop): it would die with the disk it should outlive
    same_disk: bool = False

    @property
    def warning(self) -> bool:
        """Whether the director must act: the copy would not save the day as it is."""
        return self.state not in (State.OFF, State.CURRENT) or self.same_disk

    # when the status was read: a change not yet copied has waited since ``changed``
    seen: datetime | None = None

    @property
    def waiting(self) -> bool:
        """Whether the database's last change is not on the copy yet."""
        return self.changed is not None and (self.written is None or self.changed > self.written)

    @property
    def behind(self) -> int:
        """Whole seconds the database's last change has waited for the copy (0: it is on it)."""
        if not self.waiting or self.seen is None:
            return 0
        return max(0, int((self.seen - self.changed).total_seconds()))


def status(
    folder: Path | None,
    database: Path,
    *,
    behind_after: float = BEHIND_AFTER,
    now: float | None = None,
) -> Copy:
    """The copy of the SQLite file ``database`` that Litestream keeps in ``folder``, as seen at
    ``now`` (seconds since the epoch; the present moment if None)."""
    if folder is None:
        return Copy(State.OFF)
    try:
        folder_stat = folder.stat()
    except OSError:  # gone, or a pulled stick that the system still lists (EIO)
        return Copy(State.MISSING, folder)
    if not folder.is_dir():
        return Copy(State.MISSING, folder)
    changed = _last_change(database)
    same_disk = database.exists() and folder_stat.st_dev == database.stat().st_dev
    if not os.access(folder, os.W_OK | os.X_OK):
        return Copy(State.READ_ONLY, folder, changed=changed, same_disk=same_disk)
    written_at = last_written(folder)
    if written_at is None:
        return Copy(State.EMPTY, folder, changed=changed, same_disk=same_disk)
    written = datetime.fromtimestamp(written_at, tz=UTC)
    seen = datetime.fromtimestamp(time.time() if now is None else now, tz=UTC)
    copy = Copy(State.CURRENT, folder, written, changed, same_disk=same_disk, seen=seen)
    if copy.waiting and copy.behind > behind_after:
        return replace(copy, state=State.BEHIND)
    return copy


def here() -> Copy | None:
    """The copy of this server's database, in the folder CEGO_REPLICA names (settings.REPLICA);
    None for a database that is no SQLite file (PostgreSQL on the association's server)."""
    if connection.vendor != "sqlite":
        return None
    return status(settings.REPLICA, Path(connection.settings_dict["NAME"]))


def last_written(folder: Path) -> float | None:
    """When Litestream last wrote a file of the copy in ``folder`` (seconds since the epoch).

    In each level's folder (``ltx/0``, ``ltx/1``, ... ``ltx/9``) the newest file is the one with
    the highest transaction ids, whose fixed-width hex names sort last: one stat a level, however
    many files the day has made. A compaction may remove a file between the listing and its stat;
    it has written a newer one then."""
    newest: float | None = None
    try:
        levels = [entry.path for entry in os.scandir(folder / "ltx") if entry.is_dir()]
    except OSError:
        return None
    for level in levels:
        try:
            names = [name for name in os.listdir(level) if name.endswith(".ltx")]
            if not names:
                continue
            mtime = os.stat(os.path.join(level, max(names))).st_mtime
        except OSError:
            continue
        newest = mtime if newest is None else max(newest, mtime)
    return newest


def _last_change(database: Path) -> datetime | None:
    """When the database last took a write: its write-ahead log's time, where every write of the
    app lands first (the laptop's SQLite runs in WAL mode). The database file's own time is not
    asked while there is a log: a checkpoint (SQLite's or Litestream's) moves pages already
    copied from the log into the file and changes its time without a change to copy."""
    for path in (Path(f"{database}-wal"), database):
        try:
            return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
        except OSError:
            continue
    return None


def move_aside(database: Path, when: datetime) -> Path | None:
    """Moves the SQLite file ``database`` out of the way of a restore, with what belongs to it:
    its -wal and -shm (SQLite would apply an old log to the restored file) and Litestream's state
    beside it. All go into a new folder ``<name>.before-restore-<time>/``, under their own names,
    so that the old database still opens there. Returns that folder, or None when there was no
    database."""
    if not database.exists():
        return None
    aside = database.with_name(f"{database.name}.before-restore-{when:%Y%m%d-%H%M%S}")
    aside.mkdir()
    for name in (database.name, f"{database.name}-wal", f"{database.name}-shm"):
        if (database.parent / name).exists():
            (database.parent / name).rename(aside / name)
    state = database.parent / f".{database.name}-litestream"
    if state.exists():
        state.rename(aside / state.name)
    return aside
