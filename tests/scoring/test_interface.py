"""The public face of the scoring package (RULES.md section 1), shared by all four games."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring import InvalidHand

PROJECT = Path(__file__).resolve().parents[2]
VENV_PYTHON = PROJECT / ".venv" / "bin" / "python"

DEFAULTS = {
    "cego": {
        "total_points": 79,
        "win_threshold": 40,
        "solo_double": "before_rounding",
        "gegensolo_raises": "all",
        "bettel": 30,
        "piccolo": 40,
        "ulti": 80,
        "raeuber": 40,
    },
    "ziege": {"match_limit": 12, "balls_double_next": False},
    "crazy_solo": {"rounding": "nearest", "start_balance": 150},
    "hennes_sibbe": {
        "jokers_fit_all": False,
        "goat_doubling": "all",
        "hennes_value": 7,
        "penalty_limit": 3,
    },
}

# one valid hand per game with its result, worked out by hand
VALID = {
    "cego": ({"contract": "halbe", "declarer": 0, "declarer_points": 34}, 4, [-60, 20, 20, 20]),
    "ziege": ({"team_a_points": 75}, 4, [0, 2, 0, 2]),
    "crazy_solo": (
        {"contract": "alleingang", "bidder": 1, "soloist_points": 70},
        3,
        [-20, 40, -20],
    ),
    "hennes_sibbe": (
        {
            "claimant": 0,
            "challenger": 2,
            "claim": {"count": 2, "colour": "rot"},
            "claim_correct": True,
        },
        3,
        [0, 0, 1],
    ),
}

TABLE_SIZES = {"cego": (3, 5), "ziege": (4, 4), "crazy_solo": (3, 12), "hennes_sibbe": (3, 8)}


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


def test_it_registers_the_four_games() -> None:
    assert set(scoring.GAMES) == {"cego", "ziege", "crazy_solo", "hennes_sibbe"}


@pytest.mark.parametrize("game", sorted(DEFAULTS))
def test_it_gives_the_default_rules_of_rules_md(game: str) -> None:
    assert scoring.default_rules(game) == DEFAULTS[game]


@pytest.mark.parametrize("game", sorted(DEFAULTS))
def test_it_gives_a_fresh_dict_of_default_rules_each_call(game: str) -> None:
    first = scoring.default_rules(game)
    first.clear()
    first["changed"] = True
    second = scoring.default_rules(game)
    assert second == DEFAULTS[game]
    assert second is not scoring.default_rules(game)


@pytest.mark.parametrize("game", sorted(DEFAULTS))
def test_it_scores_with_the_default_rules_when_none_are_given(game: str) -> None:
    hand, seats, expected = VALID[game]
    assert scoring.score(game, hand, seats) == expected
    assert scoring.score(game, hand, seats, None) == expected
    assert scoring.score(game, hand, seats, {}) == expected
    assert scoring.score(game, hand, seats, scoring.default_rules(game)) == expected


@pytest.mark.parametrize("game", sorted(DEFAULTS))
def test_it_returns_one_plain_integer_per_seat(game: str) -> None:
    hand, seats, _ = VALID[game]
    result = scoring.score(game, hand, seats)
    assert isinstance(result, list)
    assert len(result) == seats
    assert all(type(amount) is int for amount in result)


def test_it_makes_invalid_hand_a_value_error() -> None:
    assert issubclass(scoring.InvalidHand, ValueError)
    error = InvalidHand("declarer_points", "must be from 0 to 79, got 80")
    assert error.field == "declarer_points"
    assert str(error).startswith("declarer_points")


@pytest.mark.parametrize("game", ["skat", "Cego", "", None, 1, ["cego"], "hennes sibbe"])
def test_it_rejects_an_unknown_game(game: Any) -> None:
    with pytest.raises(InvalidHand) as info:
        scoring.score(game, VALID["cego"][0], 4)
    assert_names_field(info.value, "game")
    with pytest.raises(InvalidHand) as info:
        scoring.default_rules(game)
    assert_names_field(info.value, "game")


@pytest.mark.parametrize("game", sorted(TABLE_SIZES))
def test_it_accepts_exactly_the_table_sizes_of_each_game(game: str) -> None:
    low, high = TABLE_SIZES[game]
    for seats in range(0, 14):
        hand = _hand_for(game, seats)
        if low <= seats <= high:
            assert len(scoring.score(game, hand, seats)) == seats
        else:
            with pytest.raises(InvalidHand) as info:
                scoring.score(game, hand, seats)
            assert_names_field(info.value, "seats")


def _hand_for(game: str, seats: int) -> dict[str, Any]:
    """A hand of the game that would be valid at any table size the game allows."""
    if game == "cego":
        hand: dict[str, Any] = {"contract": "ulti", "declarer": 0, "won": True}
        return {**hand, "sitting_out": 1} if seats == 5 else hand
    if game == "crazy_solo":
        return {"contract": "alleingang", "bidder": 0, "soloist_points": 70}
    if game == "hennes_sibbe":
        claim = {"count": 1, "colour": "rot"}
        return {"claimant": 0, "challenger": 1, "claim": claim, "claim_correct": True}
    return {"team_a_points": 75}


@pytest.mark.parametrize("game", sorted(DEFAULTS))
@pytest.mark.parametrize("rules", [{"nonsense": 1}, {"": 1}])
def test_it_rejects_an_unknown_setting_in_every_game(game: str, rules: dict[str, Any]) -> None:
    hand, seats, _ = VALID[game]
    with pytest.raises(InvalidHand) as info:
        scoring.score(game, hand, seats, rules)
    field = "rules." + next(iter(rules))
    assert_names_field(info.value, field)


@pytest.mark.parametrize("game", sorted(DEFAULTS))
@pytest.mark.parametrize("key", ["", "unknown_key"])
def test_it_rejects_an_unknown_hand_key_in_every_game(game: str, key: str) -> None:
    hand, seats, _ = VALID[game]
    with pytest.raises(InvalidHand) as info:
        scoring.score(game, {**hand, key: 1}, seats)
    assert_names_field(info.value, key)


@pytest.mark.parametrize("game", sorted(DEFAULTS))
def test_it_rejects_a_huge_table_size_with_invalid_hand(game: str) -> None:
    # RULES.md: every out-of-range input is rejected with InvalidHand, whatever its size
    hand, _, _ = VALID[game]
    with pytest.raises(InvalidHand) as info:
        scoring.score(game, hand, 10**5000)
    assert_names_field(info.value, "seats")


@pytest.mark.parametrize(
    ("game", "hand", "seats", "field"),
    [
        pytest.param(
            "cego",
            {"contract": "halbe", "declarer": 0, "declarer_points": 10**5000},
            4,
            "declarer_points",
            id="cego-points",
        ),
        pytest.param("ziege", {"team_a_points": 10**5000}, 4, "team_a_points", id="ziege-points"),
        pytest.param(
            "crazy_solo",
            {"contract": "solo", "bidder": 10**5000, "soloist_points": 70},
            4,
            "bidder",
            id="crazy-solo-bidder",
        ),
        pytest.param(
            "hennes_sibbe",
            {
                "claimant": -(10**5000),
                "challenger": 1,
                "claim": {"count": 1, "colour": "rot"},
                "claim_correct": True,
            },
            3,
            "claimant",
            id="hennes-sibbe-claimant",
        ),
    ],
)
def test_it_rejects_a_huge_value_in_a_hand_with_invalid_hand(
    game: str, hand: dict[str, Any], seats: int, field: str
) -> None:
    with pytest.raises(InvalidHand) as info:
        scoring.score(game, hand, seats)
    assert_names_field(info.value, field)


def test_it_rejects_a_huge_card_count_with_invalid_hand() -> None:
    with pytest.raises(InvalidHand) as info:
        scoring.cego.card_points({"king": 10**5000})
    assert_names_field(info.value, "king")


# --- scoring.cego.card_points and scoring.hennes_sibbe.is_valid_raise -------------------------


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"king": 1, "other": 1}, 5),
        ({"other": 2}, 1),
        ({"king": 4, "queen": 4, "cavall": 4, "jack": 4, "trull": 3, "other": 35}, 79),
    ],
)
def test_it_counts_card_points_as_rules_md_shows(counts: dict[str, int], expected: int) -> None:
    points = scoring.cego.card_points(counts)
    assert points == expected
    assert not isinstance(points, float)


def test_it_counts_an_odd_pile_as_an_exact_half_never_a_float() -> None:
    points = scoring.cego.card_points({"other": 1})
    assert points == Fraction(1, 2)
    assert isinstance(points, Fraction)
    assert not isinstance(points, float)


@pytest.mark.parametrize(
    ("new", "valid"),
    [
        ({"count": 7, "colour": "rot"}, True),
        ({"count": 8, "colour": "lila"}, True),
        ({"count": 7, "colour": "gelb"}, False),
        ({"count": 7, "colour": "orange"}, False),
    ],
)
def test_it_checks_raises_after_7_orange(new: dict[str, Any], valid: bool) -> None:
    previous = {"count": 7, "colour": "orange"}
    assert scoring.hennes_sibbe.is_valid_raise(previous, new) is valid


# --- no Django --------------------------------------------------------------------------------


def test_it_does_not_import_django() -> None:
    # A fresh interpreter, so that Django imported by other tests cannot hide an import by scoring.
    # It is the project's interpreter, where Django is installed: an import would succeed, not fail.
    code = (
        "import importlib, importlib.util, json, pkgutil, sys\n"
        "import scoring\n"
        "for module in pkgutil.walk_packages(scoring.__path__, 'scoring.'):\n"
        "    importlib.import_module(module.name)\n"
        "print(json.dumps({\n"
        "    'django': sorted(m for m in sys.modules if m.split('.')[0] == 'django'),\n"
        "    'scoring': sorted(m for m in sys.modules if m.split('.')[0] == 'scoring'),\n"
        "    'django_installed': importlib.util.find_spec('django') is not None,\n"
        "}))\n"
    )
    completed = subprocess.run(
        [VENV_PYTHON if VENV_PYTHON.exists() else sys.executable, "-c", code],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(PROJECT)},
    )
    assert completed.returncode == 0, completed.stderr
    modules = json.loads(completed.stdout)
    assert modules["django_installed"], "the check needs an interpreter that has Django"
    assert {"scoring.cego", "scoring.ziege", "scoring.crazy_solo", "scoring.hennes_sibbe"} <= set(
        modules["scoring"]
    )
    assert modules["django"] == [], f"scoring imported Django: {modules['django']}"
