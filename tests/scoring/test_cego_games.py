"""Cego scoring against RULES.md section 2 and the Cego table of section 7: the worked examples,
the ladder values, Grundwert and Fach, Berg and Durch, Solo, Gegensolo, the fixed-value games
and Räuber.

Every expected result is worked out by hand from the formulas of 2.4 and 2.5:
L, G = 40 - L, F = ceil(G / 5), raw = 5 * F * W (Solo won: doubled), V = raw rounded up to 10,
declarer +-(seats - 1) * V, every other seat -+V.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.scoring import (
    assert_names_field,
    declarer_loses,
    declarer_wins,
    make_hand,
    rejection,
    score,
)

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
