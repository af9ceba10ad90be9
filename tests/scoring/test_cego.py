"""Cego scoring against RULES.md section 2 and the Cego table of section 7.

Every expected result is worked out by hand from the formulas of 2.4 and 2.5:
L, G = 40 - L, F = ceil(G / 5), raw = 5 * F * W (Solo won: doubled), V = raw rounded up to 10,
declarer +-(seats - 1) * V, every other seat -+V.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import scoring
from scoring import InvalidHand


def make_hand(contract: str, **fields: Any) -> dict[str, Any]:
    """A Cego hand with the declarer in seat 0 unless the test says otherwise."""
    hand: dict[str, Any] = {"contract": contract}
    if contract != "raeuber":
        hand["declarer"] = 0
    hand.update(fields)
    return hand


def score(hand: dict[str, Any], seats: int = 4, rules: dict[str, Any] | None = None) -> list[int]:
    return scoring.score("cego", hand, seats, rules)


def rejection(hand: Any, seats: Any = 4, rules: Any = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        scoring.score("cego", hand, seats, rules)
    return info.value


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


def declarer_wins(v: int, seats: int = 4) -> list[int]:
    return [(seats - 1) * v] + [-v] * (seats - 1)


def declarer_loses(v: int, seats: int = 4) -> list[int]:
    return [-(seats - 1) * v] + [v] * (seats - 1)


# --- section 7: the worked examples -----------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(make_hand("halbe", declarer_points=34), [-60, 20, 20, 20], id="halbe-34-lost"),
        pytest.param(make_hand("eine", declarer_points=41), [60, -20, -20, -20], id="eine-41-won"),
        pytest.param(
            make_hand("halbe", declarer_points=47), [60, -20, -20, -20], id="halbe-47-won"
        ),
        pytest.param(make_hand("cego", declarer_points=40), [30, -10, -10, -10], id="cego-40-won"),
        pytest.param(make_hand("halbe", declarer_points=35), [-30, 10, 10, 10], id="halbe-35-lost"),
        pytest.param(
            make_hand("cego", declarer_took_trick=False), [-120, 40, 40, 40], id="cego-berg"
        ),
        pytest.param(
            make_hand("geiss", declarer_took_trick=False), [-840, 280, 280, 280], id="geiss-berg"
        ),
        pytest.param(make_hand("solo", declarer_points=45), [60, -20, -20, -20], id="solo-45-won"),
        pytest.param(make_hand("bettel", declarer_tricks=1), [-90, 30, 30, 30], id="bettel-lost"),
        pytest.param(make_hand("ulti", won=True), [240, -80, -80, -80], id="ulti-won"),
        pytest.param(
            make_hand("raeuber", announcer=0, points=[25, 20, 18, 16]),
            [-240, 80, 80, 80],
            id="raeuber-announcer-has-most",
        ),
        pytest.param(
            make_hand("raeuber", announcer=0, points=[15, 30, 20, 14]),
            [40, -120, 40, 40],
            id="raeuber-another-seat-has-most",
        ),
    ],
)
def test_it_scores_the_worked_examples(hand: dict[str, Any], expected: list[int]) -> None:
    assert score(hand) == expected


# --- 2.3 the ladder values --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "v"),
    # Berg: G 40, F 8, raw = 40 * W
    [
        ("cego", 40),
        ("halbe", 80),
        ("eine", 120),
        ("leere", 160),
        ("zwei_leere", 200),
        ("zwei_verschiedene", 240),
        ("geiss", 280),
    ],
)
def test_it_gives_each_ladder_contract_its_game_value(contract: str, v: int) -> None:
    assert score(make_hand(contract, declarer_took_trick=False)) == declarer_loses(v)


# --- 2.4 Grundwert and Fach -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declarer_points", "expected"),
    [
        # lost: L = D
        pytest.param(35, declarer_loses(10), id="lost-35-G5-F1"),
        pytest.param(34, declarer_loses(20), id="lost-34-G6-F2"),
        pytest.param(30, declarer_loses(20), id="lost-30-G10-F2"),
        pytest.param(29, declarer_loses(30), id="lost-29-G11-F3"),
        pytest.param(25, declarer_loses(30), id="lost-25-G15-F3"),
        pytest.param(24, declarer_loses(40), id="lost-24-G16-F4"),
        pytest.param(1, declarer_loses(80), id="lost-1-G39-F8"),
        # won: L = 79 - D
        pytest.param(44, declarer_wins(10), id="won-44-L35-G5-F1"),
        pytest.param(45, declarer_wins(20), id="won-45-L34-G6-F2"),
        pytest.param(49, declarer_wins(20), id="won-49-L30-G10-F2"),
        pytest.param(50, declarer_wins(30), id="won-50-L29-G11-F3"),
        pytest.param(78, declarer_wins(80), id="won-78-L1-G39-F8"),
    ],
)
def test_it_counts_one_fach_per_started_five_points(
    declarer_points: int, expected: list[int]
) -> None:
    # Halbe, W = 2: raw = 10 * F, already a multiple of ten
    assert score(make_hand("halbe", declarer_points=declarer_points)) == expected


@pytest.mark.parametrize(
    ("contract", "declarer_points", "expected"),
    [
        pytest.param("cego", 39, declarer_loses(10), id="cego-39-lost-G1-raw5"),
        pytest.param("cego", 40, declarer_wins(10), id="cego-40-won-G1-raw5"),
        pytest.param("eine", 39, declarer_loses(20), id="eine-39-lost-raw15"),
        pytest.param("eine", 40, declarer_wins(20), id="eine-40-won-raw15"),
        pytest.param("geiss", 39, declarer_loses(40), id="geiss-39-lost-raw35"),
        pytest.param("geiss", 40, declarer_wins(40), id="geiss-40-won-raw35"),
    ],
)
def test_it_lets_the_declarer_win_with_40_and_lose_with_39(
    contract: str, declarer_points: int, expected: list[int]
) -> None:
    assert score(make_hand(contract, declarer_points=declarer_points)) == expected


@pytest.mark.parametrize(
    ("contract", "v"),
    [
        ("cego", 10),
        ("halbe", 10),
        ("eine", 20),
        ("leere", 20),
        ("zwei_leere", 30),
        ("zwei_verschiedene", 30),
        ("geiss", 40),
    ],
)
def test_it_rounds_the_written_amount_up_to_ten(contract: str, v: int) -> None:
    # D 35: G 5, F 1, raw = 5 * W
    assert score(make_hand(contract, declarer_points=35)) == declarer_loses(v)


# --- Berg and Durch ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "berg",
    [
        pytest.param({"declarer_took_trick": False}, id="points-left-out"),
        pytest.param({"declarer_took_trick": False, "declarer_points": 0}, id="points-zero"),
    ],
)
@pytest.mark.parametrize(("contract", "v"), [("cego", 40), ("halbe", 80), ("geiss", 280)])
def test_it_scores_a_berg_as_the_maximum_loss(berg: dict[str, Any], contract: str, v: int) -> None:
    assert score(make_hand(contract, **berg)) == declarer_loses(v)


@pytest.mark.parametrize(("contract", "v"), [("cego", 40), ("halbe", 80), ("geiss", 280)])
def test_it_scores_a_durch_as_the_maximum_win(contract: str, v: int) -> None:
    # D 79: L 0, G 40, F 8
    assert score(make_hand(contract, declarer_points=79)) == declarer_wins(v)


@pytest.mark.parametrize("declarer_points", [1, 20, 40, 79])
def test_it_rejects_card_points_for_a_declarer_who_took_no_trick(declarer_points: int) -> None:
    error = rejection(make_hand("cego", declarer_took_trick=False, declarer_points=declarer_points))
    assert_names_field(error, "declarer_points")


# --- Solo -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # won: raw 5 * F doubled, then rounded
        pytest.param({"declarer_points": 44}, declarer_wins(10), id="won-44-F1-raw10"),
        pytest.param({"declarer_points": 45}, declarer_wins(20), id="won-45-F2-raw20"),
        pytest.param({"declarer_points": 52}, declarer_wins(30), id="won-52-F3-raw30"),
        pytest.param({"declarer_points": 75}, declarer_wins(80), id="won-75-F8-raw80"),
        pytest.param({"declarer_points": 79}, declarer_wins(80), id="durch-raw80"),
        # lost: single
        pytest.param({"declarer_points": 39}, declarer_loses(10), id="lost-39-F1-raw5"),
        pytest.param({"declarer_points": 34}, declarer_loses(10), id="lost-34-F2-raw10"),
        pytest.param({"declarer_points": 29}, declarer_loses(20), id="lost-29-F3-raw15"),
        pytest.param({"declarer_took_trick": False}, declarer_loses(40), id="berg-raw40"),
    ],
)
def test_it_doubles_a_won_solo_and_not_a_lost_one(
    hand: dict[str, Any], expected: list[int]
) -> None:
    assert score(make_hand("solo", **hand)) == expected


@pytest.mark.parametrize(
    ("declarer_points", "before", "after"),
    [
        # F 1: raw 5; before: 10 -> 10; after: 10 * 2 = 20
        pytest.param(44, 10, 20, id="won-44-F1"),
        # F 2: raw 10; both 20
        pytest.param(46, 20, 20, id="won-46-F2"),
        # F 3: raw 15; before: 30; after: 20 * 2 = 40
        pytest.param(52, 30, 40, id="won-52-F3"),
        # F 5: raw 25; before: 50; after: 30 * 2 = 60
        pytest.param(62, 50, 60, id="won-62-F5"),
        # F 7: raw 35; before: 70; after: 40 * 2 = 80
        pytest.param(72, 70, 80, id="won-72-F7"),
        # F 8: raw 40; both 80
        pytest.param(75, 80, 80, id="won-75-F8"),
    ],
)
def test_it_doubles_a_won_solo_before_or_after_rounding_as_set(
    declarer_points: int, before: int, after: int
) -> None:
    hand = make_hand("solo", declarer_points=declarer_points)
    assert score(hand) == declarer_wins(before)
    assert score(hand, rules={"solo_double": "before_rounding"}) == declarer_wins(before)
    assert score(hand, rules={"solo_double": "after_rounding"}) == declarer_wins(after)


@pytest.mark.parametrize(("declarer_points", "v"), [(39, 10), (29, 20), (5, 40)])
def test_it_keeps_a_lost_solo_single_after_rounding_too(declarer_points: int, v: int) -> None:
    hand = make_hand("solo", declarer_points=declarer_points)
    assert score(hand, rules={"solo_double": "after_rounding"}) == declarer_loses(v)


# --- Gegensolo --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "v"),
    [
        ("cego", 20),
        ("halbe", 30),
        ("eine", 40),
        ("leere", 50),
        ("zwei_leere", 60),
        ("zwei_verschiedene", 70),
        ("geiss", 80),
    ],
)
def test_it_raises_every_ladder_step_after_a_gegensolo(contract: str, v: int) -> None:
    # D 34: G 6, F 2, raw = 10 * (W + 1)
    hand = make_hand(contract, declarer_points=34, gegensolo=True)
    assert score(hand) == declarer_loses(v)
    assert score(hand, rules={"gegensolo_raises": "all"}) == declarer_loses(v)


@pytest.mark.parametrize(
    ("contract", "v"),
    # only Cego goes up to W 2; the others keep 10 * W
    [
        ("cego", 20),
        ("halbe", 20),
        ("eine", 30),
        ("leere", 40),
        ("zwei_leere", 50),
        ("zwei_verschiedene", 60),
        ("geiss", 70),
    ],
)
def test_it_raises_only_cego_after_a_gegensolo_when_set_to_cego_only(contract: str, v: int) -> None:
    hand = make_hand(contract, declarer_points=34, gegensolo=True)
    assert score(hand, rules={"gegensolo_raises": "cego_only"}) == declarer_loses(v)


@pytest.mark.parametrize(
    ("contract", "v"),
    [
        ("cego", 10),
        ("halbe", 20),
        ("eine", 30),
        ("leere", 40),
        ("zwei_leere", 50),
        ("zwei_verschiedene", 60),
        ("geiss", 70),
    ],
)
def test_it_keeps_the_ladder_value_without_a_gegensolo(contract: str, v: int) -> None:
    hand = make_hand(contract, declarer_points=34, gegensolo=False)
    assert score(hand) == declarer_loses(v)
    assert score(make_hand(contract, declarer_points=34)) == declarer_loses(v)


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param(make_hand("solo", declarer_points=45, gegensolo=True), id="solo"),
        pytest.param(make_hand("bettel", declarer_tricks=0, gegensolo=True), id="bettel"),
        pytest.param(make_hand("piccolo", declarer_tricks=1, gegensolo=True), id="piccolo"),
        pytest.param(make_hand("ulti", won=True, gegensolo=True), id="ulti"),
        pytest.param(make_hand("raeuber", points=[25, 20, 18, 16], gegensolo=True), id="raeuber"),
    ],
)
def test_it_rejects_a_gegensolo_outside_the_ladder(hand: dict[str, Any]) -> None:
    assert_names_field(rejection(hand), "gegensolo")


# --- 2.5 fixed-value games --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(make_hand("bettel", declarer_tricks=0), declarer_wins(30), id="bettel-0"),
        pytest.param(make_hand("bettel", declarer_tricks=1), declarer_loses(30), id="bettel-1"),
        pytest.param(make_hand("bettel", declarer_tricks=11), declarer_loses(30), id="bettel-11"),
        pytest.param(make_hand("piccolo", declarer_tricks=1), declarer_wins(40), id="piccolo-1"),
        pytest.param(make_hand("piccolo", declarer_tricks=0), declarer_loses(40), id="piccolo-0"),
        pytest.param(make_hand("piccolo", declarer_tricks=2), declarer_loses(40), id="piccolo-2"),
        pytest.param(make_hand("ulti", won=True), declarer_wins(80), id="ulti-won"),
        pytest.param(make_hand("ulti", won=False), declarer_loses(80), id="ulti-lost"),
    ],
)
def test_it_scores_fixed_games_at_their_value(hand: dict[str, Any], expected: list[int]) -> None:
    assert score(hand) == expected


@pytest.mark.parametrize(
    ("hand", "rules", "expected"),
    [
        pytest.param(make_hand("bettel", declarer_tricks=0), {"bettel": 50}, declarer_wins(50)),
        pytest.param(make_hand("bettel", declarer_tricks=2), {"bettel": 50}, declarer_loses(50)),
        pytest.param(make_hand("piccolo", declarer_tricks=1), {"piccolo": 60}, declarer_wins(60)),
        pytest.param(make_hand("piccolo", declarer_tricks=3), {"piccolo": 60}, declarer_loses(60)),
        pytest.param(make_hand("ulti", won=True), {"ulti": 100}, declarer_wins(100)),
        pytest.param(make_hand("ulti", won=False), {"ulti": 100}, declarer_loses(100)),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16]), {"raeuber": 50}, [-150, 50, 50, 50]
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16], announcer=0),
            {"raeuber": 50},
            [-300, 100, 100, 100],
        ),
    ],
)
def test_it_uses_the_fixed_game_values_an_event_sets(
    hand: dict[str, Any], rules: dict[str, Any], expected: list[int]
) -> None:
    assert score(hand, rules=rules) == expected


# --- Räuber -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "announcer", "expected"),
    [
        pytest.param([25, 20, 18, 16], None, [-120, 40, 40, 40], id="one-loser"),
        pytest.param([16, 18, 20, 25], None, [40, 40, 40, -120], id="one-loser-seat-3"),
        pytest.param([25, 25, 15, 14], None, [-80, -80, 80, 80], id="two-tied"),
        pytest.param([20, 20, 20, 19], None, [-40, -40, -40, 120], id="three-tied"),
        pytest.param([25, 20, 18, 16], 1, [-120, 40, 40, 40], id="announcer-not-among-losers"),
        pytest.param([25, 20, 18, 16], 0, [-240, 80, 80, 80], id="announcer-alone-loses"),
        pytest.param([25, 25, 15, 14], 1, [80, -240, 80, 80], id="announcer-tied-loses-alone"),
        pytest.param([20, 20, 20, 19], 2, [80, 80, -240, 80], id="announcer-in-three-way-tie"),
    ],
)
def test_it_makes_the_seats_with_most_points_lose_raeuber(
    points: list[int], announcer: int | None, expected: list[int]
) -> None:
    assert score(make_hand("raeuber", points=points, announcer=announcer)) == expected


def test_it_scores_raeuber_without_the_announcer_key() -> None:
    assert score(make_hand("raeuber", points=[25, 25, 15, 14])) == [-80, -80, 80, 80]


def test_it_leaves_the_seat_that_sits_out_out_of_raeuber() -> None:
    hand = make_hand("raeuber", points=[25, 20, 18, 16, 0], sitting_out=4)
    assert score(hand, seats=5) == [-120, 40, 40, 40, 0]
    hand = make_hand("raeuber", points=[25, 20, 18, 16, 0], sitting_out=4, announcer=0)
    assert score(hand, seats=5) == [-240, 80, 80, 80, 0]
    hand = make_hand("raeuber", points=[0, 25, 25, 15, 14], sitting_out=0)
    assert score(hand, seats=5) == [0, -80, -80, 80, 80]


def test_it_scores_raeuber_at_three_seats() -> None:
    assert score(make_hand("raeuber", points=[30, 29, 20]), seats=3) == [-80, 40, 40]


@pytest.mark.parametrize(
    ("hand", "seats", "field"),
    [
        pytest.param(make_hand("raeuber", points=[25, 20, 18, 15]), 4, "points", id="sum-78"),
        pytest.param(make_hand("raeuber", points=[25, 20, 18, 17]), 4, "points", id="sum-80"),
        pytest.param(make_hand("raeuber", points=[25, 20, 34]), 4, "points", id="three-for-four"),
        pytest.param(make_hand("raeuber", points="25,20,18,16"), 4, "points", id="not-a-list"),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16.0]), 4, "points[3]", id="float-entry"
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 35, -1]), 4, "points[3]", id="negative-entry"
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16], announcer=4), 4, "announcer", id="seat-4"
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16], announcer=True),
            4,
            "announcer",
            id="announcer-true",
        ),
        pytest.param(make_hand("raeuber"), 4, "points", id="points-missing"),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16], declarer=0), 4, "declarer", id="declarer"
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16], forfeit="declarer"),
            4,
            "forfeit",
            id="forfeit",
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 6, 10], sitting_out=4),
            5,
            "points[4]",
            id="sitting-out-with-points",
        ),
        pytest.param(
            make_hand("raeuber", points=[25, 20, 18, 16, 0], sitting_out=4, announcer=4),
            5,
            "announcer",
            id="sitting-out-announces",
        ),
    ],
)
def test_it_rejects_an_impossible_raeuber(hand: dict[str, Any], seats: int, field: str) -> None:
    assert_names_field(rejection(hand, seats), field)


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
