"""Standings: shared ranks, each game's order and tie-breaks, lots, withdrawn players, voided
tables, side rankings, teams; a draw by lot splits only its tie, a season holds one game, who
is ranked.
"""

from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.factories import (
    cego,
    challenge,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_season,
    make_table,
)
from tests.helpers.pages import projector_lines
from tests.helpers.results import by_seat, season_with_two_events
from tournament.core import errors
from tournament.models import Entry, Event, Round, Team
from tournament.play import hands, lots, rounds
from tournament.register import services as register_services
from tournament.results import standings

pytestmark = pytest.mark.django_db


def ranked(event) -> list[tuple[int, int, int]]:
    """(rank, start number, total) in standings order."""
    return [(e.rank, e.start_number, e.total) for e in Entry.objects.standings(event)]


def test_cego_standings_rank_by_total_and_share_ranks_on_equal_totals():
    table = make_table()
    seats = by_seat(table)
    hands.record_hand(table=table, data=cego("halbe", 0, 47))  # +60 for seat 0
    rows = {e.pk: (e.rank, e.total) for e in Entry.objects.standings(table.round.event)}
    assert rows[seats[0].pk] == (1, 60)
    assert {rows[e.pk] for e in seats[1:]} == {(2, -20)}


def test_the_last_place_is_visible_in_the_standings():
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 2, 34))  # seat 2 loses 60
    last = list(Entry.objects.standings(table.round.event))[-1]
    assert last.pk == by_seat(table)[2].pk
    assert last.rank == 4
    assert last.total == -60


def test_standings_have_a_column_per_round():
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    first = make_round(event)
    table = first.tables.get()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    rounds.close_round(round=first)
    second = make_round(event, seed=5)
    hands.record_hand(table=second.tables.get(), data=cego("cego", 0, 40))
    rows = list(Entry.objects.standings(event, [first, second]))
    for row in rows:
        assert row.total == row.round_1 + row.round_2
    assert sorted(r.round_1 for r in rows) == [-20, -20, -20, 60]


def test_ziege_orders_by_matches_won_then_difference_then_fewer_conceded():
    table = make_table("ziege", 4)
    a1, _b1, a2, _b2 = by_seat(table)
    hands.record_hand(table=table, data={"team_a_points": 120})  # B concedes 6
    hands.record_hand(table=table, data={"team_a_points": 120})  # B concedes 6: A wins match
    hands.record_hand(table=table, data={"team_a_points": 20})  # A concedes 4
    rows = list(Entry.objects.standings(table.round.event))
    top = {rows[0].pk, rows[1].pk}
    assert top == {a1.pk, a2.pk}
    assert (rows[0].matches, rows[0].difference, rows[0].conceded) == (1, 8, 4)
    assert (rows[2].matches, rows[2].difference, rows[2].conceded) == (0, -8, 12)
    assert [r.rank for r in rows] == [1, 1, 3, 3]


A_GAME = {
    "cego": cego("solo", 1, 50),
    "ziege": {"team_a_points": 20},
    "crazy_solo": {"contract": "solo", "bidder": 0, "partner": 1, "soloist_points": 80},
    "hennes_sibbe": {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 5, "colour": "gelb"},
        "claim_correct": False,
    },
}


@pytest.mark.parametrize("game", sorted(A_GAME))
def test_the_standings_figures_are_whole_numbers_as_the_database_gives_them(game: str):
    """Totals, figures, round columns and ranks are Python ints, whatever the game and the
    database (a Decimal would print and export differently)."""
    table = make_table(game, 4)
    hands.record_hand(table=table, data=A_GAME[game])
    event = table.round.event
    standings = Entry.objects.standings(event, list(event.rounds.all()))
    rows = list(standings)
    assert len(rows) == 4
    assert {row.total for row in rows} != {0}  # the game counted
    names = ["total", "rank", "round_1", *[f.name for f in event.game_type.figures]]
    for row in rows:
        assert {name: type(getattr(row, name)) for name in names} == dict.fromkeys(names, int)


def test_hennes_sibbe_fewest_penalty_cards_rank_first_then_fewest_games_lost():
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    seats = by_seat(table)

    for loser in (0, 0, 1, 2):  # seat 0 reaches the limit (a lost game), then 1 and 2 get one each
        hands.record_hand(table=table, data=challenge(loser))
    rows = list(Entry.objects.standings(table.round.event))
    assert {(r.pk, r.total, r.games_lost, r.rank) for r in rows[:2]} == {
        (seats[1].pk, 1, 0, 1),
        (seats[2].pk, 1, 0, 1),
    }
    assert (rows[2].pk, rows[2].total, rows[2].games_lost, rows[2].rank) == (seats[0].pk, 2, 1, 3)


def test_hennes_sibbe_columns_read_in_ranking_order_penalty_cards_first(client):
    table = make_table("hennes_sibbe", 3)
    hands.record_hand(
        table=table,
        data=challenge(),
    )
    event = table.round.event
    page = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    headings = [
        re.sub(r"<[^>]+>", "", th).strip()
        for th in re.findall(r"<th[^>]*>(.*?)</th>", page.split('class="standings', 1)[1], re.S)
    ]
    assert headings[-2:] == ["Penalty cards", "Games lost"]
    response = client.get(reverse("event_xlsx", args=[event.slug]))
    header = load_workbook(io.BytesIO(response.content)).worksheets[0][1]
    cells = [cell.value for cell in header]
    assert cells.index("Penalty cards") < cells.index("Games lost")


def test_a_draw_by_lot_separates_a_tie_for_first_place():
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    hands.record_hand(table=table, data=cego("halbe", 1, 47))
    event = table.round.event
    tied = [e for e in Entry.objects.standings(event) if e.rank == 1]
    assert len(tied) == 2
    assert [len(group) for group in standings.prize_ties(event)] == [2, 2]
    lots.decide_by_lot(event=event, entries=tied, seed=11)
    ranks = sorted(e.rank for e in Entry.objects.standings(event) if e.pk in {t.pk for t in tied})
    assert ranks == [1, 2]
    assert [len(g) for g in standings.prize_ties(event)] == [2]


def test_withdrawn_players_stay_in_the_standings_with_their_points():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    leaver = by_seat(table)[0]
    Round.objects.update(status=Round.Status.CLOSED)
    register_services.withdraw_entry(entry=leaver)
    row = next(e for e in Entry.objects.standings(event) if e.pk == leaver.pk)
    assert (row.rank, row.total, row.is_active) == (1, 60, False)


def test_a_voided_table_counts_nothing_in_the_standings():
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event)
    first, second = rnd.tables.order_by("number")
    hands.record_hand(table=first, data=cego("halbe", 0, 47))
    hands.record_hand(table=second, data=cego("halbe", 0, 47))
    hands.void_table(table=first, reason="Blatt unleserlich")
    totals = {e.pk: e.total for e in Entry.objects.standings(event)}
    assert [totals[e.pk] for e in by_seat(first)] == [0, 0, 0, 0]
    assert [totals[e.pk] for e in by_seat(second)] == [60, -20, -20, -20]


def test_a_side_ranking_ranks_a_category_among_itself():
    event = make_event()
    women = make_entries(event, 2, category="damen")
    make_entries(event, 2)
    table = make_round(event).tables.get()
    seat_of = {s.entry_id: s.position for s in table.seats.all()}
    hands.record_hand(table=table, data=cego("halbe", seat_of[women[1].pk], 47))
    rows = list(Entry.objects.filter(player__category="damen").standings(event))
    assert [(r.pk, r.rank) for r in rows] == [(women[1].pk, 1), (women[0].pk, 2)]


def test_a_team_of_four_scores_the_sum_of_its_members():
    event = make_event()
    entries = make_entries(event, 8)
    red = Team.objects.create(event=event, name="Rot", kind=Team.Kind.SQUAD)
    blue = Team.objects.create(event=event, name="Blau", kind=Team.Kind.SQUAD)
    Entry.objects.filter(pk__in=[e.pk for e in entries[:4]]).update(squad=red)
    Entry.objects.filter(pk__in=[e.pk for e in entries[4:]]).update(squad=blue)
    rnd = make_round(event)
    for table in rnd.tables.all():
        hands.record_hand(table=table, data=cego("halbe", 0, 47))
    expected = {}
    for team in (red, blue):
        expected[team.name] = sum(
            e.total for e in Entry.objects.standings(event) if e.squad_id == team.pk
        )
    rows = standings.team_standings(event)
    assert {r["name"]: r["total"] for r in rows} == expected
    assert sum(expected.values()) == 0


def test_season_standings_add_up_each_players_events():
    season, players, events = season_with_two_events()
    columns, rows = standings.season_standings(season)
    assert columns == events
    first = next(r for r in rows if r["name"].startswith(players[0].last_name))
    assert (first[f"event_{events[0].pk}"], first[f"event_{events[1].pk}"]) == (60, -60)
    assert first["total"] == 0
    assert sorted(r["total"] for r in rows) == [0, 0, 0, 0]


def test_season_best_n_counts_only_each_players_best_events():
    season, players, _events = season_with_two_events(best_of=1)
    _columns, rows = standings.season_standings(season)
    first = next(r for r in rows if r["name"].startswith(players[0].last_name))
    assert first["total"] == 60
    others = [r["total"] for r in rows if r is not first]
    assert others == [20, 20, 20]
    assert [r["rank"] for r in rows] == [1, 2, 2, 2]


# --- a draw by lot splits only the tie it was drawn for (issue 10) ------------------------------


def tied_for_first():
    """Seats 0 and 1 tied on +40 for first place (each won a Halbe, lost a share of the other)."""
    table = make_table()
    first = hands.record_hand(table=table, data=cego("halbe", 0, 47))
    hands.record_hand(table=table, data=cego("halbe", 1, 47))
    event = table.round.event
    tied = [e for e in Entry.objects.standings(event) if e.rank == 1]
    assert len(tied) == 2
    return table, event, tied, first


def ranks_of(event, entries) -> list[int]:
    wanted = {e.pk for e in entries}
    return sorted(e.rank for e in Entry.objects.standings(event) if e.pk in wanted)


def test_a_lot_lapses_when_a_correction_changes_the_tied_total():
    _table, event, tied, first = tied_for_first()
    draw = lots.decide_by_lot(event=event, entries=tied, seed=11)
    assert ranks_of(event, tied) == [1, 2]
    # seat 0's game is corrected: now seat 0 leads alone
    hands.edit_hand(hand=first, data=cego("eine", 0, 47), reason="Eine, nicht Halbe")
    hands.edit_hand(hand=first, data=cego("halbe", 0, 47), reason="doch Halbe")
    # back on the same total, but the draw lapsed when the tie went away: the tie shows again
    assert ranks_of(event, tied) == [1, 1]
    draw.refresh_from_db()
    assert draw.lapsed_at is not None
    assert [len(g) for g in standings.prize_ties(event)] == [2, 2]


def test_a_lot_lapses_when_another_player_joins_the_tie():
    event = make_event()
    make_entries(event, 8)
    one, two = make_round(event).tables.order_by("number")
    for declarer in (0, 1):  # seats 0 and 1 of table 1: +40 each
        hands.record_hand(table=one, data=cego("halbe", declarer, 47))
    hands.record_hand(table=two, data=cego("halbe", 0, 47))  # table 2, seat 0: +60, alone
    tied = by_seat(one)[:2]
    assert ranks_of(event, tied) == [2, 2]
    lots.decide_by_lot(event=event, entries=tied, seed=11)
    assert ranks_of(event, tied) == [2, 3]
    # table 2's next game brings its seats 0 and 1 to +40 too: a tie of four, not the one drawn
    hands.record_hand(table=two, data=cego("halbe", 1, 47))
    rows = [(e.rank, e.total) for e in Entry.objects.standings(event)]
    assert rows[:4] == [(1, 40)] * 4
    assert not Entry.objects.filter(event=event, lot__isnull=False).exists()


def test_a_lot_keeps_counting_while_its_tie_is_unchanged():
    _table, event, tied, first = tied_for_first()
    lots.decide_by_lot(event=event, entries=tied, seed=11)
    # a correction that changes no total (48 card points win the Halbe just as 47 did) and a
    # game in another event leave the tie as it was
    hands.edit_hand(hand=first, data=cego("halbe", 0, 48), reason="48, nicht 47")
    hands.record_hand(table=make_table(), data=cego("halbe", 0, 47))
    assert ranks_of(event, tied) == [1, 2]


def test_voiding_the_table_makes_the_lot_lapse():
    table, event, tied, _first = tied_for_first()
    draw = lots.decide_by_lot(event=event, entries=tied, seed=11)
    hands.void_table(table=table, reason="Revoke")
    hands.restore_table(table=table, reason="doch gültig")
    # the tie is back, but the lot was drawn before a change to it: it does not return
    assert ranks_of(event, tied) == [1, 1]
    draw.refresh_from_db()
    assert draw.lapsed_at is not None


def test_players_not_tied_cannot_be_separated_by_lot():
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    seats = [s.entry for s in table.seats.select_related("entry").order_by("position")]
    with pytest.raises(errors.Refused, match="tied"):
        lots.decide_by_lot(event=table.round.event, entries=seats[:2])
    assert not Entry.objects.filter(lot__isnull=False).exists()


def test_a_new_draw_on_the_same_tie_replaces_the_earlier_one():
    _table, event, tied, _first = tied_for_first()
    earlier = lots.decide_by_lot(event=event, entries=tied, seed=11)
    later = lots.decide_by_lot(event=event, entries=tied, seed=12)
    earlier.refresh_from_db()
    assert earlier.lapsed_at is not None
    assert later.lapsed_at is None
    assert ranks_of(event, tied) == [1, 2]


# --- a season holds one game and ranks in its order (issue 10) ----------------------------------


def test_an_event_of_another_game_cannot_join_a_season():
    season = make_season()  # Cego, the default
    event = make_event("ziege")
    event.season = season
    with pytest.raises(ValidationError) as exc:
        event.full_clean()
    assert "season" in exc.value.message_dict


def test_a_season_cannot_change_to_another_game_than_its_events():
    season = make_season()
    make_event(season=season)
    season.game = "ziege"
    with pytest.raises(ValidationError) as exc:
        season.full_clean()
    assert "game" in exc.value.message_dict


def test_a_hennes_sibbe_season_ranks_the_fewest_penalty_cards_first():
    season = make_season(game="hennes_sibbe")
    players = [make_player() for _ in range(3)]
    event = make_event(
        "hennes_sibbe",
        season=season,
        target_table_size=3,
        table_policy=Event.TablePolicy.MIXED,
    )
    for player in players:
        register_services.register_player(event=event, player=player)
    table = make_round(event).tables.get()
    seat_of = {s.entry.player_id: s.position for s in table.seats.select_related("entry")}
    for challenger_player in (players[2], players[2], players[1]):
        hands.record_hand(
            table=table,
            data={
                "claimant": seat_of[players[0].pk],
                "challenger": seat_of[challenger_player.pk],
                "claim": {"count": 1, "colour": "rot"},
                "claim_correct": True,
            },
        )
    _events, rows = standings.season_standings(season)
    assert [(r["rank"], r["name"], r["total"]) for r in rows] == [
        (1, players[0].sort_name, 0),
        (2, players[1].sort_name, 1),
        (3, players[2].sort_name, 2),
    ]


def test_a_ziege_season_ranks_by_matches_won_before_defeat_points():
    season = make_season(game="ziege")
    event = make_event("ziege", season=season)
    make_entries(event, 4)
    table = make_round(event).tables.get()
    for points in (120, 120, 20, 20):  # A wins a match (B concedes 12), then concedes 8
        hands.record_hand(table=table, data={"team_a_points": points})
    _events, rows = standings.season_standings(season)
    # team A won the match; ordering by the summed defeat points, higher first, put B first.
    # The season's total is the result that ranks (matches won), its tie-breakers beside it
    assert [(r["total"], r["difference"], r["conceded"]) for r in rows] == [
        (1, 4, 8),
        (1, 4, 8),
        (0, -4, 12),
        (0, -4, 12),
    ]
    assert [r["rank"] for r in rows] == [1, 1, 3, 3]


# --- who is ranked: entries that played, withdrawn ones marked everywhere ---------------------


def test_an_entry_that_never_sat_at_a_table_is_not_ranked():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    entries = make_entries(event, 5)
    rnd = make_round(event)
    hands.record_hand(table=rnd.tables.get(), data=cego("halbe", 0, 47))
    sat_out = rnd.seats.get(table__isnull=True).entry
    late = register_services.register_player(event=event, player=make_player())
    ranked_ids = [e.pk for e in Entry.objects.standings(event)]
    assert len(ranked_ids) == 4
    assert sat_out.pk not in ranked_ids and late.pk not in ranked_ids
    assert sorted(e.rank for e in Entry.objects.standings(event)) == [1, 2, 2, 2]
    assert len(entries) == 5


def test_a_player_who_sits_out_one_round_and_plays_the_next_is_ranked():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT, hands_per_round={"4": 1})
    make_entries(event, 5)
    first = make_round(event)
    hands.record_hand(table=first.tables.get(), data=cego("cego", 0, 40))
    sat_out = first.seats.get(table__isnull=True).entry
    rounds.close_round(round=first)
    make_round(event, seed=9)
    assert sat_out.pk in [e.pk for e in Entry.objects.standings(event)]


def test_before_the_first_draw_nobody_is_ranked(client):
    event = make_event()
    make_entries(event, 4)
    assert not Entry.objects.standings(event).exists()
    page = client.get(f"/turnier/{event.slug}/rangliste/").content.decode()
    assert "Niemand hat bisher gespielt." in page or "Nobody has played yet." in page


def test_the_season_leaves_out_an_event_a_player_registered_for_but_never_played():
    season, _players, events = season_with_two_events()
    absent = make_player()
    register_services.register_player(event=events[1], player=absent)  # late: after the draw
    _columns, rows = standings.season_standings(season)
    assert absent.last_name not in [r["name"].split(",")[0] for r in rows]


def _withdrawn_after_playing() -> tuple[Event, Entry]:
    season = make_season()
    event = make_event(season=season, table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    leaver = by_seat(table)[0]
    Round.objects.update(status=Round.Status.CLOSED)
    register_services.withdraw_entry(entry=leaver)
    return event, leaver


@pytest.mark.parametrize(
    "url",
    [
        "/turnier/{event}/rangliste/",
        "/turnier/{event}/rangliste/druck/",
        "/turnier/{event}/beamer/",
        "/turnier/{event}/beamer/zeilen/",
        "/turnier/{event}/durchgang/1/ergebnisse/",
        "/saison/{season}/",
    ],
)
def test_a_withdrawn_player_keeps_the_points_and_is_marked_on_every_list(client, url):
    event, leaver = _withdrawn_after_playing()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(url.format(event=event.slug, season=event.season.slug)).content.decode()
    if "/beamer/" in url:  # the projector's lines, as its script writes them
        lines = [line.text for line in projector_lines(page)[0]]
        row = next(line for line in lines if leaver.player.last_name in line and "+60" in line)
        assert "(withdrawn)" in row, row
        return
    row = next(
        line
        for line in page.split("<tr")
        if leaver.player.last_name in line and ("+60" in line or "60" in line)
    )
    assert re.search(r">[^<]*withdrawn[^<]*<", row), row  # a visible mark, not only a class


def test_a_withdrawn_member_is_marked_in_the_team_ranking():
    event, leaver = _withdrawn_after_playing()
    squad = Team.objects.create(event=event, name="Rohrbach", kind=Team.Kind.SQUAD)
    Entry.objects.filter(event=event).update(squad=squad)
    with translation.override("en"):
        row = standings.team_standings(event)[0]
    assert f"{leaver.player} (withdrawn)" in row["members"]
    assert row["total"] == 0
