"""Statistics (tournament.results.player_stats and event_stats) and their pages: each number
checked against values worked out by hand from hands written out below (the results come from
RULES.md's worked examples), never from the code's own output; the pages' query counts pinned for
a small and a bigger event."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_round,
    make_season,
    make_table,
    make_user,
)
from tests.helpers.results import season_of_a_finished_and_a_running_event
from tournament.core.formatting import MINUS
from tournament.models import Entry, Player, Table
from tournament.play import events, hands, rounds
from tournament.register import services as register_services
from tournament.results import event_stats, player_stats

pytestmark = pytest.mark.django_db

# One table of four, seats 0..3 = A, B, C, D. Each hand with its result per seat (RULES.md 7):
CEGO_HANDS = [
    cego("halbe", 0, 34),  # 1: lost 34:45        [-60,  20,   20,   20]
    cego("eine", 0, 41),  # 2: won               [ 60, -20,  -20,  -20]
    cego("halbe", 1, 47),  # 3: won               [-20,  60,  -20,  -20]
    cego("solo", 0, 45),  # 4: won, doubled      [ 60, -20,  -20,  -20]
    {"contract": "cego", "declarer": 2, "declarer_took_trick": False},  # 5: Berg [40, 40, -120, 40]
    {"contract": "raeuber", "announcer": 0, "points": [25, 20, 18, 16]},  # 6: [-240, 80, 80, 80]
    {"contract": "bettel", "declarer": 3, "declarer_tricks": 1},  # 7: [30, 30, 30, -90]
    {"contract": "ulti", "declarer": 1, "won": True},  # 8: [-80, 240, -80, -80]
]
# Totals: A -60+60-20+60+40-240+30-80 = -210; B 20-20+60-20+40+80+30+240 = 430;
#         C 20-20-20-20-120+80+30-80 = -130;  D 20-20-20-20+40+80-90-80 = -90 (sum 0)


def cego_table(**event_kwargs) -> Table:
    table = make_table("cego", **event_kwargs)
    for data in CEGO_HANDS:
        hands.record_hand(table=table, data=data)
    return table


def player_at(table: Table, position: int) -> Player:
    return table.seats.get(position=position).entry.player


def test_event_counts_contracts_played_and_won_with_the_declarers_average_result():
    table = cego_table()
    game = event_stats.event_stats(table.round.event).game
    lines = {line.key: (line.played, line.won, line.lost, line.average) for line in game.contracts}
    assert lines == {
        "cego": (1, 0, 1, -120),  # hand 5, Berg
        "halbe": (2, 1, 1, 0),  # hands 1 (-60) and 3 (+60): average 0
        "eine": (1, 1, 0, 60),
        "solo": (1, 1, 0, 60),
        "bettel": (1, 0, 1, -90),
        "ulti": (1, 1, 0, 240),
        "raeuber": (1, 0, 1, None),  # nobody declares a Räuber: played, not won, no average
    }
    assert game.hands == 8


def test_event_averages_the_declarers_card_points_of_won_and_lost_point_games():
    game = event_stats.event_stats(cego_table().round.event).game
    # won: hands 2, 3, 4 with 41, 47, 45 → 133 / 3 = 44.33; lost: hand 1 (34) and the Berg (0)
    assert game.average_won == pytest.approx(133 / 3)
    assert game.average_lost == 17
    assert game.berg == 1


def test_the_biggest_hand_of_the_day_is_the_largest_win_of_one_player_and_says_where():
    table = cego_table(name="Herbstturnier")
    biggest = event_stats.event_stats(table.round.event).biggest
    # hand 8: B wins an Ulti, +240
    assert biggest.points == 240
    assert biggest.player == str(player_at(table, 1))
    assert str(biggest.place) == "Herbstturnier, round 1, table 1, game 8"
    assert biggest.what.startswith("Ulti")


def test_event_spread_per_round_and_table_is_highest_minus_lowest_total():
    spreads = event_stats.event_stats(cego_table().round.event).spreads
    assert [(s.round, [(t.table, t.high, t.low, t.spread) for t in s.tables]) for s in spreads] == [
        (1, [(1, 430, -210, 640)])
    ]


def test_a_voided_table_counts_nothing_in_the_statistics():
    table = cego_table()
    hands.void_table(table=table, reason="Blatt verloren")
    numbers = event_stats.event_stats(table.round.event)
    assert numbers.game.hands == 0
    assert numbers.biggest is None
    assert numbers.spreads == []
    player = player_stats.player_stats(player_at(table, 0))
    assert [g.hands for g in player.games] == []


def test_a_players_cego_numbers_by_contract_with_best_and_worst_game():
    table = cego_table(name="Herbstturnier")
    (game,) = player_stats.player_stats(player_at(table, 0)).games
    assert game.hands == 8
    # A declared hands 1 (Halbe, -60), 2 (Eine, +60) and 4 (Solo, +60)
    assert [(c.name, c.played, c.won, c.lost, c.average) for c in game.contracts] == [
        ("Halbe", 1, 0, 1, -60),
        ("Eine", 1, 1, 0, 60),
        ("Solo", 1, 1, 0, 60),
    ]
    assert (game.solo, game.raeuber, game.raeuber_lost) == (1, 1, 1)
    # best: +60 in hands 2 and 4, the first one named; worst: the Räuber A announced and lost
    assert (game.best.points, game.best.what, str(game.best.place)) == (
        60,
        "Eine",
        "Herbstturnier, round 1, table 1, game 2",
    )
    assert (game.worst.points, game.worst.what, game.worst.place.number) == (-240, "Räuber", 6)


def test_the_season_course_gives_rank_and_total_after_each_event():
    season = make_season()
    first = cego_table(season=season, name="Erstes", date=datetime.date(2026, 11, 7))
    second = make_table("cego", season=season, name="Zweites", date=datetime.date(2026, 12, 5))
    a, b = player_at(first, 0), player_at(first, 1)
    for position, player in ((0, a), (1, b)):  # A and B play the second event too
        Entry.objects.filter(pk=second.seats.get(position=position).entry_id).update(player=player)
    hands.record_hand(table=second, data=cego("halbe", 0, 47))  # [60, -20, -20, -20]
    numbers = player_stats.player_stats(a)
    # after the first: B 430, D -90, C -130, A -210 → A 4th
    # after the second: B 410, E -20, F -20, D -90, C -130, A -150 → A 6th
    (course,) = numbers.trajectories
    assert course.ranks == [4, 6]
    assert course.totals == [-210, -150]
    assert [(p.event.name, p.rank, p.text) for p in numbers.played] == [
        ("Zweites", 1, "+60"),
        ("Erstes", 4, f"{MINUS}210"),
    ]


def test_the_charts_draw_the_numbers_of_their_tables():
    season = make_season()
    first = cego_table(season=season, name="Erstes", date=datetime.date(2026, 11, 7))
    numbers = player_stats.player_stats(player_at(first, 0))
    (course,) = numbers.trajectories
    assert course.rank_chart.series[0][1] == [row[2] for row in course.rows]
    assert course.total_chart.series[0][1] == [row[3] for row in course.rows]
    assert course.table.rows == [("07/11/2026 Erstes (still running)", ["4", f"{MINUS}210"])]
    ((_game, per_event),) = numbers.per_event
    assert per_event.series[0][1] == [p.value for p in numbers.played] == [-210]
    (game,) = numbers.games
    assert game.chart.series == [("declared", [1, 1, 1]), ("won", [0, 1, 1])]
    assert game.chart.labels == [c.name for c in game.contracts]


def test_ziege_matches_won_and_defeat_points_of_a_player():
    table = make_table("ziege", rules={"match_limit": 6})
    for data in (
        {"team_a_points": 25},  # team A (seats 0, 2) charged 4        [4, 0, 4, 0]
        {"team_a_points": 75},  # team B charged 2                     [0, 2, 0, 2]
        {"team_a_points": 60},  # 60:60, nothing                       [0, 0, 0, 0]
        {"team_a_points": 120, "team_b_took_trick": False},  # B 6: B has 8 ≥ 6, A wins the match
    ):
        hands.record_hand(table=table, data=data)
    (game,) = player_stats.player_stats(player_at(table, 0)).games
    assert (game.hands, game.matches_won, game.taken, game.dealt, game.difference) == (
        4,
        1,
        4,
        8,
        4,
    )
    event = event_stats.event_stats(table.round.event).game
    assert (event.hands, event.matches, event.balls) == (4, 1, 1)


def test_crazy_solo_balance_and_contracts_of_a_player():
    table = make_table("crazy_solo", players=6)
    # RULES.md 7: Solo, bidder 0, partner 3, 74 → [60, -30, -30, 60, -30, -30]
    hands.record_hand(
        table=table,
        data={"contract": "solo", "bidder": 0, "partner": 3, "soloist_points": 74, "trump": "pik"},
    )
    # Alleingang, bidder 1, 50: |50 - 60| · 2 = 20, the Gang of 5 wins → [20, -100, 20, 20, 20, 20]
    hands.record_hand(
        table=table, data={"contract": "alleingang", "bidder": 1, "soloist_points": 50}
    )
    (bidder,) = player_stats.player_stats(player_at(table, 0)).games
    assert (bidder.hands, bidder.chips, bidder.average) == (2, 80, 40)
    assert [(c.key, c.played, c.won, c.average) for c in bidder.contracts] == [("solo", 1, 1, 60)]
    (partner,) = player_stats.player_stats(player_at(table, 3)).games
    assert (partner.partner, partner.partner_won, partner.chips) == (1, 1, 80)
    event = event_stats.event_stats(table.round.event).game
    assert [(c.key, c.played, c.won, c.average) for c in event.contracts] == [
        ("solo", 1, 1, 60),
        ("alleingang", 1, 0, -100),
    ]


def test_hennes_sibbe_claims_made_and_challenges_lost():
    table = make_table("hennes_sibbe", players=3)
    claim = {"count": 3, "colour": "rot"}
    for claimant, challenger, correct in (
        (0, 1, True),  # seat 1 called wrongly: [0, 1, 0]
        (1, 2, False),  # seat 1's claim was wrong: [0, 1, 0]
        (0, 2, False),  # seat 0's claim was wrong: [1, 0, 0]
        (2, 1, True),  # seat 1 called wrongly, its third card: the game is lost [0, 1, 0]
    ):
        hands.record_hand(
            table=table,
            data={
                "claimant": claimant,
                "challenger": challenger,
                "claim": claim,
                "claim_correct": correct,
            },
        )
    (seat1,) = player_stats.player_stats(player_at(table, 1)).games
    assert (seat1.hands, seat1.claims, seat1.claims_wrong, seat1.calls, seat1.calls_wrong) == (
        3,
        1,
        1,
        2,
        2,
    )
    assert (seat1.challenges_lost, seat1.games_lost) == (3, 1)
    (seat0,) = player_stats.player_stats(player_at(table, 0)).games
    assert (seat0.hands, seat0.claims, seat0.claims_wrong, seat0.calls, seat0.challenges_lost) == (
        2,
        2,
        1,
        0,
        1,
    )
    event = event_stats.event_stats(table.round.event).game
    assert (event.hands, event.claims_right, event.claims_wrong, event.games) == (4, 2, 2, 1)


# --- pages ---------------------------------------------------------------------------------


def bigger_event(tables: int = 3, hand_count: int = 10):
    """An event of ``tables`` tables in each of two rounds, ``hand_count`` hands each."""
    event = make_event(hands_per_round={"*": hand_count})
    make_entries(event, tables * 4)
    for number in (1, 2):
        rnd = make_round(event, seed=number)
        for table in rnd.tables.all():
            for n in range(hand_count):
                hands.record_hand(table=table, data=cego("halbe", n % 4, 30 + n))
        rounds.close_round(round=rnd)
    return event


def test_the_player_page_costs_the_same_queries_for_a_small_and_a_bigger_history(
    client: Client, django_assert_num_queries
):
    season = make_season()
    small = cego_table(season=season)
    big = bigger_event(tables=3, hand_count=12)
    big.season = season
    big.save()
    Entry.objects.filter(event=big, start_number=1).update(player=player_at(small, 0))
    for player in (player_at(small, 1), player_at(small, 0)):
        # Expect 5 queries: the player, their entries with events and seasons, the seasons'
        # events, every entry's sums in those events, the player's results with their hands
        with django_assert_num_queries(5):
            response = client.get(reverse("player", args=[player.uid]))
        assert response.status_code == 200


def test_the_player_page_shows_charts_as_static_svg_with_their_numbers_in_german():
    season = make_season(name="Saison 2026/27")
    table = cego_table(season=season, name="Erstes", date=datetime.date(2026, 11, 7))
    german = Client(headers={"accept-language": "de"})
    german.cookies["django_language"] = "de"
    page = german.get(reverse("player", args=[player_at(table, 0).uid])).content.decode()
    assert page.count("<svg") == 4  # result per event, season rank, season total, contracts
    assert "<script" not in page.split("<main")[1].split("</main>")[0]
    assert "http://" not in re.sub(r'xmlns(:\w+)?="[^"]+"', "", page)
    assert "Saisonplatz" in page  # the axis and table headings are German
    assert f"{MINUS}210" in page


def tables_on(html: str) -> list[list[list[str]]]:
    """Each table's body rows on a page, each cell's text as a reader sees it."""
    return [
        [
            [
                re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()
                for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            ]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
        ]
        for body in re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    ]


def test_the_player_page_marks_an_event_still_running_until_it_is_finished(client: Client):
    season, leader, (_finished, running) = season_of_a_finished_and_a_running_event()
    url = reverse("player", args=[leader.uid])
    played, per_event, course, *_games = tables_on(client.get(url).content.decode())
    # the events played, newest first: rank and result of the running event are provisional
    assert played == [
        ["31/10/2026", "Triberg provisional", season.name, "1", "+60"],
        ["03/10/2026", "Furtwangen", season.name, "1", "+1030"],
    ]
    assert [row[0] for row in per_event + course] == [
        "03/10/2026 Furtwangen",
        "31/10/2026 Triberg (still running)",
    ] * 2

    rounds.close_round(round=running.rounds.get())
    events.finish_event(event=running)
    played, per_event, course, *_games = tables_on(client.get(url).content.decode())
    assert [row[1] for row in played] == ["Triberg", "Furtwangen"]
    assert [row[0] for row in per_event + course] == [
        "03/10/2026 Furtwangen",
        "31/10/2026 Triberg",
    ] * 2


def test_the_player_page_writes_results_and_season_totals_as_the_standings_do(client: Client):
    """One way for a number in every table of the page: signed as the event standings and the
    season page write it (+1030), never 1030 in one table and 1,030 in the next."""
    _season, leader, (finished, _running) = season_of_a_finished_and_a_running_event()
    played, per_event, course, *_games = tables_on(
        client.get(reverse("player", args=[leader.uid])).content.decode()
    )
    assert [row[4] for row in played] == ["+60", "+1030"]  # newest first
    assert per_event == [
        ["03/10/2026 Furtwangen", "+1030"],
        ["31/10/2026 Triberg (still running)", "+60"],
    ]
    # the season rank and total after each event, as the season page writes the total
    assert [row[1:] for row in course] == [["1", "+1030"], ["1", "+1090"]]
    standings = client.get(reverse("event_standings", args=[finished.slug])).content.decode()
    assert '<td class="num">+1030</td>' in standings


def test_the_event_statistics_page_costs_the_same_queries_small_or_big(
    client: Client, django_assert_num_queries
):
    for event in (cego_table().round.event, bigger_event(tables=4, hand_count=12)):
        url = reverse("event_statistics", args=[event.slug])
        # Expect 6 queries: the event, its hands with the declarers' results, the matches and
        # games ended, each table's totals per seat, the biggest result, the players at its table
        with django_assert_num_queries(6):
            response = client.get(url)
        assert response.status_code == 200
        assert "Pace of the tables" not in response.content.decode()
        # the next visitor of the same version: the event's row, the page kept in the cache
        with django_assert_num_queries(1):
            assert client.get(url).content == response.content


def test_the_director_sees_how_fast_each_table_played(client: Client, django_assert_num_queries):
    table = cego_table()
    client.force_login(make_user())
    for event in (table.round.event, bigger_event(tables=4, hand_count=6)):
        # Expect 9 queries: session, user, the six of the public page, the tables' pace
        with django_assert_num_queries(9):
            page = client.get(reverse("event_statistics", args=[event.slug])).content.decode()
        assert "Pace of the tables" in page
    pace = event_stats.table_pace(table.round.event)
    assert [(p.round, p.table, p.hands) for p in pace] == [(1, 1, 8)]


def test_every_name_in_the_standings_links_to_the_players_page(client: Client):
    season = make_season()
    table = cego_table(season=season)
    player = player_at(table, 1)
    link = f'href="/spieler/{player.uid}/"'
    standings = client.get(reverse("event_standings", args=[table.round.event.slug]))
    assert link in standings.content.decode()
    assert link in client.get(reverse("season", args=[season.slug])).content.decode()


def test_the_event_statistics_show_a_game_entered_after_the_page_was_kept(client: Client):
    table = cego_table()
    url = reverse("event_statistics", args=[table.round.event.slug])
    page = client.get(url).content.decode()
    assert "8 games played" in page
    # the spread row of table 1: highest +430 (B), lowest −210 (A), 640 apart
    assert (
        f'<tr><th scope="row">1</th><td class="num">+430</td><td class="num">{MINUS}210</td>'
        '<td class="num">640</td></tr>'
    ) in page
    hands.record_hand(table=table, data=cego("halbe", 2, 47))
    assert "9 games played" in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("game", "players", "data", "player_text", "event_text"),
    [
        ("ziege", 4, {"team_a_points": 25}, "Matches won", "60:60 (Kugeln)"),
        (
            "crazy_solo",
            6,
            {"contract": "solo", "bidder": 0, "partner": 3, "soloist_points": 74, "trump": "pik"},
            "Chips won and lost over all deals",
            "Contracts played and won",
        ),
        (
            "hennes_sibbe",
            3,
            {
                "claimant": 0,
                "challenger": 1,
                "claim": {"count": 3, "colour": "rot"},
                "claim_correct": False,
            },
            "Claims made (challenged)",
            "The claim was wrong",
        ),
    ],
)
def test_every_game_has_its_player_page_and_event_statistics(
    client: Client, game, players, data, player_text, event_text
):
    table = make_table(game, players=players)
    hands.record_hand(table=table, data=data)
    player = client.get(reverse("player", args=[player_at(table, 0).uid])).content.decode()
    assert player_text in player
    event = client.get(reverse("event_statistics", args=[table.round.event.slug]))
    assert event_text in event.content.decode()


def test_an_event_without_games_has_an_empty_statistics_page(client: Client):
    table = make_table("cego")
    page = client.get(reverse("event_statistics", args=[table.round.event.slug]))
    assert "No game has been entered yet." in page.content.decode()
    assert "<svg" not in page.content.decode()


def test_the_season_course_after_an_event_still_running_is_provisional_too(client: Client):
    """Triberg is still running (the director has not finished it) when a later event of the
    season is played and finished: the season's rank and total after that later event include
    Triberg's games, so they are provisional as well."""
    season, leader, (_finished, running) = season_of_a_finished_and_a_running_event()
    later = make_event(
        season=season, name="Schonach", date=datetime.date(2026, 11, 21), hands_per_round={"*": 1}
    )
    for entry in running.entries.select_related("player"):
        register_services.register_player(event=later, player=entry.player)
    table = make_round(later, seed=3).tables.get()
    hands.record_totals(table=table, totals=[20, 0, -10, -10])
    rounds.close_round(round=table.round)
    events.finish_event(event=later)
    url = reverse("player", args=[leader.uid])
    *_played, course, _games = tables_on(client.get(url).content.decode())[:4]
    assert [row[0] for row in course] == [
        "03/10/2026 Furtwangen",
        "31/10/2026 Triberg (still running)",
        "21/11/2026 Schonach (season figures provisional)",
    ]


# --- the charts as the browser gets them ------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def charts_on(html: str) -> list[ET.Element]:
    """Each chart of a page, as the browser reads its inline SVG."""
    return [ET.fromstring(svg) for svg in re.findall(r"<svg\b.*?</svg>", html, re.S)]


def title_of(svg: ET.Element) -> str:
    return svg.find(f"{SVG}title").text


def axis_labels(svg: ET.Element, axis: str) -> list[str]:
    """The labels written along an axis ("x" or "y"), in the order drawn."""
    return [
        text.text
        for g in svg.iter(f"{SVG}g")
        if g.get("class", "").startswith(f"axis {axis}")
        for text in g.iter(f"{SVG}text")
    ]


def test_the_event_statistics_chart_is_titled_with_its_game_and_writes_contracts_whole(
    client: Client,
):
    table = make_table("crazy_solo", players=4)
    for data in (
        {"contract": "solo", "bidder": 0, "partner": 2, "soloist_points": 74, "trump": "pik"},
        {"contract": "alleingang_herz", "bidder": 1, "soloist_points": 70},
        {"contract": "alleingang_herz", "bidder": 2, "soloist_points": 40},
    ):
        hands.record_hand(table=table, data=data)
    page = client.get(reverse("event_statistics", args=[table.round.event.slug]))
    (chart,) = charts_on(page.content.decode())
    assert title_of(chart) == "Crazy Solo: contracts declared and won"
    # the contracts by their whole names, none cut to "Alleingang mi…"
    assert axis_labels(chart, "x") == ["Solo", "Alleingang mit Herz"]
    # games declared (1 and 2) and won are counted in whole games: 0, 1, 2, never 0.5
    assert axis_labels(chart, "y") == ["0", "1", "2"]


def test_the_player_page_titles_each_chart_with_its_game_and_counts_matches_whole(
    client: Client,
):
    table = make_table("ziege", rules={"match_limit": 6})
    for data in (
        {"team_a_points": 25},
        {"team_a_points": 120, "team_b_took_trick": False},  # B 6: B has 6, A wins the match
    ):
        hands.record_hand(table=table, data=data)
    page = client.get(reverse("player", args=[player_at(table, 0).uid])).content.decode()
    per_event = next(c for c in charts_on(page) if title_of(c).startswith("Ziege"))
    assert title_of(per_event) == "Ziege: result per event"
    # one match won: the axis counts 0 and 1 matches, nothing between
    assert axis_labels(per_event, "y") == ["0", "1"]
    assert "<figcaption>Ziege: result per event</figcaption>" in page
