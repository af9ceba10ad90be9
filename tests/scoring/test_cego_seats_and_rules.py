"""Cego scoring at three and five seats, forfeits, the rule settings, card points (RULES.md 2.2)
and the rejections, one per reason.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import scoring
from scoring import InvalidHand
from tests.helpers.scoring import (
    assert_names_field,
    declarer_loses,
    declarer_wins,
    make_hand,
    rejection,
    score,
)

# --- three and five seats ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(make_hand("halbe", declarer_points=34), [-40, 20, 20], id="halbe-lost"),
        pytest.param(make_hand("cego", declarer_points=40), [20, -10, -10], id="cego-won"),
        pytest.param(make_hand("cego", declarer_took_trick=False), [-80, 40, 40], id="cego-berg"),
        pytest.param(make_hand("solo", declarer_points=45), [40, -20, -20], id="solo-won"),
        pytest.param(make_hand("bettel", declarer_tricks=0), [60, -30, -30], id="bettel-won"),
        pytest.param(
            make_hand("ulti", won=True, declarer=2), [-80, -80, 160], id="ulti-won-seat-2"
        ),
    ],
)
def test_it_scores_a_three_seat_table_against_two_opponents(
    hand: dict[str, Any], expected: list[int]
) -> None:
    assert score(hand, seats=3) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # RULES.md 2.1: the dealer sits out but pays or receives like an opponent: declarer +-4V
        pytest.param(
            make_hand("halbe", declarer_points=34, sitting_out=4),
            [-80, 20, 20, 20, 20],
            id="halbe-lost",
        ),
        pytest.param(
            make_hand("cego", declarer_points=40, sitting_out=2),
            [40, -10, -10, -10, -10],
            id="cego-won",
        ),
        pytest.param(
            make_hand("ulti", won=True, declarer=3, sitting_out=1),
            [-80, -80, -80, 320, -80],
            id="ulti-won",
        ),
        pytest.param(
            make_hand("bettel", declarer_tricks=1, sitting_out=4),
            [-120, 30, 30, 30, 30],
            id="bettel-lost",
        ),
        pytest.param(
            make_hand("solo", declarer=4, forfeit="opponents", sitting_out=0),
            [-80, -80, -80, -80, 320],
            id="solo-forfeited-by-the-opponents",
        ),
    ],
)
def test_it_lets_the_seat_sitting_out_pay_like_an_opponent_at_five_seats(
    hand: dict[str, Any], expected: list[int]
) -> None:
    assert score(hand, seats=5) == expected


def test_it_requires_the_seat_sitting_out_at_five_seats() -> None:
    assert_names_field(rejection(make_hand("halbe", declarer_points=34), seats=5), "sitting_out")


@pytest.mark.parametrize("seats", [3, 4])
def test_it_rejects_a_seat_sitting_out_below_five_seats(seats: int) -> None:
    hand = make_hand("halbe", declarer_points=34, sitting_out=2)
    assert_names_field(rejection(hand, seats=seats), "sitting_out")


@pytest.mark.parametrize(
    ("sitting_out", "field"),
    [
        (5, "sitting_out"),
        (-1, "sitting_out"),
        ("4", "sitting_out"),
        (True, "sitting_out"),
        (0, "declarer"),
    ],
)
def test_it_rejects_an_impossible_seat_sitting_out(sitting_out: Any, field: str) -> None:
    hand = make_hand("halbe", declarer_points=34, sitting_out=sitting_out)
    assert_names_field(rejection(hand, seats=5), field)


# --- forfeits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # declarer's side: a Berg loss, V = 40 * W
        pytest.param(
            make_hand("halbe", declarer_points=60, forfeit="declarer"),
            declarer_loses(80),
            id="halbe-declarer-forfeits-a-won-hand",
        ),
        pytest.param(
            make_hand("geiss", declarer_points=20, forfeit="declarer"),
            declarer_loses(280),
            id="geiss-declarer",
        ),
        pytest.param(
            make_hand("cego", declarer_points=20, gegensolo=True, forfeit="declarer"),
            declarer_loses(80),
            id="cego-gegensolo-declarer",
        ),
        pytest.param(
            make_hand("solo", declarer_points=60, forfeit="declarer"),
            declarer_loses(40),
            id="solo-declarer-single",
        ),
        # opponents: a maximum win, V = 40 * W, Solo doubled
        pytest.param(
            make_hand("halbe", declarer_points=20, forfeit="opponents"),
            declarer_wins(80),
            id="halbe-opponents-forfeit-a-lost-hand",
        ),
        pytest.param(
            make_hand("zwei_leere", declarer_points=50, forfeit="opponents"),
            declarer_wins(200),
            id="zwei-leere-opponents",
        ),
        pytest.param(
            make_hand("solo", declarer_points=20, forfeit="opponents"),
            declarer_wins(80),
            id="solo-opponents-doubled",
        ),
        # fixed games: a loss or a win of the game's value
        pytest.param(
            make_hand("bettel", declarer_tricks=0, forfeit="declarer"),
            declarer_loses(30),
            id="bettel-declarer",
        ),
        pytest.param(
            make_hand("bettel", declarer_tricks=3, forfeit="opponents"),
            declarer_wins(30),
            id="bettel-opponents",
        ),
        pytest.param(
            make_hand("piccolo", declarer_tricks=1, forfeit="declarer"),
            declarer_loses(40),
            id="piccolo-declarer",
        ),
        pytest.param(
            make_hand("piccolo", declarer_tricks=0, forfeit="opponents"),
            declarer_wins(40),
            id="piccolo-opponents",
        ),
        pytest.param(
            make_hand("ulti", won=True, forfeit="declarer"), declarer_loses(80), id="ulti-declarer"
        ),
        pytest.param(
            make_hand("ulti", won=False, forfeit="opponents"),
            declarer_wins(80),
            id="ulti-opponents",
        ),
    ],
)
def test_it_overrides_the_result_of_a_forfeited_hand(
    hand: dict[str, Any], expected: list[int]
) -> None:
    assert score(hand) == expected


def test_it_scores_a_forfeit_at_three_seats_against_two_opponents() -> None:
    hand = make_hand("eine", declarer_points=50, forfeit="declarer")
    assert score(hand, seats=3) == [-240, 120, 120]


def test_it_scores_a_hand_without_forfeit_when_forfeit_is_null() -> None:
    assert score(make_hand("halbe", declarer_points=34, forfeit=None)) == declarer_loses(20)


@pytest.mark.parametrize("forfeit", ["dealer", "Declarer", True, 1])
def test_it_rejects_an_unknown_forfeiting_side(forfeit: Any) -> None:
    hand = make_hand("halbe", declarer_points=34, forfeit=forfeit)
    assert_names_field(rejection(hand), "forfeit")


# --- rule settings ----------------------------------------------------------------------------


def test_it_uses_the_total_points_an_event_sets() -> None:
    hand = make_hand("halbe", declarer_points=50)
    # 79: L 29, G 11, F 3, raw 30
    assert score(hand) == declarer_wins(30)
    # 70: L 20, G 20, F 4, raw 40
    assert score(hand, rules={"total_points": 70}) == declarer_wins(40)


def test_it_checks_declarer_points_against_the_total_points_set() -> None:
    assert_names_field(rejection(make_hand("cego", declarer_points=80)), "declarer_points")
    assert_names_field(
        rejection(make_hand("cego", declarer_points=71), rules={"total_points": 70}),
        "declarer_points",
    )
    # 90: D 80 won, L 10, G 30, F 6, raw 30
    assert score(make_hand("cego", declarer_points=80), rules={"total_points": 90}) == (
        declarer_wins(30)
    )


def test_it_checks_raeuber_points_against_the_total_points_set() -> None:
    hand = make_hand("raeuber", points=[25, 20, 15, 10])
    assert_names_field(rejection(hand), "points")
    assert score(hand, rules={"total_points": 70}) == [-120, 40, 40, 40]


def test_it_uses_the_win_threshold_an_event_sets() -> None:
    hand = make_hand("cego", declarer_points=36)
    # total 70, threshold 40: lost, L 36, G 4, F 1, raw 5
    assert score(hand, rules={"total_points": 70}) == declarer_loses(10)
    # total 70, threshold 35: won, L 34, G 6, F 2, raw 10
    assert score(hand, rules={"total_points": 70, "win_threshold": 35}) == declarer_wins(10)


@pytest.mark.parametrize(
    ("declarer_points", "threshold", "declarer_won"),
    [(40, 40, True), (40, 41, False), (39, 39, True), (39, 40, False)],
)
def test_it_decides_the_winner_by_the_win_threshold(
    declarer_points: int, threshold: int, declarer_won: bool
) -> None:
    result = score(
        make_hand("cego", declarer_points=declarer_points), rules={"win_threshold": threshold}
    )
    assert (result[0] > 0) is declarer_won
    assert all((r < 0) is declarer_won for r in result[1:])


# --- card points (2.2) ------------------------------------------------------------------------


ALL_CARDS = {"king": 4, "queen": 4, "cavall": 4, "jack": 4, "trull": 3, "other": 35}


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        pytest.param({"king": 1, "other": 1}, 5, id="king-and-blank"),
        pytest.param({"other": 2}, 1, id="two-blanks"),
        pytest.param({}, 0, id="empty-pile"),
        pytest.param(ALL_CARDS, 79, id="all-54-cards"),
        pytest.param({"queen": 1, "jack": 1}, 5, id="queen-and-jack"),
        pytest.param({"trull": 3, "king": 1}, 18, id="trull-and-king"),
        pytest.param({"cavall": 2}, 5, id="two-cavalls"),
        pytest.param({"king": 4, "other": 4}, 20, id="four-kings-four-blanks"),
    ],
)
def test_it_counts_card_points_of_an_even_pile(counts: dict[str, int], expected: int) -> None:
    points = scoring.cego.card_points(counts)
    assert points == expected
    assert not isinstance(points, float)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        pytest.param({"other": 1}, Fraction(1, 2), id="blank"),
        pytest.param({"king": 1}, Fraction(9, 2), id="king"),
        pytest.param({"trull": 1}, Fraction(9, 2), id="trull-card"),
        pytest.param({"queen": 1}, Fraction(7, 2), id="queen"),
        pytest.param({"cavall": 1}, Fraction(5, 2), id="cavall"),
        pytest.param({"jack": 1}, Fraction(3, 2), id="jack"),
        pytest.param({"king": 1, "queen": 1, "other": 1}, Fraction(17, 2), id="three-cards"),
    ],
)
def test_it_counts_an_odd_pile_with_an_exact_half_point(
    counts: dict[str, int], expected: Fraction
) -> None:
    points = scoring.cego.card_points(counts)
    assert points == expected
    assert isinstance(points, Fraction)


@pytest.mark.parametrize(
    ("counts", "field"),
    [
        pytest.param({"ace": 1}, "ace", id="unknown-kind"),
        pytest.param({"king": -1}, "king", id="negative"),
        pytest.param({"king": 5}, "king", id="more-kings-than-the-deck-has"),
        pytest.param({"trull": 4}, "trull", id="more-trull-than-the-deck-has"),
        pytest.param({"other": 1.0}, "other", id="float"),
        pytest.param({"other": "2"}, "other", id="string"),
        pytest.param({"jack": True}, "jack", id="bool"),
        pytest.param(["king"], "counts", id="not-a-dict"),
    ],
)
def test_it_rejects_impossible_card_counts(counts: Any, field: str) -> None:
    with pytest.raises(InvalidHand) as info:
        scoring.cego.card_points(counts)
    assert_names_field(info.value, field)


# --- rejections: one per reason ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        # wrong types
        pytest.param(make_hand("halbe", declarer_points="34"), "declarer_points", id="points-str"),
        pytest.param(
            make_hand("halbe", declarer_points=34.0), "declarer_points", id="points-float"
        ),
        pytest.param(make_hand("halbe", declarer_points=True), "declarer_points", id="points-true"),
        pytest.param(make_hand("halbe", declarer_points=None), "declarer_points", id="points-none"),
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer="0"), "declarer", id="declarer-str"
        ),
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer=True), "declarer", id="declarer-true"
        ),
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer_took_trick="no"),
            "declarer_took_trick",
            id="took-trick-str",
        ),
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer_took_trick=0),
            "declarer_took_trick",
            id="took-trick-int",
        ),
        pytest.param(
            make_hand("halbe", declarer_points=34, gegensolo=1), "gegensolo", id="gegensolo-int"
        ),
        pytest.param(make_hand("bettel", declarer_tricks="0"), "declarer_tricks", id="tricks-str"),
        pytest.param(
            make_hand("bettel", declarer_tricks=False), "declarer_tricks", id="tricks-false"
        ),
        pytest.param(make_hand("ulti", won="yes"), "won", id="won-str"),
        pytest.param(make_hand("ulti", won=1), "won", id="won-int"),
        pytest.param({"contract": 1, "declarer": 0}, "contract", id="contract-int"),
        # out of range
        pytest.param(make_hand("halbe", declarer_points=80), "declarer_points", id="points-80"),
        pytest.param(make_hand("halbe", declarer_points=-1), "declarer_points", id="points--1"),
        pytest.param(make_hand("bettel", declarer_tricks=12), "declarer_tricks", id="tricks-12"),
        pytest.param(make_hand("piccolo", declarer_tricks=-1), "declarer_tricks", id="tricks--1"),
        # seats that do not exist
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer=4), "declarer", id="declarer-seat-4"
        ),
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer=-1), "declarer", id="declarer-seat--1"
        ),
        # unknown values and keys
        pytest.param(make_hand("grand", declarer_points=34), "contract", id="unknown-contract"),
        pytest.param(make_hand("Halbe", declarer_points=34), "contract", id="capitalised"),
        pytest.param(make_hand("halbe", declarer_point=34), "declarer_point", id="misspelt-key"),
        # keys the contract does not use
        pytest.param(
            make_hand("halbe", declarer_points=34, declarer_tricks=3),
            "declarer_tricks",
            id="tricks-in-halbe",
        ),
        pytest.param(
            make_hand("bettel", declarer_tricks=0, declarer_points=0),
            "declarer_points",
            id="points-in-bettel",
        ),
        pytest.param(make_hand("ulti", won=True, declarer_tricks=11), "declarer_tricks", id="ulti"),
        pytest.param(make_hand("bettel", won=True), "won", id="won-in-bettel"),
        pytest.param(
            make_hand("halbe", declarer_points=34, points=[25, 20, 18, 16]), "points", id="points"
        ),
        pytest.param(
            make_hand("halbe", declarer_points=34, announcer=0), "announcer", id="announcer"
        ),
        # missing keys
        pytest.param({"declarer": 0, "declarer_points": 34}, "contract", id="contract-missing"),
        pytest.param({"contract": "halbe", "declarer_points": 34}, "declarer", id="no-declarer"),
        pytest.param(make_hand("halbe"), "declarer_points", id="points-missing"),
        pytest.param(make_hand("solo"), "declarer_points", id="solo-points-missing"),
        pytest.param(make_hand("bettel"), "declarer_tricks", id="tricks-missing"),
        pytest.param(make_hand("piccolo"), "declarer_tricks", id="piccolo-tricks-missing"),
        pytest.param(make_hand("ulti"), "won", id="won-missing"),
        # not a dict at all
        pytest.param(["halbe", 0, 34], "hand", id="list"),
        pytest.param(None, "hand", id="none"),
        pytest.param({0: "halbe"}, "hand", id="non-text-key"),
    ],
)
def test_it_rejects_a_hand_and_names_the_field(hand: Any, field: str) -> None:
    assert_names_field(rejection(hand), field)


@pytest.mark.parametrize("seats", [2, 6, 0, -4, "4", 4.0, True, None])
def test_it_rejects_a_table_size_cego_is_not_played_at(seats: Any) -> None:
    assert_names_field(rejection(make_hand("halbe", declarer_points=34), seats=seats), "seats")


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        pytest.param({"win_threshold": "40"}, "rules.win_threshold", id="threshold-str"),
        pytest.param({"win_threshold": 40.0}, "rules.win_threshold", id="threshold-float"),
        pytest.param({"win_threshold": 0}, "rules.win_threshold", id="threshold-0"),
        pytest.param({"win_threshold": 80}, "rules.win_threshold", id="threshold-above-total"),
        pytest.param({"total_points": True}, "rules.total_points", id="total-true"),
        pytest.param({"total_points": -79}, "rules.total_points", id="total-negative"),
        pytest.param({"solo_double": "never"}, "rules.solo_double", id="solo-double-unknown"),
        pytest.param({"solo_double": True}, "rules.solo_double", id="solo-double-bool"),
        pytest.param({"gegensolo_raises": "none"}, "rules.gegensolo_raises", id="gegensolo-none"),
        pytest.param({"bettel": "30"}, "rules.bettel", id="bettel-str"),
        pytest.param({"piccolo": 40.5}, "rules.piccolo", id="piccolo-float"),
        pytest.param({"ulti": -80}, "rules.ulti", id="ulti-negative"),
        pytest.param({"raeuber": None}, "rules.raeuber", id="raeuber-none"),
        pytest.param({"match_limit": 12}, "rules.match_limit", id="a-ziege-setting"),
        pytest.param({"winthreshold": 40}, "rules.winthreshold", id="misspelt-setting"),
        pytest.param(["total_points", 79], "rules", id="not-a-dict"),
    ],
)
def test_it_rejects_a_rule_setting_and_names_it(rules: Any, field: str) -> None:
    assert_names_field(rejection(make_hand("halbe", declarer_points=34), rules=rules), field)


def test_it_accepts_every_default_setting_spelt_out() -> None:
    rules = scoring.default_rules("cego")
    assert score(make_hand("halbe", declarer_points=34), rules=rules) == declarer_loses(20)


@pytest.mark.parametrize("declarer", [0, 1, 2, 3])
def test_it_pays_the_declarer_in_whichever_seat_he_sits(declarer: int) -> None:
    result = score(make_hand("halbe", declarer_points=47, declarer=declarer))
    assert result == [60 if s == declarer else -20 for s in range(4)]


@pytest.mark.parametrize(
    ("rules", "step"),
    [(None, 10), ({"bettel": 25}, 5), ({"raeuber": 45, "ulti": 82}, 1), ({"piccolo": 50}, 10)],
)
def test_every_amount_is_a_multiple_of_the_amount_step(rules, step):
    assert scoring.cego.amount_step(rules) == step
    # a lost Bettel is worth its setting to each opponent: a multiple of the step
    result = scoring.score(
        "cego", {"contract": "bettel", "declarer": 0, "declarer_tricks": 1}, 4, rules
    )
    assert all(v % step == 0 for v in result)
