"""A bundle's content checked before anything is written: every record's fields and kinds
against the published schema (``shape``, ``bundle.schema.json``), numbers unique where they must
be, every value within the limits the forms and the model fields set (lengths, characters,
ranges, the shape of a draw's basis), the same on SQLite and PostgreSQL, and every game scored
again with this installation's engine (a game whose stored results disagree refuses the whole
bundle, naming the game). Each refusal names the record in the director's words."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from jsonschema import ValidationError as SchemaError

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
from tournament.publish.bundles import BundleError, shape
from tournament.publish.bundles.export import EVENT_FIELDS

# --- checking the content ---------------------------------------------------------------------

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
    "exported_at": gettext_lazy("exported at"),
    "players": gettext_lazy("players"),
    "teams": gettext_lazy("teams"),
    "lot_draws": gettext_lazy("draws by lot"),
    "rounds": gettext_lazy("rounds"),
    "season": gettext_lazy("season"),
    "event": gettext_lazy("event"),
}


def _label(name: str) -> str:
    return str(LABELS.get(name, _("a field")))


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
    values = {name: data[name] for name in EVENT_FIELDS}
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


# --- the shape refused in the director's words -------------------------------------------------

# the lists of start numbers, and the two lists of figures, refused as a whole
START_NUMBERS = frozenset({"sitting_out", "seats", "entries", "tied"})


def _whole(value: Any) -> bool:
    return type(value) is int


def _record(content: dict[str, Any], path: Sequence[Any]) -> tuple[str, int]:
    """The record a value at ``path`` (jsonschema's ``absolute_path``) belongs to, named as the
    checks before the schema named it, and how much of ``path`` leads to it. A game and a
    confirmation are named by their table; a record whose number is itself wrong, by its
    kind."""
    top = path[0] if path else None
    if top in ("event", "season"):
        return (_("the event") if top == "event" else _("the season")), 1
    if len(path) < 2 or not _whole(path[1]):
        return _("the bundle"), 0
    record = content[top][path[1]]
    if top == "players":
        return _("player %(n)s") % {"n": path[1] + 1}, 2
    if top == "teams":
        return _("team %(n)s") % {"n": path[1] + 1}, 2
    if top == "lot_draws":
        return _("a draw by lot"), 2
    if top == "entries":
        number = record.get("start_number") if isinstance(record, dict) else None
        return (_("entry %(n)s") % {"n": number} if _whole(number) else _("an entry")), 2
    number = record.get("number") if isinstance(record, dict) else None
    if not _whole(number):
        return _("a round"), 2
    if len(path) < 4 or path[2] != "tables" or not _whole(path[3]):
        return _("round %(n)s") % {"n": number}, 2
    table = record["tables"][path[3]]
    at = table.get("number") if isinstance(table, dict) else None
    where = (
        _("round %(round)s, table %(table)s") % {"round": number, "table": at}
        if _whole(at)
        else _("round %(n)s") % {"n": number}
    )
    if len(path) > 5 and path[4] in ("hands", "confirmations") and _whole(path[5]):
        return where, 6
    return where, 4


def _shape_refused(content: dict[str, Any], error: SchemaError) -> BundleError:
    """jsonschema's ``error`` said in the director's words: the record, and the field that is
    missing or wrong."""
    path = list(error.absolute_path)
    where, depth = _record(content, path)
    if len(path) == depth:  # the record itself
        if error.validator == "required":
            missing = next(n for n in error.validator_value if n not in error.instance)
            return _damaged(where, _("has no “%(field)s”") % {"field": _label(missing)})
        if path == ["event"]:
            return _damaged(_("the bundle"), _("has no “%(field)s”") % {"field": _label("event")})
        return _damaged(where, _("is not a record"))
    field = path[depth]
    if depth == 0 and field in shape.SCHEMA["$defs"]["content"]["required"]:
        return _damaged(where, _("has no “%(field)s”") % {"field": _label(field)})
    if depth and field in START_NUMBERS:
        return _damaged(where, _("has a wrong list of start numbers"))
    if field == "results":
        hand = content["rounds"][path[1]]["tables"][path[3]]["hands"][path[5]]
        return _damaged(where, _("has wrong results for game %(n)s") % {"n": hand.get("number")})
    if field == "tie":
        return _damaged(where, _("has wrong tied figures"))
    return _damaged(where, _("has a wrong “%(field)s”") % {"field": _label(field)})


def check_content(content: dict[str, Any]) -> None:
    """Every record of the content has the fields this version reads, of the right kind
    (``bundle.schema.json``) and within the limits of the forms and model fields; start numbers
    and identifiers refer to what the bundle holds. BundleError names the first flaw, nothing is
    read further."""
    error = next(iter(shape.errors(content)), None)
    if error is not None:
        raise _shape_refused(content, error)
    game = games.find(content["event"]["game"])
    if game is None:
        raise _damaged(_("the event"), _("is of a game this installation does not know"))
    _event_checked(content["event"], content.get("season"))
    for i, player in enumerate(content["players"], start=1):
        where = _("player %(n)s (%(name)s)") % {
            "n": i,
            "name": shown(f"{player['first_name']} {player['last_name']}"),
        }
        _stored(player, "player", where)
        if not player["first_name"].strip() or not player["last_name"].strip():
            raise _refused(where, _("A player needs a first and a last name."))
    for i, team in enumerate(content["teams"], start=1):
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
        where = _("entry %(n)s") % {"n": entry["start_number"]}
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
        where = _("round %(n)s") % {"n": rnd["number"]}
        if not 1 <= rnd["number"] <= ROUNDS_MAX:
            raise _refused(where, _("A round has the number 1 to %(max)s.") % {"max": ROUNDS_MAX})
        _stored(rnd, "round", where)
        if rnd["draw_basis"] is not None and not draw.basis_fits(
            rnd["draw_basis"], len(content["entries"])
        ):
            raise _refused(where, _("The basis of the draw is not one this app writes."))
        seated = list(rnd["sitting_out"])
        for table in rnd["tables"]:
            at = _("round %(round)s, table %(table)s") % {
                "round": rnd["number"],
                "table": table["number"],
            }
            _stored(table, "table", at)
            _within(at, "number", table["number"], 1, COLUMN_RANGES["SmallIntegerField"][1])
            if table["voided"] and not table["void_reason"].strip():
                raise _refused(at, _("A voided table needs the reason it was voided."))
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
                game_at = _("%(table)s, game %(n)s") % {"table": at, "n": hand["number"]}
                _stored(hand, "hand", game_at)
                _within(game_at, "number", hand["number"], 1, HANDS_MAX)
                _within(game_at, "dealer", hand["dealer"], 0, table["size"] - 1)
                _within(game_at, "version", hand["version"], 1, COLUMN_RANGES["IntegerField"][1])
            _unique([h["number"] for h in table["hands"]], at, _("game number"))
            for confirmation in table["confirmations"]:
                _stored(confirmation, "confirmation", at)
                _within(at, "position", confirmation["position"], 0, table["size"] - 1)
            _unique([c["position"] for c in table["confirmations"]], at, _("confirmed seat"))
        if not set(seated) <= numbers:
            raise _damaged(where, _("seats a start number the bundle has no entry for"))
        _unique(seated, where, _("seated start number"))
        _unique([t["number"] for t in rnd["tables"]], where, _("table number"))
    _unique([r["number"] for r in content["rounds"]], _("the bundle"), _("round number"))
    for draw_data in content["lot_draws"]:
        if not set(draw_data["entries"]) | set(draw_data["tied"]) <= numbers:
            raise _damaged(
                _("a draw by lot"), _("names a start number the bundle has no entry for")
            )


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
