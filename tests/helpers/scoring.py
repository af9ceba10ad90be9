"""Scoring a Cego hand with the rules alone (no database)."""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring import InvalidHand


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


def declarer_loses(v: int, seats: int = 4) -> list[int]:
    return [-(seats - 1) * v] + [v] * (seats - 1)


def declarer_wins(v: int, seats: int = 4) -> list[int]:
    return [(seats - 1) * v] + [-v] * (seats - 1)


def make_hand(contract: str, **fields: Any) -> dict[str, Any]:
    """A Cego hand with the declarer in seat 0 unless the test says otherwise."""
    hand: dict[str, Any] = {"contract": contract}
    if contract != "raeuber":
        hand["declarer"] = 0
    hand.update(fields)
    return hand


def rejection(hand: Any, seats: Any = 4, rules: Any = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        scoring.score("cego", hand, seats, rules)
    return info.value


def score(hand: dict[str, Any], seats: int = 4, rules: dict[str, Any] | None = None) -> list[int]:
    return scoring.score("cego", hand, seats, rules)
