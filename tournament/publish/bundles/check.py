"""A bundle's content checked before anything is written: every record's fields and kinds against
the schema, numbers unique where they must be, every value within the limits the forms and the
model fields set (lengths, characters, ranges, the shape of a draw's basis), the same on SQLite
and PostgreSQL, and every game scored again with this installation's engine (a game whose stored
results disagree refuses the whole bundle, naming the game). Each refusal names the record in
the director's words."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
from tournament import games
from tournament.core.validators import CONTROL
from tournament.games.words import explain
from tournament.models import (
    Confirmation,
    Entry,
    Event,
    Hand,
    LotDraw,
    Player,
    Round,
    Season,
    Table,
    Team,
)
from tournament.models.base import HANDS_MAX
from tournament.play import draw, reads
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

# fields a bundle of an earlier release does not have: checked only where they are given
OPTIONAL: dict[str, dict[str, Any]] = {
    "entry": {
        "source": tuple(Entry.Source.values),
        "registered_at": "when",
        "present_at": "when",
        "token": "token",
        "identity_pending": "bool",
    },
}
# a personal link's secret as the app makes them (``models.base.new_token``)
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

# each record's model, and the model field a bundle field is stored in: its length, characters
# and range are the bundle's limits too
MODELS: dict[str, type[models.Model]] = {
    "event": Event,
    "season": Season,
    "player": Player,
    "team": Team,
    "entry": Entry,
    "round": Round,
    "table": Table,
    "hand": Hand,
    "confirmation": Confirmation,
    "lot_draw": LotDraw,
}
STORED_IN: dict[str, dict[str, str]] = {
    "event": {
        "name": "name",
        "slug": "slug",
        "venue": "venue",
        "target_table_size": "target_table_size",
        "rounds_planned": "rounds_planned",
    },
    "season": {"slug": "slug", "name": "name", "best_of": "best_of"},
    "player": {
        "first_name": "first_name",
        "last_name": "last_name",
        "club": "club",
        "town": "town",
    },
    "team": {"name": "name"},
    "entry": {"start_number": "start_number", "lot": "lot"},
    "round": {"number": "number", "seed": "seed", "repeat_meetings": "repeat_meetings"},
    "table": {"number": "number", "size": "size", "void_reason": "void_reason"},
    "hand": {"number": "number", "dealer": "dealer", "version": "version"},
    "confirmation": {"position": "position", "device": "device"},
    "lot_draw": {"seed": "seed"},
}
# the integer columns as PostgreSQL stores them: SQLite takes any 64-bit number in every integer
# column, so its own ranges would let through what PostgreSQL refuses
COLUMN_RANGES = BaseDatabaseOperations.integer_field_ranges
# a round's number: far above any day of cards (the app numbers rounds 1, 2, 3, ...)
ROUNDS_MAX = 99
# the most players a draw's basis may name: the bundle's entries bound it as well
TIE_FIGURES_MAX = 20

# every field in the director's words (the refusals name no key of the file)
LABELS: dict[str, Any] = {
    "uid": gettext_lazy("identifier"),
    "date": gettext_lazy("date"),
    "name": gettext_lazy("name"),
    "slug": gettext_lazy("short name"),
    "venue": gettext_lazy("venue"),
    "game": gettext_lazy("game"),
    "rules": gettext_lazy("rule settings"),
    "table_policy": gettext_lazy("table sizes"),
    "target_table_size": gettext_lazy("preferred table size"),
    "hands_per_round": gettext_lazy("Games per round"),
    "rounds_planned": gettext_lazy("rounds"),
    "pairing": gettext_lazy("Ziege partners"),
    "status": gettext_lazy("status"),
    "best_of": gettext_lazy("best results counted"),
    "first_name": gettext_lazy("first name"),
    "last_name": gettext_lazy("last name"),
    "club": gettext_lazy("club"),
    "town": gettext_lazy("town"),
    "category": gettext_lazy("category"),
    "kind": gettext_lazy("kind"),
    "start_number": gettext_lazy("start number"),
    "player": gettext_lazy("player"),
    "late": gettext_lazy("late entry"),
    "squad": gettext_lazy("team"),
    "pair": gettext_lazy("Ziege pair"),
    "lot": gettext_lazy("lot"),
    "source": gettext_lazy("registered"),
    "registered_at": gettext_lazy("registered at"),
    "present_at": gettext_lazy("checked in at"),
    "token": gettext_lazy("personal link"),
    "identity_pending": gettext_lazy("identity to confirm at the desk"),
    "number": gettext_lazy("number"),
    "seed": gettext_lazy("draw seed"),
    "repeat_meetings": gettext_lazy("repeat meetings"),
    "draw_basis": gettext_lazy("basis of the draw"),
    "sitting_out": gettext_lazy("players sitting out"),
    "tables": gettext_lazy("tables"),
    "size": gettext_lazy("players"),
    "voided": gettext_lazy("voided"),
    "void_reason": gettext_lazy("reason for voiding"),
    "submitted_at": gettext_lazy("submitted at"),
    "confirmed_at": gettext_lazy("confirmed at"),
    "seats": gettext_lazy("seats"),
    "hands": gettext_lazy("games"),
    "confirmations": gettext_lazy("confirmations"),
    "dealer": gettext_lazy("dealer"),
    "data": gettext_lazy("game"),
    "entered_by": gettext_lazy("entered by"),
    "entered_at": gettext_lazy("entered at"),
    "updated_at": gettext_lazy("changed at"),
    "version": gettext_lazy("corrections"),
    "results": gettext_lazy("results"),
    "position": gettext_lazy("seat"),
    "via": gettext_lazy("confirmed by"),
    "user": gettext_lazy("user"),
    "device": gettext_lazy("phone"),
    "entries": gettext_lazy("entries"),
    "tie": gettext_lazy("tied figures"),
    "tied": gettext_lazy("tied players"),
    "lapsed_at": gettext_lazy("lapsed at"),
    "drawn_by": gettext_lazy("drawn by"),
    "drawn_at": gettext_lazy("drawn at"),
    "players": gettext_lazy("players"),
    "teams": gettext_lazy("teams"),
    "lot_draws": gettext_lazy("draws by lot"),
    "season": gettext_lazy("season"),
    "event": gettext_lazy("event"),
}


def _label(name: str) -> str:
    return str(LABELS.get(name, _("a field")))


def _int(value: Any) -> bool:
    """A whole number as JSON gives it (not true or false), within 64 bits."""
    return type(value) is int and -(2**63) < value < 2**63


def _is(value: Any, kind: Any) -> bool:
    if kind == "int":  # first: the most frequent kind, in every game of the bundle
        return _int(value)
    if isinstance(kind, tuple):
        return value in kind
    if kind.endswith("?"):
        return value is None or _is(value, kind[:-1])
    checks = {"str": str, "bool": bool, "list": list, "dict": dict}
    if kind in checks:
        return isinstance(value, checks[kind])
    if kind == "json":
        return True
    if kind == "token":
        return isinstance(value, str) and TOKEN.fullmatch(value) is not None
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


def _refused(where: str, what: str) -> BundleError:
    """A value outside what this installation stores, named in the director's words."""
    return BundleError(
        _("%(where)s: %(what)s Nothing was imported.") % {"where": capfirst(where), "what": what}
    )


def _out_of_range(name: str, value: int, low: int, high: int) -> str:
    return _("“%(field)s” must be %(low)s to %(high)s, not %(value)s.") % {
        "field": _label(name),
        "low": low,
        "high": high,
        "value": value if abs(value) < 10**30 else _("a number with more than 30 digits"),
    }


def shown(text: Any) -> str:
    """A name from the file as a message may show it: control characters as “?”, cut short."""
    text = CONTROL.sub("?", str(text))
    return text if len(text) <= 40 else text[:40] + "…"


def _checked(value: Any, schema: str, where: str) -> None:
    if not isinstance(value, dict):
        raise _damaged(where, _("is not a record"))
    for name, kind in SCHEMAS[schema].items():
        if name not in value:
            raise _damaged(where, _("has no “%(field)s”") % {"field": _label(name)})
        if not _is(value[name], kind):
            raise _damaged(where, _("has a wrong “%(field)s”") % {"field": _label(name)})
    for name, kind in OPTIONAL.get(schema, {}).items():
        if name in value and not _is(value[name], kind):
            raise _damaged(where, _("has a wrong “%(field)s”") % {"field": _label(name)})


def _stored(value: dict[str, Any], schema: str, where: str) -> None:
    """Every field within its model field's limits: length, characters and range, with the
    ranges of PostgreSQL on either database."""
    model = MODELS[schema]
    for name, column in STORED_IN[schema].items():
        given = value[name]
        if given is None:
            continue
        field = model._meta.get_field(column)
        if isinstance(field, models.IntegerField):
            low, high = COLUMN_RANGES[field.get_internal_type()]
            if not low <= given <= high:
                raise _refused(where, _out_of_range(name, given, low, high))
            if not field._validators and not field.choices:
                continue  # the range is all its own checks would say (a number of every game)
        try:
            field.clean(given, None)
        except ValidationError as exc:
            raise _refused(where, f"{capfirst(_label(name))}: {' '.join(exc.messages)}") from exc


def _within(where: str, name: str, value: int | None, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise _refused(where, _out_of_range(name, value, low, high))


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


def _model_checked(instance: models.Model, where: str, exclude: Sequence[str]) -> None:
    """The model's own checks (``clean``: rule settings, games per round, table size for the
    game, reserved short names), each error named by its field's label."""
    try:
        instance.full_clean(
            exclude=list(exclude), validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        parts = []
        for name, errors in exc.message_dict.items():
            label = "" if name == "__all__" else f"{capfirst(_label(name))}: "
            parts.append(label + " ".join(errors))
        raise _refused(where, " ".join(parts)) from exc


def _table_sizes(game: games.GameType) -> set[int]:
    sizes = set(range(game.min_seats, game.max_seats + 1))
    if game.odd_table_sizes:
        sizes |= {3, 5}
    return sizes


def _event_checked(data: dict[str, Any], season: dict[str, Any] | None) -> None:
    where = _("the event %(name)s") % {"name": shown(data["name"])}
    _stored(data, "event", where)
    if data["rounds_planned"] < 1:
        raise _refused(where, _out_of_range("rounds_planned", data["rounds_planned"], 1, 32767))
    values = {name: data[name] for name in SCHEMAS["event"] if name not in ("uid", "date")}
    event = Event(date=datetime.date.fromisoformat(data["date"]), **values)
    try:
        event.game_type.check_rules(data["rules"])
    except scoring.InvalidHand as exc:
        raise _refused(where, rules_refusal(event.game_type, exc)) from exc
    _model_checked(event, where, exclude=["season", "uid"])
    if season is not None:
        at = _("the season %(name)s") % {"name": shown(season["name"])}
        _stored(season, "season", at)
        _model_checked(
            Season(**{k: season[k] for k in ("slug", "name", "game", "best_of")}), at, ["game"]
        )
        if season["game"] != data["game"]:
            raise _refused(at, _("A season holds events of one game; the event is another game."))


def rules_refusal(game: games.GameType, exc: scoring.InvalidHand) -> str:
    """A wrong rule setting named as the event form names it."""
    label = game.setting_label(exc.field.removeprefix("rules."))
    return _("The rule setting “%(setting)s” is not valid here: %(reason)s") % {
        "setting": label,
        "reason": explain(exc),
    }


def check_content(content: dict[str, Any]) -> None:
    """Every record of the content has the fields this version reads, of the right kind and
    within the limits of the forms and model fields; start numbers and identifiers refer to what
    the bundle holds. BundleError names the first flaw, nothing is read further."""
    for name, kind in (("event", "dict"), ("players", "list"), ("teams", "list")):
        if not _is(content.get(name), kind):
            raise _damaged(_("the bundle"), _("has no “%(field)s”") % {"field": _label(name)})
    for name in ("entries", "rounds", "lot_draws"):
        if not isinstance(content.get(name), list):
            raise _damaged(_("the bundle"), _("has no “%(field)s”") % {"field": _label(name)})
    _checked(content["event"], "event", _("the event"))
    game = games.find(content["event"]["game"])
    if game is None:
        raise _damaged(_("the event"), _("is of a game this installation does not know"))
    if content.get("season") is not None:
        _checked(content["season"], "season", _("the season"))
    _event_checked(content["event"], content.get("season"))
    for i, player in enumerate(content["players"], start=1):
        where = _("player %(n)s") % {"n": i}
        _checked(player, "player", where)
        where = _("player %(n)s (%(name)s)") % {
            "n": i,
            "name": shown(f"{player['first_name']} {player['last_name']}"),
        }
        _stored(player, "player", where)
        if not player["first_name"].strip() or not player["last_name"].strip():
            raise _refused(where, _("A player needs a first and a last name."))
    for i, team in enumerate(content["teams"], start=1):
        _checked(team, "team", _("team %(n)s") % {"n": i})
        _stored(team, "team", _("the team %(name)s") % {"name": shown(team["name"])})
        if not team["name"].strip():
            raise _refused(_("team %(n)s") % {"n": i}, _("A team needs a name."))
    _unique([(t["kind"], t["name"]) for t in content["teams"]], _("the bundle"), _("team"))
    uids = {p["uid"] for p in content["players"]}
    squads = {t["name"] for t in content["teams"] if t["kind"] == Team.Kind.SQUAD}
    pairs = {t["name"] for t in content["teams"] if t["kind"] == Team.Kind.PAIR}
    _unique([p["uid"] for p in content["players"]], _("the bundle"), _("identifier"))
    numbers = set()
    for entry in content["entries"]:
        number = entry.get("start_number") if isinstance(entry, dict) else None
        where = _("entry %(n)s") % {"n": number} if _is(number, "int") else _("an entry")
        _checked(entry, "entry", where)
        _stored(entry, "entry", where)
        _within(where, "start_number", entry["start_number"], 1, COLUMN_RANGES["IntegerField"][1])
        if entry["player"] not in uids:
            raise _damaged(where, _("names a player the bundle does not hold"))
        if (entry["squad"] is not None and entry["squad"] not in squads) or (
            entry["pair"] is not None and entry["pair"] not in pairs
        ):
            raise _damaged(where, _("names a team the bundle does not hold"))
        numbers.add(entry["start_number"])
    _unique([e["start_number"] for e in content["entries"]], _("the bundle"), _("start number"))
    _unique([e["player"] for e in content["entries"]], _("the bundle"), _("player"))
    sizes = _table_sizes(game)
    for rnd in content["rounds"]:
        _checked(rnd, "round", _("a round"))
        where = _("round %(n)s") % {"n": rnd["number"]}
        if not 1 <= rnd["number"] <= ROUNDS_MAX:
            raise _refused(where, _("A round has the number 1 to %(max)s.") % {"max": ROUNDS_MAX})
        _stored(rnd, "round", where)
        if rnd["draw_basis"] is not None and not draw.basis_fits(
            rnd["draw_basis"], len(content["entries"])
        ):
            raise _refused(where, _("The basis of the draw is not one this app writes."))
        _numbers(rnd["sitting_out"], where)
        seated = list(rnd["sitting_out"])
        for table in rnd["tables"]:
            _checked(table, "table", where)
            at = _("round %(round)s, table %(table)s") % {
                "round": rnd["number"],
                "table": table["number"],
            }
            _stored(table, "table", at)
            _within(at, "number", table["number"], 1, COLUMN_RANGES["SmallIntegerField"][1])
            if table["voided"] and not table["void_reason"].strip():
                raise _refused(at, _("A voided table needs the reason it was voided."))
            _numbers(table["seats"], at)
            if len(table["seats"]) != table["size"]:
                raise _damaged(at, _("has not one player for each seat"))
            if table["size"] not in sizes:
                raise _refused(
                    at,
                    _("%(game)s is not played at a table of %(n)s.")
                    % {"game": game.name, "n": table["size"]},
                )
            seated += table["seats"]
            for hand in table["hands"]:
                _checked(hand, "hand", at)
                game_at = _("%(table)s, game %(n)s") % {"table": at, "n": hand["number"]}
                _stored(hand, "hand", game_at)
                _within(game_at, "number", hand["number"], 1, HANDS_MAX)
                _within(game_at, "dealer", hand["dealer"], 0, table["size"] - 1)
                _within(game_at, "version", hand["version"], 1, COLUMN_RANGES["IntegerField"][1])
                if not all(
                    type(r) is list and len(r) == 4 and all(map(_int, r)) for r in hand["results"]
                ):
                    raise _damaged(
                        at, _("has wrong results for game %(n)s") % {"n": hand["number"]}
                    )
            _unique([h["number"] for h in table["hands"]], at, _("game number"))
            for confirmation in table["confirmations"]:
                _checked(confirmation, "confirmation", at)
                _stored(confirmation, "confirmation", at)
                _within(at, "position", confirmation["position"], 0, table["size"] - 1)
            _unique([c["position"] for c in table["confirmations"]], at, _("confirmed seat"))
        if not set(seated) <= numbers:
            raise _damaged(where, _("seats a start number the bundle has no entry for"))
        _unique(seated, where, _("seated start number"))
        _unique([t["number"] for t in rnd["tables"]], where, _("table number"))
    _unique([r["number"] for r in content["rounds"]], _("the bundle"), _("round number"))
    for draw_data in content["lot_draws"]:
        where = _("a draw by lot")
        _checked(draw_data, "lot_draw", where)
        _numbers(draw_data["entries"], where)
        _numbers(draw_data["tied"], where)
        if not set(draw_data["entries"]) | set(draw_data["tied"]) <= numbers:
            raise _damaged(where, _("names a start number the bundle has no entry for"))
        if len(draw_data["tie"]) > TIE_FIGURES_MAX or not all(
            _is(x, "int") for x in draw_data["tie"]
        ):
            raise _damaged(where, _("has wrong tied figures"))


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
        raise BundleError(rules_refusal(game, exc)) from exc
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
    reason = explain(exc) if exc is not None else _("not a game of this kind")
    return BundleError(
        _("%(game)s is not valid here: %(reason)s; nothing was imported.")
        % {
            "game": _game_name(data["name"], rnd["number"], table["number"], hand["number"]),
            "reason": reason,
        }
    )
