"""The standings rows of an event's version, kept in this process: the standings page and the
projector's rows are computed one right after the other when a game is saved, and read them once.

The page cache (``pagecache.pages``) keeps the rendered pages across processes; this keeps the
ranked rows inside one, for the few events of a day. A new version is a new key, so a kept row
is never stale.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from tournament.models import Entry, Event, Round
from tournament.results import standings


def ranked(event: Event) -> tuple[list[Round], list[Entry]]:
    """The event's rounds and standings rows, ranked, in German name order within a rank, the
    last place marked: read once per version of the event in this process, for the standings
    page and the projector's rows alike (each is computed right after the other when a game is
    saved)."""
    key = (event.pk, event.version)
    with _RANKED_LOCK:
        kept = _RANKED.get(key)
    if kept is None:
        rounds = standings.rounds_of(event)
        rows = standings.named_rows(Entry.objects.standings(event, rounds))
        kept = (rounds, list(standings.mark_last_place(rows)))
        with _RANKED_LOCK:
            _RANKED[key] = kept
            while len(_RANKED) > RANKED_KEPT:
                _RANKED.popitem(last=False)
    return list(kept[0]), list(kept[1])


RANKED_KEPT = 8  # events' versions a process keeps: the few events of a day
_RANKED: OrderedDict[tuple[int, int], tuple[list[Round], list[Entry]]] = OrderedDict()
_RANKED_LOCK = threading.Lock()


def forget() -> None:
    """Drop every kept version (the tests start each test with none)."""
    with _RANKED_LOCK:
        _RANKED.clear()
