"""Services: recording, correcting, deleting and voiding hands, totals, entries and rounds; a
resent form, the undo, the table link's confirmations (issue 11).
"""

from __future__ import annotations

import uuid

import pytest

import scoring
from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_table,
    make_user,
)
from tests.helpers.play import totals
from tournament.core import errors
from tournament.models import Entry, Event, Hand, Result, Round
from tournament.play import confirmations, hands, lots, rounds, scores
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db


def test_recording_a_hand_stores_the_engines_result_for_each_seat():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    assert hand.number == 1
    assert hand.dealer == 0
    assert totals(table) == [-60, 20, 20, 20]


def test_hands_are_numbered_in_order_and_the_deal_passes_round_the_table():
    table = make_table()
    played = [hands.record_hand(table=table, data=cego("cego", 0, 40)) for _ in range(5)]
    assert [h.number for h in played] == [1, 2, 3, 4, 5]
    assert [h.dealer for h in played] == [0, 1, 2, 3, 0]


def test_an_illegal_hand_is_refused_and_nothing_is_stored():
    table = make_table()
    with pytest.raises(scoring.InvalidHand) as exc:
        hands.record_hand(table=table, data=cego("halbe", 0, 80))
    assert exc.value.field == "declarer_points"
    assert Hand.objects.count() == 0
    assert Result.objects.count() == 0


def test_a_table_takes_no_more_games_than_the_round_has():
    table = make_table(hands_per_round={"4": 2})
    hands.record_hand(table=table, data=cego())
    hands.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="all 2 games"):
        hands.record_hand(table=table, data=cego())
    assert table.hands.count() == 2


def test_no_hand_can_be_entered_before_the_round_starts():
    event = make_event()
    make_entries(event, 4)
    rnd = make_round(event, start=False)
    with pytest.raises(errors.Refused, match="not started"):
        hands.record_hand(table=rnd.tables.get(), data=cego())


def test_at_a_five_seat_table_the_dealer_sits_out_but_pays_like_an_opponent():
    table = make_table(players=5)
    assert table.size == 5
    # game 1 is dealt by seat 0, who sits out and cannot declare
    with pytest.raises(scoring.InvalidHand, match="sits out"):
        hands.record_hand(table=table, data=cego("cego", 0, 40))
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    # game 2 is dealt by seat 1, who sits out but pays: the declarer loses 4 V
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    results = Result.objects.filter(hand__number=2).order_by("position")
    assert [r.points for r in results] == [-80, 20, 20, 20, 20]


def test_editing_a_hand_needs_a_reason_and_changes_the_results():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    with pytest.raises(errors.Refused, match="reason"):
        hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="  ")
    assert totals(table) == [-60, 20, 20, 20]
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="Punkte verzählt")
    assert totals(table) == [60, -20, -20, -20]
    hand.refresh_from_db()
    assert hand.version == 2
    assert hand.history.first().history_change_reason == "Punkte verzählt"


def test_an_edit_made_on_a_stale_version_is_refused():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="first", version=1)
    with pytest.raises(errors.Refused, match="changed by someone else"):
        hands.edit_hand(hand=hand, data=cego("halbe", 0, 20), reason="second", version=1)
    assert totals(table) == [60, -20, -20, -20]


def test_an_illegal_edit_leaves_the_hand_as_it_was():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    with pytest.raises(scoring.InvalidHand):
        hands.edit_hand(hand=hand, data=cego("halbe", 7, 34), reason="typo")
    hand.refresh_from_db()
    assert hand.data == cego("halbe", 0, 34)
    assert totals(table) == [-60, 20, 20, 20]


def test_deleting_a_hand_needs_a_reason_and_frees_its_number():
    table = make_table()
    first = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    with pytest.raises(errors.Refused):
        hands.delete_hand(hand=first, reason="")
    hands.delete_hand(hand=first, reason="doppelt eingetragen")
    assert totals(table) == [-10, 30, -10, -10]
    again = hands.record_hand(table=table, data=cego("eine", 2, 41))
    assert again.number == 1


def test_a_voided_table_counts_nothing_and_counts_again_when_restored():
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    with pytest.raises(errors.Refused):
        hands.void_table(table=table, reason="")
    hands.void_table(table=table, reason="Liste nicht rekonstruierbar")
    assert totals(table) == [0, 0, 0, 0]
    event = table.round.event
    assert {e.total for e in Entry.objects.standings(event)} == {0}
    with pytest.raises(errors.Refused, match="voided"):
        hands.record_hand(table=table, data=cego())
    hands.restore_table(table=table, reason="Liste gefunden")
    assert totals(table) == [-60, 20, 20, 20]


def test_totals_of_a_zero_sum_game_must_add_up_to_zero():
    table = make_table()
    with pytest.raises(scoring.InvalidHand, match="zero"):
        hands.record_totals(table=table, totals=[100, -50, -40, 0])
    assert Hand.objects.count() == 0
    hands.record_totals(table=table, totals=[100, -50, -50, 0])
    assert totals(table) == [100, -50, -50, 0]
    with pytest.raises(errors.Refused, match="directly"):
        hands.record_hand(table=table, data=cego())


def test_totals_replace_only_an_empty_sheet():
    table = make_table()
    hands.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="already has games"):
        hands.record_totals(table=table, totals=[0, 0, 0, 0])


def test_hennes_sibbe_totals_are_penalty_cards_and_cannot_be_negative():
    table = make_table("hennes_sibbe", 4)
    with pytest.raises(scoring.InvalidHand, match="negative"):
        hands.record_totals(table=table, totals=[1, -1, 0, 0])
    hands.record_totals(table=table, totals=[3, 1, 0, 2])
    assert totals(table) == [3, 1, 0, 2]


def test_ziege_deals_follow_the_match_through_to_the_limit():
    table = make_table("ziege", 4)
    # team B (seats 1, 3) concedes 6 twice: 12 reaches the limit, team A wins the match
    hands.record_hand(table=table, data={"team_a_points": 120})
    hands.record_hand(table=table, data={"team_a_points": 120})
    hands.record_hand(table=table, data={"team_a_points": 40})
    won = {r.position: r.matches_won for r in Result.objects.filter(hand__number=2, table=table)}
    assert won == {0: 1, 1: 0, 2: 1, 3: 0}
    assert Result.objects.filter(hand__number__in=[1, 3], matches_won=1).count() == 0
    inflicted = {r.position: r.inflicted for r in Result.objects.filter(hand__number=1)}
    assert inflicted == {0: 6, 1: 0, 2: 6, 3: 0}


def test_after_kugeln_the_next_ziege_deal_counts_double_when_the_event_says_so():
    table = make_table("ziege", 4, rules={"balls_double_next": True})
    hands.record_hand(table=table, data={"team_a_points": 60})
    hands.record_hand(table=table, data={"team_a_points": 75})
    hands.record_hand(table=table, data={"team_a_points": 75})
    points = [
        [r.points for r in Result.objects.filter(hand__number=n).order_by("position")]
        for n in (1, 2, 3)
    ]
    assert points == [[0, 0, 0, 0], [0, 4, 0, 4], [0, 2, 0, 2]]


def test_correcting_an_early_ziege_deal_rescores_the_deals_after_it():
    table = make_table("ziege", 4, rules={"balls_double_next": True})
    first = hands.record_hand(table=table, data={"team_a_points": 50})
    hands.record_hand(table=table, data={"team_a_points": 75})
    assert totals(table) == [2, 2, 2, 2]
    hands.edit_hand(hand=first, data={"team_a_points": 60}, reason="war 60:60")
    assert totals(table) == [0, 4, 0, 4]


def test_hennes_sibbe_marks_the_lost_game_when_a_player_reaches_the_limit():
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    wrong_claim = {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 9, "colour": "rot"},
        "claim_correct": False,
    }
    hands.record_hand(table=table, data=wrong_claim)
    hands.record_hand(table=table, data=wrong_claim)
    hands.record_hand(table=table, data=wrong_claim)
    lost = [
        [r.games_lost for r in Result.objects.filter(hand__number=n).order_by("position")]
        for n in (1, 2, 3)
    ]
    assert lost == [[0, 0, 0], [1, 0, 0], [0, 0, 0]]
    assert totals(table) == [3, 0, 0]


def test_a_hennes_sibbe_round_is_not_complete_while_a_game_is_being_played():
    """The time decides a Hennes Sibbe round, but a game under way ends first: the sheet cannot
    be handed in nor the round closed mid-game (the table page said so, the services did not)."""
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    wrong_claim = {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 9, "colour": "rot"},
        "claim_correct": False,
    }
    hands.record_hand(table=table, data=wrong_claim)  # seat 0 holds 1 of 2 penalty cards
    with pytest.raises(errors.Refused, match="A game is still being played"):
        confirmations.submit_table(table=table)
    with pytest.raises(errors.Refused, match="Table 1 has not entered all its games"):
        rounds.close_round(round=table.round)
    hands.record_hand(table=table, data=wrong_claim)  # seat 0 reaches the limit: game over
    confirmations.submit_table(table=table)
    assert rounds.close_round(round=table.round).status == Round.Status.CLOSED


def test_a_late_entry_is_marked_and_seated_from_the_next_round():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    rnd = make_round(event)
    late = register_services.register_player(event=event, player=make_player())
    assert late.late
    assert not late.seats.exists()
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    second = make_round(event, seed=2)
    assert second.seats.filter(entry=late).exists()


def test_a_player_cannot_be_registered_twice_in_an_event():
    event = make_event()
    player = make_player()
    register_services.register_player(event=event, player=player)
    with pytest.raises(errors.Refused, match="already registered"):
        register_services.register_player(event=event, player=player)


def test_a_withdrawn_player_keeps_the_results_and_is_left_out_of_later_draws():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    entries = make_entries(event, 5)
    rnd = make_round(event)
    seated = rnd.seats.filter(table__isnull=False).select_related("entry")[0].entry
    table = rnd.tables.get()
    hands.record_hand(table=table, data=cego("cego", 0, 40))
    register_services.withdraw_entry(entry=seated)
    standings = {e.pk: e for e in Entry.objects.standings(event)}
    assert standings[seated.pk].status == Entry.Status.WITHDRAWN
    position = table.seats.get(entry=seated).position
    assert standings[seated.pk].total == (30 if position == 0 else -10)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    second = make_round(event, seed=3)
    assert not second.seats.filter(entry=seated).exists()
    assert second.seats.count() == len(entries) - 1


def test_withdrawing_a_player_seated_in_a_round_not_yet_started_is_refused():
    event = make_event()
    entries = make_entries(event, 4)
    make_round(event, start=False)
    with pytest.raises(errors.Refused, match="draw that round again"):
        register_services.withdraw_entry(entry=entries[0])


def test_a_round_closes_only_when_every_table_has_its_games():
    table = make_table(hands_per_round={"4": 2})
    rnd = table.round
    hands.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="not entered all"):
        rounds.close_round(round=rnd)
    hands.record_hand(table=table, data=cego())
    assert rounds.close_round(round=rnd).status == Round.Status.CLOSED
    with pytest.raises(errors.Refused, match="closed"):
        hands.record_hand(table=table, data=cego())


def test_a_voided_table_does_not_hold_up_closing_the_round():
    table = make_table()
    hands.void_table(table=table, reason="Blatt verloren")
    assert rounds.close_round(round=table.round).status == Round.Status.CLOSED


def test_recompute_scores_rebuilds_results_from_the_stored_hands():
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    Result.objects.update(points=999)
    assert scores.recompute_scores(event=table.round.event) == 1
    assert totals(table) == [-60, 20, 20, 20]


def test_a_draw_by_lot_orders_tied_players_and_is_recorded():
    table = make_table()
    event = table.round.event
    entries = list(event.entries.all()[:2])
    draw = lots.decide_by_lot(event=event, entries=entries, seed=7)
    ranks = {e.pk: e.rank for e in Entry.objects.standings(event)}
    assert sorted(ranks[e.pk] for e in entries) == [1, 2]
    assert sorted(draw.entries) == sorted(e.start_number for e in entries)


# --- issue 11: a resent form, the undo, the table link's confirmations --------------------------


def test_a_form_resent_with_the_same_values_answers_with_the_game_stored_the_first_time():
    table = make_table()
    key = uuid.uuid4()
    first = hands.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    again = hands.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    assert again.pk == first.pk
    assert table.hands.count() == 1


def test_a_form_resent_with_other_values_is_refused_and_names_the_stored_game():
    # issue 11, finding 6: the resend used to answer "saved" while the old game stayed stored
    table = make_table()
    key = uuid.uuid4()
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    hands.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    with pytest.raises(hands.AlreadySaved) as exc:
        hands.record_hand(table=table, data=cego("halbe", 0, 50), submission_key=key)
    assert exc.value.hand.number == 2
    assert exc.value.hand.data == cego("halbe", 0, 34)
    assert "already saved as game 2" in str(exc.value)
    assert totals(table) == [-70, 50, 10, 10]  # Cego won by seat 1, Halbe lost by seat 0


def test_a_form_resent_after_its_game_was_taken_back_stores_nothing():
    table = make_table()
    key = uuid.uuid4()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    hands.delete_hand(hand=hand, reason="falsch", by_scorer=False, last_only=True)
    with pytest.raises(errors.Refused, match="taken back"):
        hands.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    assert not table.hands.exists()


def test_a_correction_resent_with_the_same_values_is_stored_once():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="verzählt", version=1)
    again = hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="verzählt", version=1)
    assert again.version == 2
    assert hand.history.count() == 2  # created, changed once


def test_a_correction_resent_with_other_values_is_refused_and_keeps_the_stored_game():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="verzählt", version=1)
    with pytest.raises(hands.StaleEdit) as exc:
        hands.edit_hand(hand=hand, data=cego("halbe", 0, 20), reason="verzählt", version=1)
    assert exc.value.current.data == cego("halbe", 0, 47)
    assert totals(table) == [60, -20, -20, -20]


def test_taking_back_the_last_game_is_refused_when_another_game_was_saved_since():
    # issue 11, finding 7: phone A takes back game 2 while phone B has just saved game 3
    table = make_table()
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    second = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    third = hands.record_hand(table=table, data=cego("eine", 2, 41))
    with pytest.raises(errors.Refused, match="no longer the last game"):
        hands.delete_hand(hand=second, reason="vertippt", by_scorer=False, last_only=True)
    assert list(table.hands.values_list("pk", flat=True).order_by("number"))[1:] == [
        second.pk,
        third.pk,
    ]


def test_a_scorer_confirms_one_seat_on_the_players_word_once_and_is_named():
    # issue 43: a player without their personal link confirms with a scorer, not on the table
    # link; the confirmation and its history name the scorer
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="not been handed in"):
        confirmations.confirm_on_word(table=table, position=1, user=make_user("schreiber"))
    confirmations.submit_table(table=table)
    scorer = make_user("schreiber")
    confirmations.confirm_on_word(table=table, position=1, user=scorer)
    second = str(table.seats.get(position=1).entry.player)
    with pytest.raises(errors.Refused, match=f"{second} has confirmed already"):
        confirmations.confirm_on_word(table=table, position=1, user=scorer)
    with pytest.raises(errors.Refused, match="no such seat"):
        confirmations.confirm_on_word(table=table, position=4, user=scorer)
    confirmation = table.confirmations.get()
    assert (confirmation.position, confirmation.via, confirmation.user) == (1, "scorer", scorer)
    record = confirmation.history.get()
    assert (record.history_user, record.history_change_reason) == (scorer, "on the player's word")
    table.refresh_from_db()
    assert table.confirmed_at is None  # three players still to confirm


def test_a_player_confirms_no_seat_on_their_own_link_after_the_round_closed():
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    table = rnd.tables.get()
    hands.record_hand(table=table, data=cego())
    confirmations.submit_table(table=table)
    rounds.close_round(round=rnd)
    with pytest.raises(errors.Refused, match="closed"):
        confirmations.confirm_as_player(entry=table.seats.get(position=0).entry)
    assert not table.confirmations.exists()
    # the scorer still confirms for all
    confirmations.confirm_table(table=table)
    assert table.confirmations.count() == 4
