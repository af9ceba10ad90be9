"""Hennes Sibbe against RULES.md section 5 and the Hennes Sibbe example of section 7.

A hand is one challenge: the seat that was wrong takes one penalty card (+1). A claim "N of colour
C" is correct when the count of 5.2 is at least N, so a count X is pinned down exactly by checking
that a claim of X holds and a claim of X + 1 does not.
"""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring import InvalidHand
from scoring.hennes_sibbe import is_valid_raise

COLOURS = ["rot", "orange", "gelb", "gruen", "blau", "lila"]  # ranked for claims, highest first


def claim(count: int, colour: str) -> dict[str, Any]:
    return {"count": count, "colour": colour}


def make_challenge(
    count: int,
    colour: str,
    hands: list[list[str]],
    penalty_cards: list[list[str]] | None = None,
    drillings: list[str] | None = None,
    claimant: int = 0,
    challenger: int = 1,
) -> dict[str, Any]:
    """A challenged claim with the cards revealed (all three lists given, as RULES.md shows)."""
    return {
        "claimant": claimant,
        "challenger": challenger,
        "claim": claim(count, colour),
        "reveal": {
            "hands": hands,
            "penalty_cards": penalty_cards if penalty_cards is not None else [[] for _ in hands],
            "drillings": drillings if drillings is not None else [],
        },
    }


def make_verdict(claim_correct: Any, claimant: int = 0, challenger: int = 1) -> dict[str, Any]:
    return {
        "claimant": claimant,
        "challenger": challenger,
        "claim": claim(5, "rot"),
        "claim_correct": claim_correct,
    }


def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
    return scoring.score("hennes_sibbe", hand, seats, rules)


def penalty_to(seat: int, seats: int) -> list[int]:
    return [1 if s == seat else 0 for s in range(seats)]


def rejection(hand: Any, seats: Any = 3, rules: Any = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        scoring.score("hennes_sibbe", hand, seats, rules)
    return info.value


def assert_names_field(error: InvalidHand, field: str) -> None:
    assert error.field == field
    assert str(error).startswith(field)


def assert_count(
    expected: int,
    colour: str,
    hands: list[list[str]],
    penalty_cards: list[list[str]] | None = None,
    drillings: list[str] | None = None,
    claimant: int = 0,
    rules: dict[str, Any] | None = None,
) -> None:
    """The claim of `expected` holds (challenger +1) and one more does not (claimant +1)."""
    challenger = 1 if claimant != 1 else 2
    seats = len(hands)

    def result(count: int) -> list[int]:
        hand = make_challenge(
            count, colour, hands, penalty_cards, drillings, claimant=claimant, challenger=challenger
        )
        return score(hand, seats, rules)

    if expected >= 1:
        assert result(expected) == penalty_to(challenger, seats), f"a claim of {expected} holds"
    assert result(expected + 1) == penalty_to(claimant, seats), f"{expected + 1} is too many"


# --- section 7: the worked example ------------------------------------------------------------


def test_it_scores_the_worked_example() -> None:
    # seat 0 claims 6 Orange, seat 1 7 Orange, seat 2 7 Rot; seat 3 calls "Lüge!"
    assert is_valid_raise(claim(6, "orange"), claim(7, "orange"))
    assert is_valid_raise(claim(7, "orange"), claim(7, "rot"))
    hands = [["rot", "rot", "goat"], ["rot", "goat", "lila"], ["rot", "rot", "goat", "blau"], []]
    # 5 Rot + 3 ball goats in different hands = 8 >= 7: the challenger takes the penalty card
    hand = make_challenge(7, "rot", hands, claimant=2, challenger=3)
    assert score(hand, 4) == [0, 0, 0, 1]
    # the same cards do not carry a claim of 9
    hand = make_challenge(9, "rot", hands, claimant=2, challenger=3)
    assert score(hand, 4) == [0, 0, 1, 0]


# --- 5.2 counting -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("colour", "hands", "penalty_cards", "expected"),
    [
        pytest.param("rot", [["rot", "rot", "gelb"], ["rot"], ["lila"]], None, 3, id="rot"),
        pytest.param("gelb", [["rot", "rot", "gelb"], ["rot"], ["lila"]], None, 1, id="gelb"),
        pytest.param("orange", [["rot", "rot", "gelb"], ["rot"], ["lila"]], None, 0, id="none"),
        pytest.param(
            "rot",
            [["rot", "rot"], ["rot"], []],
            [["rot"], [], []],
            6,  # seat 0: 2 + 2 and the penalty card 1; seat 1: 1
            id="hand-cards-count-2-with-a-penalty-card-of-the-colour",
        ),
        pytest.param(
            "rot",
            [["rot", "rot"], ["rot"], []],
            [["gelb"], [], []],
            3,
            id="penalty-card-of-another-colour-doubles-nothing",
        ),
        pytest.param(
            "rot",
            [["rot", "rot"], ["rot"], []],
            [[], [], ["rot"]],
            4,  # seat 2's penalty card counts 1 and doubles nothing in the other hands
            id="penalty-card-doubles-only-its-own-seat",
        ),
        pytest.param(
            "blau",
            [[], [], []],
            [["blau", "blau"], ["blau"], ["rot"]],
            3,
            id="penalty-cards-count-1",
        ),
        pytest.param(
            "gruen",
            [["gruen", "gruen", "gruen"], [], ["gruen"]],
            [["gruen", "gruen"], [], []],
            9,  # seat 0: 3 * 2 + 2 penalty cards; seat 2: 1
            id="several-penalty-cards-double-once",
        ),
    ],
)
def test_it_counts_colour_cards_and_penalty_cards(
    colour: str, hands: list[list[str]], penalty_cards: list[list[str]] | None, expected: int
) -> None:
    assert_count(expected, colour, hands, penalty_cards)


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("joker", ["goat", "hennes"])
def test_it_lets_a_ball_goat_fit_every_colour(colour: str, joker: str) -> None:
    # held by seat 1, not by the claimant: counts 1
    assert_count(1, colour, [[], [joker], []], claimant=0)


@pytest.mark.parametrize(
    ("colour", "rgb", "ogl"),
    [
        ("rot", 1, 0),
        ("gelb", 1, 0),
        ("blau", 1, 0),
        ("orange", 0, 1),
        ("gruen", 0, 1),
        ("lila", 0, 1),
    ],
)
def test_it_lets_a_colour_joker_fit_its_three_colours(colour: str, rgb: int, ogl: int) -> None:
    assert_count(rgb, colour, [["joker_rgb"], [], []])
    assert_count(ogl, colour, [["joker_ogl"], [], []])
    assert_count(rgb, colour, [[], [], []], [[], ["joker_rgb"], []])
    assert_count(ogl, colour, [[], [], []], [[], ["joker_ogl"], []])


@pytest.mark.parametrize("colour", COLOURS)
def test_it_lets_every_joker_fit_every_colour_with_jokers_fit_all(colour: str) -> None:
    hands = [["joker_rgb"], ["joker_ogl"], ["goat"]]
    assert_count(3, colour, hands, rules={"jokers_fit_all": True})
    expected_without = 2  # the goat and one of the two colour jokers
    assert_count(expected_without, colour, hands, rules={"jokers_fit_all": False})


@pytest.mark.parametrize(
    ("hands", "penalty_cards", "claimant", "rules", "expected"),
    [
        pytest.param([["hennes"], [], []], None, 0, None, 7, id="claimant-holds-it"),
        pytest.param([["hennes"], [], []], None, 1, None, 1, id="another-seat-holds-it"),
        pytest.param([[], [], []], [["hennes"], [], []], 0, None, 7, id="claimants-penalty-card"),
        pytest.param([[], [], []], [["hennes"], [], []], 2, None, 1, id="others-penalty-card"),
        pytest.param(
            [["hennes"], [], []], None, 0, {"hennes_value": 5}, 5, id="hennes-value-5-claimant"
        ),
        pytest.param(
            [["hennes"], [], []], None, 2, {"hennes_value": 5}, 1, id="hennes-value-5-other"
        ),
        pytest.param(
            [["hennes", "rot"], ["rot"], ["goat"]], None, 0, None, 10, id="with-other-cards"
        ),
    ],
)
def test_it_counts_hennes_sibbe_seven_for_the_claimant_only(
    hands: list[list[str]],
    penalty_cards: list[list[str]] | None,
    claimant: int,
    rules: dict[str, Any] | None,
    expected: int,
) -> None:
    assert_count(expected, "rot", hands, penalty_cards, claimant=claimant, rules=rules)


@pytest.mark.parametrize(
    ("hands", "penalty_cards", "claimant", "counts"),
    [
        pytest.param(
            [["goat", "goat", "goat"], ["goat"], ["rot"]],
            None,
            0,
            # all: (3 + 1) * 2 + 1; hand: 3 * 2 + 1 + 1; off: 3 + 1 + 1
            {"all": 9, "hand": 8, "off": 5},
            id="three-goats-in-one-hand",
        ),
        pytest.param(
            [["goat", "goat", "goat"], ["goat"], ["rot"]],
            [[], [], ["goat"]],
            0,
            # the penalty goat of seat 2: doubled only with "all"
            {"all": 11, "hand": 9, "off": 6},
            id="three-goats-and-a-penalty-goat",
        ),
        pytest.param(
            [["joker_rgb", "joker_ogl", "goat"], ["joker_rgb"], ["rot"]],
            None,
            0,
            # three jokers of any kind; for Rot the Orange-Grün-Lila joker adds nothing
            {"all": 7, "hand": 6, "off": 4},
            id="three-mixed-jokers",
        ),
        pytest.param(
            [["hennes", "goat", "goat"], ["goat"], []],
            None,
            0,
            # the claimant's Hennes Sibbe counts 7, doubled 14
            {"all": 20, "hand": 19, "off": 10},
            id="hennes-among-three-jokers",
        ),
        pytest.param(
            [["goat", "goat", "rot"], ["goat", "goat"], ["rot"]],
            None,
            0,
            {"all": 6, "hand": 6, "off": 6},
            id="two-jokers-per-hand-double-nothing",
        ),
        pytest.param(
            [["goat", "goat"], [], ["rot"]],
            [["goat"], [], []],
            0,
            # a joker among the penalty cards is not in the hand
            {"all": 4, "hand": 4, "off": 4},
            id="penalty-joker-does-not-make-three",
        ),
    ],
)
def test_it_doubles_jokers_when_a_hand_holds_three_as_set(
    hands: list[list[str]],
    penalty_cards: list[list[str]] | None,
    claimant: int,
    counts: dict[str, int],
) -> None:
    assert_count(counts["all"], "rot", hands, penalty_cards, claimant=claimant)
    for setting, expected in counts.items():
        rules = {"goat_doubling": setting}
        assert_count(expected, "rot", hands, penalty_cards, claimant=claimant, rules=rules)


@pytest.mark.parametrize(
    ("colour", "hands", "drillings", "expected"),
    [
        pytest.param("rot", [["rot"], [], []], ["rot"], 4, id="one-drilling"),
        pytest.param("rot", [[], [], []], ["rot", "rot"], 6, id="two-drillings"),
        pytest.param("rot", [["rot"], [], []], ["gelb"], 1, id="drilling-of-another-colour"),
        pytest.param("gelb", [["rot"], [], []], ["gelb", "rot"], 3, id="only-the-claimed-colour"),
        pytest.param(
            "rot",
            [["goat", "goat", "goat"], [], []],
            ["rot"],
            9,  # 3 goats doubled + the Drilling 3, not doubled
            id="a-drilling-is-not-a-joker",
        ),
    ],
)
def test_it_counts_a_drilling_three(
    colour: str, hands: list[list[str]], drillings: list[str], expected: int
) -> None:
    assert_count(expected, colour, hands, drillings=drillings)


# --- the verdict ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        pytest.param(3, [0, 1, 0, 0], id="count-above-claim"),
        pytest.param(4, [0, 1, 0, 0], id="exact-hit"),
        pytest.param(5, [1, 0, 0, 0], id="one-short"),
    ],
)
def test_it_gives_the_penalty_card_to_whoever_was_wrong(count: int, expected: list[int]) -> None:
    hands = [["lila", "lila"], ["lila"], [], ["lila"]]  # 4 Lila
    assert score(make_challenge(count, "lila", hands), 4) == expected


@pytest.mark.parametrize(
    ("claim_correct", "claimant", "challenger", "expected"),
    [
        (True, 0, 1, [0, 1, 0]),
        (False, 0, 1, [1, 0, 0]),
        (True, 2, 0, [1, 0, 0]),
        (False, 2, 0, [0, 0, 1]),
    ],
)
def test_it_takes_the_tables_own_count_without_a_reveal(
    claim_correct: bool, claimant: int, challenger: int, expected: list[int]
) -> None:
    assert score(make_verdict(claim_correct, claimant, challenger), 3) == expected


@pytest.mark.parametrize("seats", [3, 5, 8])
def test_it_gives_one_penalty_card_at_every_table_size(seats: int) -> None:
    hand = make_verdict(False, claimant=seats - 1, challenger=0)
    assert score(hand, seats) == penalty_to(seats - 1, seats)


def test_it_accepts_a_penalty_limit_without_changing_the_challenge() -> None:
    # the penalty limit ends a game; one challenge always gives one penalty card
    assert score(make_verdict(True), 3, {"penalty_limit": 5}) == [0, 1, 0]


# --- 5.3 raises -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "new", "valid"),
    [
        pytest.param(claim(7, "orange"), claim(7, "rot"), True, id="7-orange-7-rot"),
        pytest.param(claim(7, "orange"), claim(8, "lila"), True, id="7-orange-8-lila"),
        pytest.param(claim(7, "orange"), claim(7, "gelb"), False, id="7-orange-7-gelb"),
        pytest.param(claim(7, "orange"), claim(7, "orange"), False, id="same-claim"),
        pytest.param(claim(7, "orange"), claim(6, "rot"), False, id="lower-count"),
        pytest.param(claim(1, "rot"), claim(2, "lila"), True, id="lowest-colour-higher-count"),
        pytest.param(claim(3, "lila"), claim(12, "lila"), True, id="much-higher-count"),
    ],
)
def test_it_accepts_only_raises(previous: dict, new: dict, valid: bool) -> None:
    assert is_valid_raise(previous, new) is valid


@pytest.mark.parametrize(
    ("higher", "lower"),
    [("rot", "orange"), ("orange", "gelb"), ("gelb", "gruen"), ("gruen", "blau"), ("blau", "lila")],
)
def test_it_ranks_the_colours_rot_orange_gelb_gruen_blau_lila(higher: str, lower: str) -> None:
    assert is_valid_raise(claim(4, lower), claim(4, higher)) is True
    assert is_valid_raise(claim(4, higher), claim(4, lower)) is False


def test_it_takes_rule_settings_for_a_raise() -> None:
    assert is_valid_raise(claim(7, "orange"), claim(7, "rot"), {"jokers_fit_all": True}) is True


@pytest.mark.parametrize(
    ("previous", "new", "rules", "field"),
    [
        pytest.param(claim(0, "rot"), claim(1, "rot"), None, "previous.count", id="count-0"),
        pytest.param(claim(1, "rot"), claim("2", "rot"), None, "new.count", id="count-str"),
        pytest.param(claim(1, "rot"), claim(True, "rot"), None, "new.count", id="count-true"),
        pytest.param(claim(1, "rot"), claim(2.0, "rot"), None, "new.count", id="count-float"),
        pytest.param(claim(1, "pink"), claim(2, "rot"), None, "previous.colour", id="colour"),
        pytest.param(claim(1, "rot"), {"count": 2}, None, "new.colour", id="colour-missing"),
        pytest.param(
            claim(1, "rot"), {**claim(2, "rot"), "joker": 1}, None, "new.joker", id="unknown-key"
        ),
        pytest.param("7 orange", claim(2, "rot"), None, "previous", id="not-a-dict"),
        pytest.param(claim(1, "rot"), claim(2, "rot"), {"raise": 1}, "rules.raise", id="rules"),
    ],
)
def test_it_rejects_a_claim_that_is_not_one(
    previous: Any, new: Any, rules: Any, field: str
) -> None:
    with pytest.raises(InvalidHand) as info:
        is_valid_raise(previous, new, rules)
    assert_names_field(info.value, field)


# --- rejections -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param(
            {**make_verdict(True), "reveal": make_challenge(1, "rot", [[], [], []])["reveal"]},
            id="both",
        ),
        pytest.param({"claimant": 0, "challenger": 1, "claim": claim(5, "rot")}, id="neither"),
    ],
)
def test_it_wants_either_the_tables_count_or_the_cards(hand: dict[str, Any]) -> None:
    error = rejection(hand)
    assert error.field in ("claim_correct", "reveal")
    assert str(error).startswith(error.field)


@pytest.mark.parametrize(
    "hands",
    [
        pytest.param([["hennes"], ["hennes"], []], id="two-in-hands"),
        pytest.param([["hennes", "hennes"], [], []], id="two-in-one-hand"),
    ],
)
def test_it_rejects_more_than_one_hennes_sibbe(hands: list[list[str]]) -> None:
    error = rejection(make_challenge(1, "rot", hands))
    assert error.field.startswith("reveal")
    assert str(error).startswith(error.field)


@pytest.mark.parametrize(
    "cards",
    [
        pytest.param(["goat"] * 9, id="nine-jokers"),
        pytest.param(["rot"] * 20, id="20-rot"),
        pytest.param(["rot", "rot", "gelb", "goat", "joker_rgb", "lila"], id="six-cards"),
    ],
)
def test_it_rejects_a_hand_of_more_than_five_cards_naming_the_seat(cards: list[str]) -> None:
    error = rejection(make_challenge(1, "rot", [[], [], cards]))
    assert_names_field(error, "reveal.hands[2]")
    assert str(error).endswith(
        "a hand holds at most 5 cards (five are dealt, each turn draws one and lays one off), "
        f"got {len(cards)}"
    )


def test_it_takes_a_hand_of_five_cards_and_five_jokers() -> None:
    assert_count(12, "rot", [["goat"] * 5, ["rot"] * 2, []])


def test_it_rejects_a_hennes_sibbe_in_hand_and_among_penalty_cards() -> None:
    hand = make_challenge(1, "rot", [["hennes"], [], []], [[], [], ["hennes"]])
    error = rejection(hand)
    assert error.field.startswith("reveal")
    assert str(error).startswith(error.field)


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        # the same seat cannot claim and challenge
        pytest.param(make_verdict(True, claimant=1, challenger=1), "challenger", id="same-seat"),
        # seats that do not exist
        pytest.param(make_verdict(True, claimant=3), "claimant", id="claimant-seat-3"),
        pytest.param(make_verdict(True, challenger=-1), "challenger", id="challenger-seat--1"),
        # wrong types
        pytest.param(make_verdict(True, claimant="0"), "claimant", id="claimant-str"),
        pytest.param(make_verdict(True, challenger=True), "challenger", id="challenger-true"),
        pytest.param(make_verdict("yes"), "claim_correct", id="verdict-str"),
        pytest.param(make_verdict(1), "claim_correct", id="verdict-int"),
        pytest.param(make_verdict(None), "claim_correct", id="verdict-none"),
        pytest.param({**make_verdict(True), "claim": claim(0, "rot")}, "claim.count", id="count-0"),
        pytest.param({**make_verdict(True), "claim": claim(5.0, "rot")}, "claim.count", id="float"),
        pytest.param({**make_verdict(True), "claim": claim(5, "Rot")}, "claim.colour", id="Rot"),
        pytest.param({**make_verdict(True), "claim": claim(5, "goat")}, "claim.colour", id="goat"),
        pytest.param({**make_verdict(True), "claim": [5, "rot"]}, "claim", id="claim-list"),
        pytest.param(
            {**make_verdict(True), "claim": {"count": 5}}, "claim.colour", id="colour-missing"
        ),
        pytest.param(
            {**make_verdict(True), "claim": {**claim(5, "rot"), "n": 5}}, "claim.n", id="claim-key"
        ),
        # missing and unknown keys
        pytest.param(
            {"challenger": 1, "claim": claim(5, "rot"), "claim_correct": True},
            "claimant",
            id="no-claimant",
        ),
        pytest.param(
            {"claimant": 0, "claim": claim(5, "rot"), "claim_correct": True},
            "challenger",
            id="no-challenger",
        ),
        pytest.param(
            {"claimant": 0, "challenger": 1, "claim_correct": True}, "claim", id="no-claim"
        ),
        pytest.param({**make_verdict(True), "loser": 0}, "loser", id="unknown-key"),
        # the revealed cards
        pytest.param(make_challenge(1, "rot", [[], []]), "reveal.hands", id="hands-for-2-seats"),
        pytest.param(
            make_challenge(1, "rot", [["rot"], ["pink"], []]), "reveal.hands[1][0]", id="card"
        ),
        pytest.param(
            make_challenge(1, "rot", [["rot"], [], ["Goat"]]), "reveal.hands[2][0]", id="Goat"
        ),
        pytest.param(make_challenge(1, "rot", [["rot"], [], [3]]), "reveal.hands[2][0]", id="3"),
        pytest.param(make_challenge(1, "rot", [["rot"], "rot", []]), "reveal.hands[1]", id="str"),
        pytest.param(
            make_challenge(1, "rot", [[], [], []], [[], []]),
            "reveal.penalty_cards",
            id="penalty-cards-for-2-seats",
        ),
        pytest.param(
            make_challenge(1, "rot", [[], [], []], [[], ["rose"], []]),
            "reveal.penalty_cards[1][0]",
            id="penalty-card",
        ),
        pytest.param(
            make_challenge(1, "rot", [[], [], []], drillings=["goat"]),
            "reveal.drillings[0]",
            id="goat-drilling",
        ),
        pytest.param(
            make_challenge(1, "rot", [[], [], []], drillings="rot"),
            "reveal.drillings",
            id="drillings-str",
        ),
        pytest.param(
            {"claimant": 0, "challenger": 1, "claim": claim(1, "rot"), "reveal": {"cards": []}},
            "reveal.cards",
            id="reveal-unknown-key",
        ),
        pytest.param(
            {"claimant": 0, "challenger": 1, "claim": claim(1, "rot"), "reveal": {}},
            "reveal.hands",
            id="reveal-hands-missing",
        ),
        pytest.param(
            {"claimant": 0, "challenger": 1, "claim": claim(1, "rot"), "reveal": [[]]},
            "reveal",
            id="reveal-list",
        ),
        pytest.param("Lüge!", "hand", id="text"),
    ],
)
def test_it_rejects_a_challenge_and_names_the_field(hand: Any, field: str) -> None:
    assert_names_field(rejection(hand), field)


@pytest.mark.parametrize("seats", [2, 9, 0, "4", 4.0, True, None])
def test_it_rejects_a_table_size_hennes_sibbe_is_not_played_at(seats: Any) -> None:
    assert_names_field(rejection(make_verdict(True), seats=seats), "seats")


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        pytest.param({"jokers_fit_all": "true"}, "rules.jokers_fit_all", id="fit-all-str"),
        pytest.param({"jokers_fit_all": 1}, "rules.jokers_fit_all", id="fit-all-int"),
        pytest.param({"goat_doubling": "twice"}, "rules.goat_doubling", id="doubling-unknown"),
        pytest.param({"goat_doubling": False}, "rules.goat_doubling", id="doubling-false"),
        pytest.param({"hennes_value": 7.0}, "rules.hennes_value", id="hennes-float"),
        pytest.param({"hennes_value": "7"}, "rules.hennes_value", id="hennes-str"),
        pytest.param({"hennes_value": -7}, "rules.hennes_value", id="hennes-negative"),
        pytest.param({"penalty_limit": True}, "rules.penalty_limit", id="limit-true"),
        pytest.param({"penalty_limit": 0}, "rules.penalty_limit", id="limit-0"),
        pytest.param({"penalty_limit": None}, "rules.penalty_limit", id="limit-none"),
        pytest.param({"jokers": "all"}, "rules.jokers", id="unknown-setting"),
        pytest.param({"solo_double": "after_rounding"}, "rules.solo_double", id="cego-setting"),
        pytest.param(7, "rules", id="not-a-dict"),
    ],
)
def test_it_rejects_a_rule_setting_and_names_it(rules: Any, field: str) -> None:
    assert_names_field(rejection(make_verdict(True), rules=rules), field)
