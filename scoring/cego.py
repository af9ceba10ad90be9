"""Cego, Black Forest tarock, as scored at the Schwarzwaldmeisterschaft (RULES.md section 2).

A point game (the bidding ladder and Solo) is scored from the declarer's card points through the
Grundwert and the Fach; the fixed-value games (Bettel, Piccolo, Ulti, Räuber) have fixed amounts.
Every hand is zero-sum.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import validate as check
from .validate import InvalidHand, Text, gettext_noop

NAME = "Cego"
MIN_SEATS, MAX_SEATS = 3, 5

# 2.3: the bidding ladder with its game value W.
LADDER: dict[str, int] = {
    "cego": 1,
    "halbe": 2,
    "eine": 3,
    "leere": 4,
    "zwei_leere": 5,
    "zwei_verschiedene": 6,
    "geiss": 7,
}
SOLO_VALUE = 1
FIXED = ("bettel", "piccolo", "ulti")
CONTRACTS = (*LADDER, "solo", *FIXED, "raeuber")

CONTRACT_NAMES: dict[str, str] = {
    "cego": "Cego",
    "halbe": "Halbe",
    "eine": "Eine",
    "leere": "Leere",
    "zwei_leere": "Zwei Leere",
    "zwei_verschiedene": "Zwei verschiedene Leere",
    "geiss": "Geiß",
    "solo": "Solo",
    "bettel": "Bettel",
    "piccolo": "Piccolo",
    "ulti": "Ulti",
    "raeuber": "Räuber",
}

# 2.4: the Grundwert counts what the losing side lacks to 40, whatever the win threshold is set to.
GRUNDWERT_BASE = 40
FACH_SIZE = 5
MAX_FACH = 8
# 2.6: "11 with four active players"; every player is dealt eleven cards, so a hand never has more
# tricks than that, also at a three-seat table.
TRICKS_PER_HAND = 11

# the allowed values of the settings that are words
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "solo_double": ("before_rounding", "after_rounding"),
    "gegensolo_raises": ("all", "cego_only"),
}

DEFAULT_RULES: dict[str, Any] = {
    "total_points": 79,
    "win_threshold": 40,
    "solo_double": "before_rounding",
    "gegensolo_raises": "all",
    "bettel": 30,
    "piccolo": 40,
    "ulti": 80,
    "raeuber": 40,
}


@dataclass(frozen=True)
class Rules:
    total_points: int
    win_threshold: int
    solo_double: str
    gegensolo_raises: str
    bettel: int
    piccolo: int
    ulti: int
    raeuber: int


def check_rules(given: Any) -> Rules:
    merged = check.settings(
        given,
        DEFAULT_RULES,
        {
            "total_points": _positive,
            "win_threshold": _positive,
            "solo_double": lambda v, f: check.choice(v, f, SETTING_CHOICES["solo_double"]),
            "gegensolo_raises": lambda v, f: check.choice(
                v, f, SETTING_CHOICES["gegensolo_raises"]
            ),
            "bettel": _positive,
            "piccolo": _positive,
            "ulti": _positive,
            "raeuber": _positive,
        },
    )
    if merged["win_threshold"] > merged["total_points"]:
        raise InvalidHand(
            "rules.win_threshold",
            gettext_noop(
                "must not exceed rules.total_points ({total_points}), got {win_threshold}"
            ),
            total_points=check.show(merged["total_points"]),
            win_threshold=check.show(merged["win_threshold"]),
        )
    return Rules(**merged)


def _positive(value: Any, field: str) -> int:
    return check.integer(value, field, 1, check.SETTING_MAX)


def default_rules() -> dict[str, Any]:
    return dict(DEFAULT_RULES)


# --- 2.2 card points ---------------------------------------------------------------------------

# Full values for counting in pairs; a card is worth its full value less one half.
FULL_VALUE: dict[str, int] = {"king": 5, "queen": 4, "cavall": 3, "jack": 2, "trull": 5, "other": 1}
CARDS_IN_DECK: dict[str, int] = {
    "king": 4,
    "queen": 4,
    "cavall": 4,
    "jack": 4,
    "trull": 3,
    "other": 35,  # 19 trumps outside the Trull and 16 blanks
}


def card_points(counts: Mapping[str, int]) -> int | Fraction:
    """Card points of a pile from the number of cards of each kind (missing kinds count 0).

    Exact: a whole number is returned as ``int``, a pile with an odd number of cards as a
    ``Fraction`` with a half point.
    """
    check.mapping(counts, "counts")
    check.keys(
        counts, allowed=FULL_VALUE, required=(), context=Text(gettext_noop("in a card count"))
    )
    n = {
        kind: check.integer(counts.get(kind, 0), kind, 0, CARDS_IN_DECK[kind])
        for kind in FULL_VALUE
    }
    cards = sum(n.values())
    # each card is its full value minus 1/2 (pair counting: two full values minus 1)
    points = Fraction(2 * sum(FULL_VALUE[k] * n[k] for k in n) - cards, 2)
    return int(points) if points.denominator == 1 else points


# --- the hand ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    contract: str
    seats: int
    declarer: int | None = None
    declarer_points: int = 0  # D, already 0 for a Berg
    gegensolo: bool = False
    declarer_tricks: int | None = None
    won: bool | None = None
    points: tuple[int, ...] = ()
    announcer: int | None = None
    sitting_out: int | None = None
    forfeit: str | None = None

    def active_seats(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.sitting_out]


_KEYS_BY_KIND: dict[str, tuple[set[str], set[str]]] = {
    # kind: (allowed keys, required keys); sitting_out is added for five seats
    "ladder": (
        {"contract", "declarer", "declarer_points", "declarer_took_trick", "gegensolo", "forfeit"},
        {"contract", "declarer"},
    ),
    "solo": (
        {"contract", "declarer", "declarer_points", "declarer_took_trick", "forfeit"},
        {"contract", "declarer"},
    ),
    "bettel": ({"contract", "declarer", "declarer_tricks", "forfeit"}, {"contract", "declarer"}),
    "piccolo": ({"contract", "declarer", "declarer_tricks", "forfeit"}, {"contract", "declarer"}),
    "ulti": ({"contract", "declarer", "won", "forfeit"}, {"contract", "declarer"}),
    "raeuber": ({"contract", "points", "announcer"}, {"contract", "points"}),
}


def _kind(contract: str) -> str:
    return "ladder" if contract in LADDER else contract


def parse(hand: Any, seats: int, rules: Rules) -> Hand:
    check.mapping(hand, "hand")
    if "contract" not in hand:
        raise InvalidHand(
            "contract", gettext_noop("is required: {options}"), options=", ".join(CONTRACTS)
        )
    contract = check.choice(hand["contract"], "contract", CONTRACTS)
    kind = _kind(contract)
    allowed, required = (set(s) for s in _KEYS_BY_KIND[kind])
    if seats == 5:
        # 2.1: at five seats the dealer sits out each hand and the hand names him.
        allowed.add("sitting_out")
        required.add("sitting_out")
    context = Text(
        gettext_noop("for {contract} at a table of {seats}"),
        contract=CONTRACT_NAMES[contract],
        seats=seats,
    )
    if seats != 5 and "sitting_out" in hand:
        raise InvalidHand(
            "sitting_out", gettext_noop("is only used at a table of five (the dealer sits out)")
        )
    check.keys(hand, allowed=allowed, required=required, context=context)

    sitting_out = check.seat(hand["sitting_out"], "sitting_out", seats) if seats == 5 else None
    forfeit = hand.get("forfeit")
    if forfeit is not None:
        check.choice(forfeit, "forfeit", ("declarer", "opponents"))

    if kind == "raeuber":
        return _parse_raeuber(hand, seats, rules, sitting_out)

    declarer = check.seat(hand["declarer"], "declarer", seats)
    if declarer == sitting_out:
        raise InvalidHand(
            "declarer",
            gettext_noop("seat {declarer} sits out this hand and cannot declare"),
            declarer=declarer,
        )
    base = {
        "contract": contract,
        "seats": seats,
        "declarer": declarer,
        "sitting_out": sitting_out,
        "forfeit": forfeit,
    }
    # A forfeited hand may not have been played out: its result inputs may be left away, but what
    # is given is still checked.
    needs_result = forfeit is None

    if kind in ("ladder", "solo"):
        took_trick = check.boolean(hand.get("declarer_took_trick", True), "declarer_took_trick")
        if "declarer_points" in hand:
            points = check.integer(
                hand["declarer_points"], "declarer_points", 0, rules.total_points
            )
            if not took_trick and points != 0:
                raise InvalidHand(
                    "declarer_points",
                    gettext_noop(
                        "must be 0 or left out when the declarer took no trick (Berg), got {points}"
                    ),
                    points=check.show(points),
                )
        elif took_trick and needs_result:
            raise InvalidHand(
                "declarer_points",
                gettext_noop("is required unless the declarer took no trick (Berg)"),
            )
        else:
            points = 0
        gegensolo = check.boolean(hand.get("gegensolo", False), "gegensolo")
        return Hand(**base, declarer_points=points if took_trick else 0, gegensolo=gegensolo)

    if kind in ("bettel", "piccolo"):
        if "declarer_tricks" in hand:
            tricks = check.integer(hand["declarer_tricks"], "declarer_tricks", 0, TRICKS_PER_HAND)
        elif needs_result:
            raise InvalidHand(
                "declarer_tricks",
                gettext_noop("is required for {contract_name}"),
                contract_name=CONTRACT_NAMES[contract],
            )
        else:
            tricks = None
        return Hand(**base, declarer_tricks=tricks)

    # ulti
    if "won" in hand:
        won = check.boolean(hand["won"], "won")
    elif needs_result:
        raise InvalidHand(
            "won", gettext_noop("is required for Ulti (was the last trick taken with the Geiß?)")
        )
    else:
        won = None
    return Hand(**base, won=won)


def _parse_raeuber(
    hand: Mapping[str, Any], seats: int, rules: Rules, sitting_out: int | None
) -> Hand:
    points = check.sequence(hand["points"], "points", seats)
    for s, value in enumerate(points):
        check.integer(value, f"points[{s}]", 0, rules.total_points)
    if sitting_out is not None and points[sitting_out] != 0:
        raise InvalidHand(
            f"points[{sitting_out}]",
            gettext_noop("must be 0: seat {sitting_out} sits out and takes no part in Räuber"),
            sitting_out=sitting_out,
        )
    if sum(points) != rules.total_points:
        raise InvalidHand(
            "points",
            gettext_noop("must add up to {total_points} card points, got {value}"),
            total_points=rules.total_points,
            value=check.show(sum(points)),
        )
    announcer = hand.get("announcer")
    if announcer is not None:
        check.seat(announcer, "announcer", seats)
        if announcer == sitting_out:
            raise InvalidHand(
                "announcer",
                gettext_noop("seat {announcer} sits out and cannot announce Räuber"),
                announcer=announcer,
            )
    return Hand(
        contract="raeuber",
        seats=seats,
        points=tuple(points),
        announcer=announcer,
        sitting_out=sitting_out,
    )


# --- scoring ----------------------------------------------------------------------------------


def game_value(hand: Hand, rules: Rules) -> int:
    """W of a point game (2.3), with the Gegensolo step."""
    if hand.contract == "solo":
        return SOLO_VALUE
    w = LADDER[hand.contract]
    if hand.gegensolo and (rules.gegensolo_raises == "all" or hand.contract == "cego"):
        w += 1
    return w


def amount_step(rules: Any = None) -> int:
    """Every amount a hand gives is a multiple of this, and so is every total: 10 with the default
    settings ("written amounts are multiples of 10", 2.4), less only where an event sets a
    fixed-value game to an amount that is not a multiple of 10."""
    settings = check_rules(rules)
    fixed = (settings.bettel, settings.piccolo, settings.ulti, settings.raeuber)
    return math.gcd(10, *fixed)


def round_up_to_ten(raw: int) -> int:
    # "written amounts are multiples of 10"
    return 10 * math.ceil(raw / 10)


def point_game_value(hand: Hand, rules: Rules) -> tuple[bool, int]:
    """(declarer won, V per opponent) of a ladder contract or Solo, following 2.4 line by line."""
    w = game_value(hand, rules)
    if hand.forfeit is not None:
        # 2.4 irregularities: a Berg loss, or a maximum win (Fach 8)
        won = hand.forfeit == "opponents"
        fach = MAX_FACH
    else:
        d = hand.declarer_points  # 0 for a Berg
        won = d >= rules.win_threshold
        losing_side = d if not won else rules.total_points - d  # L
        grundwert = GRUNDWERT_BASE - losing_side  # G
        # F = ceil(G / 5); a decided game is worth at least one Fach (only a non-default threshold
        # can make G fall below 1)
        fach = max(1, math.ceil(grundwert / FACH_SIZE))
    raw = FACH_SIZE * fach * w
    if hand.contract == "solo" and won:  # Solo wins double, loses single
        if rules.solo_double == "after_rounding":
            return won, 2 * round_up_to_ten(raw)
        raw *= 2
    return won, round_up_to_ten(raw)


def fixed_game_value(hand: Hand, rules: Rules) -> tuple[bool, int]:
    value = getattr(rules, hand.contract)
    if hand.forfeit is not None:
        return hand.forfeit == "opponents", value
    if hand.contract == "bettel":
        won = hand.declarer_tricks == 0
    elif hand.contract == "piccolo":
        won = hand.declarer_tricks == 1
    else:
        won = bool(hand.won)
    return won, value


def declarer_result(hand: Hand, won: bool, value: int) -> list[int]:
    """Every other seat pays V to the declarer, or receives V from him; at five seats that includes
    the dealer who sits out the hand (2.1: the declarer gets ±4V)."""
    result = [0] * hand.seats
    sign = 1 if won else -1
    for s in range(hand.seats):
        if s != hand.declarer:
            result[s] = -sign * value
            result[hand.declarer] += sign * value
    return result


def raeuber_result(hand: Hand, rules: Rules) -> list[int]:
    active = hand.active_seats()
    most = max(hand.points[s] for s in active)
    losers = [s for s in active if hand.points[s] == most]
    if hand.announcer in losers:
        # a self-announced Räuber loses alone, and double
        losers, amount = [hand.announcer], 2 * rules.raeuber
    else:
        amount = rules.raeuber
    result = [0] * hand.seats
    for loser in losers:
        for s in active:
            if s not in losers:
                result[loser] -= amount
                result[s] += amount
    return result


def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
    check.table_size(seats, MIN_SEATS, MAX_SEATS, NAME)
    settings = check_rules(rules)
    parsed = parse(hand, seats, settings)
    if parsed.contract == "raeuber":
        return raeuber_result(parsed, settings)
    if parsed.contract in FIXED:
        won, value = fixed_game_value(parsed, settings)
    else:
        won, value = point_game_value(parsed, settings)
    return declarer_result(parsed, won, value)
