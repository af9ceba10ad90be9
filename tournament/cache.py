"""The page cache on the laptop: Django's file cache, a folder every gunicorn worker shares.

Django's file cache lists its whole folder before every write to see whether it holds too many
entries (``_cull``). The page cache writes a few entries for each new version of an event, which
on a tournament day is every few seconds, and keeps thousands of entries: listing them all on each
write costs more than the write. Here each process looks at most once a minute; between two looks
the folder may grow past ``MAX_ENTRIES`` by what a minute writes, and old versions' pages expire
anyway (they are never read again).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache.backends.filebased import FileBasedCache


class PageFileCache(FileBasedCache):
    cull_every = 60.0  # seconds between two looks at the folder's size, per process

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._looked = -float("inf")

    def _cull(self) -> None:
        now = time.monotonic()
        if now - self._looked < self.cull_every:
            return
        self._looked = now
        super()._cull()
