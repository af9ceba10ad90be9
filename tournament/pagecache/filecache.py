"""The page cache on the laptop: Django's file cache, a folder every gunicorn worker shares.

Django's file cache lists its whole folder before every write to see whether it holds too many
entries (``_cull``). The page cache writes a few entries for each new version of an event, which
on a tournament day is every few seconds, and keeps thousands of entries: listing them all on each
write costs more than the write. Here each process looks at most once a minute; between two looks
the folder may grow past ``MAX_ENTRIES`` by what a minute writes, and old versions' pages expire
anyway (they are never read again).

It also gives ``tournament.pagecache`` a lock for "this page is being computed" that every process
and thread of the laptop shares: a lock on a file (``flock``) in the cache's folder. A request that
waits for another's computation sleeps in the kernel until the lock is released, instead of
looking again every few milliseconds: the waiting requests' looks, each taking Python's
interpreter lock, slowed the computation they waited for (``bench/load.py``). A process that dies
releases its locks with its files.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache.backends.filebased import FileBasedCache

# locks are files named after a digest of the page's key: this many, used again and again, so
# that none is ever deleted (deleting a lock file others wait on is a classic race); two pages
# sharing one only wait for each other now and then
LOCK_FILES = 256


# set while a thread writes without looking at the folder's size (``set_quickly``)
_quick = threading.local()


class PageFileCache(FileBasedCache):
    cull_every = 60.0  # seconds between two looks at the folder's size, per process

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._looked = -float("inf")

    def set_quickly(self, key: str, value: Any, timeout: Any) -> None:
        """``set`` without a look at the folder's size: a writer's marker, written while its
        transaction holds the database's write lock (``pagecache.writers.at_work``)."""
        _quick.on = True
        try:
            self.set(key, value, timeout)
        finally:
            _quick.on = False

    def _cull(self) -> None:
        if getattr(_quick, "on", False):
            return
        now = time.monotonic()
        if now - self._looked < self.cull_every:
            return
        self._looked = now
        super()._cull()

    def _write_content(self, file: Any, timeout: Any, value: Any) -> None:
        # as Django's, but packed at zlib's fastest level: a new version's pages are written
        # once and read a few hundred times, and half of what is written is gzip already (the
        # whole responses), and the default level costs noticeably more to write
        expiry = self.get_backend_timeout(timeout)
        file.write(pickle.dumps(expiry, self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), 1))

    def _lock_path(self, name: str) -> str:
        digest = hashlib.blake2b(name.encode(), digest_size=4).digest()
        number = int.from_bytes(digest) % LOCK_FILES
        folder = os.path.join(self._dir, "locks")  # beside the entries: clear() leaves it
        os.makedirs(folder, mode=0o700, exist_ok=True)
        return os.path.join(folder, f"{number:02x}.lock")

    @contextmanager
    def computing(self, name: str) -> Iterator[None]:
        """Held while the page ``name`` is computed: waits while another request holds it."""
        descriptor = os.open(self._lock_path(name), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(descriptor, fcntl.LOCK_UN)
        finally:
            os.close(descriptor)
