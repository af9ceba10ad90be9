"""The page cache on the association's server: Django's Redis cache, shared by every app server.

Two things it adds to Django's backend (``settings.cache_from`` picks it for ``redis://``):

- **One computation per version across servers.** ``computing(name)`` is the lock
  ``tournament.pagecache`` holds while it computes a page, as the laptop's file cache has one: a
  Redis lock (redis-py's ``Lock``: a key set only if absent, with an expiry) that every app server
  shares, so that the first request of a new version computes the page and the others, on any
  server, wait for it. The lock expires after ``LOCK_TIMEOUT`` seconds, so a process killed while
  computing never blocks a page for longer; a request that waited ``WAIT`` seconds goes on and
  computes the page itself.
- **A cache that fails is no cache, not an error.** Redis stopped, restarted or unreachable: every
  read is a miss, every write is dropped, and the lock is not held, so the pages are computed from
  the database for each request (slower, never wrong: a key holds its version) instead of answering
  500. The first failure is logged as a warning, again at most every ``COMPLAIN_EVERY`` seconds per
  process; once Redis answers again the pages come from it as before. Connecting and answering each
  have a short timeout (``OPTIONS`` in settings), so a Redis that hangs costs a request a fraction
  of a second, not a worker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import LockError, RedisError

# how long a dead process's lock lives, how long a request waits for another's computation
# before computing itself, and how often it looks: the page cache's own (pages.py)
from tournament.pagecache.pages import LOCK_TIMEOUT, POLL, WAIT

COMPLAIN_EVERY = 30.0

logger = logging.getLogger(__name__)
T = TypeVar("T")


class PageRedisCache(RedisCache):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._complained = -float("inf")

    def _safely(self, call: Callable[[], T], failed: T) -> T:
        try:
            return call()
        except RedisError as error:
            self._complain(error)
            return failed

    def _complain(self, error: Exception) -> None:
        now = time.monotonic()
        if now - self._complained >= COMPLAIN_EVERY:
            self._complained = now
            logger.warning(
                "the page cache (Redis) does not answer (%s): pages are computed without it "
                "until it does",
                error,
            )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._safely(lambda: super(PageRedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._safely(lambda: super(PageRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._safely(lambda: super(PageRedisCache, self).has_key(key, version), False)

    def add(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> bool:
        # False ("someone else holds it") would make a request wait for a marker nobody set;
        # without Redis nobody waits for anybody
        return self._safely(
            lambda: super(PageRedisCache, self).add(key, value, timeout, version), True
        )

    def set(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> None:
        self._safely(lambda: super(PageRedisCache, self).set(key, value, timeout, version), None)

    def set_many(self, data: Any, timeout: Any = None, version: Any = None) -> list[Any]:
        return self._safely(
            lambda: super(PageRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._safely(lambda: super(PageRedisCache, self).delete(key, version), False)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._safely(lambda: super(PageRedisCache, self).delete_many(keys, version), None)

    @contextmanager
    def computing(self, name: str) -> Iterator[None]:
        """Held while the page ``name`` is computed, by one request of all app servers at a time:
        waits while another holds it, up to ``WAIT`` seconds; without Redis, not held at all."""
        key = self.make_and_validate_key(name) + ":computing"
        lock = None
        try:
            lock = self._cache.get_client(key, write=True).lock(
                key, timeout=LOCK_TIMEOUT, sleep=POLL, blocking_timeout=WAIT
            )
            held = lock.acquire()
        except RedisError as error:
            self._complain(error)
            held = False
        try:
            yield
        finally:
            # expired meanwhile (LOCK_TIMEOUT) or Redis gone: nothing left to free
            if held and lock is not None:
                with suppress(LockError, RedisError):
                    lock.release()
