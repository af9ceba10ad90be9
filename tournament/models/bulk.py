"""Rows written in bulk as plain values, each with its history row: for a write of tens of
thousands of rows in one request (a bundle's import of 2,000 players: some 25,000 games and
their history rows).

Django's ``bulk_create`` assembles its SQL value by value, in statements of a few hundred rows
on SQLite (999 parameters each); for such a write that took most of the time. Here each model
costs one statement for its rows (``executemany``), one query reading their identifiers back by
a key the caller names, and one statement for their history rows, whatever their number.

As with ``bulk_create``, no signal is sent (the caller calls ``versions.changed``) and ``save``
is not called. Unlike it, a field that sets itself on saving (``auto_now``, ``auto_now_add``)
keeps the value the instance holds, and takes the time of the write only where it holds none:
an imported row keeps the time it was written on the other installation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.utils import timezone

# field types whose Python value is the value stored, on SQLite and PostgreSQL alike
PLAIN = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "BooleanField",
        "CharField",
        "ForeignKey",
        "IntegerField",
        "PositiveBigIntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SlugField",
        "SmallIntegerField",
        "TextField",
    }
)


class _Converters:
    """The functions from an attribute's value to the value stored, one per kind of field, each
    remembering what it converted: a game's time and its rule data are converted once for its
    row and its history row, the time of the write once for all (converting value by value was
    most of the time left)."""

    def __init__(self) -> None:
        self.db = connections[DEFAULT_DB_ALIAS]  # not the proxy: it is asked for every value
        self.kinds: dict[Any, Any] = {}

    def __call__(self, field: models.Field) -> Any:
        """The converter of ``field`` (None: the value is stored as it is)."""
        kind = field.get_internal_type()
        if kind in PLAIN and not (
            field.is_relation and field.target_field.get_internal_type() not in PLAIN
        ):
            return None
        key = (kind, getattr(field, "encoder", None))
        if key not in self.kinds:
            self.kinds[key] = self._converter(field)
        return self.kinds[key]

    def _converter(self, field: models.Field) -> Any:
        db = self.db
        by_value: dict[Any, Any] = {}
        by_id: dict[int, tuple[Any, Any]] = {}  # unhashable values (JSON), kept alive here

        def stored(value: Any) -> Any:
            if value is None:
                return None
            if isinstance(value, dict | list):
                kept = by_id.get(id(value))
                if kept is None or kept[0] is not value:
                    kept = by_id[id(value)] = (value, field.get_db_prep_save(value, db))
                return kept[1]
            if value not in by_value:
                by_value[value] = field.get_db_prep_save(value, db)
            return by_value[value]

        return stored


def _sets_itself(field: models.Field) -> bool:
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


def _insert(model: type[models.Model], fields: Sequence[models.Field], rows: list[list]) -> None:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})", rows
        )


def insert(
    objects: Sequence[models.Model],
    *,
    key: Sequence[str],
    scope: models.QuerySet,
    user: Any = None,
    reason: str = "",
    attrs: dict[str, Any] | None = None,
) -> None:
    """Insert ``objects`` (new instances of one model with an automatic primary key) and a
    history row for each (naming ``user``, or the instance's own ``_history_user``, and the
    instance's ``_change_reason`` or ``reason``; ``attrs``: further history columns). Their
    primary keys are read back in one query: ``scope`` holds the new rows, and the fields ``key``
    (attribute names) tell each apart. Three queries, however many objects."""
    if not objects:
        return
    model = type(objects[0])
    now = timezone.now()
    converters = _Converters()
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    plan = [(f, converters(f), _sets_itself(f), getattr(f, "computed", False)) for f in fields]
    rows = []
    for instance in objects:
        values = []
        for field, stored, sets_itself, computed in plan:
            name = field.attname
            # a field written from the row's other fields (``Player.name_key``), as on saving
            value = field.pre_save(instance, True) if computed else getattr(instance, name)
            if value is None and sets_itself:
                value = now
                setattr(instance, name, now)
            values.append(value if stored is None else stored(value))
        rows.append(values)
    _insert(model, fields, rows)
    ids = {tuple(row[1:]): row[0] for row in scope.values_list("pk", *key)}
    for instance in objects:
        instance.pk = ids[tuple(getattr(instance, name) for name in key)]
        instance._state.adding = False
        instance._state.db = connection.alias
    _history(model, objects, converters, user=user, reason=reason, attrs=attrs or {}, now=now)


def _history(
    model: type[models.Model],
    objects: Iterable[models.Model],
    converters: _Converters,
    *,
    user: Any,
    reason: str,
    attrs: dict[str, Any],
    now: Any,
) -> None:
    historical = model.history.model  # type: ignore[attr-defined]
    tracked = {f.attname for f in historical.tracked_fields}
    fields = [f for f in historical._meta.concrete_fields if not f.primary_key]
    convert = [converters(f) for f in fields]
    rows = []
    for instance in objects:
        who = getattr(instance, "_history_user", None) or user
        own = {
            "history_date": now,
            "history_change_reason": getattr(instance, "_change_reason", None) or reason,
            "history_type": "+",
            "history_user_id": who.pk if who is not None else None,
            **attrs,
        }
        values = []
        for field, stored in zip(fields, convert, strict=True):
            if field.attname in tracked:
                value = getattr(instance, field.attname)
            elif field.attname in own:
                value = own[field.attname]
            else:
                value = field.get_default()
            values.append(value if stored is None else stored(value))
        rows.append(values)
    _insert(historical, fields, rows)
