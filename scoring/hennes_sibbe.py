"""Hennes Sibbe: claims of "N cards of colour C on all hands", a challenge, one penalty card
(RULES.md 5).

A hand here is one challenge. Either the table says whether the claim was right (``claim_correct``)
or the revealed cards are entered (``reveal``) and counted as in 5.2. The seat that was wrong takes
one penalty card: the result is +1 for that seat and 0 for every other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import validate as check
from .validate import InvalidHand, Text, gettext_noop

NAME = "Hennes Sibbe"
MIN_SEATS, MAX_SEATS = 3, 8

# ranked for claims, highest first
COLOURS = ("rot", "orange", "gelb", "gruen", "blau", "lila")
COLOUR_NAMES = {
    "rot": "Rot",
    "orange": "Orange",
    "gelb": "Gelb",
    "gruen": "Grün",
    "blau": "Blau",
    "lila": "Lila",
}
RANK = {colour: len(COLOURS) - i for i, colour in enumerate(COLOURS)}  # lila 1 .. rot 6

JOKERS = ("goat", "hennes", "joker_rgb", "joker_ogl")
JOKER_NAMES = {
    "goat": "Geißbock",
    "hennes": "Hennes Sibbe",
    "joker_rgb": "Joker Rot-Gelb-Blau",
    "joker_ogl": "Joker Orange-Grün-Lila",
}
# the colours a joker fits; ball goats (goat, hennes) fit every colour
FITS: dict[str, frozenset[str]] = {
    "goat": frozenset(COLOURS),
    "hennes": frozenset(COLOURS),
    "joker_rgb": frozenset({"rot", "gelb", "blau"}),
    "joker_ogl": frozenset({"orange", "gruen", "lila"}),
}
CARDS = (*COLOURS, *JOKERS)
# RULES.md 5.1: 5 cards are dealt; each turn draws one and lays one off, and a Drilling laid out
# leaves the hand, so no hand ever holds more (nor more jokers than the smallest pack's five)
HAND_SIZE = 5
DRILLING_VALUE = 3
GOATS_FOR_DOUBLING = 3

SETTING_CHOICES: dict[str, tuple[str, ...]] = {"goat_doubling": ("all", "hand", "off")}

DEFAULT_RULES: dict[str, Any] = {
    "jokers_fit_all": False,
    "goat_doubling": "all",
    "hennes_value": 7,
    "penalty_limit": 3,
}

KEYS = {"claimant", "challenger", "claim", "claim_correct", "reveal"}
REVEAL_KEYS = {"hands", "penalty_cards", "drillings"}


@dataclass(frozen=True)
class Claim:
    count: int
    colour: str


@dataclass(frozen=True)
class Reveal:
    hands: tuple[tuple[str, ...], ...]
    penalty_cards: tuple[tuple[str, ...], ...]
    drillings: tuple[str, ...]


@dataclass(frozen=True)
class Hand:
    claimant: int
    challenger: int
    claim: Claim
    claim_correct: bool | None
    reveal: Reveal | None


def default_rules() -> dict[str, Any]:
    return dict(DEFAULT_RULES)


def check_rules(given: Any) -> dict[str, Any]:
    return check.settings(
        given,
        DEFAULT_RULES,
        {
            "jokers_fit_all": check.boolean,
            "goat_doubling": lambda v, f: check.choice(v, f, SETTING_CHOICES["goat_doubling"]),
            "hennes_value": lambda v, f: check.integer(v, f, 1, check.SETTING_MAX),
            "penalty_limit": lambda v, f: check.integer(v, f, 1, check.SETTING_MAX),
        },
    )


def parse_claim(value: Any, field: str = "claim") -> Claim:
    check.mapping(value, field)
    check.keys(
        value,
        allowed={"count", "colour"},
        required={"count", "colour"},
        context=Text(gettext_noop("in a claim")),
        prefix=f"{field}.",
    )
    count = check.integer(value["count"], f"{field}.count", 1)
    colour = check.choice(value["colour"], f"{field}.colour", COLOURS)
    return Claim(count, colour)


def _cards(value: Any, field: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    cards = check.sequence(value, field)
    for i, card in enumerate(cards):
        check.choice(card, f"{field}[{i}]", allowed)
    return tuple(cards)


def _per_seat(value: Any, field: str, seats: int) -> tuple[tuple[str, ...], ...]:
    lists = check.sequence(value, field, seats)
    return tuple(_cards(cards, f"{field}[{s}]", CARDS) for s, cards in enumerate(lists))


def parse_reveal(value: Any, seats: int) -> Reveal:
    check.mapping(value, "reveal")
    # Seats without penalty cards and a round without Drillings are the usual case: the two lists
    # may be left out and then are empty.
    check.keys(
        value,
        allowed=REVEAL_KEYS,
        required={"hands"},
        context=Text(gettext_noop("in a reveal")),
        prefix="reveal.",
    )
    hands = _per_seat(value["hands"], "reveal.hands", seats)
    for s, cards in enumerate(hands):
        if len(cards) > HAND_SIZE:
            raise InvalidHand(
                f"reveal.hands[{s}]",
                gettext_noop(
                    "a hand holds at most {most} cards (five are dealt, each turn draws one and "
                    "lays one off), got {count}"
                ),
                most=HAND_SIZE,
                count=len(cards),
            )
    penalty = (
        _per_seat(value["penalty_cards"], "reveal.penalty_cards", seats)
        if "penalty_cards" in value
        else tuple(() for _ in range(seats))
    )
    drillings = _cards(value.get("drillings", []), "reveal.drillings", COLOURS)
    hennes = sum(cards.count("hennes") for cards in (*hands, *penalty))
    if hennes > 1:
        raise InvalidHand(
            "reveal",
            gettext_noop("there is only one Hennes Sibbe card, got {hennes}"),
            hennes=hennes,
        )
    return Reveal(hands, penalty, drillings)


def parse(hand: Any, seats: int) -> Hand:
    check.mapping(hand, "hand")
    check.keys(
        hand,
        allowed=KEYS,
        required={"claimant", "challenger", "claim"},
        context=Text(gettext_noop("in a challenge")),
    )
    claimant = check.seat(hand["claimant"], "claimant", seats)
    challenger = check.seat(hand["challenger"], "challenger", seats)
    if claimant == challenger:
        raise InvalidHand("challenger", gettext_noop("must be another seat than the claimant"))
    claim = parse_claim(hand["claim"])
    has_verdict, has_reveal = "claim_correct" in hand, "reveal" in hand
    if has_verdict == has_reveal:
        raise InvalidHand(
            "claim_correct",
            gettext_noop(
                "give either claim_correct (the table counted) or reveal (the cards), not both"
            )
            if has_verdict
            else gettext_noop(
                "give either claim_correct (the table counted) or reveal (the cards), not neither"
            ),
        )
    if has_verdict:
        return Hand(
            claimant, challenger, claim, check.boolean(hand["claim_correct"], "claim_correct"), None
        )
    return Hand(claimant, challenger, claim, None, parse_reveal(hand["reveal"], seats))


def is_valid_raise(previous: Any, new: Any, rules: Any = None) -> bool:
    """A raise is a higher count, or the same count with a higher-ranked colour (5.3)."""
    check_rules(rules)
    before = parse_claim(previous, "previous")
    after = parse_claim(new, "new")
    if after.count != before.count:
        return after.count > before.count
    return RANK[after.colour] > RANK[before.colour]


def fits(joker: str, colour: str, rules: Mapping[str, Any]) -> bool:
    return rules["jokers_fit_all"] or colour in FITS[joker]


def count_claim(hand: Hand, reveal: Reveal, rules: Mapping[str, Any]) -> int:
    """The count of a challenged claim over all hands, penalty cards and Drillings (5.2)."""
    colour = hand.claim.colour
    goat_hands = [
        sum(1 for card in cards if card in JOKERS) >= GOATS_FOR_DOUBLING for cards in reveal.hands
    ]
    total = 0
    for s, (cards, penalty) in enumerate(zip(reveal.hands, reveal.penalty_cards, strict=True)):
        if rules["goat_doubling"] == "all":
            joker_factor = 2 if any(goat_hands) else 1
        elif rules["goat_doubling"] == "hand":
            joker_factor = 2 if goat_hands[s] else 1
        else:
            joker_factor = 1
        own_penalty_colour = colour in penalty
        for card in cards:
            if card == colour:
                total += 2 if own_penalty_colour else 1
            elif card in JOKERS and fits(card, colour, rules):
                total += joker_factor * _joker_value(card, s, hand.claimant, rules)
        for card in penalty:
            if card == colour:
                total += 1
            elif card in JOKERS and fits(card, colour, rules):
                # a penalty card lies outside the hand: with "hand" doubling only hand cards double
                factor = joker_factor if rules["goat_doubling"] == "all" else 1
                total += factor * _joker_value(card, s, hand.claimant, rules)
    total += DRILLING_VALUE * reveal.drillings.count(colour)
    return total


def _joker_value(card: str, seat: int, claimant: int, rules: Mapping[str, Any]) -> int:
    if card == "hennes" and seat == claimant:
        return rules["hennes_value"]
    return 1


def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
    check.table_size(seats, MIN_SEATS, MAX_SEATS, NAME)
    settings = check_rules(rules)
    challenge = parse(hand, seats)
    if challenge.reveal is not None:
        correct = count_claim(challenge, challenge.reveal, settings) >= challenge.claim.count
    else:
        correct = bool(challenge.claim_correct)
    result = [0] * seats
    result[challenge.challenger if correct else challenge.claimant] = 1
    return result
