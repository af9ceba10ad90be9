"""The audit trail as a director reads it: who changed what, when, from what to what, and why.

Built from simple-history's tables (the event, hands, tables, seats, entries, confirmations,
players), one query per table of history, with each record compared to the one before it of
the same object in Python.
Everything is said as on the score sheet, in the reader's language: a game as its contract,
declarer by name and points (``describe_hand``), seats by the player sitting there, yes/no for
flags, dates in the reader's format; internal fields (tokens, keys, versions) are left out. On the
event's page a game and a table are named with their round and table ("Round 2 · Table 3 · Game
11"): every table has a game 11, and every round a table 3.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament import games
from tournament.core.formatting import signed
from tournament.games.words import describe_hand
from tournament.models import Confirmation, Entry, Event, Hand, Player, Seat, Table, Team


@dataclass
class Change:
    when: datetime
    who: str
    what: str  # "Game 3", "Table 2", "Seat · Anna Schäuble", ...
    kind: str  # created, changed, deleted
    reason: str
    summary: str = ""  # what was entered or deleted, as on the sheet
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # (field, before, after)


@dataclass
class Names:
    """What the history's ids mean to a reader: players, tables, teams (a few queries, once)."""

    game: str
    players: dict[int, list[str]]  # table id -> player names by seat
    tables: dict[int, int]  # table id -> table number
    rounds: dict[int, int]  # table id -> round number
    entries: dict[int, str]  # entry id -> player name
    teams: dict[int, str]
    with_round: bool = False  # the event's page: a table is named with its round

    def seat_name(self, table_id: int | None, position: int | None) -> str:
        names = self.players.get(table_id or 0, [])
        if position is not None and 0 <= position < len(names):
            return names[position]
        return _("seat %(n)s") % {"n": (position or 0) + 1}

    def table_name(self, table_id: int | None) -> str:
        if table_id is None:
            return _("sits out")
        return self.table_label(table_id, self.tables.get(table_id))

    def table_label(self, table_id: int, number: int | None) -> str:
        """Table ``number`` (the number a history row holds, which may be an older one)."""
        number_text = number if number is not None else "?"
        round_number = self.rounds.get(table_id)
        if self.with_round and round_number is not None:
            return _("Round %(r)s · Table %(t)s") % {"r": round_number, "t": number_text}
        return _("Table %(number)s") % {"number": number_text}

    def game_name(self, table_id: int, number: int) -> str:
        game = _("Game %(number)s") % {"number": number}
        if not self.with_round:
            return game  # the page of one table or one game: the number says which
        return f"{self.table_name(table_id)} · {game}"

    def hand_text(self, table_id: int, data: Any) -> str:
        if not isinstance(data, dict):
            return ""
        players = self.players.get(table_id, [])
        totals = data.get("totals")
        if isinstance(totals, list):
            return (
                _("Totals for the round")
                + ": "
                + ", ".join(
                    f"{players[i] if i < len(players) else '?'} {signed(v)}"
                    for i, v in enumerate(totals)
                )
            )
        return describe_hand(self.game, data, players)


def _names(event: Event, table_ids: Iterable[int], *, with_round: bool = False) -> Names:
    ids = list(table_ids)
    players: dict[int, list[str]] = {}
    for seat in (
        Seat.objects.filter(table_id__in=ids).select_related("entry__player").order_by("position")
    ):
        players.setdefault(seat.table_id, []).append(str(seat.entry.player))
    tables = list(
        Table.objects.filter(round__event=event).values_list("pk", "number", "round__number")
    )
    return Names(
        game=event.game,
        players=players,
        tables={pk: number for pk, number, _round in tables},
        rounds={pk: round_number for pk, _number, round_number in tables},
        entries={
            e.pk: str(e.player) for e in Entry.objects.filter(event=event).select_related("player")
        },
        teams=dict(Team.objects.filter(event=event).values_list("pk", "name")),
        with_round=with_round,
    )


def yes_no(value: Any) -> str:
    return _("yes") if value else _("no")


def when_text(value: Any) -> str:
    if value is None:
        return "—"
    return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")


def plain(value: Any) -> str:
    return "—" if value is None or value == "" else str(value)


def _choice(model: type, name: str) -> Callable[[Any], str]:
    labels = dict(model._meta.get_field(name).choices or [])
    return lambda value: str(labels.get(value, plain(value)))


# who acted without a user (a table link, the system) is stored in English (``audit.actor_of``);
# these are its words in the reader's language. Rows written before were stored in the writer's
# language, German or English: both are read.
ACTORS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        re.compile(r"^(?:table link|Tisch-Link), (?:table|Tisch) (\d+), (?:phone|Handy) (\S+)$"),
        lambda m: _("table link, table %(n)s, phone %(phone)s") % {"n": m[1], "phone": m[2]},
    ),
    (
        re.compile(r"^(?:table link|Tisch-Link), (?:table|Tisch) (\d+)$"),
        lambda m: _("table link, table %(n)s") % {"n": m[1]},
    ),
    (re.compile(r"^(?:system|System)$"), lambda m: _("system")),
]


def _in_words(
    rules: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]], text: str
) -> str:
    for pattern, words in rules:
        match = pattern.match(text)
        if match:
            return words(match)
    return text


def actor_text(actor: str | None) -> str:
    """Who acted, as stored in a history row's actor, in the reader's language (a user's name as
    it is)."""
    return _in_words(ACTORS, (actor or "").strip())


# draws, removed rounds, restores and imports write a reason themselves (stored in English, as
# every reason is kept); these are their words in the reader's language
MACHINE_REASONS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^draw, seed (\d+)$"), lambda m: _("draw, seed %(seed)s") % {"seed": m[1]}),
    (re.compile(r"^round (\d+) removed$"), lambda m: _("round %(n)s removed") % {"n": m[1]}),
    (re.compile(r"^finished$"), lambda m: _("finished")),
    (
        re.compile(r"^removed: registered by mistake$"),
        lambda m: _("removed: registered by mistake"),
    ),
    # an import's key (in the reason, so that a confirm sent twice is found) is bookkeeping
    (re.compile(r"^import(?: [0-9a-f]+)?$"), lambda m: _("imported from a list")),
    (
        re.compile(r"^merged: player (\d+) \((.*)\) into player (\d+) \((.*)\) by (.+)$"),
        lambda m: (
            _("merged: player %(old)s (%(old_name)s) into player %(new)s (%(new_name)s) by %(who)s")
            % {
                "old": m[1],
                "old_name": m[2],
                "new": m[3],
                "new_name": m[4],
                "who": actor_text(m[5]),
            }
        ),
    ),
    (re.compile(r"^restored$"), lambda m: _("restored")),
    (
        re.compile(r"^event bundle exported for the hall: online registration closed$"),
        lambda m: _("event bundle exported for the hall: online registration closed"),
    ),
    (
        re.compile(r"^draw by lot for place (\d+) between (\d+) tied players, seed (\d+)$"),
        lambda m: (
            _("place %(place)s decided by lot between %(tied)s tied players (seed %(seed)s)")
            % {"place": m[1], "tied": m[2], "seed": m[3]}
        ),
    ),
    (
        re.compile(r"^draw by lot for place (\d+) between (\d+) tied pairs, seed (\d+)$"),
        lambda m: (
            _("place %(place)s decided by lot between %(tied)s tied pairs (seed %(seed)s)")
            % {"place": m[1], "tied": m[2], "seed": m[3]}
        ),
    ),
    (
        re.compile(r"^lot lapsed: the tie changed$"),
        lambda m: _("the draw by lot lapsed: a correction changed the tie it decided"),
    ),
    (
        re.compile(r"^totals changed after confirmation$"),
        lambda m: _("changed after confirmation: the totals moved, confirm again"),
    ),
    (re.compile(r"^on the player's word$"), lambda m: _("on the player's word")),
    (
        re.compile(r"^imported from bundle (.+) \(exported (.+)\) by (.+?)(?:; entered by (.+))?$"),
        lambda m: (
            _("imported from bundle %(file)s (exported %(when)s) by %(who)s")
            % {"file": m[1], "when": m[2], "who": actor_text(m[3])}
            # a game a table link entered names it and the phone (``publish.bundles.export``)
            + ("; " + _("entered by %(user)s") % {"user": actor_text(m[4])} if m[4] else "")
        ),
    ),
]


def reason_text(reason: str | None) -> str:
    return _in_words(MACHINE_REASONS, (reason or "").strip())


def _compare(
    records: Iterable[Any],
    what: Callable[[Any], str],
    summary: Callable[[Any], str],
    show: dict[str, tuple[str, Callable[[Any, Any], str]]],
) -> list[Change]:
    """``records`` in date order, each compared with the previous one of the same object.
    ``show`` names the fields a reader follows, with their label and how a value is written; the
    rest (tokens, keys, versions, parents) is bookkeeping and stays out."""
    last: dict[Any, Any] = {}
    out = []
    for record in records:
        before = last.get(record.id)
        last[record.id] = record
        kind = {"+": "created", "~": "changed", "-": "deleted"}.get(record.history_type, "changed")
        changes = []
        if kind == "changed" and before is not None:
            for name, (label, text) in show.items():
                old, new = getattr(before, name), getattr(record, name)
                if old != new:
                    changes.append((label, text(before, old), text(record, new)))
            if not changes and not record.history_change_reason:
                continue  # a save that changed nothing a reader would see
        user = record.history_user.get_username() if record.history_user_id else ""
        out.append(
            Change(
                when=record.history_date,
                who=user or actor_text(record.history_actor) or "—",
                what=what(record),
                kind=kind,
                reason=reason_text(record.history_change_reason),
                summary=summary(record) if kind != "changed" else "",
                changes=changes,
            )
        )
    return out


def _ordered(qs: QuerySet) -> QuerySet:
    return qs.select_related("history_user").order_by("history_date", "history_id")


def _hand_changes(ids: list[int], names: Names, hand: int | None = None) -> list[Change]:
    kind = _choice(Hand, "kind")
    records = Hand.history.filter(table_id__in=ids)
    if hand is not None:
        records = records.filter(id=hand)
    return _compare(
        _ordered(records),
        lambda r: names.game_name(r.table_id, r.number),
        lambda r: names.hand_text(r.table_id, r.data),
        {
            "data": (_("Game"), lambda r, v: names.hand_text(r.table_id, v)),
            "number": (_("Game number"), lambda r, v: plain(v)),
            "dealer": (
                _("Dealer"),
                lambda r, v: "—" if v is None else names.seat_name(r.table_id, v),
            ),
            "kind": (_("Kind"), lambda r, v: kind(v)),
        },
    )


def _table_changes(ids: list[int], names: Names) -> list[Change]:
    def summary(record: Any) -> str:
        text = _("%(size)s players") % {"size": record.size}
        if record.voided:
            text += " · " + _("voided")
        return text

    return _compare(
        _ordered(Table.history.filter(id__in=ids)),
        lambda r: names.table_label(r.id, r.number),
        summary,
        {
            "number": (_("Table number"), lambda r, v: plain(v)),
            "size": (_("Players"), lambda r, v: plain(v)),
            "voided": (_("Voided"), lambda r, v: yes_no(v)),
            "void_reason": (_("Reason for voiding"), lambda r, v: plain(v)),
            "submitted_at": (_("Handed in"), lambda r, v: when_text(v)),
            "confirmed_at": (_("Confirmed"), lambda r, v: when_text(v)),
            "confirmation_lapsed_at": (
                _("Changed after confirmation"),
                lambda r, v: when_text(v),
            ),
        },
    )


def _seat_changes(ids: list[int], names: Names, event: Event | None) -> list[Change]:
    records = Seat.history.filter(table_id__in=ids)
    if event is not None:  # the event's page also shows the players who sat out, and the seats
        # of a round removed before it started (by their entries: the round is gone)
        records = Seat.history.filter(entry__event=event)

    def place(record: Any) -> str:
        if record.table_id is None:
            return names.table_name(None)
        return _("%(table)s, seat %(seat)s") % {
            "table": names.table_name(record.table_id),
            "seat": (record.position or 0) + 1,
        }

    return _compare(
        _ordered(records),
        lambda r: _("Seat of %(player)s") % {"player": names.entries.get(r.entry_id, "?")},
        place,
        {
            "table_id": (_("Table"), lambda r, v: names.table_name(v)),
            "position": (_("Seat"), lambda r, v: "—" if v is None else str(v + 1)),
            "entry_id": (_("Player"), lambda r, v: names.entries.get(v, "?")),
        },
    )


def _confirmation_changes(ids: list[int], names: Names) -> list[Change]:
    via = _choice(Confirmation, "via")
    return _compare(
        _ordered(Confirmation.history.filter(table_id__in=ids)),
        lambda r: (
            _("Confirmation by %(player)s") % {"player": names.seat_name(r.table_id, r.position)}
        ),
        lambda r: (
            _("%(table)s, via %(via)s") % {"table": names.table_name(r.table_id), "via": via(r.via)}
        ),
        {"via": (_("Confirmed via"), lambda r, v: via(v))},
    )


def _lot_text(value: Any) -> str:
    """An entry's place in a draw by lot, in words: "drawn 2nd", "no lot"."""
    if value is None:
        return _("no lot")
    return _("drawn in place %(n)s of the tie") % {"n": value}


def _entry_changes(event: Event, names: Names) -> list[Change]:
    status = _choice(Entry, "status")
    return _compare(
        _ordered(Entry.history.filter(event_id=event.pk)),
        lambda r: _("Entry of %(player)s") % {"player": names.entries.get(r.id, "?")},
        lambda r: _("start number %(n)s") % {"n": r.start_number},
        {
            "start_number": (_("Start number"), lambda r, v: plain(v)),
            "status": (_("Status"), lambda r, v: status(v)),
            "late": (_("Late entry"), lambda r, v: yes_no(v)),
            "squad_id": (_("Team"), lambda r, v: names.teams.get(v, "—") if v else "—"),
            "pair_id": (_("Ziege pair"), lambda r, v: names.teams.get(v, "—") if v else "—"),
            "lot": (_("Draw by lot"), lambda r, v: _lot_text(v)),
        },
    )


def _rules_text(record: Any, value: Any) -> str:
    """An event's changed rule settings by their labels, as on the event form."""
    if not value:
        return _("the defaults")
    game = games.find(getattr(record, "game", ""))
    if game is None:
        return "; ".join(f"{key}: {setting}" for key, setting in sorted(value.items()))
    return "; ".join(
        f"{game.setting_label(key)}: {game.setting_text(key, setting)}"
        for key, setting in sorted(value.items())
    )


def _event_changes(event: Event) -> list[Change]:
    """The event's own settings: a rule change names who rescored the games and why."""
    game = _choice(Event, "game")
    status = _choice(Event, "status")
    policy = _choice(Event, "table_policy")
    return _compare(
        _ordered(Event.history.filter(id=event.pk)),
        lambda r: _("Event settings"),
        lambda r: r.name,
        {
            "name": (_("Name"), lambda r, v: plain(v)),
            "date": (_("Date"), lambda r, v: formats.date_format(v, "SHORT_DATE_FORMAT")),
            "venue": (_("Venue"), lambda r, v: plain(v)),
            "game": (_("Game"), lambda r, v: game(v)),
            "rules": (_("Rule settings"), _rules_text),
            "table_policy": (_("Table sizes"), lambda r, v: policy(v)),
            "hands_per_round": (
                _("Games per round"),
                lambda r, v: ", ".join(f"{k}: {n}" for k, n in sorted((v or {}).items())) or "—",
            ),
            "rounds_planned": (_("Rounds"), lambda r, v: plain(v)),
            "status": (_("Status"), lambda r, v: status(v)),
        },
    )


def for_player(player: Player) -> list[Change]:
    """Every change to one player (corrections, merges), newest first. One query."""
    category = _choice(Player, "category")
    return _newest_first(
        _compare(
            _ordered(Player.history.filter(id=player.pk)),
            lambda r: f"{r.first_name} {r.last_name}",
            lambda r: ", ".join(x for x in (r.club, r.town) if x),
            {
                "first_name": (_("First name"), lambda r, v: plain(v)),
                "last_name": (_("Last name"), lambda r, v: plain(v)),
                "club": (_("Club"), lambda r, v: plain(v)),
                "town": (_("Town"), lambda r, v: plain(v)),
                "category": (_("Category"), lambda r, v: category(v)),
            },
        )
    )


def _newest_first(changes: list[Change]) -> list[Change]:
    return sorted(changes, key=lambda c: c.when, reverse=True)


def for_tables(event: Event, tables: QuerySet[Table]) -> list[Change]:
    """Every change to the hands, seats, confirmations and the tables themselves, newest first."""
    ids = list(tables.values_list("pk", flat=True))
    names = _names(event, ids)
    changes = _hand_changes(ids, names)
    changes += _table_changes(ids, names)
    changes += _seat_changes(ids, names, None)
    changes += _confirmation_changes(ids, names)
    return _newest_first(changes)


def for_event(event: Event) -> list[Change]:
    """Every change of the event, newest first; games and tables named with their round."""
    ids = list(Table.objects.filter(round__event=event).values_list("pk", flat=True))
    names = _names(event, ids, with_round=True)
    changes = _hand_changes(ids, names)
    changes += _table_changes(ids, names)
    changes += _seat_changes(ids, names, event)
    changes += _confirmation_changes(ids, names)
    changes += _entry_changes(event, names)
    changes += _event_changes(event)
    return _newest_first(changes)


def for_hand(event: Event, hand: Hand) -> list[Change]:
    """One game's entries and corrections, newest first (the correction page)."""
    names = _names(event, [hand.table_id])
    return _newest_first(_hand_changes([hand.table_id], names, hand=hand.pk))
