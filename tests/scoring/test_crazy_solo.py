"""Crazy Solo scoring against RULES.md section 4 and the Crazy Solo examples of section 7.

A = |S - 60| * m rounded to a multiple of 5 (m = 3 with hearts trumps, else 2); every Gang member
pays A (soloists won) or receives A (Gang won); with a partner the bidder takes ceil(g/2) shares and
the partner floor(g/2).
"""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring import InvalidHand


def make_deal(contract: str, soloist_points: int, **fields: Any) -> dict[str, Any]:
    """A Crazy Solo deal with the bidder in seat 0 unless the test says otherwise."""
    return {"contract": contract, "bidder": 0, "soloist_points": soloist_points, **fields}


def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
    return scoring.score("crazy_solo", hand, seats, rules)


def rejection(hand: Any, seats: Any = 4, rules: Any = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        scoring.score("crazy_solo", hand, seats, rules)
    return info.value


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


# --- section 7: the worked examples -----------------------------------------------------------


def test_it_scores_the_six_seat_solo_example() -> None:
    hand = make_deal("solo", 74, partner=3)
    assert score(hand, 6) == [60, -30, -30, 60, -30, -30]


def test_it_scores_the_nine_seat_herz_solo_example() -> None:
    hand = make_deal("herz_solo", 67, partner=1)
    assert score(hand, 9) == [80, 60, -20, -20, -20, -20, -20, -20, -20]


@pytest.mark.parametrize("partner", [1, None])
def test_it_pays_nothing_for_the_seven_seat_solo_with_61(partner: int | None) -> None:
    assert score(make_deal("solo", 61, partner=partner), 7) == [0] * 7


# --- the amount A -----------------------------------------------------------------------------

# (excess |S - 60|, A for m = 2, A for m = 3), rounded to the nearest multiple of 5
NEAREST = [
    (1, 0, 5),
    (2, 5, 5),
    (3, 5, 10),
    (4, 10, 10),
    (5, 10, 15),
    (6, 10, 20),
    (7, 15, 20),
    (8, 15, 25),
    (9, 20, 25),
    (10, 20, 30),
]
# the same, rounded up to the next multiple of 5
UP = [
    (1, 5, 5),
    (2, 5, 10),
    (3, 10, 10),
    (4, 10, 15),
    (5, 10, 15),
    (6, 15, 20),
    (7, 15, 25),
    (8, 20, 25),
    (9, 20, 30),
    (10, 20, 30),
]


def alone(a: int) -> list[int]:
    """Four seats, the bidder alone in seat 0 against a Gang of three."""
    return [3 * a, -a, -a, -a]


@pytest.mark.parametrize(
    ("rules", "table"),
    [
        pytest.param(None, NEAREST, id="default-nearest"),
        pytest.param({"rounding": "nearest"}, NEAREST, id="nearest"),
        pytest.param({"rounding": "up"}, UP, id="up"),
    ],
)
@pytest.mark.parametrize("row", range(10), ids=lambda i: f"excess-{i + 1}")
@pytest.mark.parametrize("soloists_won", [True, False], ids=["soloists-won", "gang-won"])
def test_it_rounds_the_amount_to_a_multiple_of_five(
    rules: dict[str, Any] | None, table: list[tuple[int, int, int]], row: int, soloists_won: bool
) -> None:
    excess, a_double, a_triple = table[row]
    points = 60 + excess if soloists_won else 60 - excess
    sign = 1 if soloists_won else -1
    assert score(make_deal("alleingang", points), 4, rules) == alone(sign * a_double)
    assert score(make_deal("alleingang_herz", points), 4, rules) == alone(sign * a_triple)


@pytest.mark.parametrize(
    ("contract", "points", "a"),
    [
        pytest.param("solo", 62, 5, id="solo-x2"),
        pytest.param("herz_solo", 62, 5, id="herz-solo-x3"),
        pytest.param("solo", 63, 5, id="solo-6"),
        pytest.param("herz_solo", 63, 10, id="herz-solo-9"),
        pytest.param("solo", 120, 120, id="solo-all-points"),
        pytest.param("herz_solo", 120, 180, id="herz-solo-all-points"),
        pytest.param("herz_solo", 0, -180, id="herz-solo-no-points"),
    ],
)
def test_it_multiplies_by_three_only_with_hearts_trumps(contract: str, points: int, a: int) -> None:
    # alone in a Solo: the bidder named his own card (partner empty)
    assert score(make_deal(contract, points), 4) == alone(a)


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        # S 57, Gang won: 3 * 2 = 6 -> nearest 5, up 10
        pytest.param(None, [-10, 5, 5], id="nearest"),
        pytest.param({"rounding": "up"}, [-20, 10, 10], id="up"),
    ],
)
def test_it_rounds_the_same_way_for_a_gang_win(
    rules: dict[str, Any] | None, expected: list[int]
) -> None:
    assert score(make_deal("alleingang", 57), 3, rules) == expected


@pytest.mark.parametrize(
    ("contract", "rules", "expected"),
    [
        # 61: 1 * 2 = 2 -> nearest 0, up 5
        pytest.param("alleingang", None, [0, 0, 0, 0], id="nearest-2-is-0"),
        pytest.param("alleingang", {"rounding": "up"}, [15, -5, -5, -5], id="up-2-is-5"),
        # 63: 3 * 2 = 6 -> nearest 5, up 10
        pytest.param("solo", None, [15, -5, -5, -5], id="nearest-6-is-5"),
        pytest.param("solo", {"rounding": "up"}, [30, -10, -10, -10], id="up-6-is-10"),
    ],
)
def test_it_rounds_up_when_the_event_sets_rounding_up(
    contract: str, rules: dict[str, Any] | None, expected: list[int]
) -> None:
    points = 61 if contract == "alleingang" else 63
    assert score(make_deal(contract, points), 4, rules) == expected


@pytest.mark.parametrize(
    ("contract", "seats"),
    [
        ("alleingang", 3),
        ("alleingang_herz", 3),
        ("solo", 4),
        ("herz_solo", 7),
        ("alleingang", 12),
        ("alleingang_herz", 12),
    ],
)
def test_it_pays_nothing_at_60_points(contract: str, seats: int) -> None:
    assert score(make_deal(contract, 60), seats) == [0] * seats


# --- who pays whom ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "seats", "expected"),
    [
        # g = 2 (even): 74 -> 28 -> 30, one share each
        pytest.param(make_deal("solo", 74, partner=2), 4, [30, -30, 30, -30], id="g2-won"),
        pytest.param(make_deal("solo", 46, partner=2), 4, [-30, 30, -30, 30], id="g2-lost"),
        # g = 3 (odd): 70 -> 20, bidder two shares, partner one
        pytest.param(make_deal("solo", 70, partner=1), 5, [40, 20, -20, -20, -20], id="g3-won"),
        pytest.param(make_deal("solo", 50, partner=1), 5, [-40, -20, 20, 20, 20], id="g3-lost"),
        # g = 3, partner before the bidder in seat order
        pytest.param(
            make_deal("solo", 70, bidder=4, partner=0), 5, [20, -20, -20, -20, 40], id="g3-seats"
        ),
        # g = 9 (odd), Herz-Solo: 45 -> 15 * 3 = 45, bidder -5 * 45, partner -4 * 45
        pytest.param(
            make_deal("herz_solo", 45, bidder=2, partner=7),
            11,
            [45, 45, -225, 45, 45, 45, 45, -180, 45, 45, 45],
            id="g9-lost",
        ),
        # g = 10 (even): 50 -> 20, five shares each
        pytest.param(
            make_deal("solo", 50, bidder=5, partner=11),
            12,
            [20] * 5 + [-100] + [20] * 5 + [-100],
            id="g10-lost",
        ),
        # alone in a Solo (partner empty): g = 5, 74 -> 30
        pytest.param(
            make_deal("solo", 74, partner=None), 6, [150, -30, -30, -30, -30, -30], id="solo-alone"
        ),
        # Alleingang at three seats: g = 2
        pytest.param(make_deal("alleingang", 80), 3, [80, -40, -40], id="three-alleingang-won"),
        pytest.param(
            make_deal("alleingang_herz", 50, bidder=1), 3, [30, -60, 30], id="three-herz-lost"
        ),
        # Alleingang at twelve seats: g = 11, 90 -> 60
        pytest.param(
            make_deal("alleingang", 90, bidder=11), 12, [-60] * 11 + [660], id="twelve-alleingang"
        ),
    ],
)
def test_it_splits_the_gang_between_bidder_and_partner(
    hand: dict[str, Any], seats: int, expected: list[int]
) -> None:
    assert score(hand, seats) == expected


@pytest.mark.parametrize("contract", ["solo", "herz_solo"])
def test_it_rejects_a_solo_at_three_seats(contract: str) -> None:
    assert_names_field(rejection(make_deal(contract, 70), seats=3), "contract")


# --- trumps -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "trump"),
    [
        ("solo", "kreuz"),
        ("solo", "pik"),
        ("solo", "karo"),
        ("alleingang", "kreuz"),
        ("herz_solo", "herz"),
        ("alleingang_herz", "herz"),
        ("solo", None),
        ("herz_solo", None),
    ],
)
def test_it_accepts_trumps_that_agree_with_the_contract(contract: str, trump: str | None) -> None:
    # 70: 10 * m; the trump named does not change the amount
    a = 30 if contract in ("herz_solo", "alleingang_herz") else 20
    assert score(make_deal(contract, 70, trump=trump), 4) == alone(a)


@pytest.mark.parametrize(
    ("contract", "trump"),
    [
        pytest.param("solo", "herz", id="herz-in-solo"),
        pytest.param("alleingang", "herz", id="herz-in-alleingang"),
        pytest.param("herz_solo", "kreuz", id="kreuz-in-herz-solo"),
        pytest.param("alleingang_herz", "pik", id="pik-in-alleingang-herz"),
        pytest.param("solo", "hearts", id="unknown-suit"),
        pytest.param("solo", "Kreuz", id="capitalised"),
        pytest.param("solo", 1, id="int"),
    ],
)
def test_it_rejects_trumps_that_disagree_with_the_contract(contract: str, trump: Any) -> None:
    assert_names_field(rejection(make_deal(contract, 70, trump=trump)), "trump")


# --- partner ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        pytest.param(make_deal("alleingang", 70, partner=1), "partner", id="alleingang"),
        pytest.param(make_deal("alleingang_herz", 70, partner=2), "partner", id="alleingang-herz"),
        pytest.param(make_deal("solo", 70, partner=0), "partner", id="partner-is-bidder"),
        pytest.param(
            make_deal("herz_solo", 70, bidder=3, partner=3), "partner", id="herz-partner-is-bidder"
        ),
        pytest.param(make_deal("solo", 70, partner=4), "partner", id="seat-4"),
        pytest.param(make_deal("solo", 70, partner=-1), "partner", id="seat--1"),
        pytest.param(make_deal("solo", 70, partner="1"), "partner", id="str"),
        pytest.param(make_deal("solo", 70, partner=True), "partner", id="true"),
    ],
)
def test_it_rejects_a_partner_the_contract_does_not_allow(hand: dict[str, Any], field: str) -> None:
    assert_names_field(rejection(hand), field)


# --- rejections -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        pytest.param(make_deal("solo", 121), "soloist_points", id="points-121"),
        pytest.param(make_deal("solo", -1), "soloist_points", id="points-negative"),
        pytest.param(make_deal("solo", "70"), "soloist_points", id="points-str"),
        pytest.param(make_deal("solo", 70.0), "soloist_points", id="points-float"),
        pytest.param(make_deal("solo", True), "soloist_points", id="points-true"),
        pytest.param(make_deal("solo", 70, bidder=4), "bidder", id="bidder-seat-4"),
        pytest.param(make_deal("solo", 70, bidder=-1), "bidder", id="bidder-seat--1"),
        pytest.param(make_deal("solo", 70, bidder="0"), "bidder", id="bidder-str"),
        pytest.param(make_deal("solo", 70, bidder=False), "bidder", id="bidder-false"),
        pytest.param(make_deal("grand", 70), "contract", id="unknown-contract"),
        pytest.param(make_deal("Solo", 70), "contract", id="capitalised-contract"),
        pytest.param({"contract": "solo", "bidder": 0}, "soloist_points", id="points-missing"),
        pytest.param({"contract": "solo", "soloist_points": 70}, "bidder", id="bidder-missing"),
        pytest.param({"bidder": 0, "soloist_points": 70}, "contract", id="contract-missing"),
        pytest.param(make_deal("solo", 70, partners=[1]), "partners", id="unknown-key"),
        pytest.param(make_deal("solo", 70, gang_points=50), "gang_points", id="gang-points"),
        pytest.param(("solo", 0, 70), "hand", id="tuple"),
    ],
)
def test_it_rejects_a_deal_and_names_the_field(hand: Any, field: str) -> None:
    assert_names_field(rejection(hand), field)


@pytest.mark.parametrize("seats", [2, 13, 0, "6", 6.0, True, None])
def test_it_rejects_a_table_size_crazy_solo_is_not_played_at(seats: Any) -> None:
    assert_names_field(rejection(make_deal("alleingang", 70), seats=seats), "seats")


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        pytest.param({"rounding": "down"}, "rules.rounding", id="rounding-down"),
        pytest.param({"rounding": 5}, "rules.rounding", id="rounding-int"),
        pytest.param({"start_balance": "150"}, "rules.start_balance", id="balance-str"),
        pytest.param({"start_balance": 150.0}, "rules.start_balance", id="balance-float"),
        pytest.param({"start_balance": True}, "rules.start_balance", id="balance-true"),
        pytest.param({"balance": 150}, "rules.balance", id="unknown-setting"),
        pytest.param({"hennes_value": 7}, "rules.hennes_value", id="hennes-sibbe-setting"),
        pytest.param([("rounding", "up")], "rules", id="not-a-dict"),
    ],
)
def test_it_rejects_a_rule_setting_and_names_it(rules: Any, field: str) -> None:
    assert_names_field(rejection(make_deal("alleingang", 70), rules=rules), field)


def test_it_accepts_a_start_balance_without_changing_the_chips_of_a_deal() -> None:
    # the balance is 150 + the sum of results; a deal's result does not depend on it
    hand = make_deal("alleingang", 70)
    assert score(hand, 4, {"start_balance": 200}) == alone(20)
    assert score(hand, 4, {"start_balance": 0}) == alone(20)
