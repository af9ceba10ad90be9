"""Services: recording, correcting, deleting and voiding hands, totals, entries and rounds."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.db import transaction

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
from tournament import access
from tournament.core import errors
from tournament.models import Entry, Event, EventRole, Hand, Player, Result, Round, Team
from tournament.play import reads, services
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db


def totals(table) -> list[int]:
    """Each seat's sum of counted results at a table, in seat order."""
    sums = [0] * table.size
    for result in Result.objects.filter(table=table, counts=True):
        sums[result.position] += result.points
    return sums


def test_recording_a_hand_stores_the_engines_result_for_each_seat():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    assert hand.number == 1
    assert hand.dealer == 0
    assert totals(table) == [-60, 20, 20, 20]


def test_hands_are_numbered_in_order_and_the_deal_passes_round_the_table():
    table = make_table()
    hands = [services.record_hand(table=table, data=cego("cego", 0, 40)) for _ in range(5)]
    assert [h.number for h in hands] == [1, 2, 3, 4, 5]
    assert [h.dealer for h in hands] == [0, 1, 2, 3, 0]


def test_an_illegal_hand_is_refused_and_nothing_is_stored():
    table = make_table()
    with pytest.raises(scoring.InvalidHand) as exc:
        services.record_hand(table=table, data=cego("halbe", 0, 80))
    assert exc.value.field == "declarer_points"
    assert Hand.objects.count() == 0
    assert Result.objects.count() == 0


def test_a_table_takes_no_more_games_than_the_round_has():
    table = make_table(hands_per_round={"4": 2})
    services.record_hand(table=table, data=cego())
    services.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="all 2 games"):
        services.record_hand(table=table, data=cego())
    assert table.hands.count() == 2


def test_no_hand_can_be_entered_before_the_round_starts():
    event = make_event()
    make_entries(event, 4)
    rnd = make_round(event, start=False)
    with pytest.raises(errors.Refused, match="not started"):
        services.record_hand(table=rnd.tables.get(), data=cego())


def test_at_a_five_seat_table_the_dealer_sits_out_but_pays_like_an_opponent():
    table = make_table(players=5)
    assert table.size == 5
    # game 1 is dealt by seat 0, who sits out and cannot declare
    with pytest.raises(scoring.InvalidHand, match="sits out"):
        services.record_hand(table=table, data=cego("cego", 0, 40))
    services.record_hand(table=table, data=cego("cego", 1, 40))
    # game 2 is dealt by seat 1, who sits out but pays: the declarer loses 4 V
    services.record_hand(table=table, data=cego("halbe", 0, 34))
    results = Result.objects.filter(hand__number=2).order_by("position")
    assert [r.points for r in results] == [-80, 20, 20, 20, 20]


def test_editing_a_hand_needs_a_reason_and_changes_the_results():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    with pytest.raises(errors.Refused, match="reason"):
        services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="  ")
    assert totals(table) == [-60, 20, 20, 20]
    services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="Punkte verzählt")
    assert totals(table) == [60, -20, -20, -20]
    hand.refresh_from_db()
    assert hand.version == 2
    assert hand.history.first().history_change_reason == "Punkte verzählt"


def test_an_edit_made_on_a_stale_version_is_refused():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="first", version=1)
    with pytest.raises(errors.Refused, match="changed by someone else"):
        services.edit_hand(hand=hand, data=cego("halbe", 0, 20), reason="second", version=1)
    assert totals(table) == [60, -20, -20, -20]


def test_an_illegal_edit_leaves_the_hand_as_it_was():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    with pytest.raises(scoring.InvalidHand):
        services.edit_hand(hand=hand, data=cego("halbe", 7, 34), reason="typo")
    hand.refresh_from_db()
    assert hand.data == cego("halbe", 0, 34)
    assert totals(table) == [-60, 20, 20, 20]


def test_deleting_a_hand_needs_a_reason_and_frees_its_number():
    table = make_table()
    first = services.record_hand(table=table, data=cego("halbe", 0, 34))
    services.record_hand(table=table, data=cego("cego", 1, 40))
    with pytest.raises(errors.Refused):
        services.delete_hand(hand=first, reason="")
    services.delete_hand(hand=first, reason="doppelt eingetragen")
    assert totals(table) == [-10, 30, -10, -10]
    again = services.record_hand(table=table, data=cego("eine", 2, 41))
    assert again.number == 1


def test_a_voided_table_counts_nothing_and_counts_again_when_restored():
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 34))
    with pytest.raises(errors.Refused):
        services.void_table(table=table, reason="")
    services.void_table(table=table, reason="Liste nicht rekonstruierbar")
    assert totals(table) == [0, 0, 0, 0]
    event = table.round.event
    assert {e.total for e in Entry.objects.standings(event)} == {0}
    with pytest.raises(errors.Refused, match="voided"):
        services.record_hand(table=table, data=cego())
    services.restore_table(table=table, reason="Liste gefunden")
    assert totals(table) == [-60, 20, 20, 20]


def test_totals_of_a_zero_sum_game_must_add_up_to_zero():
    table = make_table()
    with pytest.raises(scoring.InvalidHand, match="zero"):
        services.record_totals(table=table, totals=[100, -50, -40, 0])
    assert Hand.objects.count() == 0
    services.record_totals(table=table, totals=[100, -50, -50, 0])
    assert totals(table) == [100, -50, -50, 0]
    with pytest.raises(errors.Refused, match="directly"):
        services.record_hand(table=table, data=cego())


def test_totals_replace_only_an_empty_sheet():
    table = make_table()
    services.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="already has games"):
        services.record_totals(table=table, totals=[0, 0, 0, 0])


def test_hennes_sibbe_totals_are_penalty_cards_and_cannot_be_negative():
    table = make_table("hennes_sibbe", 4)
    with pytest.raises(scoring.InvalidHand, match="negative"):
        services.record_totals(table=table, totals=[1, -1, 0, 0])
    services.record_totals(table=table, totals=[3, 1, 0, 2])
    assert totals(table) == [3, 1, 0, 2]


def test_ziege_deals_follow_the_match_through_to_the_limit():
    table = make_table("ziege", 4)
    # team B (seats 1, 3) concedes 6 twice: 12 reaches the limit, team A wins the match
    services.record_hand(table=table, data={"team_a_points": 120})
    services.record_hand(table=table, data={"team_a_points": 120})
    services.record_hand(table=table, data={"team_a_points": 40})
    won = {r.position: r.matches_won for r in Result.objects.filter(hand__number=2, table=table)}
    assert won == {0: 1, 1: 0, 2: 1, 3: 0}
    assert Result.objects.filter(hand__number__in=[1, 3], matches_won=1).count() == 0
    inflicted = {r.position: r.inflicted for r in Result.objects.filter(hand__number=1)}
    assert inflicted == {0: 6, 1: 0, 2: 6, 3: 0}


def test_after_kugeln_the_next_ziege_deal_counts_double_when_the_event_says_so():
    table = make_table("ziege", 4, rules={"balls_double_next": True})
    services.record_hand(table=table, data={"team_a_points": 60})
    services.record_hand(table=table, data={"team_a_points": 75})
    services.record_hand(table=table, data={"team_a_points": 75})
    points = [
        [r.points for r in Result.objects.filter(hand__number=n).order_by("position")]
        for n in (1, 2, 3)
    ]
    assert points == [[0, 0, 0, 0], [0, 4, 0, 4], [0, 2, 0, 2]]


def test_correcting_an_early_ziege_deal_rescores_the_deals_after_it():
    table = make_table("ziege", 4, rules={"balls_double_next": True})
    first = services.record_hand(table=table, data={"team_a_points": 50})
    services.record_hand(table=table, data={"team_a_points": 75})
    assert totals(table) == [2, 2, 2, 2]
    services.edit_hand(hand=first, data={"team_a_points": 60}, reason="war 60:60")
    assert totals(table) == [0, 4, 0, 4]


def test_hennes_sibbe_marks_the_lost_game_when_a_player_reaches_the_limit():
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    wrong_claim = {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 9, "colour": "rot"},
        "claim_correct": False,
    }
    services.record_hand(table=table, data=wrong_claim)
    services.record_hand(table=table, data=wrong_claim)
    services.record_hand(table=table, data=wrong_claim)
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
    services.record_hand(table=table, data=wrong_claim)  # seat 0 holds 1 of 2 penalty cards
    with pytest.raises(errors.Refused, match="A game is still being played"):
        services.submit_table(table=table)
    with pytest.raises(errors.Refused, match="Table 1 has not entered all its games"):
        services.close_round(round=table.round)
    services.record_hand(table=table, data=wrong_claim)  # seat 0 reaches the limit: game over
    services.submit_table(table=table)
    assert services.close_round(round=table.round).status == Round.Status.CLOSED


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
    services.record_hand(table=table, data=cego("cego", 0, 40))
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
    services.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="not entered all"):
        services.close_round(round=rnd)
    services.record_hand(table=table, data=cego())
    assert services.close_round(round=rnd).status == Round.Status.CLOSED
    with pytest.raises(errors.Refused, match="closed"):
        services.record_hand(table=table, data=cego())


def test_a_voided_table_does_not_hold_up_closing_the_round():
    table = make_table()
    services.void_table(table=table, reason="Blatt verloren")
    assert services.close_round(round=table.round).status == Round.Status.CLOSED


def test_recompute_scores_rebuilds_results_from_the_stored_hands():
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 34))
    Result.objects.update(points=999)
    assert services.recompute_scores(event=table.round.event) == 1
    assert totals(table) == [-60, 20, 20, 20]


def test_a_draw_by_lot_orders_tied_players_and_is_recorded():
    table = make_table()
    event = table.round.event
    entries = list(event.entries.all()[:2])
    draw = services.decide_by_lot(event=event, entries=entries, seed=7)
    ranks = {e.pk: e.rank for e in Entry.objects.standings(event)}
    assert sorted(ranks[e.pk] for e in entries) == [1, 2]
    assert sorted(draw.entries) == sorted(e.start_number for e in entries)


# --- issue 11: a resent form, the undo, the table link's confirmations --------------------------


def test_a_form_resent_with_the_same_values_answers_with_the_game_stored_the_first_time():
    table = make_table()
    key = uuid.uuid4()
    first = services.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    again = services.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    assert again.pk == first.pk
    assert table.hands.count() == 1


def test_a_form_resent_with_other_values_is_refused_and_names_the_stored_game():
    # issue 11, finding 6: the resend used to answer "saved" while the old game stayed stored
    table = make_table()
    key = uuid.uuid4()
    services.record_hand(table=table, data=cego("cego", 1, 40))
    services.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    with pytest.raises(services.AlreadySaved) as exc:
        services.record_hand(table=table, data=cego("halbe", 0, 50), submission_key=key)
    assert exc.value.hand.number == 2
    assert exc.value.hand.data == cego("halbe", 0, 34)
    assert "already saved as game 2" in str(exc.value)
    assert totals(table) == [-70, 50, 10, 10]  # Cego won by seat 1, Halbe lost by seat 0


def test_a_form_resent_after_its_game_was_taken_back_stores_nothing():
    table = make_table()
    key = uuid.uuid4()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    services.delete_hand(hand=hand, reason="falsch", by_scorer=False, last_only=True)
    with pytest.raises(errors.Refused, match="taken back"):
        services.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)
    assert not table.hands.exists()


def test_a_correction_resent_with_the_same_values_is_stored_once():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="verzählt", version=1)
    again = services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="verzählt", version=1)
    assert again.version == 2
    assert hand.history.count() == 2  # created, changed once


def test_a_correction_resent_with_other_values_is_refused_and_keeps_the_stored_game():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="verzählt", version=1)
    with pytest.raises(services.StaleEdit) as exc:
        services.edit_hand(hand=hand, data=cego("halbe", 0, 20), reason="verzählt", version=1)
    assert exc.value.current.data == cego("halbe", 0, 47)
    assert totals(table) == [60, -20, -20, -20]


def test_taking_back_the_last_game_is_refused_when_another_game_was_saved_since():
    # issue 11, finding 7: phone A takes back game 2 while phone B has just saved game 3
    table = make_table()
    services.record_hand(table=table, data=cego("cego", 1, 40))
    second = services.record_hand(table=table, data=cego("halbe", 0, 34))
    third = services.record_hand(table=table, data=cego("eine", 2, 41))
    with pytest.raises(errors.Refused, match="no longer the last game"):
        services.delete_hand(hand=second, reason="vertippt", by_scorer=False, last_only=True)
    assert list(table.hands.values_list("pk", flat=True).order_by("number"))[1:] == [
        second.pk,
        third.pk,
    ]


def test_one_phone_confirms_one_seat_of_a_table():
    # issue 11, finding 11: any holder of the link could confirm every seat
    table = make_table(hands_per_round={"4": 1})
    services.record_hand(table=table, data=cego())
    services.submit_table(table=table)
    services.confirm_seat(table=table, position=0, device="phone-a")
    services.confirm_seat(table=table, position=0, device="phone-a")  # tapped twice: fine
    first = str(table.seats.get(position=0).entry.player)
    with pytest.raises(errors.Refused, match=f"already confirmed for {first}"):
        services.confirm_seat(table=table, position=1, device="phone-a")
    with pytest.raises(errors.Refused, match=f"{first} is confirmed already"):
        services.confirm_seat(table=table, position=0, device="phone-b")
    services.confirm_seat(table=table, position=1, device="phone-b")
    assert dict(table.confirmations.values_list("position", "device")) == {
        0: "phone-a",
        1: "phone-b",
    }
    table.refresh_from_db()
    assert table.confirmed_at is None


def test_a_seat_is_not_confirmed_through_the_link_after_the_round_closed():
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    table = rnd.tables.get()
    services.record_hand(table=table, data=cego())
    services.submit_table(table=table)
    services.close_round(round=rnd)
    with pytest.raises(errors.Refused, match="closed"):
        services.confirm_seat(table=table, position=0, device="phone-a")
    assert not table.confirmations.exists()
    # the scorer still confirms for all
    services.confirm_table(table=table)
    assert table.confirmations.count() == 4


# --- changing an event's settings (issue 10) ----------------------------------------------------


def bettel_table():
    """A Cego table with a lost Bettel (seat 0, one trick: −90 with the default 30) and a Halbe."""
    table = make_table()
    services.record_hand(
        table=table, data={"contract": "bettel", "declarer": 0, "declarer_tricks": 1}
    )
    services.record_hand(table=table, data=cego("halbe", 1, 47))  # +60 for seat 1
    return table


def test_a_rule_change_rescores_every_stored_game_at_once():
    table = bettel_table()
    event = table.round.event
    assert totals(table) == [-110, 90, 10, 10]
    user = make_user()
    effect = services.change_event_settings(
        event=event, values={"rules": {"bettel": 50}}, user=user, reason="Hausregel Bettel 50"
    )
    assert (effect.hands, effect.players) == (2, 4)
    assert totals(table) == [-170, 110, 30, 30]
    event.refresh_from_db()
    assert event.rules == {"bettel": 50}


def test_a_rule_change_is_kept_in_the_events_history_with_who_and_why():
    table = bettel_table()
    event = table.round.event
    user = make_user()
    services.change_event_settings(
        event=event, values={"rules": {"bettel": 50}}, user=user, reason="Hausregel Bettel 50"
    )
    record = event.history.latest()
    assert record.history_change_reason == "Hausregel Bettel 50"
    assert record.history_user == user
    assert record.rules == {"bettel": 50}
    assert record.prev_record.rules == {}


def test_a_rule_change_of_stored_games_needs_a_reason_and_changes_nothing_without_one():
    table = bettel_table()
    event = table.round.event
    with pytest.raises(errors.Refused, match="reason"):
        services.change_event_settings(event=event, values={"rules": {"bettel": 50}}, reason=" ")
    event.refresh_from_db()
    assert event.rules == {}
    assert totals(table) == [-110, 90, 10, 10]


def test_a_rule_change_that_makes_a_stored_game_invalid_is_refused_naming_the_game():
    table = bettel_table()
    event = table.round.event
    new = {"total_points": 40, "win_threshold": 20}  # the Halbe's 47 card points no longer fit
    history = event.history.count()
    with pytest.raises(errors.Refused) as exc:
        services.change_event_settings(event=event, values={"rules": new}, reason="Test")
    assert "Game 2 at table 1 of round 1" in str(exc.value)
    assert "declarer_points" in str(exc.value)
    event.refresh_from_db()
    assert event.rules == {}
    assert totals(table) == [-110, 90, 10, 10]
    assert event.history.count() == history


def test_the_effect_of_a_rule_change_is_counted_without_saving_anything():
    table = bettel_table()
    event = table.round.event
    # only the Bettel's value changes, but it moves every seat's total
    effect = reads.rule_change_effect(event=event, rules={"bettel": 50})
    assert (effect.hands, effect.players) == (2, 4)
    # a setting no stored game uses changes no total
    assert reads.rule_change_effect(event=event, rules={"ulti": 100}).players == 0
    assert totals(table) == [-110, 90, 10, 10]
    assert Result.objects.filter(table=table).count() == 8


def test_a_settings_change_without_stored_games_needs_no_reason():
    event = make_event()
    effect = services.change_event_settings(event=event, values={"rules": {"bettel": 40}})
    assert (effect.hands, effect.players) == (0, 0)
    event.refresh_from_db()
    assert event.rules == {"bettel": 40}


def test_the_game_cannot_change_after_the_first_draw():
    event = make_event()
    make_entries(event, 4)
    make_round(event, start=False)
    with pytest.raises(errors.Refused, match="first draw"):
        services.change_event_settings(event=event, values={"game": "ziege"})
    event.refresh_from_db()
    assert event.game == "cego"


def test_the_game_can_change_before_the_first_draw():
    event = make_event()
    make_entries(event, 4)
    services.change_event_settings(event=event, values={"game": "ziege"})
    event.refresh_from_db()
    assert event.game == "ziege"


def test_a_ziege_match_limit_change_rescores_the_matches_won():
    table = make_table("ziege", 4)
    event = table.round.event
    for _ in range(2):
        services.record_hand(table=table, data={"team_a_points": 120})  # B concedes 6 twice
    won = Result.objects.filter(table=table, matches_won=1).count
    assert won() == 2  # seats 0 and 2 won the match at 12
    services.change_event_settings(
        event=event, values={"rules": {"match_limit": 18}}, reason="Partie bis 18"
    )
    assert won() == 0


def test_recompute_scores_names_a_stored_game_the_rules_no_longer_allow():
    from django.core.management import CommandError, call_command

    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
    # settings written past the event page (e.g. straight into the database)
    Event.objects.filter(pk=table.round.event_id).update(
        rules={"total_points": 40, "win_threshold": 20}
    )
    with pytest.raises(CommandError, match="Game 1 at table 1 of round 1"):
        call_command("recompute_scores", table.round.event.slug)


def test_the_effect_of_a_rule_change_costs_the_same_queries_for_4_players_and_12():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(players: int) -> int:
        event = make_event()
        make_entries(event, players)
        for table in make_round(event).tables.all():
            for _ in range(3):
                services.record_hand(table=table, data=cego("halbe", 0, 47))
        with CaptureQueriesContext(connection) as ctx:
            assert reads.rule_change_effect(event=event, rules={"win_threshold": 50}).hands
        return len(ctx.captured_queries)

    # Expect 4 queries: the tables with their rounds, the hands, the seats, the stored sums
    assert queries(4) == queries(12) == 4


def test_a_long_reason_is_kept_whole_in_the_history():
    # PostgreSQL refused a reason over 100 characters (simple-history's default column)
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    reason = "Am Tisch nachgezählt: " + "der Geber hatte eine Karte zu viel, " * 7
    services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason=reason)
    assert hand.history.latest().history_change_reason == reason.strip()
    assert len(reason.strip()) > 200


# --- registration: one place for the desk and the import (issue 12) ---------------------------


def test_players_registered_together_are_numbered_on_from_the_highest_start_number():
    event = make_event()
    register_services.register_player(event=event, player=make_player(), start_number=7)
    entries = register_services.register_players(
        event=event, players=[make_player(), make_player()]
    )
    assert [e.start_number for e in entries] == [8, 9]
    assert not any(e.late for e in entries)


def test_players_registered_together_after_the_first_draw_are_all_late():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    make_round(event, start=False)
    entries = register_services.register_players(
        event=event, players=[make_player(), make_player()]
    )
    assert [(e.start_number, e.late) for e in entries] == [(5, True), (6, True)]


def test_a_finished_event_registers_no_one_not_even_a_new_name():
    event = make_event(status=Event.Status.FINISHED)
    with pytest.raises(errors.Refused, match="The event is finished"):
        register_services.register_players(
            event=event, players=[Player(first_name="Eva", last_name="Neu"), make_player()]
        )
    assert not Entry.objects.filter(event=event).exists()
    assert not Player.objects.filter(last_name="Neu").exists()


def test_a_player_twice_in_one_list_is_refused_by_name_and_nothing_is_saved():
    event = make_event()
    twice = make_player(first_name="Uwe", last_name="Doppelt")
    with pytest.raises(errors.Refused, match="Uwe Doppelt is already registered"):
        register_services.register_players(event=event, players=[twice, make_player(), twice])
    assert not Entry.objects.filter(event=event).exists()


def test_a_list_with_a_player_already_registered_saves_none_of_the_others():
    event = make_event()
    desk = make_player(first_name="Anna", last_name="Früh")
    register_services.register_player(event=event, player=desk)
    with pytest.raises(errors.Refused, match="Anna Früh is already registered"):
        register_services.register_players(event=event, players=[make_player(), desk])
    assert Entry.objects.filter(event=event).count() == 1


def test_a_taken_start_number_anywhere_in_a_lists_numbers_is_refused_naming_it():
    event = make_event()
    register_services.register_player(event=event, player=make_player(), start_number=5)
    with pytest.raises(errors.Refused, match="Start number 5 is taken"):
        register_services.register_players(
            event=event, players=[make_player(), make_player()], start_number=4
        )
    assert Entry.objects.filter(event=event).count() == 1


def test_a_new_player_is_created_with_the_entry_and_named_in_both_histories():
    event = make_event()
    user = make_user("anmeldung", staff=False)
    new = Player(first_name="Eva", last_name="Neu", club="CC Furtwangen")
    entry = register_services.register_player(event=event, player=new, user=user)
    player = Player.objects.get(last_name="Neu")
    assert entry.player == player and entry.start_number == 1
    assert player.history.get().history_user == user
    assert entry.history.get().history_user == user


def test_a_new_player_with_a_bad_name_is_refused_and_nothing_is_saved():
    event = make_event()
    with pytest.raises(errors.Refused, match="control character"):
        register_services.register_player(
            event=event, player=Player(first_name="Eva", last_name="\x01")
        )
    assert not Player.objects.exists() and not Entry.objects.exists()


def test_a_team_of_four_is_created_with_its_first_member_and_takes_no_fifth():
    event = make_event()
    members = [
        register_services.register_player(event=event, player=make_player(), team=" Rohrbach ")
        for _ in range(4)
    ]
    squad = Team.objects.get(event=event, kind=Team.Kind.SQUAD)
    assert squad.name == "Rohrbach"
    assert {m.squad_id for m in members} == {squad.pk}
    with pytest.raises(errors.Refused, match="Rohrbach already has four players"):
        register_services.register_player(event=event, player=make_player(), team="Rohrbach")
    assert Entry.objects.filter(event=event).count() == 4


def test_a_list_larger_than_a_teams_room_is_refused_saying_how_many_fit():
    event = make_event()
    register_services.register_player(event=event, player=make_player(), team="Rohrbach")
    with pytest.raises(errors.Refused, match="room for 3 more players only"):
        register_services.register_players(
            event=event, players=[make_player() for _ in range(4)], team="Rohrbach"
        )
    assert Entry.objects.filter(event=event).count() == 1


# --- creating events, seasons, pairs; correcting players ---------------------------------------


def event_values(**values: Any) -> dict[str, Any]:
    return {
        "name": "Herbstturnier",
        "slug": "herbst",
        "date": datetime.date(2026, 11, 7),
        "game": "cego",
        **values,
    }


def test_creating_an_event_makes_its_creator_the_organiser():
    organiser = make_user("vereinswirt", staff=False)
    event = services.create_event(values=event_values(), user=organiser)
    assert access.can_organise(organiser, event)
    assert EventRole.objects.get(event=event).role == EventRole.Role.ORGANISER
    assert event.history.get().history_user == organiser


def test_an_event_created_without_a_user_has_no_organiser_role():
    event = services.create_event(values=event_values())
    assert not EventRole.objects.filter(event=event).exists()


def test_an_event_with_a_reserved_short_name_is_refused_and_not_created():
    with pytest.raises(errors.Refused, match="is the name of a page of this site"):
        services.create_event(values=event_values(slug="neu"), user=make_user())
    assert not Event.objects.exists() and not EventRole.objects.exists()


def test_creating_a_season_checks_it_like_the_form():
    season = services.create_season(values={"name": "Saison 2027", "slug": "saison-2027"})
    assert (season.game, season.best_of) == ("cego", None)
    with pytest.raises(errors.Refused, match="is the name of a page of this site"):
        services.create_season(values={"name": "Neu", "slug": "neu"})


def test_a_ziege_pair_is_kept_in_each_entrys_history_with_the_user():
    event = make_event("ziege", pairing=Event.Pairing.FIXED)
    first, second = make_entries(event, 2)
    user = make_user("paarung", staff=False)
    pair = register_services.create_pair(event=event, name="", entries=[first, second], user=user)
    for entry in (first, second):
        latest = entry.history.latest()
        assert (latest.pair_id, latest.history_user) == (pair.pk, user)


def test_correcting_a_player_keeps_the_change_and_the_user_in_the_players_history():
    player = make_player(first_name="Uwe", last_name="Meier")
    user = make_user("korrektur", staff=False)
    register_services.correct_player(player=player, values={"last_name": "Maier"}, user=user)
    latest = player.history.latest()
    assert (latest.last_name, latest.history_user) == ("Maier", user)
    with pytest.raises(errors.Refused):
        register_services.correct_player(player=player, values={"first_name": ""}, user=user)
    player.refresh_from_db()
    assert str(player) == "Uwe Maier"


def seat_sums(table, field: str = "points") -> list[int]:
    """What the standings add up: each seat's stored sum, in seat order."""
    return list(table.seats.order_by("position").values_list(field, flat=True))


def result_sums(table, field: str) -> list[int]:
    sums = [0] * table.size
    for result in Result.objects.filter(table=table, counts=True):
        sums[result.position] += getattr(result, field)
    return sums


def test_each_seat_holds_the_sum_of_its_counting_results_after_every_kind_of_change():
    table = make_table()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
    assert seat_sums(table) == [-60, 20, 20, 20]
    services.record_hand(table=table, data=cego("cego", 1, 40))
    assert seat_sums(table) == totals(table) != [-60, 20, 20, 20]
    services.delete_hand(hand=table.hands.get(number=2), reason="doppelt")
    assert seat_sums(table) == [-60, 20, 20, 20]
    services.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="Punkte verzählt")
    assert seat_sums(table) == [60, -20, -20, -20]
    services.void_table(table=table, reason="Liste verloren")
    assert seat_sums(table) == [0, 0, 0, 0]
    services.restore_table(table=table, reason="Liste gefunden")
    assert seat_sums(table) == [60, -20, -20, -20]
    services.delete_hand(hand=hand, reason="falscher Tisch")
    assert seat_sums(table) == [0, 0, 0, 0]
    services.record_totals(table=table, totals=[30, -10, -10, -10])
    assert seat_sums(table) == [30, -10, -10, -10]


def test_a_rule_change_rewrites_the_seats_sums_with_the_results():
    table = bettel_table()
    assert seat_sums(table) == [-110, 90, 10, 10]
    services.change_event_settings(
        event=table.round.event, values={"rules": {"bettel": 50}}, reason="Hausregel Bettel 50"
    )
    assert seat_sums(table) == [-170, 110, 30, 30]


def test_ziege_seats_sum_defeat_points_and_matches_as_the_results_do():
    table = make_table("ziege", 4)
    for points in (120, 120, 40):
        services.record_hand(table=table, data={"team_a_points": points})
    # team B took no trick twice: 6 + 6 = 12 defeat points, the match is over and team A has won
    # it; then team A has 40 points (31..59): team B deals it 2 in the next match
    assert seat_sums(table, "inflicted") == [12, 2, 12, 2]
    assert seat_sums(table, "matches_won") == [1, 0, 1, 0]
    for field in ("points", "inflicted", "matches_won", "games_lost"):
        assert seat_sums(table, field) == result_sums(table, field)


def test_a_game_number_taken_at_the_same_moment_is_refused_and_nothing_is_stored(monkeypatch):
    """The table's lock keeps two games from one number; should a write get past it, the
    database's rule still refuses the second and the scorer is told to try again."""
    table = make_table()
    first = services.record_hand(table=table, data=cego("halbe", 0, 40))
    monkeypatch.setattr(services, "next_game_number", lambda table, hands=None: 1)
    with transaction.atomic():  # inside a transaction of the caller's (the queue, a test) ...
        with pytest.raises(errors.Refused, match="at the same moment"):
            services.record_hand(table=table, data=cego("halbe", 1, 50))
        # ... which goes on as if the refused game had never been tried
        assert list(table.hands.values_list("pk", flat=True)) == [first.pk]
    with pytest.raises(errors.Refused, match="at the same moment"):
        services.record_hand(table=table, data=cego("halbe", 1, 50))
    assert list(table.hands.values_list("pk", flat=True)) == [first.pk]
    assert Result.objects.filter(table=table).count() == 4
