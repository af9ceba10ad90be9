"""The seating draw (RULES.md 6): table sizes per game and table policy, and a reproducible random
seating.

The table-size rules are tested on ``draw.plan_tables`` for each game as properties over 3 to 1,000
players; the rest goes through the services and the seating page, as a director would see it.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import make_entries, make_event, make_round
from tests.helpers.draw import (
    EXACT,
    MIXED,
    SIT_OUT,
    mentions,
    next_round,
    plan_of,
    play_and_close,
    seating,
)
from tournament.play import draw, rounds

POLICIES = [EXACT, SIT_OUT, MIXED]
FOURS = ["cego", "ziege"]
# from a table's worth to a big open tournament (bench/run.py draws 1,000 players)
PLAYER_COUNTS = st.integers(3, 1000)
MULTIPLES_OF_FOUR = st.integers(1, 250).map(lambda tables: 4 * tables)
NOT_MULTIPLES_OF_FOUR = PLAYER_COUNTS.filter(lambda n: n % 4)

# the messages are checked in English, whatever catalogue the default language has
pytestmark = pytest.mark.usefixtures("english")


# --- helpers ------------------------------------------------------------------------------------


# --- table sizes: Cego and Ziege at tables of four ---------------------------------------------
# Properties over every player count from 3 to 1000 (hypothesis picks the counts; the counts the
# rules name are plain tests), each checked for every game, policy and target that applies.


@given(n=MULTIPLES_OF_FOUR)
def test_exact_policy_seats_a_multiple_of_four_at_tables_of_four(n):
    for game in FOURS:
        plan = plan_of(n, game, EXACT)

        assert plan.sizes == [4] * (n // 4), game
        assert plan.sit_out == 0, game


@given(n=NOT_MULTIPLES_OF_FOUR)
def test_exact_policy_refuses_a_count_that_is_no_multiple_of_four_saying_how_many_are_missing(n):
    for game in FOURS:
        with pytest.raises(draw.DrawError) as refused:
            plan_of(n, game, EXACT)

        message = str(refused.value)
        assert f"register {4 - n % 4} more" in message, game
        assert mentions(message, n), game
        if n > 4:
            assert f"withdraw {n % 4}" in message, game


def test_exact_policy_refusal_for_13_cego_players_says_register_3_more_or_withdraw_1():
    with pytest.raises(draw.DrawError) as refused:
        plan_of(13, "cego", EXACT)

    assert "register 3 more" in str(refused.value)
    assert "withdraw 1" in str(refused.value)


@given(n=PLAYER_COUNTS.filter(lambda n: n >= 4))
def test_sit_out_policy_seats_full_tables_of_four_and_the_rest_sit_out(n):
    for game in FOURS:
        plan = plan_of(n, game, SIT_OUT)

        assert plan.sizes == [4] * (n // 4), game
        assert plan.sit_out == n % 4, game


@given(n=PLAYER_COUNTS.filter(lambda n: n >= 4))
def test_mixed_policy_does_not_change_ziege_tables_of_four(n):
    plan = plan_of(n, "ziege", MIXED)

    assert plan.sizes == [4] * (n // 4)
    assert plan.sit_out == n % 4


@pytest.mark.parametrize(("game", "policy"), [(g, p) for g in FOURS for p in POLICIES])
def test_three_players_cannot_fill_a_table_of_four_except_at_a_mixed_cego_event(game, policy):
    if game == "cego" and policy == MIXED:
        assert plan_of(3, game, policy).sizes == [3]
        return
    with pytest.raises(draw.DrawError) as refused:
        plan_of(3, game, policy)

    assert mentions(str(refused.value), 3)


@given(n=PLAYER_COUNTS)
def test_mixed_cego_seats_everyone_at_tables_of_three_to_five(n):
    plan = plan_of(n, "cego", MIXED)

    assert plan.sit_out == 0
    assert sum(plan.sizes) == n
    assert set(plan.sizes) <= {3, 4, 5}
    assert sum(1 for size in plan.sizes if size != 4) <= 2


# --- table sizes: Crazy Solo and Hennes Sibbe around the organiser's target -----------------------


def check_sized_around_target(n: int, game: str, target: int, low: int, high: int) -> None:
    plans = [plan_of(n, game, policy, target) for policy in POLICIES]
    plan = plans[0]
    # the table policy is about tables of four; these games size their tables by the target
    assert plans[1] == plan
    assert plans[2] == plan
    assert plan.sit_out == 0
    assert sum(plan.sizes) == n
    assert all(low <= size <= high for size in plan.sizes), plan.sizes
    assert max(plan.sizes) - min(plan.sizes) <= 1, plan.sizes
    # as many tables as n/target suggests, as far as the allowed sizes let it
    possible = [k for k in range(1, n + 1) if math.ceil(n / high) <= k <= n // low]
    nearest = min(abs(k - n / target) for k in possible)
    assert abs(len(plan.sizes) - n / target) == nearest, plan.sizes


@given(n=PLAYER_COUNTS)
def test_crazy_solo_tables_are_even_within_3_to_12_and_near_the_target_size(n):
    for target in range(3, 13):
        check_sized_around_target(n, "crazy_solo", target, 3, 12)


@given(n=PLAYER_COUNTS)
def test_hennes_sibbe_tables_are_even_within_3_to_8_and_near_the_target_size(n):
    for target in range(3, 9):
        check_sized_around_target(n, "hennes_sibbe", target, 3, 8)


@pytest.mark.parametrize("game", ["crazy_solo", "hennes_sibbe"])
@pytest.mark.parametrize("n", [0, 1, 2])
def test_fewer_than_three_players_cannot_be_seated(game, n):
    with pytest.raises(draw.DrawError) as refused:
        plan_of(n, game, MIXED, 3)

    assert mentions(str(refused.value), 3)


@given(n=PLAYER_COUNTS)
def test_every_plan_explains_itself_and_names_the_player_count(n):
    setups = [(game, policy, 4) for game in FOURS for policy in POLICIES]
    setups += [("crazy_solo", MIXED, target) for target in range(3, 13)]
    setups += [("hennes_sibbe", MIXED, target) for target in range(3, 9)]
    for game, policy, target in setups:
        try:
            plan = plan_of(n, game, policy, target)
        except draw.DrawError:
            # only tables of exactly four can leave a player count without a plan
            assert game in FOURS
            assert not (game == "cego" and policy == MIXED)
            continue
        assert plan.explanation.strip(), (game, policy, target)
        assert mentions(plan.explanation, n), (game, policy, target, plan.explanation)


# --- reproducibility --------------------------------------------------------------------------


@pytest.mark.django_db
def test_drawing_again_with_the_same_seed_gives_the_same_tables_and_positions():
    event = make_event("cego")
    make_entries(event, 40)
    rnd = next_round(event, seed=4711)
    first = seating(rnd)

    rounds.draw_round(round=rnd, seed=4711)

    assert seating(rnd) == first
    assert len(first) == 40


@pytest.mark.django_db
def test_a_different_seed_gives_a_different_seating_for_40_players():
    event = make_event("cego")
    make_entries(event, 40)
    rnd = next_round(event, seed=1)
    first = seating(rnd)

    rounds.draw_round(round=rnd, seed=2)

    assert seating(rnd) != first


@pytest.mark.django_db
def test_the_same_seed_redraws_a_later_round_identically_despite_the_history():
    # with earlier meetings the draw also searches for swaps; that search must follow the seed too
    event = make_event("cego", table_policy=MIXED)
    make_entries(event, 9)
    play_and_close(make_round(event, seed=1))
    rnd = next_round(event, seed=99)
    first = seating(rnd)

    rounds.draw_round(round=rnd, seed=99)

    assert seating(rnd) == first


@pytest.mark.django_db
def test_the_seed_is_stored_on_the_round_and_shown_on_the_seating_page(client):
    event = make_event("cego")
    make_entries(event, 8)
    rnd = make_round(event, seed=918273645, start=False)

    rnd.refresh_from_db()
    response = client.get(f"/turnier/{event.slug}/durchgang/{rnd.number}/")

    assert rnd.seed == 918273645
    assert response.status_code == 200
    assert "918273645" in response.content.decode()


@pytest.mark.django_db
def test_a_draw_without_a_seed_stores_the_seed_it_used_so_it_can_be_repeated():
    event = make_event("cego")
    make_entries(event, 16)
    rnd = rounds.draw_round(round=rounds.add_round(event=event))
    rnd.refresh_from_db()
    first = seating(rnd)

    rounds.draw_round(round=rnd, seed=rnd.seed)

    assert rnd.seed is not None
    assert seating(rnd) == first
