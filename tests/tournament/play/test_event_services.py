"""Services for the event around the tables: changing an event's settings (issue 10),
registration at the desk and through the import (issue 12), creating events, seasons and pairs,
correcting players.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import transaction

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
from tournament import access
from tournament.core import errors
from tournament.models import Entry, Event, EventRole, Player, Result, Team
from tournament.play import events, hands, reads
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db


# --- changing an event's settings (issue 10) ----------------------------------------------------


def bettel_table():
    """A Cego table with a lost Bettel (seat 0, one trick: −90 with the default 30) and a Halbe."""
    table = make_table()
    hands.record_hand(table=table, data={"contract": "bettel", "declarer": 0, "declarer_tricks": 1})
    hands.record_hand(table=table, data=cego("halbe", 1, 47))  # +60 for seat 1
    return table


def test_a_rule_change_rescores_every_stored_game_at_once():
    table = bettel_table()
    event = table.round.event
    assert totals(table) == [-110, 90, 10, 10]
    user = make_user()
    effect = events.change_event_settings(
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
    events.change_event_settings(
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
        events.change_event_settings(event=event, values={"rules": {"bettel": 50}}, reason=" ")
    event.refresh_from_db()
    assert event.rules == {}
    assert totals(table) == [-110, 90, 10, 10]


def test_a_rule_change_that_makes_a_stored_game_invalid_is_refused_naming_the_game():
    table = bettel_table()
    event = table.round.event
    new = {"total_points": 40, "win_threshold": 20}  # the Halbe's 47 card points no longer fit
    history = event.history.count()
    with pytest.raises(errors.Refused) as exc:
        events.change_event_settings(event=event, values={"rules": new}, reason="Test")
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
    effect = events.change_event_settings(event=event, values={"rules": {"bettel": 40}})
    assert (effect.hands, effect.players) == (0, 0)
    event.refresh_from_db()
    assert event.rules == {"bettel": 40}


def test_the_game_cannot_change_after_the_first_draw():
    event = make_event()
    make_entries(event, 4)
    make_round(event, start=False)
    with pytest.raises(errors.Refused, match="first draw"):
        events.change_event_settings(event=event, values={"game": "ziege"})
    event.refresh_from_db()
    assert event.game == "cego"


def test_the_game_can_change_before_the_first_draw():
    event = make_event()
    make_entries(event, 4)
    events.change_event_settings(event=event, values={"game": "ziege"})
    event.refresh_from_db()
    assert event.game == "ziege"


def test_a_ziege_match_limit_change_rescores_the_matches_won():
    table = make_table("ziege", 4)
    event = table.round.event
    for _ in range(2):
        hands.record_hand(table=table, data={"team_a_points": 120})  # B concedes 6 twice
    won = Result.objects.filter(table=table, matches_won=1).count
    assert won() == 2  # seats 0 and 2 won the match at 12
    events.change_event_settings(
        event=event, values={"rules": {"match_limit": 18}}, reason="Partie bis 18"
    )
    assert won() == 0


def test_recompute_scores_names_a_stored_game_the_rules_no_longer_allow():
    from django.core.management import CommandError, call_command

    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
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
                hands.record_hand(table=table, data=cego("halbe", 0, 47))
        with CaptureQueriesContext(connection) as ctx:
            assert reads.rule_change_effect(event=event, rules={"win_threshold": 50}).hands
        return len(ctx.captured_queries)

    # Expect 4 queries: the tables with their rounds, the hands, the seats, the stored sums
    assert queries(4) == queries(12) == 4


def test_a_long_reason_is_kept_whole_in_the_history():
    # PostgreSQL refused a reason over 100 characters (simple-history's default column)
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    reason = "Am Tisch nachgezählt: " + "der Geber hatte eine Karte zu viel, " * 7
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason=reason)
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
    event = events.create_event(values=event_values(), user=organiser)
    assert access.can_organise(organiser, event)
    assert EventRole.objects.get(event=event).role == EventRole.Role.ORGANISER
    assert event.history.get().history_user == organiser


def test_an_event_created_without_a_user_has_no_organiser_role():
    event = events.create_event(values=event_values())
    assert not EventRole.objects.filter(event=event).exists()


def test_an_event_with_a_reserved_short_name_is_refused_and_not_created():
    with pytest.raises(errors.Refused, match="is the name of a page of this site"):
        events.create_event(values=event_values(slug="neu"), user=make_user())
    assert not Event.objects.exists() and not EventRole.objects.exists()


def test_creating_a_season_checks_it_like_the_form():
    season = events.create_season(values={"name": "Saison 2027", "slug": "saison-2027"})
    assert (season.game, season.best_of) == ("cego", None)
    with pytest.raises(errors.Refused, match="is the name of a page of this site"):
        events.create_season(values={"name": "Neu", "slug": "neu"})


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
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    assert seat_sums(table) == [-60, 20, 20, 20]
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    assert seat_sums(table) == totals(table) != [-60, 20, 20, 20]
    hands.delete_hand(hand=table.hands.get(number=2), reason="doppelt")
    assert seat_sums(table) == [-60, 20, 20, 20]
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="Punkte verzählt")
    assert seat_sums(table) == [60, -20, -20, -20]
    hands.void_table(table=table, reason="Liste verloren")
    assert seat_sums(table) == [0, 0, 0, 0]
    hands.restore_table(table=table, reason="Liste gefunden")
    assert seat_sums(table) == [60, -20, -20, -20]
    hands.delete_hand(hand=hand, reason="falscher Tisch")
    assert seat_sums(table) == [0, 0, 0, 0]
    hands.record_totals(table=table, totals=[30, -10, -10, -10])
    assert seat_sums(table) == [30, -10, -10, -10]


def test_a_rule_change_rewrites_the_seats_sums_with_the_results():
    table = bettel_table()
    assert seat_sums(table) == [-110, 90, 10, 10]
    events.change_event_settings(
        event=table.round.event, values={"rules": {"bettel": 50}}, reason="Hausregel Bettel 50"
    )
    assert seat_sums(table) == [-170, 110, 30, 30]


def test_ziege_seats_sum_defeat_points_and_matches_as_the_results_do():
    table = make_table("ziege", 4)
    for points in (120, 120, 40):
        hands.record_hand(table=table, data={"team_a_points": points})
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
    first = hands.record_hand(table=table, data=cego("halbe", 0, 40))
    monkeypatch.setattr(hands, "next_game_number", lambda table, hands=None: 1)
    with transaction.atomic():  # inside a transaction of the caller's (the queue, a test) ...
        with pytest.raises(errors.Refused, match="at the same moment"):
            hands.record_hand(table=table, data=cego("halbe", 1, 50))
        # ... which goes on as if the refused game had never been tried
        assert list(table.hands.values_list("pk", flat=True)) == [first.pk]
    with pytest.raises(errors.Refused, match="at the same moment"):
        hands.record_hand(table=table, data=cego("halbe", 1, 50))
    assert list(table.hands.values_list("pk", flat=True)) == [first.pk]
    assert Result.objects.filter(table=table).count() == 4
