"""Crazy Solo: a bidder (with a partner, or alone) against the Gang, paid in chips (RULES.md 4).

A deal always holds 120 card points. The soloists' distance from 60 is multiplied (3 with hearts
trumps, else 2) and rounded to a multiple of 5: that amount A is paid by, or to, each Gang member.
Every deal is zero-sum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from . import validate as check
from .validate import InvalidHand, Text, gettext_noop

NAME = "Crazy Solo"
MIN_SEATS, MAX_SEATS = 3, 12
TOTAL_POINTS = 120
HALF = 60

CONTRACTS = ("solo", "herz_solo", "alleingang", "alleingang_herz")
CONTRACT_NAMES = {
    "solo": "Solo",
    "herz_solo": "Herz-Solo",
    "alleingang": "Alleingang",
    "alleingang_herz": "Alleingang mit Herz",
}
HEARTS_CONTRACTS = ("herz_solo", "alleingang_herz")
ALONE_CONTRACTS = ("alleingang", "alleingang_herz")
TRUMPS = ("kreuz", "pik", "karo", "herz")

SETTING_CHOICES: dict[str, tuple[str, ...]] = {"rounding": ("nearest", "up")}

DEFAULT_RULES: dict[str, Any] = {"rounding": "nearest", "start_balance": 150}

KEYS = {"contract", "bidder", "partner", "soloist_points", "trump"}
REQUIRED = {"contract", "bidder", "soloist_points"}


@dataclass(frozen=True)
class Hand:
    contract: str
    bidder: int
    partner: int | None
    soloist_points: int


def default_rules() -> dict[str, Any]:
    return dict(DEFAULT_RULES)


def check_rules(given: Any) -> dict[str, Any]:
    return check.settings(
        given,
        DEFAULT_RULES,
        {
            "rounding": lambda v, f: check.choice(v, f, SETTING_CHOICES["rounding"]),
            "start_balance": lambda v, f: check.integer(v, f, 0, check.SETTING_MAX),
        },
    )


def parse(hand: Any, seats: int) -> Hand:
    check.mapping(hand, "hand")
    check.keys(
        hand, allowed=KEYS, required=REQUIRED, context=Text(gettext_noop("in a Crazy Solo deal"))
    )
    contract = check.choice(hand["contract"], "contract", CONTRACTS)
    if seats == 3 and contract not in ALONE_CONTRACTS:
        raise InvalidHand(
            "contract",
            gettext_noop(
                "{contract_name} does not exist with three players; "
                "only Alleingang and Alleingang mit Herz"
            ),
            contract_name=CONTRACT_NAMES[contract],
        )
    bidder = check.seat(hand["bidder"], "bidder", seats)
    partner = hand.get("partner")
    if partner is not None:
        if contract in ALONE_CONTRACTS:
            raise InvalidHand(
                "partner",
                gettext_noop("must be empty: in an {contract_name} the bidder plays alone"),
                contract_name=CONTRACT_NAMES[contract],
            )
        check.seat(partner, "partner", seats)
        if partner == bidder:
            raise InvalidHand(
                "partner",
                gettext_noop(
                    "must be another seat than the bidder (a bidder who named his own card "
                    "plays alone: leave the partner empty)"
                ),
            )
    points = check.integer(hand["soloist_points"], "soloist_points", 0, TOTAL_POINTS)
    if "trump" in hand and hand["trump"] is not None:
        trump = check.choice(hand["trump"], "trump", TRUMPS)
        if contract in HEARTS_CONTRACTS and trump != "herz":
            raise InvalidHand(
                "trump",
                gettext_noop("must be herz in {contract_name}, got {trump}"),
                contract_name=CONTRACT_NAMES[contract],
                trump=trump,
            )
        if contract not in HEARTS_CONTRACTS and trump == "herz":
            raise InvalidHand(
                "trump",
                gettext_noop(
                    "herz is not allowed in {contract_name}; choose kreuz, pik or karo "
                    "(or the Herz contract)"
                ),
                contract_name=CONTRACT_NAMES[contract],
            )
    return Hand(contract, bidder, partner, points)


def round_to_5(value: int, rounding: str) -> int:
    """Round a non-negative whole number to a multiple of 5 ("nearest" cannot tie on integers)."""
    if rounding == "up":
        return 5 * math.ceil(value / 5)
    return 5 * ((value + 2) // 5)


def amount(hand: Hand, rounding: str) -> int:
    """A: what each Gang member pays or receives."""
    m = 3 if hand.contract in HEARTS_CONTRACTS else 2
    return round_to_5(abs(hand.soloist_points - HALF) * m, rounding)


def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
    check.table_size(seats, MIN_SEATS, MAX_SEATS, NAME)
    settings = check_rules(rules)
    deal = parse(hand, seats)
    result = [0] * seats
    if deal.soloist_points == HALF:
        return result
    a = amount(deal, settings["rounding"])
    sign = 1 if deal.soloist_points > HALF else -1
    soloists = {deal.bidder} if deal.partner is None else {deal.bidder, deal.partner}
    gang = [s for s in range(seats) if s not in soloists]
    g = len(gang)
    for s in gang:
        result[s] = -sign * a
    if deal.partner is None:
        result[deal.bidder] = sign * g * a
    else:
        # with an odd Gang, the bidder is paid by (or pays) the extra member
        result[deal.bidder] = sign * math.ceil(g / 2) * a
        result[deal.partner] = sign * (g // 2) * a
    return result
