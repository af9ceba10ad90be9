"""Event bundles: one event in one file, from the hall's laptop into the season (issue 15).

The format is documented in ``docs/bundle-format.md``. In short: a gzip-compressed JSON document
``{"format": "cego-event-bundle", "version": 1, "sha256": ..., "content": {...}}`` whose
``sha256`` is taken over the canonical form of ``content`` (``canonical``), so that a file changed
by hand or cut short is refused before anything is read from it.

Export (``write_bundle``) takes everything an event is, with the players' and the event's stable
identifiers and who entered each game when; not the table links (a secret of the hall: the
receiving side makes its own), nor the phones' reports, the event's address for phones or the
form keys of the hall.

Import works in two steps like the other imports. ``plan_import`` reads a checked bundle against
this database without writing: who each player is here (``register.identity``), what an event
imported before would change (games added, changed, removed, entries, rounds, draws by lot), and
every game scored again with this installation's engine; a game whose stored results disagree
refuses the whole bundle, naming the game. ``apply_import`` then writes the plan in one
transaction: everything or nothing. Every row written keeps a history row naming the bundle and
the director ("imported from bundle … by …"); the result rows are this installation's own
(``services.rescore_table``). The same bundle imported again finds nothing to change and writes
nothing.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
import re
import uuid
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

import scoring
from tournament import games
from tournament.core import audit, errors
from tournament.core.audit import bulk_attrs
from tournament.models import (
    Confirmation,
    Entry,
    Event,
    Hand,
    LotDraw,
    Player,
    PlayerAlias,
    Result,
    Round,
    Season,
    Seat,
    Table,
    Team,
    versions,
)
from tournament.play import reads, services
from tournament.register import identity

FORMAT = "cego-event-bundle"
VERSION = 1  # the newest format this app reads and the one it writes
SUFFIX = ".cego.json.gz"
# a real event (150 players, 3 rounds of 48 games) is some 2 MB of JSON; far above that is no
# bundle of ours, and reading stops before it fills the memory (a packed file of zeros)
UNPACKED_MAX_BYTES = 64 * 1024 * 1024
CHUNK = 1024 * 1024


class BundleError(errors.Refused):
    """A file that is not an event bundle this app can import; the message says why."""


# --- export -----------------------------------------------------------------------------------


def _when(value: datetime.datetime | None) -> str | None:
    return value.astimezone(datetime.UTC).isoformat() if value is not None else None


def _username(user: Any) -> str:
    return user.get_username() if user is not None else ""


EVENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "game",
    "rules",
    "table_policy",
    "target_table_size",
    "hands_per_round",
    "rounds_planned",
    "pairing",
    "status",
)
PLAYER_FIELDS = ("first_name", "last_name", "club", "town", "category")


def event_content(event: Event) -> dict[str, Any]:
    """Everything the event is, as plain data (the bundle's ``content``). Ten queries whatever
    the size of the event, eleven when a game names no user here (``_enterers``)."""
    event = Event.objects.select_related("season").get(pk=event.pk)  # as stored, not as held
    season = event.season
    entries = list(Entry.objects.filter(event=event).select_related("player", "squad", "pair"))
    number_of = {e.pk: e.start_number for e in entries}
    seats: dict[int, dict[int, int]] = {}
    sitting_out: dict[int, list[int]] = {}
    for round_id, table_id, position, entry_id in Seat.objects.filter(
        round__event=event
    ).values_list("round_id", "table_id", "position", "entry_id"):
        if table_id is None:
            sitting_out.setdefault(round_id, []).append(number_of[entry_id])
        else:
            seats.setdefault(table_id, {})[position] = number_of[entry_id]
    results: dict[int, dict[int, list[int]]] = {}
    for hand_id, position, *figures in Result.objects.filter(event=event).values_list(
        "hand_id", "position", "points", "inflicted", "matches_won", "games_lost"
    ):
        results.setdefault(hand_id, {})[position] = figures
    hands: dict[int, list[dict[str, Any]]] = {}
    stored = list(
        Hand.objects.filter(table__round__event=event)
        .select_related("entered_by")
        .order_by("table_id", "number")
    )
    enterers = _enterers([h.pk for h in stored if h.entered_by is None])
    for hand in stored:
        mine = results.get(hand.pk, {})
        hands.setdefault(hand.table_id, []).append(
            {
                "number": hand.number,
                "kind": hand.kind,
                "dealer": hand.dealer,
                "data": hand.data,
                "entered_by": _username(hand.entered_by) or enterers.get(hand.pk, ""),
                "entered_at": _when(hand.entered_at),
                "updated_at": _when(hand.updated_at),
                "version": hand.version,
                "results": [mine[p] for p in sorted(mine)],
            }
        )
    confirmations: dict[int, list[dict[str, Any]]] = {}
    for c in Confirmation.objects.filter(table__round__event=event).select_related("user"):
        confirmations.setdefault(c.table_id, []).append(
            {
                "position": c.position,
                "via": c.via,
                "user": _username(c.user),
                "device": c.device,
                "confirmed_at": _when(c.confirmed_at),
            }
        )
    tables: dict[int, list[dict[str, Any]]] = {}
    for table in Table.objects.filter(round__event=event).order_by("round_id", "number"):
        placed = seats.get(table.pk, {})
        tables.setdefault(table.round_id, []).append(
            {
                "number": table.number,
                "size": table.size,
                "voided": table.voided,
                "void_reason": table.void_reason,
                "submitted_at": _when(table.submitted_at),
                "confirmed_at": _when(table.confirmed_at),
                "seats": [placed.get(p) for p in range(max([table.size - 1, *placed]) + 1)],
                "hands": hands.get(table.pk, []),
                "confirmations": sorted(
                    confirmations.get(table.pk, []), key=lambda c: c["position"]
                ),
            }
        )
    return {
        "exported_at": _when(timezone.now()),
        "event": {
            "uid": str(event.uid),
            "date": event.date.isoformat(),
            **{name: getattr(event, name) for name in EVENT_FIELDS},
        },
        "season": (
            {
                "slug": season.slug,
                "name": season.name,
                "game": season.game,
                "best_of": season.best_of,
            }
            if season is not None
            else None
        ),
        "players": [
            {"uid": str(e.player.uid), **{n: getattr(e.player, n) for n in PLAYER_FIELDS}}
            for e in entries
        ],
        "teams": sorted(
            ({"kind": t.kind, "name": t.name} for t in Team.objects.filter(event=event)),
            key=lambda t: (t["kind"], t["name"]),
        ),
        "entries": [
            {
                "start_number": e.start_number,
                "player": str(e.player.uid),
                "status": e.status,
                "late": e.late,
                "squad": e.squad.name if e.squad else None,
                "pair": e.pair.name if e.pair else None,
                "lot": e.lot,
            }
            for e in entries
        ],
        "rounds": [
            {
                "number": rnd.number,
                "status": rnd.status,
                "seed": rnd.seed,
                "repeat_meetings": rnd.repeat_meetings,
                "draw_basis": rnd.draw_basis,
                "sitting_out": sorted(sitting_out.get(rnd.pk, [])),
                "tables": tables.get(rnd.pk, []),
            }
            for rnd in Round.objects.filter(event=event).order_by("number")
        ],
        "lot_draws": event_content_lots(event),
    }


ENTERED_BY = re.compile(r"; entered by (.+)$")


def _enterers(hand_ids: list[int]) -> dict[int, str]:
    """Who entered the games that name no user of this installation, from their history: the
    name an import brought along ("…; entered by NAME", the other installation's user), else
    who the history names for the game's entry (a table link and its phone). One query, none
    when every game names a user."""
    if not hand_ids:
        return {}
    found: dict[int, str] = {}
    for hand_id, kind, reason, actor in (
        Hand.history.filter(id__in=hand_ids)
        .order_by("history_date", "history_id")
        .values_list("id", "history_type", "history_change_reason", "history_actor")
    ):
        brought = ENTERED_BY.search(reason or "")
        if brought:
            found[hand_id] = brought[1]
        elif kind == "+" and actor:
            found[hand_id] = actor
    return found


def canonical(content: Any) -> bytes:
    """The one byte form of ``content`` the checksum is taken over: keys sorted, no spaces,
    UTF-8."""
    return json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def document(event: Event) -> dict[str, Any]:
    content = event_content(event)
    return {
        "format": FORMAT,
        "version": VERSION,
        "sha256": hashlib.sha256(canonical(content)).hexdigest(),
        "content": content,
    }


def write_bundle(event: Event, output: IO[bytes]) -> None:
    """Write the event's bundle (gzip-compressed JSON) to ``output``."""
    data = json.dumps(document(event), ensure_ascii=False, indent=1).encode("utf-8")
    with gzip.GzipFile(fileobj=output, mode="wb", mtime=0) as packed:
        packed.write(data)


def bundle_bytes(event: Event) -> bytes:
    buffer = io.BytesIO()
    write_bundle(event, buffer)
    return buffer.getvalue()


def filename(event: Event) -> str:
    return f"{event.slug}{SUFFIX}"


# --- reading a file ---------------------------------------------------------------------------


def _incomplete() -> BundleError:
    return BundleError(
        _(
            "The file is incomplete (cut short while copying or downloading?): export the event "
            "again and bring the whole file."
        )
    )


def _unpacked(data: bytes) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data  # plain JSON is accepted too (a bundle unpacked to look at it)
    unpacker = zlib.decompressobj(wbits=31)
    parts, size = [], 0
    try:
        view = memoryview(data)
        for start in range(0, len(data), CHUNK):
            part = unpacker.decompress(view[start : start + CHUNK], UNPACKED_MAX_BYTES + 1 - size)
            size += len(part)
            parts.append(part)
            if size > UNPACKED_MAX_BYTES or unpacker.unconsumed_tail:
                raise BundleError(_("The file unpacks to far more than any event; not read."))
            if unpacker.eof:
                break
    except zlib.error as exc:
        raise _incomplete() from exc
    if not unpacker.eof:
        raise _incomplete()
    return b"".join(parts)


def read_bundle(data: bytes) -> dict[str, Any]:
    """The checked ``content`` of a bundle file's bytes. Raises BundleError when the file is not
    a bundle, is cut short, comes from a newer version of the app, or was changed after export."""
    text = _unpacked(data)
    try:
        doc = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise BundleError(_("This file is not an event bundle.")) from exc
    except json.JSONDecodeError as exc:
        stripped = text.strip()
        if stripped.startswith(b"{") and (
            exc.pos >= len(stripped) - 1 or not stripped.endswith(b"}")
        ):
            raise _incomplete() from exc
        raise BundleError(_("This file is not an event bundle.")) from exc
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, nesting 10,000 deep
        raise BundleError(_("This file is not an event bundle.")) from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BundleError(_("This file is not an event bundle."))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BundleError(_("This file is not an event bundle."))
    if version > VERSION:
        raise BundleError(
            _(
                "This bundle was made by a newer version of the app (format %(theirs)s; this "
                "installation reads up to %(ours)s): update this installation first."
            )
            % {"theirs": version, "ours": VERSION}
        )
    content = doc.get("content")
    if not isinstance(content, dict) or not isinstance(doc.get("sha256"), str):
        raise _incomplete()
    try:
        written = canonical(content)
    except ValueError as exc:  # NaN or Infinity: never written by the app
        raise BundleError(_("This file is not an event bundle.")) from exc
    if hashlib.sha256(written).hexdigest() != doc["sha256"].lower():
        raise BundleError(
            _(
                "The bundle was changed after export (its checksum does not match its content); "
                "nothing was imported. Export the event again from the laptop it was played on."
            )
        )
    check_content(content)
    return content


# --- checking the content ---------------------------------------------------------------------

# each field's kind: str, int, bool, list, dict, uuid, date, when (time or null), json (any),
# a tuple of allowed values; "?" after a kind allows null
SCHEMAS: dict[str, dict[str, Any]] = {
    "event": {
        "uid": "uuid",
        "date": "date",
        "name": "str",
        "slug": "str",
        "venue": "str",
        "game": "str",
        "rules": "dict",
        "table_policy": tuple(Event.TablePolicy.values),
        "target_table_size": "int",
        "hands_per_round": "dict",
        "rounds_planned": "int",
        "pairing": tuple(Event.Pairing.values),
        "status": tuple(Event.Status.values),
    },
    "season": {"slug": "str", "name": "str", "game": "str", "best_of": "int?"},
    "player": {
        "uid": "uuid",
        "first_name": "str",
        "last_name": "str",
        "club": "str",
        "town": "str",
        "category": tuple(Player.Category.values),
    },
    "team": {"kind": tuple(Team.Kind.values), "name": "str"},
    "entry": {
        "start_number": "int",
        "player": "uuid",
        "status": tuple(Entry.Status.values),
        "late": "bool",
        "squad": "str?",
        "pair": "str?",
        "lot": "int?",
    },
    "round": {
        "number": "int",
        "status": tuple(Round.Status.values),
        "seed": "int?",
        "repeat_meetings": "int",
        "draw_basis": "json",
        "sitting_out": "list",
        "tables": "list",
    },
    "table": {
        "number": "int",
        "size": "int",
        "voided": "bool",
        "void_reason": "str",
        "submitted_at": "when",
        "confirmed_at": "when",
        "seats": "list",
        "hands": "list",
        "confirmations": "list",
    },
    "hand": {
        "number": "int",
        "kind": tuple(Hand.Kind.values),
        "dealer": "int?",
        "data": "dict",
        "entered_by": "str",
        "entered_at": "when",
        "updated_at": "when",
        "version": "int",
        "results": "list",
    },
    "confirmation": {
        "position": "int",
        "via": tuple(Confirmation.Via.values),
        "user": "str",
        "device": "str",
        "confirmed_at": "when",
    },
    "lot_draw": {
        "entries": "list",
        "tie": "list",
        "tied": "list",
        "lapsed_at": "when",
        "seed": "int",
        "drawn_by": "str",
        "drawn_at": "when",
    },
}


def _is(value: Any, kind: Any) -> bool:
    if isinstance(kind, tuple):
        return value in kind
    if kind.endswith("?"):
        return value is None or _is(value, kind[:-1])
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63
    checks = {"str": str, "bool": bool, "list": list, "dict": dict}
    if kind in checks:
        return isinstance(value, checks[kind])
    if kind == "json":
        return True
    if not isinstance(value, str):
        return kind == "when" and value is None
    try:
        if kind == "uuid":
            uuid.UUID(value)
        elif kind == "date":
            datetime.date.fromisoformat(value)
        else:
            return timezone.is_aware(datetime.datetime.fromisoformat(value))
    except ValueError:
        return False
    return True


def _damaged(where: str, what: str) -> BundleError:
    return BundleError(
        _("The bundle cannot be read: %(where)s %(what)s.") % {"where": where, "what": what}
    )


def _checked(value: Any, schema: str, where: str) -> None:
    if not isinstance(value, dict):
        raise _damaged(where, _("is not a record"))
    for name, kind in SCHEMAS[schema].items():
        if name not in value:
            raise _damaged(where, _("has no “%(field)s”") % {"field": name})
        if not _is(value[name], kind):
            raise _damaged(where, _("has a wrong “%(field)s”") % {"field": name})


def _numbers(values: Any, where: str) -> None:
    if not isinstance(values, list) or not all(_is(v, "int") for v in values):
        raise _damaged(where, _("has a wrong list of start numbers"))


def _unique(values: list[Any], where: str, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise _damaged(
                where, _("has the %(what)s %(value)s twice") % {"what": what, "value": value}
            )
        seen.add(value)


def check_content(content: dict[str, Any]) -> None:
    """Every record of the content has the fields this version reads, of the right kind; start
    numbers and identifiers refer to what the bundle holds. BundleError names the first flaw."""
    for name, kind in (("event", "dict"), ("players", "list"), ("teams", "list")):
        if not _is(content.get(name), kind):
            raise _damaged(_("the bundle"), _("has no “%(field)s”") % {"field": name})
    for name in ("entries", "rounds", "lot_draws"):
        if not isinstance(content.get(name), list):
            raise _damaged(_("the bundle"), _("has no “%(field)s”") % {"field": name})
    _checked(content["event"], "event", _("the event"))
    if games.find(content["event"]["game"]) is None:
        raise _damaged(_("the event"), _("is of a game this installation does not know"))
    if content.get("season") is not None:
        _checked(content["season"], "season", _("the season"))
    for i, player in enumerate(content["players"], start=1):
        _checked(player, "player", _("player %(n)s") % {"n": i})
    for i, team in enumerate(content["teams"], start=1):
        _checked(team, "team", _("team %(n)s") % {"n": i})
    uids = {p["uid"] for p in content["players"]}
    squads = {t["name"] for t in content["teams"] if t["kind"] == Team.Kind.SQUAD}
    pairs = {t["name"] for t in content["teams"] if t["kind"] == Team.Kind.PAIR}
    _unique([p["uid"] for p in content["players"]], _("the bundle"), _("identifier"))
    numbers = set()
    for entry in content["entries"]:
        number = entry.get("start_number") if isinstance(entry, dict) else None
        where = _("entry %(n)s") % {"n": number} if _is(number, "int") else _("an entry")
        _checked(entry, "entry", where)
        if entry["player"] not in uids:
            raise _damaged(where, _("names a player the bundle does not hold"))
        if (entry["squad"] is not None and entry["squad"] not in squads) or (
            entry["pair"] is not None and entry["pair"] not in pairs
        ):
            raise _damaged(where, _("names a team the bundle does not hold"))
        numbers.add(entry["start_number"])
    _unique([e["start_number"] for e in content["entries"]], _("the bundle"), _("start number"))
    _unique([e["player"] for e in content["entries"]], _("the bundle"), _("player"))
    for rnd in content["rounds"]:
        _checked(rnd, "round", _("a round"))
        where = _("round %(n)s") % {"n": rnd["number"]}
        _numbers(rnd["sitting_out"], where)
        seated = list(rnd["sitting_out"])
        for table in rnd["tables"]:
            _checked(table, "table", where)
            at = _("round %(round)s, table %(table)s") % {
                "round": rnd["number"],
                "table": table["number"],
            }
            _numbers(table["seats"], at)
            if len(table["seats"]) != table["size"]:
                raise _damaged(at, _("has not one player for each seat"))
            seated += table["seats"]
            for hand in table["hands"]:
                _checked(hand, "hand", at)
                if not all(
                    isinstance(r, list) and len(r) == 4 and all(_is(x, "int") for x in r)
                    for r in hand["results"]
                ):
                    raise _damaged(
                        at, _("has wrong results for game %(n)s") % {"n": hand["number"]}
                    )
            _unique([h["number"] for h in table["hands"]], at, _("game number"))
            for confirmation in table["confirmations"]:
                _checked(confirmation, "confirmation", at)
            _unique([c["position"] for c in table["confirmations"]], at, _("confirmed seat"))
        if not set(seated) <= numbers:
            raise _damaged(where, _("seats a start number the bundle has no entry for"))
        _unique(seated, where, _("seated start number"))
        _unique([t["number"] for t in rnd["tables"]], where, _("table number"))
    _unique([r["number"] for r in content["rounds"]], _("the bundle"), _("round number"))
    for draw in content["lot_draws"]:
        _checked(draw, "lot_draw", _("a draw by lot"))
        _numbers(draw["entries"], _("a draw by lot"))
        _numbers(draw["tied"], _("a draw by lot"))


# --- scoring every game again -----------------------------------------------------------------


def _game_name(event_name: str, rnd: int, table: int, number: int) -> str:
    return _("%(event)s, round %(round)s, table %(table)s, game %(game)s") % {
        "event": event_name,
        "round": rnd,
        "table": table,
        "game": number,
    }


def check_results(content: dict[str, Any]) -> int:
    """Score every game of the bundle with this installation's engine and compare each seat's
    result with the one the bundle carries. Raises BundleError naming the first game that
    disagrees or that the engine refuses. Returns the games scored. No query."""
    data = content["event"]
    event = Event(game=data["game"], rules=data["rules"])
    game = event.game_type
    try:
        rules = event.full_rules()
        game.check_rules(data["rules"])
    except scoring.InvalidHand as exc:
        raise BundleError(
            _("The event's rule settings are not valid here: %(reason)s")
            % {"reason": f"{exc.field}: {exc.explain(_)}"}
        ) from exc
    scored = 0
    for rnd in content["rounds"]:
        for table in rnd["tables"]:
            size = table["size"]
            hands = sorted(table["hands"], key=lambda h: h["number"])
            expected: list[tuple[dict[str, Any], list[list[int]]]] = []
            played = [h for h in hands if h["kind"] == Hand.Kind.HAND]
            for hand in hands:
                if hand["kind"] == Hand.Kind.TOTALS:
                    try:
                        totals = reads.check_totals(
                            event, Table(size=size), hand["data"].get("totals")
                        )
                    except scoring.InvalidHand as exc:
                        raise _refused_game(data, rnd, table, hand, exc) from exc
                    expected.append((hand, [[t, 0, 0, 0] for t in totals]))
            try:
                engine_hands = [game.engine_hand(h["data"], size, h["number"]) for h in played]
                replayed = game.replay(engine_hands, size, rules)
            except (scoring.InvalidHand, TypeError, ValueError, KeyError, AttributeError) as exc:
                raise _refused_game(data, rnd, table, played[0], None) from exc
            for hand in played:
                try:
                    seats = next(replayed)
                except scoring.InvalidHand as exc:
                    raise _refused_game(data, rnd, table, hand, exc) from exc
                except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                    raise _refused_game(data, rnd, table, hand, None) from exc
                expected.append(
                    (hand, [[s.points, s.inflicted, s.matches_won, s.games_lost] for s in seats])
                )
            for hand, ours in expected:
                if hand["results"] != ours:
                    raise BundleError(
                        _(
                            "%(game)s: the results in the bundle (%(theirs)s) are not what this "
                            "installation scores (%(ours)s); nothing was imported. The two "
                            "installations score differently: update the older one, or check "
                            "the game."
                        )
                        % {
                            "game": _game_name(
                                data["name"], rnd["number"], table["number"], hand["number"]
                            ),
                            "theirs": _points(hand["results"]),
                            "ours": _points(ours),
                        }
                    )
                scored += 1
    return scored


def _points(rows: Sequence[Sequence[int]]) -> str:
    return ", ".join(f"{row[0]:+d}" if row else "?" for row in rows) or "—"


def _refused_game(
    data: dict[str, Any],
    rnd: dict[str, Any],
    table: dict[str, Any],
    hand: dict[str, Any],
    exc: scoring.InvalidHand | None,
) -> BundleError:
    reason = f"{exc.field}: {exc.explain(_)}" if exc is not None else _("not a game of this kind")
    return BundleError(
        _("%(game)s is not valid here: %(reason)s; nothing was imported.")
        % {
            "game": _game_name(data["name"], rnd["number"], table["number"], hand["number"]),
            "reason": reason,
        }
    )


# --- planning an import -----------------------------------------------------------------------


def _without(record: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in names}


def _seating(rnd: Mapping[str, Any]) -> Any:
    return (
        sorted(rnd["sitting_out"]),
        [(t["number"], t["size"], t["seats"]) for t in sorted(rnd["tables"], key=_number)],
    )


def _number(record: Mapping[str, Any]) -> Any:
    return record["number"]


def _table_fields(table: Mapping[str, Any]) -> dict[str, Any]:
    return {k: table[k] for k in ("size", "voided", "void_reason", "submitted_at", "confirmed_at")}


def _confirmations(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    # the user is a name of the other installation: shown in the history, not compared
    return [_without(c, "user") for c in table["confirmations"]]


def _hand_fields(hand: Mapping[str, Any]) -> dict[str, Any]:
    # results are this installation's own (scored again); the user as for confirmations
    return _without(hand, "results", "entered_by")


def _lots(content: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [_without(d, "drawn_by") for d in content["lot_draws"]]


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
        if old is None or _seating(old) != _seating(rnd):
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
        if _without(old, "tables", "sitting_out") != _without(rnd, "tables", "sitting_out"):
            changes.rounds_changed.append(number)
        old_tables = {t["number"]: t for t in old["tables"]}
        for table in sorted(rnd["tables"], key=_number):
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
    changes.lots = _lots(here) != _lots(theirs)
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
class Plan:
    """What importing a bundle does here, worked out without writing (``plan_import``)."""

    content: dict[str, Any]
    event: Event | None  # the event here already (None: the import creates it)
    season: Season | None  # the season here the new event goes into (None: none, or created)
    matches: list[identity.Match]
    games: int  # games in the bundle, every one scored again here
    changes: Changes | None  # for an event that is here already
    problems: list[str] = field(default_factory=list)

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
        else:
            lines = [_("%(event)s is here already; the bundle changes:") % {"event": self.event}]
            assert self.changes is not None
            lines += self.changes.lines()
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
    if event is not None:
        here = {
            e.start_number: e.player
            for e in Entry.objects.filter(event=event).select_related("player")
        }
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
    games_scored = check_results(content)
    changes = None
    if event is not None:
        changes = compare(event_content(event), _players_here(content, matches))
    return Plan(
        content=content,
        event=event,
        season=season,
        matches=matches,
        games=games_scored,
        changes=changes,
        problems=identity.clashes(matches),
    )


# --- writing an import ------------------------------------------------------------------------


def _parsed(value: str | None) -> datetime.datetime | None:
    return datetime.datetime.fromisoformat(value) if value is not None else None


def import_reason(content: Mapping[str, Any], source: str, user: Any, by: str = "") -> str:
    """The history's reason for every row an import writes (``by``: who imports, when there is
    no user, e.g. the command line's account)."""
    # in English, like the other reasons the app writes itself: the history shows it in the
    # reader's language (history.MACHINE_REASONS)
    who = user.get_username() if audit.actor(user) is not None else (by or "system")
    when = content.get("exported_at") or "?"
    return f"imported from bundle {source or '-'} (exported {when}) by {who}"


@transaction.atomic
def apply_import(
    content: dict[str, Any],
    *,
    decisions: Mapping[str, str] | None = None,
    accept_exact: bool = False,
    user: Any = None,
    source: str = "",
    by: str = "",
) -> Plan:
    """Import the checked ``content``: all of it in one transaction, or nothing. The plan is made
    again here, with the event locked, so that what is written fits the database as it is now.
    Returns the plan written (``unchanged``: nothing was written)."""
    plan = plan_import(content, decisions=decisions, accept_exact=accept_exact, lock=True)
    if plan.undecided:
        raise BundleError(
            ngettext(
                "Decide first whether %(names)s is a known player or a new one.",
                "Decide first for %(n)s players whether each is a known player or a new one: "
                "%(names)s.",
                len(plan.undecided),
            )
            % {
                "n": len(plan.undecided),
                "names": ", ".join(str(m.person) for m in plan.undecided),
            }
        )
    if plan.problems:
        raise BundleError(" ".join(plan.problems))
    if plan.unchanged:
        return plan
    try:
        with transaction.atomic():
            _Writer(plan, user, import_reason(content, source, user, by)).write()
    except DatabaseError as exc:
        raise BundleError(
            _("The bundle does not fit this database (%(error)s); nothing was imported.")
            % {"error": exc}
        ) from exc
    return plan


class _Writer:
    """Writes one plan; every row with a history row naming the import (``reason``)."""

    def __init__(self, plan: Plan, user: Any, reason: str) -> None:
        self.plan = plan
        self.content = plan.content
        self.user = audit.actor(user)
        self.reason = reason
        self.users = self._users()
        self.rescore: list[Table] = []

    def _users(self) -> dict[str, Any]:
        """The other installation's user names that are users here too."""
        from django.contrib.auth import get_user_model

        names = {
            h["entered_by"] for r in self.content["rounds"] for t in r["tables"] for h in t["hands"]
        }
        names |= {
            c["user"]
            for r in self.content["rounds"]
            for t in r["tables"]
            for c in t["confirmations"]
        }
        names |= {d["drawn_by"] for d in self.content["lot_draws"]}
        model = get_user_model()
        return {
            u.get_username(): u
            for u in model.objects.filter(**{f"{model.USERNAME_FIELD}__in": names - {""}})
        }

    def _noted(self, instance: Any, reason: str | None = None) -> Any:
        return audit.noted(instance, self.user, reason or self.reason)

    def _bulk(self, objects: list[Any], model: type[Any]) -> list[Any]:
        if not objects:
            return []
        return bulk_create_with_history(
            objects,
            model,
            default_user=self.user,
            default_change_reason=self.reason,
            custom_historical_attrs=bulk_attrs(),
        )

    def write(self) -> None:
        self.players = self._players()
        self.event = self._event()
        teams = self._teams()
        self.entries = self._entries(teams)
        self._rounds()
        self._lots()
        for table in self.rescore:
            services.rescore_table(table, check_lots=False)
        Team.objects.filter(event=self.event).exclude(
            pk__in=[t.pk for t in teams.values()]
        ).delete()
        versions.changed(self.event)

    # players and the event

    def _players(self) -> dict[str, Player]:
        """Bundle identifier → player here; new players are created with the bundle's
        identifier, so that it stays theirs in every installation."""
        found = {}
        new = []
        aliases = []
        existing_aliases = set(
            PlayerAlias.objects.filter(
                uid__in=[m.person.uid for m in self.plan.matches]
            ).values_list("uid", flat=True)
        )
        for match in self.plan.matches:
            person = match.person
            if match.player is None:
                player = Player(
                    uid=uuid.UUID(person.uid),
                    first_name=person.first_name,
                    last_name=person.last_name,
                    club=person.club,
                    town=person.town,
                    category=person.category,
                )
                try:
                    # the identifier is no player's here (else it had matched): no query per row
                    player.full_clean(exclude=["uid"])
                except ValidationError as exc:
                    raise BundleError(f"{person}: {' '.join(exc.messages)}") from exc
                new.append(player)
            else:
                found[person.uid] = match.player
                if (
                    str(match.player.uid) != person.uid
                    and uuid.UUID(person.uid) not in existing_aliases
                ):
                    aliases.append(
                        PlayerAlias(
                            uid=uuid.UUID(person.uid),
                            player=match.player,
                            decided_by=self.user.get_username() if self.user else "",
                        )
                    )
        for player in self._bulk(new, Player):
            found[str(player.uid)] = player
        PlayerAlias.objects.bulk_create(aliases)
        return found

    def _event(self) -> Event:
        data = self.content["event"]
        values = {name: data[name] for name in EVENT_FIELDS}
        values["date"] = datetime.date.fromisoformat(data["date"])
        event = self.plan.event
        if event is None:
            season = self.plan.season
            if season is None and self.content["season"] is not None:
                season = services.create_season(values=dict(self.content["season"]))
            event = Event(uid=uuid.UUID(data["uid"]), season=season, **values)
        else:
            del values["slug"]  # the short name here stays: links to the event keep working
            if all(getattr(event, k) == v for k, v in values.items()):
                return event
            for name, value in values.items():
                setattr(event, name, value)
        try:
            event.full_clean()
        except ValidationError as exc:
            raise BundleError(" ".join(exc.messages)) from exc
        self._noted(event).save()
        return event

    def _teams(self) -> dict[tuple[str, str], Team]:
        teams = {(t.kind, t.name): t for t in Team.objects.filter(event=self.event)}
        missing = [
            Team(event=self.event, kind=t["kind"], name=t["name"])
            for t in self.content["teams"]
            if (t["kind"], t["name"]) not in teams
        ]
        for team in Team.objects.bulk_create(missing):
            teams[(team.kind, team.name)] = team
        wanted = {(t["kind"], t["name"]) for t in self.content["teams"]}
        return {key: team for key, team in teams.items() if key in wanted}

    def _entries(self, teams: dict[tuple[str, str], Team]) -> dict[int, Entry]:
        here = {e.start_number: e for e in Entry.objects.filter(event=self.event)}
        wanted = {e["start_number"]: e for e in self.content["entries"]}
        new = []
        for number, data in wanted.items():
            values = {
                "player": self.players[data["player"]],
                "status": data["status"],
                "late": data["late"],
                "squad": teams.get((Team.Kind.SQUAD, data["squad"])),
                "pair": teams.get((Team.Kind.PAIR, data["pair"])),
                "lot": data["lot"],
            }
            entry = here.get(number)
            if entry is None:
                new.append(Entry(event=self.event, start_number=number, **values))
            elif any(getattr(entry, k) != v for k, v in values.items()):
                for name, value in values.items():
                    setattr(entry, name, value)
                self._noted(entry).save()
        for number in set(here) - set(wanted):
            self._noted(here.pop(number)).delete()
        for entry in self._bulk(new, Entry):
            here[entry.start_number] = entry
        return here

    # rounds, tables, seats, games

    def _rounds(self) -> None:
        here = {r.number: r for r in Round.objects.filter(event=self.event)}
        wanted = {r["number"]: r for r in self.content["rounds"]}
        for number in sorted(set(here) - set(wanted)):
            self._clear_round(here[number])
            here[number].delete()
        for number, data in sorted(wanted.items()):
            rnd = here.get(number) or Round(event=self.event, number=number)
            values = {k: data[k] for k in ("status", "seed", "repeat_meetings", "draw_basis")}
            if rnd.pk is None or any(getattr(rnd, k) != v for k, v in values.items()):
                for name, value in values.items():
                    setattr(rnd, name, value)
                rnd.save()
            rnd.event = self.event
            tables = {t.number: t for t in Table.objects.filter(round=rnd)}
            if tables and self._seating_here(rnd, tables) != _seating(data):
                self._clear_round(rnd)
                tables = {}
            if not tables and (data["tables"] or data["sitting_out"]):
                tables = self._seat(rnd, data)
            for table_data in data["tables"]:
                table = tables[table_data["number"]]
                table.round = rnd
                self._table(table, table_data)

    def _seating_here(self, rnd: Round, tables: dict[int, Table]) -> Any:
        numbers = {e.pk: n for n, e in self.entries.items()}
        seats: dict[int, dict[int, int]] = {}
        out = []
        for table_id, position, entry_id in Seat.objects.filter(round=rnd).values_list(
            "table_id", "position", "entry_id"
        ):
            if table_id is None:
                out.append(numbers.get(entry_id))
            else:
                seats.setdefault(table_id, {})[position] = numbers.get(entry_id)
        rows = []
        for number, table in sorted(tables.items()):
            placed = seats.get(table.pk, {})
            positions = range(max([table.size - 1, *placed]) + 1)
            rows.append((number, table.size, [placed.get(p) for p in positions]))
        return sorted(n for n in out if n is not None), rows

    def _clear_round(self, rnd: Round) -> None:
        """Take a round's seats and tables away (the other installation drew it again), each
        with its history row."""
        for hand in Hand.objects.filter(table__round=rnd):
            self._noted(hand).delete()
        for confirmation in Confirmation.objects.filter(table__round=rnd):
            self._noted(confirmation).delete()
        for seat in Seat.objects.filter(round=rnd):
            self._noted(seat).delete()
        for table in Table.objects.filter(round=rnd):
            self._noted(table).delete()

    def _seat(self, rnd: Round, data: Mapping[str, Any]) -> dict[int, Table]:
        tables = self._bulk(
            [
                Table(round=rnd, number=t["number"], size=t["size"])
                for t in sorted(data["tables"], key=_number)
            ],
            Table,
        )
        by_number = {t.number: t for t in tables}
        seats = [
            Seat(round=rnd, table=by_number[t["number"]], position=p, entry=self.entries[n])
            for t in data["tables"]
            for p, n in enumerate(t["seats"])
            if n is not None
        ]
        seats += [Seat(round=rnd, entry=self.entries[n]) for n in data["sitting_out"]]
        self._bulk(seats, Seat)
        self.rescore += tables
        return by_number

    def _table(self, table: Table, data: Mapping[str, Any]) -> None:
        values = {
            "voided": data["voided"],
            "void_reason": data["void_reason"],
            "submitted_at": _parsed(data["submitted_at"]),
            "confirmed_at": _parsed(data["confirmed_at"]),
        }
        changed = any(getattr(table, k) != v for k, v in values.items())
        if changed:
            for name, value in values.items():
                setattr(table, name, value)
            self._noted(table).save()
            if table not in self.rescore:
                self.rescore.append(table)
        if self._hands(table, data["hands"]) and table not in self.rescore:
            self.rescore.append(table)
        self._confirmations(table, data["confirmations"])

    def _hands(self, table: Table, wanted_list: Sequence[Mapping[str, Any]]) -> bool:
        here = {h.number: h for h in Hand.objects.filter(table=table)}
        wanted = {h["number"]: h for h in wanted_list}
        written = []
        fresh: list[Hand] = []
        for number in sorted(set(here) - set(wanted)):
            self._noted(here[number]).delete()
        for number, data in sorted(wanted.items()):
            hand = here.get(number)
            values = {
                "kind": data["kind"],
                "dealer": data["dealer"],
                "data": data["data"],
                "version": data["version"],
                "entered_at": _parsed(data["entered_at"]),
                "updated_at": _parsed(data["updated_at"]),
                "entered_by": self.users.get(data["entered_by"]),
            }
            if hand is not None and all(
                getattr(hand, k) == v for k, v in values.items() if k != "entered_by"
            ):
                continue
            new = hand is None
            hand = hand or Hand(table=table, number=number)
            for name, value in values.items():
                setattr(hand, name, value)
            note = self.reason
            if data["entered_by"]:
                note += f"; entered by {data['entered_by']}"
            self._noted(hand, note)
            if new:
                fresh.append(hand)
            else:
                hand.save()
            written.append((hand, values))
        self._bulk(fresh, Hand)  # each with its own reason (simple-history reads it per row)
        if written:
            # the times of the other installation: saving set them to now
            for hand, values in written:
                hand.entered_at, hand.updated_at = values["entered_at"], values["updated_at"]
            Hand.objects.bulk_update([h for h, _v in written], ["entered_at", "updated_at"])
        return bool(written) or bool(set(here) - set(wanted))

    def _confirmations(self, table: Table, wanted_list: Sequence[Mapping[str, Any]]) -> None:
        here = {c.position: c for c in Confirmation.objects.filter(table=table)}
        wanted = {c["position"]: c for c in wanted_list}

        def same(c: Confirmation, data: Mapping[str, Any]) -> bool:
            return (c.via, c.device, c.confirmed_at) == (
                data["via"],
                data["device"],
                _parsed(data["confirmed_at"]),
            )

        stale = [p for p in here if p not in wanted or not same(here[p], wanted[p])]
        for position in stale:
            self._noted(here.pop(position)).delete()
        made = []
        for position, data in sorted(wanted.items()):
            if position in here:
                continue
            confirmation = Confirmation(
                table=table,
                position=position,
                via=data["via"],
                device=data["device"],
                user=self.users.get(data["user"]),
            )
            made.append(confirmation)
        self._bulk(made, Confirmation)
        for confirmation in made:
            confirmation.confirmed_at = _parsed(wanted[confirmation.position]["confirmed_at"])
        Confirmation.objects.bulk_update(made, ["confirmed_at"])

    def _lots(self) -> None:
        here = [_without(d, "drawn_by") for d in event_content_lots(self.event)]
        if here == _lots(self.content):
            return
        LotDraw.objects.filter(event=self.event).delete()
        for data in self.content["lot_draws"]:
            draw = LotDraw.objects.create(
                event=self.event,
                entries=data["entries"],
                tie=data["tie"],
                tied=data["tied"],
                lapsed_at=_parsed(data["lapsed_at"]),
                seed=data["seed"],
                drawn_by=self.users.get(data["drawn_by"]),
            )
            LotDraw.objects.filter(pk=draw.pk).update(drawn_at=_parsed(data["drawn_at"]))


def event_content_lots(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "entries": d.entries,
            "tie": d.tie,
            "tied": d.tied,
            "lapsed_at": _when(d.lapsed_at),
            "seed": d.seed,
            "drawn_by": _username(d.drawn_by),
            "drawn_at": _when(d.drawn_at),
        }
        for d in LotDraw.objects.filter(event=event).select_related("drawn_by").order_by("pk")
    ]
