"""Draws by lot that split a tie in the standings (``decide_by_lot``), and their lapse when a
correction changes the tie (``lapse_stale_lots``).

The standings whose ties these lots break live in ``tournament.results``, the floor above play.
The lots stay on play's floor all the same: play's own corrections (a game entered, corrected or
deleted, a table voided or restored, new rule settings) lapse the stale lots inside their own
transaction, and play imports nothing from results. The tie is read from the models' standings
query (``Entry.objects.standings``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import User, actor, noted
from tournament.core.errors import Refused
from tournament.models import Entry, Event, LotDraw
from tournament.play.reads import sql_column


def _tie_keys(event: Event) -> dict[int, tuple[int, ...]]:
    """Start number → the figures that decide the entry's place (RULES.md 6), from the standings
    query (one query)."""
    fields = [name for name, _order in event.game_type.ranking]
    return {
        entry.start_number: tuple(int(getattr(entry, name)) for name in fields)
        for entry in Entry.objects.standings(event)
    }


def _better(event: Event, key: tuple[int, ...], than: tuple[int, ...]) -> bool:
    """Whether standings figures ``key`` rank ahead of ``than`` (RULES.md 6: each figure in the
    game's ranking order, highest or lowest first)."""
    for (_name, order), mine, theirs in zip(event.game_type.ranking, key, than, strict=True):
        if mine != theirs:
            return mine > theirs if order == "desc" else mine < theirs
    return False


def _lapse(draw: LotDraw, user: User = None) -> None:
    # one by one: the entries' history shows the lot going as it showed it drawn
    for entry in Entry.objects.filter(event_id=draw.event_id, start_number__in=draw.entries):
        entry.lot = None
        noted(entry, user, LOT_LAPSED).save(update_fields=["lot"])
    draw.lapsed_at = timezone.now()
    draw.save(update_fields=["lapsed_at"])


# the reasons a draw by lot keeps in the entries' history, in English as every machine reason
# (``history.reason_text`` says them in the reader's words)
LOT_DRAWN = "draw by lot for place {place} between {tied} tied players, seed {seed}"
# a lot between fixed pairs is drawn between the pairs, not their players (issue 43.9)
LOT_DRAWN_PAIRS = "draw by lot for place {place} between {tied} tied pairs, seed {seed}"
LOT_LAPSED = "lot lapsed: the tie changed"


@transaction.atomic
def decide_by_lot(
    *, event: Event, entries: Sequence[Entry], user: User = None, seed: int | None = None
) -> LotDraw:
    """Order tied entries by lot (e.g. a tie for first place) and record who drew it.

    The draw splits this tie only: it keeps the tied figures and everyone who has them, and lapses
    when a correction changes either (``lapse_stale_lots``). A new draw on the same tie, or for one
    of the same players, replaces the earlier one."""
    if len(entries) < 2 or len({e.pk for e in entries}) < len(entries):
        raise Refused(_("Choose at least two tied players for a draw by lot."))
    # the event's row first, as every change of the event: the tie is read while no game of the
    # event is being stored, and no game crosses the draw (``locks.table_for_a_game``)
    event = Event.objects.select_for_update().get(pk=event.pk)
    keys = _tie_keys(event)
    ties = {keys.get(e.start_number) for e in entries}
    if len(ties) != 1 or None in ties:
        raise Refused(_("Only players tied on the same result can be separated by lot."))
    tie = ties.pop()
    assert tie is not None
    numbers = {e.start_number for e in entries}
    for earlier in LotDraw.objects.filter(event=event, lapsed_at__isnull=True):
        if tuple(earlier.tie) == tie or numbers & set(earlier.entries):
            _lapse(earlier, user)
    # a fixed Ziege pair is one unit: its partners share one lot, never drawn against each other
    units: dict[Any, list[Entry]] = {}
    fixed = event.in_fixed_pairs
    for entry in sorted(entries, key=lambda e: e.start_number):
        units.setdefault(
            ("pair", entry.pair_id) if fixed and entry.pair_id else entry.pk, []
        ).append(entry)
    if len(units) < 2:
        raise Refused(_("Partners of a fixed pair share their place: there is nothing to draw."))
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    drawn_units = list(units.values())
    random.Random(seed).shuffle(drawn_units)
    order = [entry for unit in drawn_units for entry in unit]
    stored = Entry.objects.in_bulk([e.pk for e in order])
    # the place the tie shares before the draw: the best the drawn entries can get
    place = 1 + sum(1 for key in keys.values() if _better(event, key, tie))
    if any(len(unit) > 1 for unit in drawn_units):
        reason = LOT_DRAWN_PAIRS.format(place=place, tied=len(drawn_units), seed=seed)
    else:
        reason = LOT_DRAWN.format(place=place, tied=len(order), seed=seed)
    for lot, unit in enumerate(drawn_units, start=1):
        for entry in unit:
            drawn = stored[entry.pk]
            drawn.lot = lot
            noted(drawn, user, reason).save(update_fields=["lot"])
    return LotDraw.objects.create(
        event=event,
        entries=[e.start_number for e in order],
        tie=list(tie),
        tied=sorted(number for number, key in keys.items() if key == tie),
        seed=seed,
        drawn_by=actor(user),
    )


def lapse_stale_lots(*, event: Event, user: User = None) -> list[LotDraw]:
    """A draw by lot splits the tie it was drawn for, and no other (issue 10): once the drawn
    players no longer share the tied figures, or someone else now shares them, the lot stops
    counting and the tie shows again. One query when the event has no live draw, written out in SQL
    (a saved game asks it)."""
    sql = f"SELECT id FROM {LotDraw._meta.db_table} WHERE event_id = %s AND lapsed_at IS NULL"
    if not sql_column(sql, event):
        return []
    # locked: two tables' games stored at the same moment (``locks.table_for_a_game``) lapse a draw
    # once, the second looks at it after the first's commit
    live = [
        d
        for d in LotDraw.objects.select_for_update().filter(event=event, lapsed_at__isnull=True)
        if d.tie
    ]
    if not live:
        return []
    keys = _tie_keys(event)
    stale = []
    for draw in live:
        tie = tuple(draw.tie)
        now_tied = sorted(number for number, key in keys.items() if key == tie)
        if now_tied != sorted(draw.tied):
            _lapse(draw, user)
            stale.append(draw)
    return stale
