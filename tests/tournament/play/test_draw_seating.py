"""The seating draw (RULES.md 6) through the services and the seating page, as a director would
see it: keeping players who already met apart, a fair sit-out rotation, Ziege's fixed pairs,
seat swaps, who takes part in a round and the order of rounds.
"""

from __future__ import annotations

import html
import random
from collections import Counter

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.factories import make_entries, make_event, make_player, make_round, make_user
from tests.helpers.draw import (
    EXACT,
    MIXED,
    SIT_OUT,
    fewest_repeats_for_two_tables_of_four,
    mentions,
    met_before,
    next_round,
    pairs_at,
    place,
    plan_of,
    play_and_close,
    repeats,
    seating,
    sitting_out,
    tables_of,
)
from tournament.core import errors
from tournament.models import Entry, Event, Round, Seat
from tournament.play import draw, events, rounds
from tournament.register import services as register_services

# the messages are checked in English, whatever catalogue the default language has
pytestmark = pytest.mark.usefixtures("english")


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
    rnd = rounds.add_round(event=event)

    with pytest.raises(errors.Refused) as refused:
        rounds.draw_round(round=rnd, seed=1)

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

    rounds.swap_seats(round=rnd, first=a, second=b)

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

    rounds.swap_seats(round=rnd, first=seated, second=out)

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
        rounds.swap_seats(round=rnd, first=a, second=b)

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

    rnd = rounds.swap_seats(
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
    stray = rounds.add_round(event=event)
    with pytest.raises(errors.Refused):
        events.finish_event(event=event)

    rounds.remove_round(round=stray)
    events.finish_event(event=event)

    assert list(event.rounds.values_list("number", "status")) == [(1, Round.Status.CLOSED)]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


@pytest.mark.django_db
def test_a_finished_event_offers_no_new_round_and_refuses_one_until_reopened(client):
    """Tried as a new director: after "finish" the event page still offered "Add a round", and a
    round added and drawn put a column of zeros into the final standings. A finished event's
    page offers no new round; one asked for anyway is refused with what to do."""
    event = make_event("cego")
    make_entries(event, 8)
    play_and_close(make_round(event, seed=1, start=False))
    events.finish_event(event=event)
    client.force_login(make_user(staff=True))
    page = client.get(event.get_absolute_url()).content.decode()
    assert reverse("round_add", args=[event.slug]) not in page

    response = client.post(reverse("round_add", args=[event.slug]), follow=True)

    assert "The event is finished: reopen it with a reason" in response.content.decode()
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    events.reopen_event(event=event, reason="a round was forgotten")
    assert rounds.add_round(event=Event.objects.get(pk=event.pk)).number == 2


@pytest.mark.django_db
def test_a_drawn_round_is_removed_with_its_seats_each_leaving_its_history():
    event = make_event("cego")
    make_entries(event, 8)
    rnd = make_round(event, seed=1, start=False)
    seat_ids = list(Seat.objects.filter(round=rnd).values_list("pk", flat=True))

    rounds.remove_round(round=rnd)

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
        rounds.remove_round(round=playing)
    assert mentions(str(started.value), 1)

    seated = make_event("cego")
    make_entries(seated, 8)
    first = make_round(seated, seed=1, start=False)
    Round.objects.create(event=seated, number=2)  # a later round that exists anyway
    with pytest.raises(errors.Refused) as not_last:
        rounds.remove_round(round=first)
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
    stray = rounds.add_round(event=event)
    second, first = (reverse("round_seating", args=[event.slug, n]) for n in (2, 1))
    button = "Remove this round"
    assert button not in client.get(second).content.decode()  # not for the public
    client.force_login(make_user())
    assert button in client.get(second).content.decode()
    assert button not in client.get(first).content.decode()

    response = client.post(reverse("round_remove", args=[event.slug, 2]), follow=True)

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
    url = reverse("round_remove", args=[event.slug, 1])

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
        rounds.remove_round(round=round)
        return Round.objects.get(pk=round.pk)

    monkeypatch.setattr(rounds, "start_round", removed_meanwhile)
    response = client.post(reverse("round_start", args=[event.slug, 1]), follow=True)

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == event.get_absolute_url()
    assert "Round 1 has been removed." in response.content.decode()


@pytest.mark.django_db
def test_round_2_cannot_be_added_while_round_1_is_not_closed():
    event = make_event("cego")
    make_entries(event, 8)
    make_round(event, seed=1, start=True)

    with pytest.raises(errors.Refused):
        rounds.add_round(event=event)

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
        rounds.draw_round(round=second, seed=1)

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
        rounds.draw_round(round=rnd, seed=2)

    assert seating(rnd) == before


@pytest.mark.django_db
def test_an_exact_cego_event_of_13_players_is_not_drawn_and_says_what_to_do():
    event = make_event("cego", table_policy=EXACT)
    make_entries(event, 13)
    rnd = rounds.add_round(event=event)

    with pytest.raises(errors.Refused) as refused:
        rounds.draw_round(round=rnd, seed=1)

    assert "register 3 more" in str(refused.value)
    assert "withdraw 1" in str(refused.value)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT
