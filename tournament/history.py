"""The audit trail as a director reads it: who changed what, when, from what to what, and why.

Built from simple-history's tables (the event, hands, tables, seats, entries, confirmations), one
query per table of history, with each record compared to the one before it of the same object in
Python.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from .models import Confirmation, Entry, Event, Hand, Player, Seat, Table

KIND = {"+": "created", "~": "changed", "-": "deleted"}
SKIP = {"id", "history_id", "history_date", "history_change_reason", "history_type"}
SKIP |= {"history_user", "history_user_id", "history_actor", "updated_at", "version"}


@dataclass
class Change:
    when: datetime
    who: str
    what: str
    subject: str
    kind: str
    reason: str
    changes: list[tuple[str, Any, Any]]


def _fields(record: Any) -> dict[str, Any]:
    return {
        f.attname: getattr(record, f.attname) for f in record._meta.fields if f.attname not in SKIP
    }


def _changes(records: Iterable[Any], subject: Any) -> list[Change]:
    """``records`` in date order; each compared with the previous one of the same object."""
    last: dict[Any, dict[str, Any]] = {}
    out = []
    for record in records:
        now = _fields(record)
        before = last.get(record.id, {})
        diff = [
            (name, before.get(name), value)
            for name, value in now.items()
            if record.history_type == "~" and before and before.get(name) != value
        ]
        last[record.id] = now
        user = record.history_user.get_username() if record.history_user_id else ""
        out.append(
            Change(
                when=record.history_date,
                who=user or record.history_actor or "—",
                what=str(record._meta.verbose_name),
                subject=subject(record),
                kind=KIND.get(record.history_type, record.history_type),
                reason=record.history_change_reason or "",
                changes=diff,
            )
        )
    return out


def _ordered(qs: QuerySet) -> QuerySet:
    return qs.select_related("history_user").order_by("history_date", "history_id")


def for_tables(tables: QuerySet[Table]) -> list[Change]:
    """Every change to the hands, seats, confirmations and the tables themselves, newest first."""
    ids = list(tables.values_list("pk", flat=True))
    changes = _changes(
        _ordered(Hand.history.filter(table_id__in=ids)),
        lambda r: _("game %(n)s") % {"n": r.number},
    )
    changes += _changes(
        _ordered(Table.history.filter(id__in=ids)), lambda r: _("table %(n)s") % {"n": r.number}
    )
    changes += _changes(
        _ordered(Seat.history.filter(table_id__in=ids)),
        lambda r: _("seat %(n)s") % {"n": (r.position or 0) + 1},
    )
    changes += _changes(
        _ordered(Confirmation.history.filter(table_id__in=ids)),
        lambda r: _("seat %(n)s") % {"n": r.position + 1},
    )
    return sorted(changes, key=lambda c: c.when, reverse=True)


def for_event(event: Event) -> list[Change]:
    changes = for_tables(Table.objects.filter(round__event=event))
    # the event's own settings: a rule change names who rescored the games and why
    changes += _changes(_ordered(Event.history.filter(id=event.pk)), lambda r: r.name)
    changes += _changes(
        _ordered(Entry.history.filter(event_id=event.pk)),
        lambda r: _("start number %(n)s") % {"n": r.start_number},
    )
    return sorted(changes, key=lambda c: c.when, reverse=True)


def for_player(player: Player) -> list[Change]:
    """Every change to one player (corrections, merges), newest first. One query."""
    changes = _changes(
        _ordered(Player.history.filter(id=player.pk)),
        lambda r: f"{r.first_name} {r.last_name}",
    )
    return sorted(changes, key=lambda c: c.when, reverse=True)
