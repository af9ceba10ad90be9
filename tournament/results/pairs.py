"""The ranking of fixed Ziege pairs (RULES.md 6: "fixed pairs registered as teams").

Partners of a fixed pair always sit opposite each other, so every deal gives them the same
result: the pair is one unit of the standings. It is ranked by its game's order (Ziege: matches
won, then defeat points dealt out minus taken, then fewer taken) and by the lot drawn between
pairs, and two partners are never a tie that needs a lot (``units``). Two queries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tournament.models import Entry, Event

__all__ = ["PairRow", "pair_names", "pair_standings", "unit_names", "units"]


def units(event: Event) -> dict[int, Any]:
    """Entry id → the unit the entry is ranked as: its fixed pair. Empty (every entry its own
    unit) unless the event plays in fixed pairs; one query then, none otherwise."""
    if not event.in_fixed_pairs:
        return {}
    return {
        pk: ("pair", pair_id)
        for pk, pair_id in Entry.objects.filter(event=event, pair__isnull=False).values_list(
            "pk", "pair_id"
        )
    }


def pair_names(event: Event) -> dict[int, str]:
    """Entry id → the registered name of its fixed pair ("Die Albrechts"). Empty unless the event
    plays in fixed pairs; one query then, none otherwise."""
    if not event.in_fixed_pairs:
        return {}
    return dict(
        Entry.objects.filter(event=event, pair__isnull=False).values_list("pk", "pair__name")
    )


def unit_names(
    entries: Sequence[Entry], names: dict[int, str], *, members: bool = False
) -> list[str]:
    """One name for each unit among ``entries``, in their order (issue 43.9): a fixed pair by its
    registered name (``pair_names``), once for both partners, with the partners' names after it
    when ``members``; anyone else by the player's name. No query, the players read with the
    entries."""
    by_pair: dict[str, list[Entry]] = {}
    order: list[Any] = []
    for entry in entries:
        name = names.get(entry.pk)
        if name is None:
            order.append(entry)
            continue
        if name not in by_pair:
            order.append(name)
        by_pair.setdefault(name, []).append(entry)
    shown = []
    for unit in order:
        if isinstance(unit, Entry):
            shown.append(str(unit.player))
        elif members:
            partners = " & ".join(str(e.player) for e in by_pair[unit])
            shown.append(f"{unit} ({partners})")
        else:
            shown.append(unit)
    return shown


@dataclass
class PairRow:
    name: str
    members: list[Entry] = field(default_factory=list)
    # the figures as the standings write them, and as numbers (the workbook's cells)
    figures: list[str] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    key: tuple[Any, ...] = ()
    rank: int = 0

    @property
    def players(self) -> str:
        """The partners as the public pair ranking names them (``core.shown``)."""
        return " & ".join(m.player.public_name(m.start_number) for m in self.members)


def headings(event: Event) -> list[Any]:
    """The figures' headings, in the order ``pair_standings`` gives each row's figures."""
    return [figure.heading for figure in _figures(event)]


def _figures(event: Event) -> list[Any]:
    return event.game_type.columns()


def pair_standings(event: Event) -> list[PairRow]:
    """Every fixed pair that played, best first, with shared ranks. The partners' figures are
    the pair's (they played every deal together); the lot drawn between tied pairs orders them.
    Two queries: the standings and the pairs' names."""
    game, rules = event.game_type, event.full_rules()
    names = {
        pk: (pair_id, name)
        for pk, pair_id, name in Entry.objects.filter(event=event, pair__isnull=False).values_list(
            "pk", "pair_id", "pair__name"
        )
    }
    rows: dict[int, PairRow] = {}
    for entry in Entry.objects.standings(event):
        if entry.pk not in names:
            continue
        pair_id, name = names[entry.pk]
        row = rows.get(pair_id)
        if row is None:
            # the better partner first: both have the same figures unless the pair changed
            row = rows[pair_id] = PairRow(name=name)
            row.values = [game.shown(f, getattr(entry, f.name), rules) for f in _figures(event)]
            row.figures = [f.text(v) for f, v in zip(_figures(event), row.values, strict=True)]
            figures = [
                -getattr(entry, n) if order == "desc" else getattr(entry, n)
                for n, order in game.ranking
            ]
            row.key = (*figures, (entry.lot is None, entry.lot or 0))
        row.members.append(entry)
    ranked = sorted(rows.values(), key=lambda r: (r.key, r.name))
    for i, row in enumerate(ranked):
        row.rank = ranked[i - 1].rank if i and row.key == ranked[i - 1].key else i + 1
    return ranked
