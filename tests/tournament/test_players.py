"""One person, one player: the duplicate question at registration, correcting a player, merging
two players, removing an entry registered by mistake."""

from __future__ import annotations

import pytest

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_season,
    make_user,
)
from tournament import services, standings
from tournament.models import Entry, Player, Result

pytestmark = pytest.mark.django_db


# --- merging ----------------------------------------------------------------------------------


def test_merging_moves_entries_and_results_to_the_kept_player_and_deletes_the_other():
    keep = make_player(first_name="Uwe", last_name="Maier")
    remove = make_player(first_name="Uwe", last_name="Meier")
    event = make_event()
    entry = services.register_player(event=event, player=remove)
    make_entries(event, 3)
    table = make_round(event).tables.get()
    services.record_hand(table=table, data=cego("halbe", table.seats.get(entry=entry).position, 47))
    services.merge_players(keep=keep, remove=remove, user=make_user())
    entry.refresh_from_db()
    assert entry.player == keep
    assert not Player.objects.filter(pk=remove.pk).exists()
    assert sum(Result.objects.filter(entry__player=keep).values_list("points", flat=True)) == 60


def test_season_totals_follow_a_merge():
    season = make_season()
    keep = make_player(first_name="Uwe", last_name="Maier")
    remove = make_player(first_name="Uwe", last_name="Meier")
    for n, player in enumerate((keep, remove)):
        event = make_event(season=season)
        entry = services.register_player(event=event, player=player)
        make_entries(event, 3)
        table = make_round(event, seed=n + 1).tables.get()
        position = table.seats.get(entry=entry).position
        services.record_hand(table=table, data=cego("halbe", position, 47))  # +60 each time
    services.merge_players(keep=keep, remove=remove)
    _events, rows = standings.season_standings(season)
    uwe = [r for r in rows if r["name"] == "Maier, Uwe"]
    assert [r["total"] for r in uwe] == [120]
    assert not [r for r in rows if r["name"] == "Meier, Uwe"]


def test_merging_two_players_of_one_event_is_refused_and_changes_nothing():
    keep, remove = make_player(last_name="Maier"), make_player(last_name="Meier")
    event = make_event(name="Herbstturnier")
    services.register_player(event=event, player=keep)
    services.register_player(event=event, player=remove)
    with pytest.raises(services.Refused, match="Herbstturnier"):
        services.merge_players(keep=keep, remove=remove)
    assert Player.objects.filter(pk=remove.pk).exists()
    assert Entry.objects.filter(player=remove).count() == 1


def test_merging_a_player_with_itself_is_refused():
    player = make_player()
    with pytest.raises(services.Refused, match="two different"):
        services.merge_players(keep=player, remove=player)


def test_merging_fills_a_blank_club_town_and_category_but_keeps_what_the_kept_player_has():
    keep = make_player(club="", town="Triberg", category="")
    remove = make_player(club="CC Schonach", town="Furtwangen", category="damen")
    services.merge_players(keep=keep, remove=remove)
    keep.refresh_from_db()
    assert (keep.club, keep.town, keep.category) == ("CC Schonach", "Triberg", "damen")


def test_the_history_says_who_merged_which_players():
    director = make_user("leitung")
    keep = make_player(first_name="Uwe", last_name="Maier")
    remove = make_player(first_name="Uwe", last_name="Meier")
    entry = services.register_player(event=make_event(), player=remove)
    services.merge_players(keep=keep, remove=remove, user=director)
    for record in (
        keep.history.latest(),
        entry.history.latest(),
        Player.history.filter(id=remove.pk).latest(),
    ):
        assert record.history_user == director
        assert "Uwe Meier" in record.history_change_reason
        assert "leitung" in record.history_change_reason


# --- removing an entry registered by mistake --------------------------------------------------


def test_an_entry_registered_by_mistake_is_removed_before_the_first_draw():
    event = make_event()
    mistake = make_entries(event, 5)[4]
    entry_id, player_id = mistake.pk, mistake.player_id
    services.remove_entry(entry=mistake, user=make_user())
    assert list(event.entries.values_list("start_number", flat=True)) == [1, 2, 3, 4]
    assert Player.objects.filter(pk=player_id).exists()  # the person stays known for next time
    assert Entry.history.filter(id=entry_id).latest().history_type == "-"


def test_removing_an_entry_after_the_first_draw_is_refused_with_withdraw_as_the_way():
    event = make_event()
    entries = make_entries(event, 4)
    make_round(event, start=False)
    with pytest.raises(services.Refused, match="Withdraw"):
        services.remove_entry(entry=entries[0])
    assert event.entries.count() == 4
