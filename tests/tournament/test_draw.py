"""The seating draw (RULES.md 6): table sizes per game and table policy, a reproducible random
seating that keeps players who already met apart, a fair sit-out rotation, Ziege's fixed pairs,
seat swaps, and who takes part in a round.

The table-size rules are tested on ``draw.plan_tables`` for each game as properties over 3 to 1,000
players; the rest goes through the services and the seating page, as a director would see it.
"""

from __future__ import annotations

import html
import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import make_entries, make_event, make_player, make_round, make_user
from tournament import games
from tournament.core import errors
from tournament.models import Entry, Event, Round, Seat
from tournament.play import draw, services
from tournament.register import services as register_services


def plan_of(n: int, game: str, policy: str, target: int = 4) -> draw.Plan:
    """The game's table plan for ``n`` players (its plug-in decides, the draw module helps)."""
    return draw.plan_tables(games.get(game), n, policy, target)


EXACT = Event.TablePolicy.EXACT
SIT_OUT = Event.TablePolicy.SIT_OUT
MIXED = Event.TablePolicy.MIXED
POLICIES = [EXACT, SIT_OUT, MIXED]
FOURS = ["cego", "ziege"]
# from a table's worth to a big open tournament (bench/run.py draws 1,000 players)
PLAYER_COUNTS = st.integers(3, 1000)
MULTIPLES_OF_FOUR = st.integers(1, 250).map(lambda tables: 4 * tables)
NOT_MULTIPLES_OF_FOUR = PLAYER_COUNTS.filter(lambda n: n % 4)


@pytest.fixture(autouse=True)
def english():
    """The messages are checked in English, whatever catalogue the default language has."""
    with translation.override("en"):
        yield


# --- helpers ------------------------------------------------------------------------------------


def mentions(text: str, number: int) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def pairs_at(tables: Iterable[Sequence[int]]) -> set[frozenset[int]]:
    """Every two players who share a table (computed here, independently of the draw module)."""
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


def repeats(tables: Iterable[Sequence[int]], met: set[frozenset[int]]) -> int:
    return len(pairs_at(tables) & met)


def seating(rnd: Round) -> list[tuple[int, int, int]]:
    """(table number, position, entry id) of every seated player, in table order."""
    return list(
        Seat.objects.filter(round=rnd, table__isnull=False)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "entry_id")
    )


def tables_of(rnd: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, _position, entry_id in seating(rnd):
        tables.setdefault(number, []).append(entry_id)
    return list(tables.values())


def sitting_out(rnd: Round) -> set[int]:
    return set(
        Seat.objects.filter(round=rnd, table__isnull=True).values_list("entry_id", flat=True)
    )


def place(rnd: Round, entry: Entry) -> tuple[int | None, int | None]:
    seat = Seat.objects.select_related("table").get(round=rnd, entry=entry)
    return (seat.table.number if seat.table else None, seat.position)


def met_before(rnd: Round) -> set[frozenset[int]]:
    """Pairs who shared a table in the event's rounds before ``rnd``."""
    earlier = Round.objects.filter(event_id=rnd.event_id, number__lt=rnd.number)
    return set().union(*(pairs_at(tables_of(r)) for r in earlier))


def play_and_close(rnd: Round) -> Round:
    """Start the round if needed, fill every table's sheet and close it, as the tables would."""
    if rnd.status == Round.Status.SEATED:
        rnd = services.start_round(round=rnd)
    event = rnd.event
    for table in rnd.tables.all():
        if event.game == "ziege":
            for _ in range(event.hands_for(table.size)):
                services.record_hand(table=table, data={"team_a_points": 75})
        else:
            services.record_totals(table=table, totals=[0] * table.size)
    return services.close_round(round=rnd)


def next_round(event: Event, seed: int) -> Round:
    rnd = services.add_round(event=event)
    return services.draw_round(round=rnd, seed=seed)


def fewest_repeats_for_two_tables_of_four(players: Sequence[int], met: set[frozenset[int]]) -> int:
    """Brute force over every split of eight players into two tables of four."""
    first, *others = players
    best = math.inf
    for rest in itertools.combinations(others, 3):
        table = [first, *rest]
        other = [p for p in players if p not in table]
        best = min(best, repeats([table, other], met))
    return int(best)


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

    services.draw_round(round=rnd, seed=4711)

    assert seating(rnd) == first
    assert len(first) == 40


@pytest.mark.django_db
def test_a_different_seed_gives_a_different_seating_for_40_players():
    event = make_event("cego")
    make_entries(event, 40)
    rnd = next_round(event, seed=1)
    first = seating(rnd)

    services.draw_round(round=rnd, seed=2)

    assert seating(rnd) != first


@pytest.mark.django_db
def test_the_same_seed_redraws_a_later_round_identically_despite_the_history():
    # with earlier meetings the draw also searches for swaps; that search must follow the seed too
    event = make_event("cego", table_policy=MIXED)
    make_entries(event, 9)
    play_and_close(make_round(event, seed=1))
    rnd = next_round(event, seed=99)
    first = seating(rnd)

    services.draw_round(round=rnd, seed=99)

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
    rnd = services.draw_round(round=services.add_round(event=event))
    rnd.refresh_from_db()
    first = seating(rnd)

    services.draw_round(round=rnd, seed=rnd.seed)

    assert rnd.seed is not None
    assert seating(rnd) == first


# --- repeat meetings ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_48_player_cego_event_has_no_repeat_meetings_in_round_2():
    event = make_event("cego")
    make_entries(event, 48)
    first = play_and_close(make_round(event, seed=3))

    second = next_round(event, seed=5)

    met = pairs_at(tables_of(first))
    assert len(met) == 12 * 6
    assert repeats(tables_of(second), met) == 0
    assert second.repeat_meetings == 0
    assert sorted(len(t) for t in tables_of(second)) == [4] * 12


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_1000_player_draw_has_no_repeat_meetings_after_a_random_first_round(seed):
    players = list(range(1, 1001))
    shuffled = players[:]
    random.Random(seed * 1000).shuffle(shuffled)
    first = [shuffled[i : i + 4] for i in range(0, 1000, 4)]
    met = pairs_at(first)

    result = draw.draw(
        players=players,
        plan=lambda n: plan_of(n, "cego", EXACT),
        basis={"game": "cego", "policy": EXACT, "target": 4},
        game_name="Cego",
        policy=EXACT,
        met=dict.fromkeys(met, 1),
        sat_out={},
        seed=seed,
    )

    assert sorted(p for table in result.tables for p in table) == players
    assert all(len(table) == 4 for table in result.tables)
    assert repeats(result.tables, met) == 0
    assert result.repeats == 0


@pytest.mark.parametrize("seed", range(1, 11))
def test_when_repeats_cannot_be_avoided_8_players_get_the_fewest_possible_in_round_3(seed):
    players = list(range(1, 9))
    rng = random.Random(seed)
    met: set[frozenset[int]] = set()
    for _ in range(2):
        order = players[:]
        rng.shuffle(order)
        met |= pairs_at([order[:4], order[4:]])
    met_counts = dict.fromkeys(met, 1)

    result = draw.draw(
        players=players,
        plan=lambda n: plan_of(n, "cego", EXACT),
        basis={"game": "cego", "policy": EXACT, "target": 4},
        game_name="Cego",
        policy=EXACT,
        met=met_counts,
        sat_out={},
        seed=seed,
    )

    fewest = fewest_repeats_for_two_tables_of_four(players, met)
    assert fewest > 0
    assert repeats(result.tables, met) == fewest
    assert result.repeats == fewest == draw.count_repeats(result.tables, met_counts)


@pytest.mark.django_db
def test_round_3_of_an_8_player_event_reports_the_fewest_possible_repeats():
    event = make_event("cego")
    entries = make_entries(event, 8)
    play_and_close(make_round(event, seed=1))
    play_and_close(make_round(event, seed=2))

    third = next_round(event, seed=3)

    met = met_before(third)
    tables = tables_of(third)
    fewest = fewest_repeats_for_two_tables_of_four([e.pk for e in entries], met)
    assert fewest > 0
    assert third.repeat_meetings == fewest
    assert third.repeat_meetings == repeats(tables, met)
    assert third.repeat_meetings == draw.count_repeats(tables, dict.fromkeys(met, 1))


@pytest.mark.django_db
def test_the_seating_page_shows_the_repeat_meetings_and_why_the_table_sizes(client):
    # nine Cego players at a mixed event play at a four and a five: in round 2 the table of five
    # cannot avoid players who met in round 1
    event = make_event("cego", table_policy=MIXED)
    make_entries(event, 9)
    play_and_close(make_round(event, seed=1))
    second = next_round(event, seed=2)

    response = client.get(f"/turnier/{event.slug}/durchgang/{second.number}/")

    page = response.content.decode()
    assert second.repeat_meetings == repeats(tables_of(second), met_before(second)) > 0
    assert f"{second.repeat_meetings} pairs of players meet again" in page
    assert mentions(draw.explain(second.draw_basis, second.event.game_type), 9)
    assert html.escape(draw.explain(second.draw_basis, second.event.game_type)) in page


# --- sit-out rotation ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_six_ziege_players_sitting_out_two_a_round_each_sit_out_once_in_three_rounds():
    event = make_event("ziege", table_policy=SIT_OUT, hands_per_round={"4": 1})
    entries = make_entries(event, 6)
    sat_out: Counter[int] = Counter()

    for seed in (1, 2, 3):
        rnd = next_round(event, seed=seed)
        out = sitting_out(rnd)
        assert len(out) == 2
        sat_out.update(out)
        play_and_close(rnd)

    assert sat_out == Counter({e.pk: 1 for e in entries})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_13_cego_players_each_sit_out_once_in_13_rounds(seed):
    # meetings play no part in who sits out, so the rounds are drawn without them
    players = list(range(1, 14))
    sat_out: Counter[int] = Counter()

    for number in range(13):
        result = draw.draw(
            players=players,
            plan=lambda n: plan_of(n, "cego", SIT_OUT),
            basis={"game": "cego", "policy": SIT_OUT, "target": 4},
            game_name="Cego",
            policy=SIT_OUT,
            met={},
            sat_out=sat_out,
            seed=seed * 100 + number,
        )
        assert len(result.sit_out) == 1
        assert max(sat_out[p] for p in result.sit_out) == min(sat_out[p] for p in players)
        sat_out.update(result.sit_out)

    assert sat_out == Counter(dict.fromkeys(players, 1))


# --- Ziege fixed pairs --------------------------------------------------------------------------


def make_fixed_pair_event(players: int, **kwargs) -> tuple[Event, list[tuple[Entry, Entry]]]:
    event = make_event("ziege", pairing=Event.Pairing.FIXED, **kwargs)
    entries = make_entries(event, players)
    pairs = list(zip(entries[0::2], entries[1::2], strict=True))
    for i, (a, b) in enumerate(pairs, start=1):
        register_services.create_pair(event=event, name=f"Paar {i}", entries=[a, b])
    return event, pairs


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_fixed_ziege_partners_sit_opposite_each_other_at_the_same_table(seed):
    event, pairs = make_fixed_pair_event(12)

    rnd = make_round(event, seed=seed, start=False)

    assert len(tables_of(rnd)) == 3
    for a, b in pairs:
        (table_a, pos_a), (table_b, pos_b) = place(rnd, a), place(rnd, b)
        assert table_a == table_b
        assert {pos_a, pos_b} in ({0, 2}, {1, 3})


@pytest.mark.django_db
def test_with_an_odd_number_of_fixed_pairs_a_whole_pair_sits_out_together():
    event, pairs = make_fixed_pair_event(10, table_policy=SIT_OUT)

    rnd = make_round(event, seed=7, start=False)

    out = sitting_out(rnd)
    assert len(out) == 2
    assert any(out == {a.pk, b.pk} for a, b in pairs)
    for a, b in pairs:
        if a.pk not in out:
            (table_a, pos_a), (table_b, pos_b) = place(rnd, a), place(rnd, b)
            assert table_a == table_b
            assert abs(pos_a - pos_b) == 2


@pytest.mark.django_db
def test_an_unpaired_player_stops_a_fixed_pair_draw_naming_the_player():
    event, _pairs = make_fixed_pair_event(8)
    loner = make_player(first_name="Hannelore", last_name="Ohnepartner")
    register_services.register_player(event=event, player=loner)
    rnd = services.add_round(event=event)

    with pytest.raises(errors.Refused) as refused:
        services.draw_round(round=rnd, seed=1)

    assert "Hannelore Ohnepartner" in str(refused.value)
    assert not Seat.objects.filter(round=rnd).exists()


# --- swapping seats ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_swapping_two_seated_players_exchanges_their_table_and_position():
    event = make_event("cego")
    entries = make_entries(event, 12)
    rnd = make_round(event, seed=1, start=False)
    a = entries[0]
    b = next(e for e in entries if place(rnd, e)[0] != place(rnd, a)[0])
    before_a, before_b = place(rnd, a), place(rnd, b)

    services.swap_seats(round=rnd, first=a, second=b)

    assert place(rnd, a) == before_b
    assert place(rnd, b) == before_a


@pytest.mark.django_db
def test_a_seated_player_can_swap_with_one_sitting_out():
    event = make_event("cego", table_policy=SIT_OUT)
    entries = make_entries(event, 13)
    rnd = make_round(event, seed=1, start=False)
    (out_id,) = sitting_out(rnd)
    out = Entry.objects.get(pk=out_id)
    seated = next(e for e in entries if e.pk != out_id)
    seated_place = place(rnd, seated)

    services.swap_seats(round=rnd, first=seated, second=out)

    assert place(rnd, out) == seated_place
    assert place(rnd, seated) == (None, None)
    assert sitting_out(rnd) == {seated.pk}


@pytest.mark.django_db
def test_swapping_is_refused_once_the_round_has_started():
    event = make_event("cego")
    entries = make_entries(event, 8)
    rnd = make_round(event, seed=1, start=True)
    a = entries[0]
    b = next(e for e in entries if place(rnd, e)[0] != place(rnd, a)[0])
    before = seating(rnd)

    with pytest.raises(errors.Refused):
        services.swap_seats(round=rnd, first=a, second=b)

    assert seating(rnd) == before


@pytest.mark.django_db
def test_a_swap_recounts_the_repeat_meetings():
    event = make_event("cego")
    make_entries(event, 16)
    first = play_and_close(make_round(event, seed=1))
    second = next_round(event, seed=2)
    met = pairs_at(tables_of(first))
    assert second.repeat_meetings == 0
    # move a player to the table of someone they met in round 1
    tables = tables_of(second)
    p = tables[0][0]
    q = next(
        q
        for table in tables[1:]
        for q in table
        if any(frozenset((q, r)) in met for r in tables[0][1:])
    )

    rnd = services.swap_seats(
        round=second, first=Entry.objects.get(pk=p), second=Entry.objects.get(pk=q)
    )

    second.refresh_from_db()
    expected = repeats(tables_of(second), met)
    assert expected > 0
    assert rnd.repeat_meetings == expected
    assert second.repeat_meetings == expected


# --- who takes part ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_withdrawn_player_is_not_seated_in_the_next_round():
    event = make_event("cego", table_policy=MIXED)
    entries = make_entries(event, 13)
    first = make_round(event, seed=1)
    leaving = entries[4]

    register_services.withdraw_entry(entry=leaving)
    play_and_close(first)
    second = next_round(event, seed=2)

    seated = {entry_id for _t, _p, entry_id in seating(second)}
    assert leaving.pk not in seated
    assert leaving.pk not in sitting_out(second)
    assert seated == {e.pk for e in entries if e != leaving}


@pytest.mark.django_db
def test_a_late_entry_is_seated_from_round_2():
    event = make_event("cego")
    entries = make_entries(event, 12)
    first = make_round(event, seed=1, start=False)

    late = register_services.register_player(event=event, player=make_player())
    late_too = make_entries(event, 3)
    play_and_close(first)
    second = next_round(event, seed=2)

    assert late.late is True
    assert all(e.late for e in late_too)
    assert not Seat.objects.filter(round=first, entry=late).exists()
    seated = {entry_id for _t, _p, entry_id in seating(second)}
    assert seated == {e.pk for e in [*entries, late, *late_too]}


# --- order of rounds ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_round_added_by_mistake_is_removed_and_the_event_can_be_finished():
    """One click too many after the last round: the event is finished only when every round is
    closed, so the director removes the stray round from its seating page."""
    event = make_event("cego")
    make_entries(event, 8)
    play_and_close(make_round(event, seed=1, start=False))
    stray = services.add_round(event=event)
    with pytest.raises(errors.Refused):
        services.finish_event(event=event)

    services.remove_round(round=stray)
    services.finish_event(event=event)

    assert list(event.rounds.values_list("number", "status")) == [(1, Round.Status.CLOSED)]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


@pytest.mark.django_db
def test_a_drawn_round_is_removed_with_its_seats_each_leaving_its_history():
    event = make_event("cego")
    make_entries(event, 8)
    rnd = make_round(event, seed=1, start=False)
    seat_ids = list(Seat.objects.filter(round=rnd).values_list("pk", flat=True))

    services.remove_round(round=rnd)

    assert not event.rounds.exists()
    assert not Seat.objects.filter(pk__in=seat_ids).exists()
    removed = Seat.history.filter(id__in=seat_ids, history_type="-")
    assert removed.count() == 8
    assert set(removed.values_list("history_change_reason", flat=True)) == {"round 1 removed"}


@pytest.mark.django_db
def test_a_started_round_or_one_before_the_last_is_not_removed():
    event = make_event("cego")
    make_entries(event, 8)
    playing = make_round(event, seed=1)
    with pytest.raises(errors.Refused) as started:
        services.remove_round(round=playing)
    assert mentions(str(started.value), 1)

    seated = make_event("cego")
    make_entries(seated, 8)
    first = make_round(seated, seed=1, start=False)
    Round.objects.create(event=seated, number=2)  # a later round that exists anyway
    with pytest.raises(errors.Refused) as not_last:
        services.remove_round(round=first)
    assert "last" in str(not_last.value)

    assert Round.objects.filter(pk__in=[playing.pk, first.pk]).count() == 2
    assert Seat.objects.filter(round=playing).count() == 8
    assert Seat.objects.filter(round=first).count() == 8


@pytest.mark.django_db
def test_the_seating_page_offers_to_remove_the_last_round_only_until_it_starts(client):
    """The director sees the button on round 2 (added after the last round by mistake), not on
    the closed round 1, and the public never; the removal is said on the event page it leads
    back to. (The tests read English, tests/conftest.py; the German is checked below.)"""
    event = make_event("cego")
    make_entries(event, 8)
    play_and_close(make_round(event, seed=1, start=False))
    stray = services.add_round(event=event)
    second, first = (reverse("round_seating", args=[event.slug, n]) for n in (2, 1))
    button = "Remove this round"
    assert button not in client.get(second).content.decode()  # not for the public
    client.force_login(make_user())
    assert button in client.get(second).content.decode()
    assert button not in client.get(first).content.decode()

    response = client.post(reverse("round_action", args=[event.slug, 2, "remove"]), follow=True)

    assert list(event.rounds.values_list("number", flat=True)) == [1]
    assert not Round.objects.filter(pk=stray.pk).exists()
    assert response.redirect_chain[-1][0] == event.get_absolute_url()
    assert "Round 2 removed." in response.content.decode()
    with translation.override("de"):
        assert gettext("Remove this round") == "Diesen Durchgang entfernen"
        assert gettext("Round %(n)s removed.") % {"n": 2} == "Durchgang 2 entfernt."


@pytest.mark.django_db
@pytest.mark.parametrize("later_round", [False, True], ids=["being played", "a later round"])
def test_no_remove_button_on_a_round_being_played_or_one_before_the_last(client, later_round):
    event = make_event("cego")
    make_entries(event, 8)
    make_round(event, seed=1, start=not later_round)
    if later_round:
        Round.objects.create(event=event, number=2)  # a later round that exists anyway
    client.force_login(make_user())
    page = client.get(reverse("round_seating", args=[event.slug, 1])).content.decode()
    assert "Remove this round" not in page
    assert ("Start round" in page) is later_round  # the organiser's buttons are there


@pytest.mark.django_db
def test_a_drawn_round_is_removed_only_once_the_director_says_so_again(client):
    event = make_event("cego")
    make_entries(event, 8)
    make_round(event, seed=1, start=False)
    client.force_login(make_user())
    url = reverse("round_action", args=[event.slug, 1, "remove"])

    asked = client.post(url)
    assert asked.status_code == 200
    assert "Remove round 1?" in asked.content.decode()
    assert event.rounds.count() == 1

    removed = client.post(url, {"confirmed": "1"}, follow=True)
    assert not event.rounds.exists()
    assert "Round 1 removed." in removed.content.decode()

    again = client.post(url, {"confirmed": "1"}, follow=True)  # the button pressed twice
    assert again.redirect_chain[-1][0] == event.get_absolute_url()
    assert "Round 1 has been removed." in again.content.decode()

    history = client.get(reverse("event_history", args=[event.slug])).content.decode()
    assert history.count("round 1 removed") == 8  # each seat, with the reason
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = client.get(reverse("event_history", args=[event.slug])).content.decode()
    assert german.count("Durchgang 1 entfernt") == 8  # the reason in the reader's language
    assert "round 1 removed" not in german


@pytest.mark.django_db
def test_a_round_removed_while_another_action_waited_for_it_is_said_not_a_server_error(
    client, monkeypatch
):
    """Two tabs: "Start round" in one while "Remove" in the other goes first. The start's
    service then finds no round (``Round.DoesNotExist``)."""
    event = make_event("cego")
    make_entries(event, 8)
    make_round(event, seed=1, start=False)
    client.force_login(make_user())

    def removed_meanwhile(*, round):
        services.remove_round(round=round)
        return Round.objects.get(pk=round.pk)

    monkeypatch.setattr(services, "start_round", removed_meanwhile)
    response = client.post(reverse("round_action", args=[event.slug, 1, "start"]), follow=True)

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == event.get_absolute_url()
    assert "Round 1 has been removed." in response.content.decode()


@pytest.mark.django_db
def test_round_2_cannot_be_added_while_round_1_is_not_closed():
    event = make_event("cego")
    make_entries(event, 8)
    make_round(event, seed=1, start=True)

    with pytest.raises(errors.Refused):
        services.add_round(event=event)

    assert event.rounds.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("first_status", ["seated", "playing"])
def test_drawing_round_2_is_refused_while_round_1_is_not_closed(first_status):
    event = make_event("cego")
    make_entries(event, 8)
    make_round(event, seed=1, start=first_status == "playing")
    # a round 2 that exists anyway (an import of an older bundle, or made in code)
    second = Round.objects.create(event=event, number=2)

    with pytest.raises(errors.Refused) as refused:
        services.draw_round(round=second, seed=1)

    second.refresh_from_db()
    assert mentions(str(refused.value), 2)
    assert second.status == Round.Status.DRAFT
    assert not Seat.objects.filter(round=second).exists()


@pytest.mark.django_db
def test_a_started_round_cannot_be_drawn_again():
    event = make_event("cego")
    make_entries(event, 8)
    rnd = make_round(event, seed=1, start=True)
    before = seating(rnd)

    with pytest.raises(errors.Refused):
        services.draw_round(round=rnd, seed=2)

    assert seating(rnd) == before


@pytest.mark.django_db
def test_an_exact_cego_event_of_13_players_is_not_drawn_and_says_what_to_do():
    event = make_event("cego", table_policy=EXACT)
    make_entries(event, 13)
    rnd = services.add_round(event=event)

    with pytest.raises(errors.Refused) as refused:
        services.draw_round(round=rnd, seed=1)

    assert "register 3 more" in str(refused.value)
    assert "withdraw 1" in str(refused.value)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT
