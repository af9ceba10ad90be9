"""Ziege scoring against RULES.md section 3 and the Ziege examples of section 7.

Team A is seats 0 and 2, team B seats 1 and 3; a deal holds 120 card points. The team with fewer
than 60 is charged 2 (31..59), 4 (30 or fewer with a trick) or 6 (no trick); 60:60 scores nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring import InvalidHand
from scoring.ziege import play_matches

NOTHING = [0, 0, 0, 0]


def team_a(points: int) -> list[int]:
    """Defeat points charged to team A (seats 0 and 2)."""
    return [points, 0, points, 0]


def team_b(points: int) -> list[int]:
    """Defeat points charged to team B (seats 1 and 3)."""
    return [0, points, 0, points]


def make_deal(team_a_points: int, **fields: Any) -> dict[str, Any]:
    return {"team_a_points": team_a_points, **fields}


def score(hand: Any, rules: Any = None) -> list[int]:
    return scoring.score("ziege", hand, 4, rules)


def rejection(hand: Any, seats: Any = 4, rules: Any = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        scoring.score("ziege", hand, seats, rules)
    return info.value


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(make_deal(75), team_b(2), id="75"),
        pytest.param(make_deal(25), team_a(4), id="25-with-a-trick"),
        pytest.param(make_deal(25, team_a_took_trick=True), team_a(4), id="25-trick-spelt-out"),
        pytest.param(make_deal(120, team_b_took_trick=False), team_b(6), id="120-b-no-trick"),
        pytest.param(make_deal(60), NOTHING, id="60"),
        pytest.param(make_deal(0, team_a_took_trick=True), team_a(4), id="0-with-a-trick"),
    ],
)
def test_it_scores_the_worked_examples(hand: dict[str, Any], expected: list[int]) -> None:
    assert score(hand) == expected


@pytest.mark.parametrize(
    ("team_a_points", "expected"),
    [
        pytest.param(31, team_a(2), id="a-31"),
        pytest.param(30, team_a(4), id="a-30"),
        pytest.param(1, team_a(4), id="a-1"),
        pytest.param(59, team_a(2), id="a-59"),
        pytest.param(60, NOTHING, id="60-60"),
        pytest.param(61, team_b(2), id="b-59"),
        pytest.param(89, team_b(2), id="b-31"),
        pytest.param(90, team_b(4), id="b-30"),
        pytest.param(119, team_b(4), id="b-1"),
    ],
)
def test_it_charges_the_team_below_60_by_its_card_points(
    team_a_points: int, expected: list[int]
) -> None:
    assert score(make_deal(team_a_points)) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(make_deal(0, team_a_took_trick=False), team_a(6), id="a-no-trick"),
        pytest.param(make_deal(0), team_a(6), id="a-no-trick-by-default"),
        pytest.param(make_deal(0, team_a_took_trick=True), team_a(4), id="a-worthless-trick"),
        pytest.param(make_deal(120, team_b_took_trick=False), team_b(6), id="b-no-trick"),
        pytest.param(make_deal(120), team_b(6), id="b-no-trick-by-default"),
        pytest.param(make_deal(120, team_b_took_trick=True), team_b(4), id="b-worthless-trick"),
    ],
)
def test_it_charges_6_for_no_trick_and_4_for_a_trick_worth_nothing(
    hand: dict[str, Any], expected: list[int]
) -> None:
    assert score(hand) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        pytest.param(make_deal(31), team_a(4), id="2-doubled"),
        pytest.param(make_deal(90), team_b(8), id="4-doubled"),
        pytest.param(make_deal(0, team_a_took_trick=False), team_a(12), id="6-doubled"),
        pytest.param(make_deal(60), NOTHING, id="60-60-doubled"),
    ],
)
def test_it_doubles_a_doubled_deal(hand: dict[str, Any], expected: list[int]) -> None:
    assert score({**hand, "doubled": True}) == expected


def test_it_does_not_double_a_deal_marked_not_doubled() -> None:
    assert score(make_deal(31, doubled=False)) == team_a(2)


@pytest.mark.parametrize("team_a_points", [0, 25, 45, 59, 61, 75, 100, 120])
def test_it_charges_both_seats_of_one_team_only(team_a_points: int) -> None:
    result = score(make_deal(team_a_points))
    losing_team = (0, 2) if team_a_points < 60 else (1, 3)
    winning_team = (1, 3) if team_a_points < 60 else (0, 2)
    assert result[losing_team[0]] == result[losing_team[1]] > 0
    assert result[winning_team[0]] == result[winning_team[1]] == 0


# --- rejections -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        # a team with card points took a trick
        pytest.param(make_deal(25, team_a_took_trick=False), "team_a_took_trick", id="a-points"),
        pytest.param(make_deal(95, team_b_took_trick=False), "team_b_took_trick", id="b-points"),
        # out of range
        pytest.param(make_deal(121), "team_a_points", id="121"),
        pytest.param(make_deal(-1), "team_a_points", id="negative"),
        # wrong types
        pytest.param(make_deal("60"), "team_a_points", id="points-str"),
        pytest.param(make_deal(60.0), "team_a_points", id="points-float"),
        pytest.param(make_deal(True), "team_a_points", id="points-true"),
        pytest.param(make_deal(None), "team_a_points", id="points-none"),
        pytest.param(make_deal(25, team_a_took_trick=1), "team_a_took_trick", id="trick-int"),
        pytest.param(make_deal(95, team_b_took_trick="yes"), "team_b_took_trick", id="trick-str"),
        pytest.param(make_deal(25, doubled=1), "doubled", id="doubled-int"),
        pytest.param(make_deal(25, doubled="true"), "doubled", id="doubled-str"),
        # missing and unknown keys
        pytest.param({}, "team_a_points", id="points-missing"),
        pytest.param({"team_b_points": 60}, "team_b_points", id="team-b-points"),
        pytest.param(make_deal(60, kugeln=True), "kugeln", id="unknown-key"),
        # not a dict
        pytest.param([60], "hand", id="list"),
        pytest.param(60, "hand", id="int"),
    ],
)
def test_it_rejects_a_deal_and_names_the_field(hand: Any, field: str) -> None:
    assert_names_field(rejection(hand), field)


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param(
            make_deal(0, team_a_took_trick=False, team_b_took_trick=False), id="a-has-nothing"
        ),
        pytest.param(
            make_deal(120, team_a_took_trick=False, team_b_took_trick=False), id="b-has-nothing"
        ),
    ],
)
def test_it_rejects_a_deal_in_which_neither_team_took_a_trick(hand: dict[str, Any]) -> None:
    error = rejection(hand)
    assert error.field in ("team_a_took_trick", "team_b_took_trick")
    assert str(error).startswith(error.field)


@pytest.mark.parametrize("seats", [3, 5, 2, 8, "4", 4.0, True, None])
def test_it_rejects_any_table_but_four_seats(seats: Any) -> None:
    assert_names_field(rejection(make_deal(60), seats=seats), "seats")


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        pytest.param({"match_limit": "12"}, "rules.match_limit", id="limit-str"),
        pytest.param({"match_limit": 12.0}, "rules.match_limit", id="limit-float"),
        pytest.param({"match_limit": True}, "rules.match_limit", id="limit-true"),
        pytest.param({"match_limit": 0}, "rules.match_limit", id="limit-0"),
        pytest.param({"balls_double_next": "yes"}, "rules.balls_double_next", id="balls-str"),
        pytest.param({"balls_double_next": 1}, "rules.balls_double_next", id="balls-int"),
        pytest.param({"doubled": True}, "rules.doubled", id="hand-key-as-setting"),
        pytest.param({"rounding": "up"}, "rules.rounding", id="crazy-solo-setting"),
        pytest.param("match_limit=12", "rules", id="not-a-dict"),
    ],
)
def test_it_rejects_a_rule_setting_and_names_it(rules: Any, field: str) -> None:
    assert_names_field(rejection(make_deal(60), rules=rules), field)


def test_it_accepts_every_setting_with_a_valid_value() -> None:
    rules = {"match_limit": 20, "balls_double_next": True}
    assert score(make_deal(31), rules=rules) == team_a(2)


# --- the match layer --------------------------------------------------------------------------


def deal(team_a_points: int, result: list[int], **fields: Any) -> tuple[dict, list[int]]:
    """A deal with its result as the match layer receives it (already scored)."""
    return make_deal(team_a_points, **fields), result


def test_it_ends_a_match_when_a_team_reaches_12_defeat_points() -> None:
    # team B: 4 + 4 + 2 = 10, not yet; then 2 more = 12, the Ziege
    deals = [deal(100, team_b(4)), deal(100, team_b(4)), deal(80, team_b(2))]
    state = play_matches(deals)
    assert len(state.matches) == 1
    assert state.current.ziege is None
    assert state.current.defeat == {"a": 0, "b": 10}

    state = play_matches([*deals, deal(70, team_b(2))])
    assert len(state.matches) == 1
    assert state.current.ziege == "b"
    assert state.current.winner == "a"
    assert state.won("a") == 1
    assert state.won("b") == 0


def test_it_starts_match_2_with_the_deal_after_the_limit() -> None:
    deals = [
        deal(0, team_a(6)),
        deal(0, team_a(6)),
        deal(50, team_a(2)),
    ]  # team A: 6 + 6 = 12, then a new match
    state = play_matches(deals)
    assert [m.number for m in state.matches] == [1, 2]
    assert state.matches[0].ziege == "a"
    assert state.matches[0].hands == 2
    assert state.matches[0].defeat == {"a": 12, "b": 0}
    assert state.matches[1].ziege is None
    assert state.matches[1].hands == 1
    assert state.matches[1].defeat == {"a": 2, "b": 0}
    assert state.won("b") == 1


def test_it_counts_a_match_past_the_limit_as_ended() -> None:
    # team A: 6 + 4 = 10, then 6 more = 16 > 12
    state = play_matches(
        [deal(0, team_a(6)), deal(20, team_a(4)), deal(0, team_a(6)), deal(70, team_b(2))]
    )
    assert state.matches[0].ziege == "a"
    assert state.matches[0].defeat["a"] == 16
    assert state.matches[1].defeat == {"a": 0, "b": 2}


@pytest.mark.parametrize(
    ("rules", "defeat_per_match", "ziege"),
    [
        # team B is charged 4 in each of three deals
        pytest.param(None, [12], "b", id="default-12"),
        pytest.param({"match_limit": 13}, [12], None, id="13-not-reached"),
        pytest.param({"match_limit": 8}, [8, 4], None, id="8-then-match-2"),
        pytest.param({"match_limit": 4}, [4, 4, 4], "b", id="4-three-matches"),
    ],
)
def test_it_ends_matches_at_the_match_limit_an_event_sets(
    rules: dict[str, Any] | None, defeat_per_match: list[int], ziege: str | None
) -> None:
    state = play_matches([deal(100, team_b(4))] * 3, rules=rules)
    assert [m.defeat["b"] for m in state.matches] == defeat_per_match
    assert state.current.ziege == ziege


def test_it_doubles_the_deal_after_a_60_60_only_with_balls_double_next() -> None:
    deals = [deal(75, team_b(2)), deal(60, NOTHING)]
    assert play_matches(deals).next_doubled is False
    assert play_matches(deals, rules={"balls_double_next": False}).next_doubled is False
    assert play_matches(deals, rules={"balls_double_next": True}).next_doubled is True


def test_it_doubles_only_the_one_deal_after_a_60_60() -> None:
    deals = [deal(60, NOTHING), deal(75, team_b(4), doubled=True)]
    state = play_matches(deals, rules={"balls_double_next": True})
    assert state.next_doubled is False
    assert state.current.defeat == {"a": 0, "b": 4}


@pytest.mark.parametrize(
    ("rules", "field"),
    [({"match_limit": "12"}, "rules.match_limit"), ({"kugeln": True}, "rules.kugeln")],
)
def test_it_rejects_match_settings_and_names_them(rules: Any, field: str) -> None:
    with pytest.raises(InvalidHand) as info:
        play_matches([], rules=rules)
    assert_names_field(info.value, field)
