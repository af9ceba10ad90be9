"""The standings rows of an event's version, kept in this process: the standings page and the
projector's rows are computed one right after the other when a game is saved, and read them once.

The page cache (``pagecache.pages``) keeps the rendered pages across processes; this keeps the
ranked rows inside one, for the few events of a day. A new version is a new key, so a kept row
is never stale.

Each player's personal page shows the player's own rank and total: ``ranking`` is every entry's
rank and total of a version, the same for every player, kept in the page cache (computed once
for all processes, with the rows when the standings are computed) and in this process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from tournament.models import Entry, Event, Round
from tournament.pagecache import writers
from tournament.pagecache.pages import TIMEOUT, part_key, shared_part
from tournament.results import standings


def ranked(event: Event, *, keep_ranking: bool = True) -> tuple[list[Round], list[Entry]]:
    """The event's rounds and standings rows, ranked, in German name order within a rank, the
    last place marked: read once per version of the event in this process, for the standings
    page and the projector's rows alike (each is computed right after the other when a game is
    saved). The rows computed are kept as the version's ``ranking`` too, unless the ranking is
    what is being computed (``keep_ranking``)."""
    key = (event.pk, event.version)
    with _RANKED_LOCK:
        kept = _RANKED.get(key)
    if kept is None:
        rounds = standings.rounds_of(event)
        rows = standings.named_rows(Entry.objects.standings(event, rounds))
        kept = (rounds, list(standings.mark_last_place(rows)))
        if keep_ranking:  # the personal pages' ranking of this version, for every process
            cache.set(part_key(RANKING, event.pk, event.version), _ranking(event, kept[1]), TIMEOUT)
        with _RANKED_LOCK:
            _RANKED[key] = kept
            while len(_RANKED) > RANKED_KEPT:
                _RANKED.popitem(last=False)
    return list(kept[0]), list(kept[1])


RANKED_KEPT = 8  # events' versions a process keeps: the few events of a day
_RANKED: OrderedDict[tuple[int, int], tuple[list[Round], list[Entry]]] = OrderedDict()
_RANKED_LOCK = threading.Lock()


@dataclass(frozen=True)
class Ranking:
    """Every entry's place in the standings of one version: rank and total as shown, by entry."""

    places: dict[int, tuple[int, Any]]
    of: int  # the standings' rows

    def of_entry(self, entry_id: int) -> dict[str, Any] | None:
        """The entry's rank, total and the number of rows, or None for an entry not ranked."""
        place = self.places.get(entry_id)
        if place is None:
            return None
        return {"rank": place[0], "total": place[1], "of": self.of}


RANKING = "ranking"


def _ranking(event: Event, rows: list[Entry]) -> Ranking:
    game, rules = event.game_type, event.full_rules()
    return Ranking(
        {row.pk: (row.rank, game.shown_total(row.total, rules)) for row in rows}, len(rows)
    )


def ranking(event: Event) -> Ranking:
    """The event's ranking at its version: from this process, else from the page cache, else
    computed once for all (with the rows, ``ranked``; the other requests wait for it). While the
    writer of the version computes it, the ranking of the version before, where it is kept
    (``pagecache.writers``)."""
    kept = _kept_ranking(event.pk, event.version)
    if kept is not None:
        return kept
    for version in writers.earlier(event.pk, event.version):
        if (earlier := _kept_ranking(event.pk, version)) is not None:
            return earlier
    kept = shared_part(
        RANKING,
        event.pk,
        event.version,
        lambda: _ranking(event, ranked(event, keep_ranking=False)[1]),
    )
    _keep_ranking((event.pk, event.version), kept)
    return kept


def _kept_ranking(event_id: int, version: int) -> Ranking | None:
    """The ranking of the version from this process, else from the page cache (then kept in
    this process too: a personal page of each phone reads it), else None."""
    key = (event_id, version)
    with _RANKED_LOCK:
        kept = _RANKINGS.get(key)
    if kept is None:
        kept = cache.get(part_key(RANKING, event_id, version))
        if kept is not None:
            _keep_ranking(key, kept)
    return kept


def _keep_ranking(key: tuple[int, int], kept: Ranking) -> None:
    with _RANKED_LOCK:
        _RANKINGS[key] = kept
        while len(_RANKINGS) > RANKED_KEPT:
            _RANKINGS.popitem(last=False)


_RANKINGS: OrderedDict[tuple[int, int], Ranking] = OrderedDict()


def forget() -> None:
    """Drop every kept version (the tests start each test with none)."""
    with _RANKED_LOCK:
        _RANKED.clear()
        _RANKINGS.clear()
