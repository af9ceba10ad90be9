"""Each event's and season's version: the key and ETag of its cached pages (``pagecache``).

Every write to an event's rows changes the event's version and its season's, in the write's own
transaction: saves and deletes through Django's signals (``connect``), writes that send none
(``bulk_create``, ``QuerySet.update``, the result rows) by calling ``changed``. A version never
repeats: a change moves it to the clock's microseconds where those are ahead of it
(``defaults.first_version``), so that after an older backup is restored, or a database is loaded
again, the next write makes a version no cache and no phone has seen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import F, Model, QuerySet, Value
from django.db.models.functions import Greatest
from django.db.models.signals import post_delete, post_save

from tournament import models
from tournament.models import Event, Season
from tournament.models.defaults import first_version

# the changes a block of ``at_the_end`` has put off, by key; None outside such a block
_put_off = threading.local()


@contextmanager
def at_the_end() -> Iterator[None]:
    """The versions the block changes are written when it ends, once each, still inside its
    transaction: a change is an UPDATE of the event's row, which holds that row until the commit,
    so a saved game holds it for its last statements only (issue 13)."""
    if getattr(_put_off, "changes", None) is not None:
        yield  # an outer block writes them
        return
    _put_off.changes = {}
    try:
        yield
        changes = _put_off.changes
    finally:
        _put_off.changes = None
    for events, seasons in changes.values():
        _write(events, seasons)


def _bump(key: tuple[Any, ...], rows: Callable[[], tuple[QuerySet, QuerySet]]) -> None:
    """The versions of ``rows()`` (the events' and the seasons' queries) change now, or at the
    end of the block, once a key: a block that holds the key already builds no query for it."""
    put_off = getattr(_put_off, "changes", None)
    if put_off is None:
        _write(*rows())
    elif key not in put_off:
        put_off[key] = rows()


def _write(events: QuerySet, seasons: QuerySet) -> None:
    # the events' rows before the seasons', always: the other order could cross another write
    newer = Greatest(F("version") + 1, Value(first_version()))
    events.update(previous_version=F("version"), version=newer)
    seasons.update(previous_version=F("version"), version=newer)


def changed(event: Any) -> None:
    """The event (an Event or its id) has changed: its version and its season's change."""
    pk = event if isinstance(event, int) else event.pk
    _bump(("event", pk), lambda: (Event.objects.filter(pk=pk), Season.objects.filter(events=pk)))


def season_changed(season: Any) -> None:
    pk = season if isinstance(season, int) else season.pk
    _bump(("season", pk), lambda: (Event.objects.none(), Season.objects.filter(pk=pk)))


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


def _events_of(instance: Model) -> tuple[tuple[Any, ...], Callable[[], QuerySet]] | None:
    """The events a row belongs to, as a query made on demand (no row is read to find them),
    and a key for it: the event's id where it is known, so that a block changes its event's
    version once."""
    match instance:
        case models.Event():
            pk = instance.pk
            return ("event", pk), lambda: Event.objects.filter(pk=pk)
        case models.Entry() | models.Team() | models.Round() | models.LotDraw():
            pk = instance.event_id
            return ("event", pk), lambda: Event.objects.filter(pk=pk)
        case models.Player():
            pk = instance.pk
            return ("player", pk), lambda: Event.objects.filter(entries__player=pk)
    known = _event_id(instance)
    if known is not None:
        return ("event", known), lambda: Event.objects.filter(pk=known)
    match instance:
        case models.Table() | models.Seat():
            pk = instance.round_id
            return ("round", pk), lambda: Event.objects.filter(rounds=pk)
        case models.Hand() | models.Confirmation():
            pk = instance.table_id
            return ("table", pk), lambda: Event.objects.filter(rounds__tables=pk)
    return None


def _row_changed(instance: Model) -> None:
    if isinstance(instance, Season):
        season_changed(instance.pk)
        return
    found = _events_of(instance)
    if found is None:
        return
    key, events_of = found
    season = instance.season_id if isinstance(instance, Event) else None

    def rows() -> tuple[QuerySet, QuerySet]:
        events = events_of()
        if isinstance(instance, Event):
            return events, Season.objects.filter(pk=season)
        return events, Season.objects.filter(events__in=events.values("pk"))

    _bump(key, rows)


def _saved(sender: type[Model], instance: Model, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # loaddata: the rows arrive as they are, versions included
        return
    _row_changed(instance)
    if isinstance(instance, Event):
        before = getattr(instance, "_season_at_load", None)
        if before is not None and before != instance.season_id:
            season_changed(before)  # the event left that season


def _deleted(sender: type[Model], instance: Model, origin: Any = None, **kwargs: Any) -> None:
    # a row deleted with what it belongs to (a round's tables with the round): the change of the
    # row the delete started from is enough
    if isinstance(origin, Model) and origin is not instance and _events_of(origin) is not None:
        _row_changed(origin)
        return
    _row_changed(instance)


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
