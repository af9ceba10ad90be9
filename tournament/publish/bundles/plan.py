"""An import planned without writing: who each player of the bundle is here
(``register.identity``), and what an event imported before would change (games added, changed,
removed, entries, rounds, draws by lot)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.names import normalise
from tournament.models import (
    Entry,
    Event,
    Player,
    Season,
)
from tournament.publish.bundles import BundleError
from tournament.publish.bundles.check import check_results
from tournament.publish.bundles.export import EVENT_FIELDS, event_content
from tournament.register import identity

# how every history row an import writes begins (``write.import_reason``)
IMPORT_REASON = "imported from bundle "

# --- planning an import -----------------------------------------------------------------------


def without(record: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in names}


def seating_of(rnd: Mapping[str, Any]) -> Any:
    return (
        sorted(rnd["sitting_out"]),
        [(t["number"], t["size"], t["seats"]) for t in sorted(rnd["tables"], key=number_of)],
    )


def number_of(record: Mapping[str, Any]) -> Any:
    return record["number"]


def _table_fields(table: Mapping[str, Any]) -> dict[str, Any]:
    return {k: table[k] for k in ("size", "voided", "void_reason", "submitted_at", "confirmed_at")}


def _confirmations(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    # the user is a name of the other installation: shown in the history, not compared
    return [without(c, "user") for c in table["confirmations"]]


def _hand_fields(hand: Mapping[str, Any]) -> dict[str, Any]:
    # results are this installation's own (scored again); the user as for confirmations
    return without(hand, "results", "entered_by")


def lots_of(content: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [without(d, "drawn_by") for d in content["lot_draws"]]


@dataclass
class Changes:
    """What importing a bundle changes in an event that is here already."""

    settings: list[str] = field(default_factory=list)
    entries_added: list[int] = field(default_factory=list)
    entries_changed: list[int] = field(default_factory=list)
    entries_removed: list[int] = field(default_factory=list)
    teams: bool = False
    rounds_added: list[int] = field(default_factory=list)
    rounds_changed: list[int] = field(default_factory=list)
    rounds_removed: list[int] = field(default_factory=list)
    rounds_redrawn: list[int] = field(default_factory=list)
    tables_changed: list[str] = field(default_factory=list)
    games_added: list[str] = field(default_factory=list)
    games_changed: list[str] = field(default_factory=list)
    games_removed: list[str] = field(default_factory=list)
    lots: bool = False
    # (newest change here, newest in the bundle) when a game here was changed after every game
    # of the bundle: probably an older bundle than the one imported last, or a correction made
    # here; not a change itself
    older: tuple[str, str] | None = None

    @property
    def empty(self) -> bool:
        return not any(
            getattr(self, name)
            for name in self.__dataclass_fields__  # every list and flag above
            if name != "older"
        )

    def lines(self) -> list[str]:
        """The changes in the director's words, one line each."""
        lines = []
        if self.settings:
            lines.append(_("Settings changed: %(fields)s") % {"fields": ", ".join(self.settings)})
        for items, text in (
            (self.entries_added, _("Entries added (start numbers): %(items)s")),
            (self.entries_changed, _("Entries changed (start numbers): %(items)s")),
            (self.entries_removed, _("Entries removed (start numbers): %(items)s")),
            (self.rounds_added, _("Rounds added: %(items)s")),
            (self.rounds_changed, _("Rounds changed (status or draw): %(items)s")),
            (self.rounds_redrawn, _("Rounds with new seats: %(items)s")),
            (self.rounds_removed, _("Rounds removed: %(items)s")),
            (self.tables_changed, _("Tables changed: %(items)s")),
        ):
            if items:
                lines.append(text % {"items": ", ".join(str(i) for i in items)})
        for items, text in (
            (
                self.games_added,
                ngettext("%(n)s game added", "%(n)s games added", len(self.games_added)),
            ),
            (
                self.games_changed,
                ngettext("%(n)s game changed", "%(n)s games changed", len(self.games_changed)),
            ),
            (
                self.games_removed,
                ngettext("%(n)s game removed", "%(n)s games removed", len(self.games_removed)),
            ),
        ):
            if items:
                shown = ", ".join(items[:20]) + (" …" if len(items) > 20 else "")
                lines.append(text % {"n": len(items)} + f": {shown}")
        if self.teams:
            lines.append(_("Teams changed."))
        if self.lots:
            lines.append(_("Draws by lot changed."))
        if self.older and not self.empty:
            lines.append(
                _(
                    "Careful: a game here was changed at %(here)s, after every game in the bundle "
                    "(the newest is of %(theirs)s). Is this an older bundle than the one imported "
                    "last? Importing it puts the bundle's games in place of those here."
                )
                % {"here": self.older[0], "theirs": self.older[1]}
            )
        return lines


def _short_game(rnd: int, table: int, number: int) -> str:
    return _("R%(round)s T%(table)s G%(game)s") % {"round": rnd, "table": table, "game": number}


def compare(here: Mapping[str, Any], theirs: Mapping[str, Any]) -> Changes:
    """What changes when the event ``here`` (``event_content`` of this database) becomes
    ``theirs`` (a bundle's content whose players carry this database's identifiers)."""
    changes = Changes()
    mine, new = here["event"], theirs["event"]
    changes.settings = [
        name for name in ("date", *EVENT_FIELDS) if name != "slug" and mine[name] != new[name]
    ]
    before = {e["start_number"]: e for e in here["entries"]}
    after = {e["start_number"]: e for e in theirs["entries"]}
    changes.entries_added = sorted(set(after) - set(before))
    changes.entries_removed = sorted(set(before) - set(after))
    changes.entries_changed = sorted(n for n in set(before) & set(after) if before[n] != after[n])
    changes.teams = here["teams"] != theirs["teams"]
    rounds_before = {r["number"]: r for r in here["rounds"]}
    rounds_after = {r["number"]: r for r in theirs["rounds"]}
    changes.rounds_added = sorted(set(rounds_after) - set(rounds_before))
    changes.rounds_removed = sorted(set(rounds_before) - set(rounds_after))
    for number, rnd in sorted(rounds_after.items()):
        old = rounds_before.get(number)
        if old is None or seating_of(old) != seating_of(rnd):
            if old is not None:
                changes.rounds_redrawn.append(number)
                changes.games_removed += [
                    _short_game(number, t["number"], h["number"])
                    for t in old["tables"]
                    for h in t["hands"]
                ]
            changes.games_added += [
                _short_game(number, t["number"], h["number"])
                for t in rnd["tables"]
                for h in t["hands"]
            ]
            continue
        if without(old, "tables", "sitting_out") != without(rnd, "tables", "sitting_out"):
            changes.rounds_changed.append(number)
        old_tables = {t["number"]: t for t in old["tables"]}
        for table in sorted(rnd["tables"], key=number_of):
            was = old_tables[table["number"]]
            if _table_fields(was) != _table_fields(table) or _confirmations(was) != _confirmations(
                table
            ):
                changes.tables_changed.append(
                    _("round %(round)s, table %(table)s")
                    % {"round": number, "table": table["number"]}
                )
            hands_before = {h["number"]: h for h in was["hands"]}
            hands_after = {h["number"]: h for h in table["hands"]}
            for n in sorted(set(hands_after) | set(hands_before)):
                name = _short_game(number, table["number"], n)
                if n not in hands_before:
                    changes.games_added.append(name)
                elif n not in hands_after:
                    changes.games_removed.append(name)
                elif _hand_fields(hands_before[n]) != _hand_fields(hands_after[n]):
                    changes.games_changed.append(name)
    for number in changes.rounds_removed:
        changes.games_removed += [
            _short_game(number, t["number"], h["number"])
            for t in rounds_before[number]["tables"]
            for h in t["hands"]
        ]
    changes.lots = lots_of(here) != lots_of(theirs)
    newest_here, newest_theirs = _newest(here), _newest(theirs)
    if newest_here and newest_here > (newest_theirs or ""):
        changes.older = (newest_here, newest_theirs or "—")
    return changes


def _newest(content: Mapping[str, Any]) -> str:
    """The latest change of a game (ISO times in UTC compare as text)."""
    return max(
        (h["updated_at"] or "" for r in content["rounds"] for t in r["tables"] for h in t["hands"]),
        default="",
    )


@dataclass
class OtherName(identity.Match):
    """A bundle player whose identifier is a local player's under another name: identifiers are
    public (every player link shows one), so the director decides whether it is the same person
    (the candidate) or a new player (who then gets an identifier of their own)."""

    def explain(self) -> str:
        here = self.candidates[0]
        return _("matched by identifier: %(here)s ≠ %(bundle)s; decide") % {
            "here": f"{here}, {identity.place(here)}",
            "bundle": f"{self.person}, {self.person.place}",
        }


def _same_name(person: identity.Person, player: Player) -> bool:
    return (normalise(person.first_name), normalise(person.last_name)) == (
        normalise(player.first_name),
        normalise(player.last_name),
    )


def _checked_identifiers(
    matches: list[identity.Match],
    decisions: Mapping[str, str],
    known: Mapping[str, Player],
) -> list[identity.Match]:
    """Players found by identifier under another name become the director's decision (see
    ``OtherName``); at an event imported before, the player of the same start number stays."""
    # the decisions were checked by ``match_players``: every one names identifiers
    wanted = {
        str(uuid.UUID(str(k).strip())): v if v == identity.NEW else str(uuid.UUID(str(v).strip()))
        for k, v in decisions.items()
    }
    checked = []
    for match in matches:
        local = match.player
        if match.how != identity.BY_IDENTIFIER or local is None or _same_name(match.person, local):
            checked.append(match)
            continue
        decision = wanted.get(match.person.uid)
        if match.person.uid in known and known[match.person.uid] != local:
            checked.append(identity.Match(match.person, identity.BY_ENTRY, known[match.person.uid]))
        elif decision == str(local.uid):
            checked.append(identity.Match(match.person, identity.BY_DECISION, local, [local]))
        elif decision == identity.NEW:
            checked.append(OtherName(match.person, identity.CREATED, None, [local]))
        else:
            checked.append(OtherName(match.person, identity.PROPOSED, None, [local]))
    return checked


@dataclass
class Plan:
    """What importing a bundle does here, worked out without writing (``plan_import``)."""

    content: dict[str, Any]
    event: Event | None  # the event here already (None: the import creates it)
    season: Season | None  # the season here the new event goes into (None: none, or created)
    matches: list[identity.Match]
    games: int  # games in the bundle, every one scored again here
    changes: Changes | None  # for an event that is here already
    problems: list[str] = field(default_factory=list)
    # the event here was made on this installation, not by an import (None: no event here)
    made_here: bool = False
    # entries made here after the event left for the hall (``Event.sent_to_hall_at``) whose
    # player the bundle does not hold: a registration the hall never saw, kept by the import
    kept: list[Entry] = field(default_factory=list)
    # entries here whose player the bundle does not hold, deleted by the import (the hall took
    # them away), named in the preview
    dropped: list[Entry] = field(default_factory=list)

    @property
    def finished_here(self) -> bool:
        return self.event is not None and self.event.status == Event.Status.FINISHED

    @property
    def needs_reason(self) -> bool:
        """A bundle updates what an earlier bundle brought; changing an event made here, or one
        finished here, takes the director's word and a reason (kept in the history)."""
        return not self.unchanged and (self.made_here or self.finished_here)

    @property
    def fresh_identifiers(self) -> set[str]:
        """Bundle identifiers of new players that are a local player's identifier already."""
        return {
            m.person.uid
            for m in self.matches
            if m.is_new and m.candidates and isinstance(m, OtherName)
        }

    @property
    def name(self) -> str:
        return self.content["event"]["name"]

    @property
    def season_created(self) -> bool:
        return self.event is None and self.season is None and self.content["season"] is not None

    @property
    def undecided(self) -> list[identity.Match]:
        return [m for m in self.matches if not m.decided]

    @property
    def new_players(self) -> list[identity.Match]:
        return [m for m in self.matches if m.is_new]

    @property
    def known_players(self) -> list[identity.Match]:
        return [m for m in self.matches if m.decided and not m.is_new]

    @property
    def unchanged(self) -> bool:
        """An event imported before, and nothing in this bundle differs from it."""
        return (
            self.event is not None
            and self.changes is not None
            and self.changes.empty
            and not self.new_players
            and not self.undecided
        )

    @property
    def ready(self) -> bool:
        return not self.undecided and not self.problems

    def kept_line(self) -> str:
        """The entries the import keeps, by name (``Plan.kept``)."""
        assert self.event is not None and self.event.sent_to_hall_at is not None
        return ngettext(
            "Registered here after the event left for the hall (%(when)s), not in the bundle: "
            "%(names)s. The import keeps this entry (with a new start number where the bundle "
            "gives its number to another player); it did not play in the hall.",
            "Registered here after the event left for the hall (%(when)s), not in the bundle: "
            "%(names)s. The import keeps these %(n)s entries (with new start numbers where the "
            "bundle gives their numbers to other players); they did not play in the hall.",
            len(self.kept),
        ) % {
            "when": formats.date_format(
                timezone.localtime(self.event.sent_to_hall_at), "SHORT_DATETIME_FORMAT"
            ),
            "names": ", ".join(f"{e.start_number} {e.player}" for e in self.kept),
            "n": len(self.kept),
        }

    def summary(self) -> list[str]:
        """The plan in the director's words."""
        content = self.content
        if self.event is None:
            entries, rounds = len(content["entries"]), len(content["rounds"])
            tables = sum(len(r["tables"]) for r in content["rounds"])
            parts = [
                ngettext("%(n)s entry", "%(n)s entries", entries) % {"n": entries},
                ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds},
                ngettext("%(n)s table", "%(n)s tables", tables) % {"n": tables},
                ngettext("%(n)s game", "%(n)s games", self.games) % {"n": self.games},
            ]
            lines = [
                _("New event %(event)s: %(parts)s.")
                % {"event": self.name, "parts": ", ".join(parts)}
            ]
            if self.season_created:
                lines.append(_("New season %(season)s.") % {"season": content["season"]["name"]})
            elif self.season is not None:
                lines.append(_("Into the season %(season)s.") % {"season": self.season})
        elif self.unchanged:
            lines = [
                _("%(event)s is here already and the bundle changes nothing in it.")
                % {"event": self.event}
            ]
            if self.kept:
                lines.append(self.kept_line())
        else:
            lines = [_("%(event)s is here already; the bundle changes:") % {"event": self.event}]
            assert self.changes is not None
            lines += self.changes.lines()
            if self.dropped:
                lines.append(
                    _("Not in the bundle, so the import removes them here: %(names)s.")
                    % {"names": ", ".join(f"{e.start_number} {e.player}" for e in self.dropped)}
                )
            if self.kept:
                lines.append(self.kept_line())
            if self.made_here:
                lines.append(
                    _(
                        "Careful: %(event)s was made on this installation, not imported from a "
                        "bundle. The bundle puts its entries, rounds and games in place of those "
                        "here: confirm it and give a reason."
                    )
                    % {"event": self.event}
                )
            elif self.finished_here:
                lines.append(
                    _(
                        "Careful: %(event)s is finished here. Importing the bundle changes a "
                        "finished event: confirm it and give a reason."
                    )
                    % {"event": self.event}
                )
        lines.append(
            _(
                "Players: %(new)s new, %(known)s known, %(open)s to decide. Every game was "
                "scored again here and agrees."
            )
            % {
                "new": len(self.new_players),
                "known": len(self.known_players),
                "open": len(self.undecided),
            }
        )
        return lines


def _players_here(content: Mapping[str, Any], matches: Iterable[identity.Match]) -> dict:
    """The content with each entry naming its player by this database's identifier."""
    local = {m.person.uid: str(m.player.uid) for m in matches if m.player is not None}
    return {
        **content,
        "entries": [
            {**e, "player": local.get(e["player"], e["player"])} for e in content["entries"]
        ],
    }


def plan_import(
    content: dict[str, Any],
    *,
    decisions: Mapping[str, str] | None = None,
    accept_exact: bool = False,
    lock: bool = False,
) -> Plan:
    """What importing the checked ``content`` would do here (see the module docstring). Raises
    BundleError when it cannot be imported at all; players still to decide are in the plan."""
    data = content["event"]
    events = Event.objects.select_related("season")
    if lock:
        events = events.select_for_update(of=("self",))
    event = events.filter(uid=data["uid"]).first()
    season = None
    if event is None:
        clash = Event.objects.filter(slug=data["slug"]).first()
        if clash is not None:
            raise BundleError(
                _(
                    "This installation has another event with the short name %(slug)s "
                    "(%(event)s); change that event's short name first."
                )
                % {"slug": data["slug"], "event": clash}
            )
        if content["season"] is not None:
            season = Season.objects.filter(slug=content["season"]["slug"]).first()
            if season is not None and season.game != data["game"]:
                raise BundleError(
                    _(
                        "The season %(season)s here holds events of %(game)s; the bundle's "
                        "event is another game."
                    )
                    % {"season": season, "game": season.get_game_display()}
                )
    elif event.game != data["game"]:
        raise BundleError(
            _("%(event)s here is an event of %(game)s; the bundle's is another game.")
            % {"event": event, "game": event.get_game_display()}
        )
    known: dict[str, Player] = {}
    entries: list[Entry] = []
    later: list[Entry] = []
    made_here = event is not None and not _imported(event)
    if event is not None:
        entries = list(Entry.objects.filter(event=event).select_related("player"))
        # made here after the event left for the hall: the hall never saw them, and its own
        # entry of the same start number (a walk-in at the desk) is another player
        later = [e for e in entries if _made_since(e, event)]
        # the player of the same start number is the bundle's only at an event an earlier
        # bundle brought: at an event made here, a start number the hall gave (a walk-in) may
        # be one given here meanwhile to somebody else
        here = {e.start_number: e.player for e in entries if e not in later and not made_here}
        known = {
            e["player"]: here[e["start_number"]]
            for e in content["entries"]
            if e["start_number"] in here
        }
    people = [identity.person_from(p) for p in content["players"]]
    try:
        matches = identity.match_players(
            people, decisions=decisions, known=known, accept_exact=accept_exact
        )
    except identity.UnknownDecision as exc:
        raise BundleError(str(exc)) from exc
    matches = _checked_identifiers(matches, decisions or {}, known)
    games_scored = check_results(content)
    theirs = {m.player.pk for m in matches if m.player is not None}
    kept = [e for e in later if e.player_id not in theirs]
    # the entries here the import deletes: their players are not in the bundle
    dropped = [e for e in entries if e.player_id not in theirs and e not in kept]
    changes = None
    if event is not None:
        here_content = event_content(event)
        away = {e.start_number for e in kept}
        # the entries kept are no change the bundle brings: compared without them
        here_content["entries"] = [
            e for e in here_content["entries"] if e["start_number"] not in away
        ]
        changes = compare(here_content, _players_here(content, matches))
    return Plan(
        content=content,
        event=event,
        season=season,
        matches=matches,
        games=games_scored,
        changes=changes,
        problems=identity.clashes(matches),
        made_here=made_here,
        kept=kept,
        dropped=dropped,
    )


def _made_since(entry: Entry, event: Event) -> bool:
    """Whether the entry was made here after the event's bundle left for the hall."""
    return event.sent_to_hall_at is not None and entry.registered_at >= event.sent_to_hall_at


def _imported(event: Event) -> bool:
    """Whether the event came here in a bundle: its first history row is an import's (one
    query)."""
    first = (
        Event.history.filter(id=event.pk)
        .order_by("history_date", "history_id")
        .values_list("history_change_reason", flat=True)
        .first()
    )
    return (first or "").startswith(IMPORT_REASON)
