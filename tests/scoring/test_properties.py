"""Properties the rules promise for every hand, checked with generated input (hypothesis).

RULES.md: Cego and Crazy Solo hands are zero-sum; a Cego declarer never does worse with more card
points; Ziege charges 2, 4 or 6 (doubled 4, 8, 12) to both seats of one team or nothing; a Hennes
Sibbe challenge gives exactly one penalty card; and every input the rules do not allow is rejected
with InvalidHand, never with another exception.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from scoring import InvalidHand

# the number of examples comes from the profile (tests/conftest.py)
SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

CEGO_LADDER = ["cego", "halbe", "eine", "leere", "zwei_leere", "zwei_verschiedene", "geiss"]
CEGO_CONTRACTS = [*CEGO_LADDER, "solo", "bettel", "piccolo", "ulti", "raeuber"]
CRAZY_CONTRACTS = ["solo", "herz_solo", "alleingang", "alleingang_herz"]
COLOURS = ["rot", "orange", "gelb", "gruen", "blau", "lila"]
JOKERS = ["goat", "hennes", "joker_rgb", "joker_ogl"]


# --- valid hands ------------------------------------------------------------------------------


def split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """`total` card points split over `parts` seats."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


@st.composite
def cego_rules(draw: st.DrawFn) -> dict[str, Any] | None:
    if draw(st.booleans()):
        return None
    return {
        "solo_double": draw(st.sampled_from(["before_rounding", "after_rounding"])),
        "gegensolo_raises": draw(st.sampled_from(["all", "cego_only"])),
        "bettel": draw(st.integers(1, 200)),
        "piccolo": draw(st.integers(1, 200)),
        "ulti": draw(st.integers(1, 200)),
        "raeuber": draw(st.integers(1, 200)),
    }


@st.composite
def cego_hands(draw: st.DrawFn, contracts: list[str] = CEGO_CONTRACTS) -> tuple[dict, int]:
    seats = draw(st.integers(3, 5))
    contract = draw(st.sampled_from(contracts))
    hand: dict[str, Any] = {"contract": contract}
    active = list(range(seats))
    if seats == 5:
        hand["sitting_out"] = draw(st.integers(0, 4))
        active.remove(hand["sitting_out"])
    if contract == "raeuber":
        shares = iter(split(draw, 79, len(active)))
        hand["points"] = [next(shares) if s in active else 0 for s in range(seats)]
        hand["announcer"] = draw(st.none() | st.sampled_from(active))
        return hand, seats
    hand["declarer"] = draw(st.sampled_from(active))
    hand["forfeit"] = draw(st.sampled_from([None, "declarer", "opponents"]))
    if contract in ("bettel", "piccolo"):
        hand["declarer_tricks"] = draw(st.integers(0, 11))
    elif contract == "ulti":
        hand["won"] = draw(st.booleans())
    else:
        if draw(st.booleans()):
            hand["declarer_points"] = draw(st.integers(0, 79))
        else:
            hand["declarer_took_trick"] = False
        if contract != "solo":
            hand["gegensolo"] = draw(st.booleans())
    return hand, seats


@st.composite
def crazy_solo_hands(draw: st.DrawFn) -> tuple[dict, int, dict | None]:
    seats = draw(st.integers(3, 12))
    contracts = CRAZY_CONTRACTS[2:] if seats == 3 else CRAZY_CONTRACTS
    contract = draw(st.sampled_from(contracts))
    bidder = draw(st.integers(0, seats - 1))
    hand: dict[str, Any] = {
        "contract": contract,
        "bidder": bidder,
        "soloist_points": draw(st.integers(0, 120)),
    }
    if contract in ("solo", "herz_solo"):
        hand["partner"] = draw(st.none() | st.integers(0, seats - 1).filter(lambda s: s != bidder))
    trumps = ["herz"] if "herz" in contract else ["kreuz", "pik", "karo"]
    if draw(st.booleans()):
        hand["trump"] = draw(st.sampled_from(trumps))
    rules = draw(st.none() | st.builds(dict, rounding=st.sampled_from(["nearest", "up"])))
    return hand, seats, rules


@st.composite
def ziege_hands(draw: st.DrawFn) -> dict[str, Any]:
    a = draw(st.integers(0, 120))
    hand: dict[str, Any] = {"team_a_points": a}
    # A team with points took a trick; a team without may still have taken worthless ones, and
    # the other team then has points and a trick. The default is "took a trick" = "has points".
    for team, points in (("a", a), ("b", 120 - a)):
        took = True if points > 0 else draw(st.booleans())
        if took != (points > 0) or draw(st.booleans()):
            hand[f"team_{team}_took_trick"] = took
    if draw(st.booleans()):
        hand["doubled"] = draw(st.booleans())
    return hand


@st.composite
def hennes_sibbe_hands(draw: st.DrawFn) -> tuple[dict, int, dict | None]:
    seats = draw(st.integers(3, 8))
    claimant, challenger = draw(
        st.lists(st.integers(0, seats - 1), min_size=2, max_size=2, unique=True)
    )
    hand: dict[str, Any] = {
        "claimant": claimant,
        "challenger": challenger,
        "claim": {"count": draw(st.integers(1, 40)), "colour": draw(st.sampled_from(COLOURS))},
    }
    if draw(st.booleans()):
        hand["claim_correct"] = draw(st.booleans())
    else:
        cards = st.sampled_from([*COLOURS, "goat", "joker_rgb", "joker_ogl"])
        # a hand holds at most five cards (RULES.md 5.1); penalty cards are not in the hand
        hands = draw(st.lists(st.lists(cards, max_size=5), min_size=seats, max_size=seats))
        penalty = draw(st.lists(st.lists(cards, max_size=6), min_size=seats, max_size=seats))
        where = draw(st.sampled_from(["nowhere", "hand", "penalty"]))
        if where != "nowhere":
            holder = (hands if where == "hand" else penalty)[draw(st.integers(0, seats - 1))]
            if where == "hand" and len(holder) == 5:
                holder[0] = "hennes"
            else:
                holder.append("hennes")
        hand["reveal"] = {
            "hands": hands,
            "penalty_cards": penalty,
            "drillings": draw(st.lists(st.sampled_from(COLOURS), max_size=3)),
        }
    rules = draw(
        st.none()
        | st.fixed_dictionaries(
            {},
            optional={
                "jokers_fit_all": st.booleans(),
                "goat_doubling": st.sampled_from(["all", "hand", "off"]),
                "hennes_value": st.integers(1, 10),
                "penalty_limit": st.integers(1, 10),
            },
        )
    )
    return hand, seats, rules


# --- zero-sum, monotonic, bounded -------------------------------------------------------------


@SETTINGS
@given(cego_hands(), cego_rules())
def test_it_keeps_every_cego_hand_zero_sum(hand_and_seats: tuple, rules: dict | None) -> None:
    hand, seats = hand_and_seats
    result = scoring.score("cego", hand, seats, rules)
    assert len(result) == seats
    assert sum(result) == 0


@SETTINGS
@given(
    st.sampled_from([*CEGO_LADDER, "solo"]),
    st.integers(3, 5),
    st.booleans(),
    st.sampled_from([None, {"solo_double": "after_rounding"}, {"gegensolo_raises": "cego_only"}]),
    st.integers(0, 79),
    st.integers(0, 79),
)
def test_it_never_lowers_a_cego_declarers_result_for_more_card_points(
    contract: str, seats: int, gegensolo: bool, rules: dict | None, low: int, high: int
) -> None:
    low, high = min(low, high), max(low, high)
    base: dict[str, Any] = {"contract": contract, "declarer": 1}
    if contract != "solo":
        base["gegensolo"] = gegensolo
    if seats == 5:
        base["sitting_out"] = 0

    def declarer_result(**fields: Any) -> int:
        return scoring.score("cego", {**base, **fields}, seats, rules)[1]

    berg = declarer_result(declarer_took_trick=False)
    assert berg <= declarer_result(declarer_points=low) <= declarer_result(declarer_points=high)


@SETTINGS
@given(crazy_solo_hands())
def test_it_keeps_every_crazy_solo_deal_zero_sum(deal: tuple) -> None:
    hand, seats, rules = deal
    result = scoring.score("crazy_solo", hand, seats, rules)
    assert len(result) == seats
    assert sum(result) == 0
    assert all(amount % 5 == 0 for amount in result)


@SETTINGS
@given(ziege_hands())
def test_it_charges_ziege_defeat_points_to_one_team_only(hand: dict[str, Any]) -> None:
    result = scoring.score("ziege", hand, 4)
    a = hand["team_a_points"]
    if a == 60:
        assert result == [0, 0, 0, 0]
        return
    allowed = {4, 8, 12} if hand.get("doubled") else {2, 4, 6}
    losers, winners = ((0, 2), (1, 3)) if a < 60 else ((1, 3), (0, 2))
    assert result[losers[0]] == result[losers[1]]
    assert result[losers[0]] in allowed
    assert result[winners[0]] == result[winners[1]] == 0


@SETTINGS
@given(hennes_sibbe_hands())
def test_it_gives_exactly_one_hennes_sibbe_penalty_card(challenge: tuple) -> None:
    hand, seats, rules = challenge
    result = scoring.score("hennes_sibbe", hand, seats, rules)
    assert len(result) == seats
    assert sorted(result) == [0] * (seats - 1) + [1]
    assert result.index(1) in (hand["claimant"], hand["challenger"])


# --- nothing but InvalidHand ------------------------------------------------------------------

GAME_KEYS = {
    "cego": [
        "contract",
        "declarer",
        "declarer_points",
        "declarer_took_trick",
        "gegensolo",
        "declarer_tricks",
        "won",
        "points",
        "announcer",
        "sitting_out",
        "forfeit",
    ],
    "ziege": ["team_a_points", "team_a_took_trick", "team_b_took_trick", "doubled"],
    "crazy_solo": ["contract", "bidder", "partner", "soloist_points", "trump"],
    "hennes_sibbe": ["claimant", "challenger", "claim", "claim_correct", "reveal"],
}
INNER_KEYS = ["count", "colour", "hands", "penalty_cards", "drillings"]
SETTING_KEYS = [key for game in scoring.GAMES for key in scoring.default_rules(game)]
CARD_KINDS = ["king", "queen", "cavall", "jack", "trull", "other"]
WORDS = sorted(
    {*CEGO_CONTRACTS, *CRAZY_CONTRACTS, *COLOURS, *JOKERS, "kreuz", "pik", "karo", "herz"}
    | {"declarer", "opponents", "before_rounding", "after_rounding", "cego_only", "all"}
    | {"nearest", "up", "hand", "off"}
)

big_ints = st.sampled_from([2**31, 2**63, -(2**63) - 1, 2**64 + 1, 10**100, -(10**300)])
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | big_ints
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=12,
)
plausible_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 130)
    | st.sampled_from(WORDS)
    | st.sampled_from([0.0, 40.5, 1.0])
)
plausible = st.recursive(
    plausible_scalars,
    lambda children: (
        st.lists(children, max_size=9)
        | st.dictionaries(st.sampled_from(INNER_KEYS), children, max_size=5)
    ),
    max_leaves=16,
)


def partly_valid(keys: list[str], values: st.SearchStrategy) -> st.SearchStrategy:
    """Dicts whose keys are mostly the real ones, with plausible and arbitrary values."""
    key = st.sampled_from(keys) | st.text(max_size=8)
    value = plausible | values
    return st.dictionaries(key, value, max_size=len(keys) + 1)


def anything(keys: list[str], values: st.SearchStrategy = json_values) -> st.SearchStrategy:
    return partly_valid(keys, values) | values


seat_counts = st.integers(-2, 14) | json_values


def assert_only_invalid_hand(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except InvalidHand as error:
        assert isinstance(error.field, str)
        assert str(error).startswith(error.field)
        return None


@FUZZ
@given(st.data())
def test_it_raises_nothing_but_invalid_hand_from_score(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(sorted(GAME_KEYS)) | json_values, label="game")
    keys = GAME_KEYS.get(game, []) if isinstance(game, str) else []
    hand = data.draw(anything(keys or GAME_KEYS["cego"]), label="hand")
    seats = data.draw(seat_counts, label="seats")
    rules = data.draw(st.none() | anything(SETTING_KEYS), label="rules")
    result = assert_only_invalid_hand(scoring.score, game, hand, seats, rules)
    if result is not None:
        assert len(result) == seats
        assert all(type(amount) is int for amount in result)


@FUZZ
@given(anything(CARD_KINDS))
def test_it_raises_nothing_but_invalid_hand_from_card_points(counts: Any) -> None:
    points = assert_only_invalid_hand(scoring.cego.card_points, counts)
    if points is not None:
        assert isinstance(points, int | Fraction)
        assert not isinstance(points, bool)
        assert 0 <= points <= 79


@FUZZ
@given(anything(INNER_KEYS), anything(INNER_KEYS), st.none() | anything(SETTING_KEYS))
def test_it_raises_nothing_but_invalid_hand_from_is_valid_raise(
    previous: Any, new: Any, rules: Any
) -> None:
    valid = assert_only_invalid_hand(scoring.hennes_sibbe.is_valid_raise, previous, new, rules)
    assert valid in (None, True, False)


def value_paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a hand: the hand itself, each dict value and each list entry, nested."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += value_paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += value_paths(inner, (*prefix, index))
    return found


def value_at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


@st.composite
def valid_calls(draw: st.DrawFn) -> tuple[str, dict, int, dict | None]:
    game = draw(st.sampled_from(sorted(GAME_KEYS)))
    if game == "cego":
        hand, seats = draw(cego_hands())
        return game, hand, seats, draw(cego_rules())
    if game == "ziege":
        return game, draw(ziege_hands()), 4, None
    if game == "crazy_solo":
        return game, *draw(crazy_solo_hands())
    return game, *draw(hennes_sibbe_hands())


@FUZZ
@given(valid_calls(), st.data())
def test_it_raises_nothing_but_invalid_hand_for_a_valid_hand_with_one_value_spoilt(
    call: tuple, data: st.DataObject
) -> None:
    game, hand, seats, rules = call
    path = data.draw(st.sampled_from(value_paths(hand)), label="path")
    if path and isinstance(path[-1], str) and data.draw(st.booleans(), label="delete"):
        # a key left out
        parent = dict(value_at(hand, path[:-1]))
        del parent[path[-1]]
        hand = replaced(hand, path[:-1], parent)
    else:
        hand = replaced(hand, path, data.draw(plausible | json_values, label="new value"))
    if data.draw(st.booleans(), label="spoil seats too"):
        seats = data.draw(seat_counts, label="seats")
    result = assert_only_invalid_hand(scoring.score, game, hand, seats, rules)
    if result is not None:
        assert len(result) == seats
        assert all(type(amount) is int for amount in result)


# Whole numbers beyond Python's 4300-digit str() limit: the rejection message must still be made.
beyond_str_limit = st.integers(4301, 5000).map(lambda digits: 10**digits) | st.integers(
    4301, 5000
).map(lambda digits: -(10**digits))


@SETTINGS
@given(st.data())
def test_it_rejects_whole_numbers_of_any_size_with_invalid_hand(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(sorted(GAME_KEYS)), label="game")
    huge_values = plausible | beyond_str_limit
    hand = data.draw(partly_valid(GAME_KEYS[game], beyond_str_limit) | huge_values, label="hand")
    seats = data.draw(st.integers(3, 5) | beyond_str_limit, label="seats")
    rules = data.draw(st.none() | partly_valid(SETTING_KEYS, beyond_str_limit), label="rules")
    assert_only_invalid_hand(scoring.score, game, hand, seats, rules)
    counts = data.draw(partly_valid(CARD_KINDS, beyond_str_limit), label="counts")
    assert_only_invalid_hand(scoring.cego.card_points, counts)
    claim = partly_valid(INNER_KEYS, beyond_str_limit)
    previous, new = data.draw(claim, label="previous"), data.draw(claim, label="new")
    assert_only_invalid_hand(scoring.hennes_sibbe.is_valid_raise, previous, new)
