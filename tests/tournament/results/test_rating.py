"""The rating across events and seasons (issue 16): its order on a season where the order is
clear, shared ranks, voided tables and open rounds, determinism, provisional players, the page
and its fixed query count."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import cego, make_entries, make_event, make_round, make_season, make_table
from tournament import games
from tournament.models import Entry, Rating
from tournament.play import hands, rounds
from tournament.register import services as register_services
from tournament.results import rating

pytestmark = pytest.mark.django_db

# a table's round totals handed out by strength: the strongest at the table gets the most
SHARES = [90, 30, -30, -90]


def play_event(players, *, strength, day, season=None, round_count=2, seed=1):
    """A Cego event of ``players`` (Player rows): every round's tables hand in totals that rank
    the players at each table by ``strength`` (higher: better), then the round closes."""
    event = make_event(date=datetime.date(2026, 11, day), season=season, rounds_planned=round_count)
    entries = [register_services.register_player(event=event, player=p) for p in players]
    strength_of = {e.pk: strength[e.player_id] for e in entries}
    for number in range(round_count):
        rnd = make_round(event, seed=seed + 7 * number + day)
        for table in rnd.tables.all():
            seats = [s.entry_id for s in table.seats.order_by("position")]
            order = sorted(seats, key=lambda e: -strength_of[e])
            totals = [SHARES[order.index(e)] for e in seats]
            hands.record_totals(table=table, totals=totals)
        rounds.close_round(round=rnd)
    return event


def players_of(count):
    event = make_event()
    return [e.player for e in make_entries(event, count)]


def ordered(game="cego"):
    return [r.player_id for r in rating.ratings(game)]


def test_a_player_who_wins_every_table_ranks_first_and_one_who_loses_every_table_last():
    players = players_of(8)
    # strength by list order: players[0] wins each of their tables, players[-1] loses each
    strength = {p.pk: 8 - i for i, p in enumerate(players)}
    season = make_season()
    for day in (1, 8, 15):
        play_event(players, strength=strength, day=day, season=season)
    rating.compute_ratings(game="cego")
    order = ordered()
    assert order[0] == players[0].pk
    assert order[-1] == players[-1].pk
    assert len(order) == 8


def test_four_players_always_at_one_table_are_rated_in_the_order_of_their_results():
    players = players_of(4)
    strength = {p.pk: s for p, s in zip(players, [2, 4, 1, 3], strict=True)}
    for day in (1, 8):
        play_event(players, strength=strength, day=day)
    rating.compute_ratings()
    assert ordered() == [players[1].pk, players[3].pk, players[0].pk, players[2].pk]
    rows = list(rating.ratings("cego"))
    # each played four tables (two events of two rounds); every total stands for 24 games
    assert {(r.tables, r.hands) for r in rows} == {(4, 96)}
    # mu - 3 sigma is the figure shown
    for row in rows:
        assert row.ordinal == pytest.approx(row.mu - 3 * row.sigma)


def test_players_with_equal_results_at_every_table_get_the_same_rating():
    table = make_table(hands_per_round={"4": 1})
    hands.record_totals(table=table, totals=[40, 40, -40, -40])
    rounds.close_round(round=table.round)
    rating.compute_ratings(game="cego")
    by_player = {r.player_id: r.ordinal for r in Rating.objects.all()}
    seats = [s.entry.player_id for s in table.seats.select_related("entry").order_by("position")]
    assert by_player[seats[0]] == by_player[seats[1]] > by_player[seats[2]] == by_player[seats[3]]


def test_a_voided_table_and_a_round_still_being_played_count_nothing():
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    # the round is still being played: nobody is rated yet
    assert rating.compute_ratings(game="cego") == 0
    hands.void_table(table=table, reason="Blatt unleserlich")
    rounds.close_round(round=table.round)
    assert rating.compute_ratings(game="cego") == 0
    assert not Rating.objects.exists()


def test_the_same_hands_always_give_the_same_numbers(capsys):
    players = players_of(8)
    strength = {p.pk: (p.pk * 7919) % 13 for p in players}
    play_event(players, strength=strength, day=1)
    play_event(players, strength=strength, day=8)

    def snapshot():
        return sorted(
            (r.player_id, r.mu, r.sigma, r.ordinal, r.tables, r.hands) for r in Rating.objects.all()
        )

    call_command("compute_ratings")
    first = snapshot()
    call_command("compute_ratings", "cego")
    assert snapshot() == first
    assert "Rated 8 players." in capsys.readouterr().out
    # and from the matches alone, without the database in between
    again = rating.rate(list(rating.matches("cego")))
    assert sorted((p, s.mu, s.sigma) for p, s in again.items()) == [
        (p, mu, sigma) for p, mu, sigma, *_rest in first
    ]


def test_events_are_rated_in_date_order_whatever_order_they_were_entered_in():
    players = players_of(4)
    first_wins = {p.pk: -i for i, p in enumerate(players)}
    last_wins = {p.pk: i for i, p in enumerate(players)}
    # the later event is entered first; the rating reads them by date, and the more recent
    # results weigh a little more (tau keeps every rating moving): the later event's winner
    # ranks above the earlier event's, with otherwise mirrored results
    play_event(players, strength=last_wins, day=20)
    play_event(players, strength=first_wins, day=2)
    rating.compute_ratings(game="cego")
    matches = list(rating.matches("cego"))
    assert [m.players[m.ranks.index(1)] for m in matches] == [players[0].pk] * 2 + [
        players[3].pk
    ] * 2
    order = ordered()
    assert order.index(players[3].pk) < order.index(players[0].pk)


def test_ziege_and_hennes_sibbe_tables_rank_the_way_their_standings_do():
    ziege = games.get("ziege")
    # matches won first, then the difference dealt out minus taken
    seats = [
        {"points": 2, "inflicted": 8, "matches_won": 1, "games_lost": 0},
        {"points": 8, "inflicted": 2, "matches_won": 0, "games_lost": 0},
        {"points": 2, "inflicted": 8, "matches_won": 1, "games_lost": 0},
        {"points": 8, "inflicted": 2, "matches_won": 0, "games_lost": 0},
    ]
    assert rating.table_ranks(ziege, seats) == [1, 3, 1, 3]
    hennes = games.get("hennes_sibbe")
    penalties = [
        {"points": 5, "inflicted": 0, "matches_won": 0, "games_lost": 1},
        {"points": 1, "inflicted": 0, "matches_won": 0, "games_lost": 0},
        {"points": 5, "inflicted": 0, "matches_won": 0, "games_lost": 2},
    ]
    assert rating.table_ranks(hennes, penalties) == [2, 1, 3]


def test_a_ziege_table_rates_the_pair_that_won_the_deals_above_the_other():
    table = make_table("ziege", hands_per_round={"4": 1})
    hands.record_hand(table=table, data={"team_a_points": 75})  # team B takes 2
    rounds.close_round(round=table.round)
    rating.compute_ratings(game="ziege")
    by_seat = [s.entry.player_id for s in table.seats.select_related("entry").order_by("position")]
    ordinal = {r.player_id: r.ordinal for r in Rating.objects.filter(game="ziege")}
    assert ordinal[by_seat[0]] == ordinal[by_seat[2]] > ordinal[by_seat[1]] == ordinal[by_seat[3]]
    assert not Rating.objects.filter(game="cego").exists()


def test_compute_ratings_names_the_games_for_an_unknown_one():
    with pytest.raises(CommandError, match="cego"):
        call_command("compute_ratings", "skat")


def test_a_player_with_few_tables_is_marked_provisional_on_the_page(client):
    regulars = players_of(4)
    strength = {p.pk: i for i, p in enumerate(regulars)}
    for day in (1, 8, 15):
        play_event(regulars, strength=strength, day=day)
    newcomer_event = make_event(date=datetime.date(2026, 11, 22))
    for player in regulars[:3]:
        register_services.register_player(event=newcomer_event, player=player)
    newcomer = make_entries(newcomer_event, 1)[0]
    rnd = make_round(newcomer_event)
    table = rnd.tables.get()
    hands.record_totals(table=table, totals=[30, 10, -10, -30])
    rounds.close_round(round=rnd)
    response = client.get("/wertung/cego/")
    assert response.status_code == 200
    rows = {r.player_id: r for r in response.context["rows"]}
    assert rows[newcomer.player_id].provisional
    assert rows[newcomer.player_id].tables == 1
    assert not any(rows[p.pk].provisional for p in regulars)  # 6 or 7 tables each
    html = response.content.decode()
    assert "provisional" in html or "vorläufig" in html


def test_the_page_recomputes_after_a_round_closes_and_not_for_a_game_entered(client):
    players = players_of(4)
    play_event(players, strength={p.pk: i for i, p in enumerate(players)}, day=1)
    assert client.get("/wertung/cego/").context["rows"]
    computed = rating.RatingBasis.objects.get(game="cego").computed_at
    # a game of a new round is entered: the closed rounds are unchanged, no recompute
    event = Entry.objects.filter(player=players[0]).first().event
    rnd = make_round(event, seed=99)
    table = rnd.tables.get()
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    client.get("/wertung/cego/")
    assert rating.RatingBasis.objects.get(game="cego").computed_at == computed
    # the sheet is entered as totals instead and the round closes: its table counts now
    hands.delete_hand(hand=table.hands.get(), reason="Blatt auf Papier")
    hands.record_totals(table=table, totals=[10, 0, 0, -10])
    rounds.close_round(round=rnd)
    rows = client.get("/wertung/cego/").context["rows"]
    assert {r.tables for r in rows} == {3}


def _page_queries(client, url):
    client.get(url)  # computes the ratings if needed
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_rating_page_costs_the_same_few_queries_for_4_and_12_players(client):
    players = players_of(4)
    play_event(players, strength={p.pk: i for i, p in enumerate(players)}, day=1)
    small = _page_queries(client, "/wertung/cego/")
    more = players_of(8)
    play_event(more, strength={p.pk: i for i, p in enumerate(more)}, day=3)
    play_event(more, strength={p.pk: -i for i, p in enumerate(more)}, day=5)
    # Expect 3 queries: the stored basis, the events' versions (nothing changed since), the
    # ratings with their players
    assert small == _page_queries(client, "/wertung/cego/") == 3


def test_the_rating_page_names_the_game_and_lists_only_that_games_ratings(client):
    players = players_of(4)
    play_event(players, strength={p.pk: i for i, p in enumerate(players)}, day=1)
    assert client.get("/wertung/").status_code == 200
    assert client.get("/wertung/ziege/").context["rows"] == []
    assert client.get("/wertung/skat/").status_code == 404


def test_two_registrations_of_one_person_merged_are_rated_as_one_player(client):
    first_day = players_of(4)
    second_day = [*first_day[:3], players_of(1)[0]]  # the fourth registered again as new
    play_event(first_day, strength={p.pk: i for i, p in enumerate(first_day)}, day=1)
    play_event(second_day, strength={p.pk: i for i, p in enumerate(second_day)}, day=8)
    before = {r.player_id: r.tables for r in client.get("/wertung/cego/").context["rows"]}
    assert before[first_day[3].pk] == before[second_day[3].pk] == 2
    register_services.merge_players(keep=first_day[3], remove=second_day[3])
    after = {r.player_id: r.tables for r in client.get("/wertung/cego/").context["rows"]}
    assert after == {p.pk: 4 for p in first_day}
