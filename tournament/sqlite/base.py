"""Django's SQLite backend, with the writers of a database file taking turns at a file lock.

SQLite lets one transaction write at a time. A writer that finds the database locked does not
wait for the lock's release: SQLite's busy handler sleeps and looks again, after 1, 2, 5, 10, 15,
20, 25 ... ms, so a game posted while another is being stored often waits several times as long
as the other takes. Here every transaction (``BEGIN IMMEDIATE``: each one writes, see the settings)
first takes an exclusive ``flock`` on a lock file beside the database, and releases it at its
commit or rollback: a waiting writer sleeps in the kernel and goes on the moment the lock is free.
A process that dies releases its lock with it; gunicorn's timeout ends a stuck request's process.
An in-memory database has no file and no lock. It shortens the slowest game posts, not the
typical one (``bench/run.py --only http``; figures in docs/performance.md).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from contextlib import suppress
from typing import Any

from django.db.backends.sqlite3 import base, creation, features


class DatabaseFeatures(features.DatabaseFeatures):
    # SQLite takes 32,766 parameters in a statement since 3.32 (Django assumes the 999 of older
    # versions): a bulk write of a player list or a bundle then goes in a few statements, not a
    # statement for every 999 values (a wider row, a new column, no longer adds statements)
    max_query_params = 32_766 if sqlite3.sqlite_version_info >= (3, 32) else 999


def lock_path(database: str) -> str:
    """The lock file of a database file: beside it, named after it."""
    return f"{database}-writer.lock"


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name: str, verbosity: int) -> None:
        super()._destroy_test_db(test_database_name, verbosity)
        if not self.is_in_memory_db(test_database_name):
            with suppress(FileNotFoundError):
                os.remove(lock_path(test_database_name))


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation
    features_class = DatabaseFeatures

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._writer_lock: int | None = None  # the lock file's descriptor while this one writes

    def _take_writer_lock(self) -> None:
        if self.is_in_memory_db():
            return
        fd = os.open(lock_path(str(self.settings_dict["NAME"])), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        self._writer_lock = fd

    def _release_writer_lock(self) -> None:
        fd, self._writer_lock = self._writer_lock, None
        if fd is not None:
            os.close(fd)  # closing the descriptor releases its lock

    def _start_transaction_under_autocommit(self) -> None:
        self._take_writer_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer_lock()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_writer_lock()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_writer_lock()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_writer_lock()
