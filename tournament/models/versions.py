"""Each event's version: a number that every write to the event changes, in the same transaction.

The pages that a hall full of phones reads over and over (standings, projector rows, the season,
the public table pages) are computed once per version and then served from the cache
(``tournament.pagecache``), with the version as their ETag. A write that did not change the
version would leave a stale page on every phone, so the version does not depend on each service
remembering it:

- every save and delete of a row that belongs to an event (the event itself, its entries, teams,
  rounds, tables, seats, hands, confirmations and draws by lot) changes the version through
  Django's signals, in the transaction of the write (``post_save``/``post_delete``); a player's
  row changes the version of every event the player entered;
- writes that send no signal (``bulk_create``, ``QuerySet.update``, the result rows a table is
  scored into) call :func:`changed` themselves, in ``tournament.play.services``;
- a season's version changes with each of its events' and with its own rows: the season
  standings are made of its events.

A version changes once per event and transaction, however many rows the write touches: the first
change of a transaction leaves a marker among the transaction's ``on_commit`` callbacks, and
Django drops that marker with the transaction (or the savepoint) it belongs to, commit or
rollback. Outside a transaction every write changes the version. A page computed while the
transaction is open (a test's, which holds many writes) forgets the markers (:func:`forget`):
the next write changes the version again, so that no page computed between two writes of one
transaction hides the second.

A new event's or season's first version is a random number (``defaults.first_version``): a
cache entry made for another database (a test run, the demo loaded again) never matches a row
that reuses its id.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Model, QuerySet
from django.db.models.signals import post_delete, post_save

from tournament import models
from tournament.models import Event, Season

logger = logging.getLogger(__name__)


class _Marker:
    """An ``on_commit`` callback that does nothing: its presence says the version of ``key`` has
    changed in the transaction (or savepoint) that is still open."""

    __slots__ = ("key",)

    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key

    def __call__(self) -> None:
        pass


# the changes a block of ``at_the_end`` has put off, in their order; None outside such a block
_put_off = threading.local()


def _changed_already(key: tuple[Any, ...]) -> bool:
    put_off = getattr(_put_off, "changes", None)
    if put_off is not None and any(each[0] == key for each in put_off):
        return True
    if not connection.in_atomic_block:
        return False
    pending = connection.run_on_commit
    return any(getattr(callback, "key", None) == key for _sids, callback, _robust in pending)


def forget() -> None:
    """The next write of the open transaction changes the versions again (a page is computed)."""
    if connection.in_atomic_block:
        connection.run_on_commit = [
            each for each in connection.run_on_commit if not isinstance(each[1], _Marker)
        ]


@contextmanager
def at_the_end() -> Iterator[None]:
    """The versions the block changes are written when it ends, still inside its transaction.

    A version's change is an UPDATE of the event's row (and the season's), which holds that row
    until the commit; every other write to the event waits for it there. A saved game changes
    the version with its first row and then scores the table: written at the end, the rows are
    held for the last two statements and the commit instead of the whole game (issue 13). Used
    inside ``transaction.atomic``; an exception in the block writes nothing, the transaction
    rolls back anyway."""
    if getattr(_put_off, "changes", None) is not None:
        yield  # an outer block writes them
        return
    _put_off.changes = []
    try:
        yield
        changes = _put_off.changes
    finally:
        _put_off.changes = None
    for change in changes:
        _bump(*change)


def _bump(key: tuple[Any, ...], events: QuerySet, seasons: QuerySet | None) -> None:
    if _changed_already(key):
        return
    put_off = getattr(_put_off, "changes", None)
    if put_off is not None:
        put_off.append((key, events, seasons))
        return

    # a ``written`` block notes the versions its writes make
    recording = getattr(_written, "versions", None) is not None
    if key[0] == "event" and seasons is None:
        # one event and its season, the change of every saved game: written out in SQL, as the
        # seats' sums are (services.sum_seats); the ORM's form of the season's statement (a join
        # in a subquery) took longer to build than both statements take to run. Every change
        # locks the event's row first, then the season's (a save of the event does so by its own
        # UPDATE): a game changes them at its end (``at_the_end``) holding the event's row only
        # shared before, and the other order could cross a change of the event at that moment
        event, season = Event._meta.db_table, Season._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {event} SET version = version + 1 WHERE id = %s"
                + (" RETURNING id, slug, version" if recording else ""),
                [key[1]],
            )
            made = cursor.fetchall() if recording else []
            cursor.execute(
                f"UPDATE {season} SET version = version + 1 "
                f"WHERE id IN (SELECT season_id FROM {event} WHERE id = %s)",
                [key[1]],
            )
    else:
        if seasons is None:
            seasons = Season.objects.filter(events__in=events.values("pk"))
        # the events' rows before the seasons', as everywhere (above)
        events.update(version=F("version") + 1)
        made = (
            list(
                Event.objects.filter(pk__in=events.values("pk")).values_list(
                    "pk", "slug", "version"
                )
            )
            if recording
            else []
        )
        seasons.update(version=F("version") + 1)
    if connection.in_atomic_block:
        transaction.on_commit(_Marker(key))
    if made:
        _note_written(made)


# the versions the writes of a ``written`` block have committed, and what is told of each at its
# commit; None outside such a block
_written = threading.local()


@dataclass
class Written:
    """What a block's writes made of an event: its versions, and its address to read it by."""

    slug: str
    versions: list[int]


@contextmanager
def written(
    committed: Callable[[int, int], None] | None = None,
    withdrawn: Callable[[int, int], None] | None = None,
) -> Iterator[dict[int, Written]]:
    """The versions this block's writes make, by event, once their transaction has committed
    (a version of a transaction rolled back is not there): the request of a saved game
    computes the standings of the version it made (``views.fresh``). ``committed(event_id,
    version)`` is called for each: where the block began outside any transaction (a request's
    view), as soon as the write has made the version, before it commits, so that no other
    request can see the version before it is told; else at the commit, as the commit's own
    callback. A version told before its commit whose transaction is rolled back is
    ``withdrawn(event_id, version)`` when the block ends. A game's change of its event is read
    from the statement that makes it (``RETURNING``): no query of its own; a change of several
    events (a player's row) reads their versions with one more."""
    if getattr(_written, "versions", None) is not None:
        yield _written.versions
        return
    _written.versions, _written.committed = {}, committed
    # a block begun outside a transaction commits its writes within it: told at the write;
    # within one (a test's), its writes commit after it, if ever: told at the commit
    _written.early = not connection.in_atomic_block
    _written.told = told = []
    try:
        yield _written.versions
    finally:
        made = _written.versions
        _written.versions = _written.committed = _written.told = None
        for event_id, version in told:
            if (
                withdrawn is not None
                and version not in made.get(event_id, Written("", [])).versions
            ):
                try:
                    withdrawn(event_id, version)
                except Exception:
                    logger.exception("withdrawing version %s of event %s failed", version, event_id)


def _note_written(made: list[tuple[int, str, int]]) -> None:
    noted, committed = _written.versions, _written.committed
    early = committed is not None and _written.early and connection.in_atomic_block
    if early:
        # told now, before the commit (taken back at the block's end if it is rolled back); what
        # it tells may fail (a full disk under the page cache), the write goes on all the same
        for event_id, _slug, version in made:
            _written.told.append((event_id, version))
            try:
                committed(event_id, version)
            except Exception:
                logger.exception("telling version %s of event %s failed", version, event_id)

    def note() -> None:
        if getattr(_written, "versions", None) is not noted:
            return  # committed after the block (an outer transaction): nobody would compute it
        for event_id, slug, version in made:
            noted.setdefault(event_id, Written(slug, [])).versions.append(version)
            if committed is not None and not early:
                committed(event_id, version)

    if connection.in_atomic_block:
        # run at the commit, with the transaction's other callbacks; dropped with its
        # transaction or savepoint, as the marker; robust: what it tells may fail (a full disk
        # under the page cache), the write has committed all the same
        transaction.on_commit(note, robust=True)
    else:
        note()


def changed(event: Any) -> None:
    """The event (an Event or its id) has changed: its version and its season's change."""

    pk = event if isinstance(event, int) else event.pk
    _bump(("event", pk), Event.objects.filter(pk=pk), None)


def season_changed(season: Any) -> None:

    pk = season if isinstance(season, int) else season.pk
    _bump(("season", pk), Event.objects.none(), Season.objects.filter(pk=pk))


def _cached(instance: Model, name: str) -> Any:
    """The related row ``name`` if the instance holds it already (no query), else None."""
    field = instance._meta.get_field(name)
    return field.get_cached_value(instance) if field.is_cached(instance) else None


def _event_id(instance: Model) -> int | None:
    """The event a table's or round's row belongs to, where the rows in memory say it."""

    table = instance if isinstance(instance, models.Table) else None
    if isinstance(instance, models.Hand | models.Confirmation):
        table = _cached(instance, "table")
    holder = table if table is not None else instance
    if not isinstance(holder, models.Table | models.Seat):
        return None
    rnd = _cached(holder, "round")
    return rnd.event_id if rnd is not None else None


def _events_of(instance: Model) -> tuple[tuple[Any, ...], QuerySet] | None:
    """The events a row belongs to, as a query (no row is read to find them), and a key for it:
    the event's id where it is known, so that a write changes its event's version once."""

    match instance:
        case models.Event():
            return ("event", instance.pk), models.Event.objects.filter(pk=instance.pk)
        case models.Entry() | models.Team() | models.Round() | models.LotDraw():
            return ("event", instance.event_id), models.Event.objects.filter(pk=instance.event_id)
        case models.Player():
            return ("player", instance.pk), models.Event.objects.filter(entries__player=instance.pk)
    known = _event_id(instance)
    if known is not None:
        return ("event", known), models.Event.objects.filter(pk=known)
    match instance:
        case models.Table() | models.Seat():
            return ("round", instance.round_id), models.Event.objects.filter(
                rounds=instance.round_id
            )
        case models.Hand() | models.Confirmation():
            return ("table", instance.table_id), models.Event.objects.filter(
                rounds__tables=instance.table_id
            )
    return None


def _saved(sender: type[Model], instance: Model, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # loaddata: the rows arrive as they are, versions included
        return
    _row_changed(instance)

    if isinstance(instance, Event):
        before = getattr(instance, "_season_at_load", None)
        if before is not None and before != instance.season_id:
            season_changed(before)  # the event left that season


def _deleted(sender: type[Model], instance: Model, origin: Any = None, **kwargs: Any) -> None:
    # a row deleted with what it belongs to (a round's tables with the round): the one change of
    # the row the delete started from is enough
    if isinstance(origin, Model) and origin is not instance and _events_of(origin) is not None:
        _row_changed(origin)
        return
    _row_changed(instance)


def _row_changed(instance: Model) -> None:

    if isinstance(instance, Season):
        season_changed(instance.pk)
        return
    found = _events_of(instance)
    if found is None:
        return
    key, events = found
    seasons = None
    if isinstance(instance, Event):
        seasons = Season.objects.filter(pk=instance.season_id)
    _bump(key, events, seasons)


def connect() -> None:
    """Listen to the saves and deletes of every row a cached page is made of (apps.ready)."""

    for model in (
        models.Season,
        models.Event,
        models.Player,
        models.Entry,
        models.Team,
        models.Round,
        models.Table,
        models.Seat,
        models.Hand,
        models.Confirmation,
        models.LotDraw,
    ):
        post_save.connect(_saved, sender=model, dispatch_uid=f"version-save-{model.__name__}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"version-delete-{model.__name__}")
