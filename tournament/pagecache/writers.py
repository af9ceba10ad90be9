"""While a write's own request computes the pages of the version it made, the others get the
version before: a phone is not held up by a game saved at another table.

Every saved game makes a new version of its event, and the first request of a new version
computes the standings and the projector's rows (``pagecache.pages``). With a thousand players
that took some 50 ms of the server's time, 150 under a hall's load, and every phone that asked
in that moment waited for it, holding one of the server's threads: the hall's reads queued behind
each saved game (``bench/load.py`` at ten times the rate: p95 of 170 ms for pages served whole
from the cache).

Now the request that saved the game has the pages of its version computed right after its
answer has gone out, by a process beside its own (``views.fresh``), and says so with a marker in
the cache from the moment it writes the version, before its transaction commits, until the pages
are kept (``at_work``, ``done``): no other request can see the version before the marker. A
request that finds its version's page not yet kept and its version's writer at work is given the
page of the version before, if that one is kept, without waiting (``earlier``; looking back over
several writers at work, one version each).

How old such a page can be: a page of version ``v`` is served for version ``V`` only while the
writers of every version after ``v`` up to ``V`` are at work, from their write until their
pages are kept: one computation (some 50 ms for a thousand players, two or three times that
under a hall's load at ten times its rate). A phone that asks in that moment is shown the
standings without the newest game, and with it at its next look; the table's own phone has its
answer as soon as the game is stored. Pages for a login (the director's, a scorer's) are never
given the version before: they are the version itself, computed if need be. A version made by a
write that computes nothing (the director's page for an event's settings) has no marker: its
readers wait for it, as before. A writer that died at work (or whose process for the pages died)
leaves its marker for ``MARKER_TIMEOUT`` seconds at most; a writer whose transaction was rolled
back, or whose process for the pages is too far behind to take more, takes its marker back.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.core.cache import cache

# a writer that died at work leaves its marker this long at most: the version before is served
# for that long, after which the version's readers compute it themselves
MARKER_TIMEOUT = 10
# how many versions back a request looks: the writers at work at the same moment (36 tables
# posting at ten times the hall's rate: two or three)
LOOK_BACK = 6


def _marker(event_id: int, version: int) -> str:
    return f"writing:{event_id}:{version}"


def at_work(event_id: int, version: int) -> None:
    """The request that made ``version`` of the event is at work on it: from its write on,
    before its commit (``models.versions.written``), until ``done``."""
    # written while the write's transaction holds its lock: the file cache skips its look at
    # the folder's size (once a minute, thousands of files) for it
    quickly = getattr(cache, "set_quickly", None) or cache.set
    quickly(_marker(event_id, version), True, MARKER_TIMEOUT)


def done(event_id: int, versions: list[int]) -> None:
    """The pages of ``versions`` are kept, or will not be computed for their writer (it failed,
    its transaction was rolled back): the markers are taken away, whatever happened."""
    cache.delete_many([_marker(event_id, version) for version in versions])


def earlier(event_id: int, version: int) -> Iterator[int]:
    """The versions before ``version`` whose pages may be served in its stead, newest first:
    each only while the writers of every version after it are at work."""
    for back in range(LOOK_BACK):
        if not cache.get(_marker(event_id, version - back)):
            return
        yield version - back - 1
