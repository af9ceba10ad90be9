"""A bundle's content checked: every record's fields and kinds against the schema, numbers unique
where they must be, and every game scored again with this installation's engine (a game whose
stored results disagree refuses the whole bundle, naming the game)."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from tournament import games
from tournament.models import (
    Confirmation,
    Entry,
    Event,
    Hand,
    Player,
    Round,
    Table,
    Team,
)
from tournament.play import reads
from tournament.publish.bundles import BundleError

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
