"""Standings: shared ranks, each game's order and tie-breaks, lots, withdrawn players, voided
tables, side rankings, teams, seasons; and a fixed number of queries whatever the size."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.html import escape

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_season,
    make_table,
)
from tests.helpers import season_of_a_finished_and_a_running_event
from tournament.core import errors
from tournament.models import (
    Entry,
    Event,
    Hand,
    Player,
    Round,
    Table,
    Team,
    provisional_entries,
)
from tournament.models.querysets import Prepared
from tournament.play import services
from tournament.register import services as register_services
from tournament.results import standings

pytestmark = pytest.mark.django_db


def by_seat(table) -> list[Entry]:
    return [s.entry for s in table.seats.select_related("entry").order_by("position")]


def ranked(event) -> list[tuple[int, int, int]]:
    """(rank, start number, total) in standings order."""
    return [(e.rank, e.start_number, e.total) for e in Entry.objects.standings(event)]


def test_cego_standings_rank_by_total_and_share_ranks_on_equal_totals():
    table = make_table()
    seats = by_seat(table)
    services.record_hand(table=table, data=cego("halbe", 0, 47))  # +60 for seat 0
    rows = {e.pk: (e.rank, e.total) for e in Entry.objects.standings(table.round.event)}
    assert rows[seats[0].pk] == (1, 60)
    assert {rows[e.pk] for e in seats[1:]} == {(2, -20)}


def test_the_last_place_is_visible_in_the_standings():
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 2, 34))  # seat 2 loses 60
    last = list(Entry.objects.standings(table.round.event))[-1]
    assert last.pk == by_seat(table)[2].pk
    assert last.rank == 4
    assert last.total == -60


def test_standings_have_a_column_per_round():
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4)
    first = make_round(event)
    table = first.tables.get()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
    services.close_round(round=first)
    second = make_round(event, seed=5)
    services.record_hand(table=second.tables.get(), data=cego("cego", 0, 40))
    rows = list(Entry.objects.standings(event, [first, second]))
    for row in rows:
        assert row.total == row.round_1 + row.round_2
    assert sorted(r.round_1 for r in rows) == [-20, -20, -20, 60]


def test_ziege_orders_by_matches_won_then_difference_then_fewer_conceded():
    table = make_table("ziege", 4)
    a1, _b1, a2, _b2 = by_seat(table)
    services.record_hand(table=table, data={"team_a_points": 120})  # B concedes 6
    services.record_hand(table=table, data={"team_a_points": 120})  # B concedes 6: A wins match
    services.record_hand(table=table, data={"team_a_points": 20})  # A concedes 4
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
    """Sums and ranks are taken from the database without Django's converter (querysets._Whole):
    they must still be Python ints, whatever the game and the database (a Decimal would print
    and export differently)."""
    table = make_table(game, 4)
    services.record_hand(table=table, data=A_GAME[game])
    event = table.round.event
    standings = Entry.objects.standings(event, list(event.rounds.all()))
    rows = list(standings)
    assert len(rows) == 4
    assert {row.total for row in rows} != {0}  # the game counted
    # taken as the database gives them: no converter between the row and the page
    annotations = standings.query.annotations
    assert {
        name: annotations[name].get_db_converters(connection) for name in ("total", "rank")
    } == {"total": [], "rank": []}
    names = ["total", "rank", "round_1", *[f.name for f in event.game_type.figures]]
    for row in rows:
        assert {name: type(getattr(row, name)) for name in names} == dict.fromkeys(names, int)


def test_hennes_sibbe_fewest_penalty_cards_rank_first_then_fewest_games_lost():
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 2})
    seats = by_seat(table)

    def challenge(loser: int) -> dict:
        # the claimant is wrong: the claimant takes the penalty card
        return {
            "claimant": loser,
            "challenger": (loser + 1) % 3,
            "claim": {"count": 5, "colour": "gelb"},
            "claim_correct": False,
        }

    for loser in (0, 0, 1, 2):  # seat 0 reaches the limit (a lost game), then 1 and 2 get one each
        services.record_hand(table=table, data=challenge(loser))
    rows = list(Entry.objects.standings(table.round.event))
    assert {(r.pk, r.total, r.games_lost, r.rank) for r in rows[:2]} == {
        (seats[1].pk, 1, 0, 1),
        (seats[2].pk, 1, 0, 1),
    }
    assert (rows[2].pk, rows[2].total, rows[2].games_lost, rows[2].rank) == (seats[0].pk, 2, 1, 3)


def test_a_draw_by_lot_separates_a_tie_for_first_place():
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
    services.record_hand(table=table, data=cego("halbe", 1, 47))
    event = table.round.event
    tied = [e for e in Entry.objects.standings(event) if e.rank == 1]
    assert len(tied) == 2
    assert [len(group) for group in standings.prize_ties(event, [])] == [2, 2]
    services.decide_by_lot(event=event, entries=tied, seed=11)
    ranks = sorted(e.rank for e in Entry.objects.standings(event) if e.pk in {t.pk for t in tied})
    assert ranks == [1, 2]
    assert [len(g) for g in standings.prize_ties(event, [])] == [2]


def test_withdrawn_players_stay_in_the_standings_with_their_points():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    table = make_round(event).tables.get()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
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
    services.record_hand(table=first, data=cego("halbe", 0, 47))
    services.record_hand(table=second, data=cego("halbe", 0, 47))
    services.void_table(table=first, reason="Blatt unleserlich")
    totals = {e.pk: e.total for e in Entry.objects.standings(event)}
    assert [totals[e.pk] for e in by_seat(first)] == [0, 0, 0, 0]
    assert [totals[e.pk] for e in by_seat(second)] == [60, -20, -20, -20]


def test_a_side_ranking_ranks_a_category_among_itself():
    event = make_event()
    women = make_entries(event, 2, category="damen")
    make_entries(event, 2)
    table = make_round(event).tables.get()
    seat_of = {s.entry_id: s.position for s in table.seats.all()}
    services.record_hand(table=table, data=cego("halbe", seat_of[women[1].pk], 47))
    rows = list(standings.category_standings(event, [], "damen"))
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
        services.record_hand(table=table, data=cego("halbe", 0, 47))
    expected = {}
    for team in (red, blue):
        expected[team.name] = sum(
            e.total for e in Entry.objects.standings(event) if e.squad_id == team.pk
        )
    rows = standings.team_standings(event)
    assert {r["name"]: r["total"] for r in rows} == expected
    assert sum(expected.values()) == 0


def _season_with_two_events(best_of=None):
    season = make_season(best_of=best_of)
    players = [make_player() for _ in range(4)]
    events = []
    for n, declarer_points in enumerate((47, 34)):
        event = make_event(season=season)
        for player in players:
            register_services.register_player(event=event, player=player)
        table = make_round(event, seed=n + 1).tables.get()
        declarer = next(s.position for s in table.seats.all() if s.entry.player == players[0])
        services.record_hand(table=table, data=cego("halbe", declarer, declarer_points))
        events.append(event)
    return season, players, events


def test_season_standings_add_up_each_players_events():
    season, players, events = _season_with_two_events()
    columns, rows = standings.season_standings(season)
    assert columns == events
    first = next(r for r in rows if r["name"].startswith(players[0].last_name))
    assert (first[f"event_{events[0].pk}"], first[f"event_{events[1].pk}"]) == (60, -60)
    assert first["total"] == 0
    assert sorted(r["total"] for r in rows) == [0, 0, 0, 0]


def test_season_best_n_counts_only_each_players_best_events():
    season, players, _events = _season_with_two_events(best_of=1)
    _columns, rows = standings.season_standings(season)
    first = next(r for r in rows if r["name"].startswith(players[0].last_name))
    assert first["total"] == 60
    others = [r["total"] for r in rows if r is not first]
    assert others == [20, 20, 20]
    assert [r["rank"] for r in rows] == [1, 2, 2, 2]


# --- query counts: a page costs the same whatever the size of the event ------------------------


def _event_of(players: int, hands: int) -> Event:
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, players)
    rnd = make_round(event)
    for table in rnd.tables.all():
        for _ in range(hands):
            services.record_hand(table=table, data=cego("halbe", 0, 47))
    return event


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "url",
    [
        "/turnier/{slug}/rangliste/",
        "/turnier/{slug}/rangliste/?category=damen",
        "/turnier/{slug}/mannschaften/",
        "/turnier/{slug}/durchgang/1/",
        "/turnier/{slug}/durchgang/1/ergebnisse/",
    ],
)
def test_standings_and_lists_cost_the_same_queries_for_8_and_40_players(client, url):
    small, large = _event_of(8, 2), _event_of(40, 3)
    assert _queries(client, url.format(slug=small.slug)) == _queries(
        client, url.format(slug=large.slug)
    )


def test_the_event_standings_page_costs_six_queries_and_readies_the_projector(client):
    event = _event_of(12, 2)
    # Expect 6 queries: the event's version (is the page ready? the one query of every request
    # that finds it so), the event itself (with its season), its rounds, the entries with
    # unconfirmed results (marked provisional), the standings themselves, and the projector's
    # "last result" line: the projector's rows of this version are computed with the standings,
    # from the same rows (tournament.views.public._ranked)
    assert _queries(client, f"/turnier/{event.slug}/rangliste/") == 6
    # and the projector then reads them from the cache: the event's version alone
    assert _queries(client, f"/turnier/{event.slug}/beamer/zeilen/") == 1


def test_a_table_sheet_costs_the_same_queries_for_2_and_20_games(client):
    short, long = _event_of(4, 2), _event_of(4, 20)
    urls = [f"/tisch/{e.rounds.get().tables.get().pk}/" for e in (short, long)]
    assert _queries(client, urls[0]) == _queries(client, urls[1])


def _post_game(client, table, number: int) -> int:
    """A game sent from the table link as a phone sends it; returns the queries it cost."""
    data = {
        "submission": str(uuid.uuid4()),
        "contract": "halbe",
        "declarer": str(number % 4),
        "declarer_points": "40",
        "action": "save",
    }
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(f"/t/{table.token}/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    return len(ctx.captured_queries)


@pytest.mark.django_db(transaction=True)  # the game's own transaction, as on the day
def test_a_game_from_the_table_link_costs_fourteen_queries_for_the_2nd_game_and_the_20th(client):
    table = make_table(hands_per_round={"4": 24})
    _post_game(client, table, 1)  # the phone's first game also gives it its device cookie
    second = _post_game(client, table, 2)
    for number in range(3, 20):
        _post_game(client, table, number)
    twentieth = _post_game(client, table, 20)
    # Expect 14: before the write lock the table, its players and the next game's number (the
    # form's set-up and its check share it); under the lock the table again, its games (the
    # form's key, the next number and the replay all come from them), the history's key check,
    # the game and its history row, the season's and the event's versions, the seats, the
    # game's results (a new game has none to delete first), the seats' sums, the event's lots.
    # The message says the results as they were written, without reading them back. BEGIN and
    # COMMIT are counted too. PostgreSQL asks one more: the round's and the event's rows held
    # before the table's (services._table_for_a_game), so that two tables' games are stored at
    # the same moment.
    held = 1 if connection.vendor == "postgresql" else 0
    assert (second, twentieth) == (14 + held + 2, 14 + held + 2)
    assert table.hands.count() == 20


def _same_rows(read, expected) -> None:
    """Two instances of a model hold the same values, of the same types, field by field."""
    assert type(read) is type(expected)
    for field in type(read)._meta.concrete_fields:
        mine, theirs = getattr(read, field.attname), getattr(expected, field.attname)
        assert (mine, type(mine)) == (theirs, type(theirs)), field.name


@pytest.mark.django_db(transaction=True)
def test_a_read_written_once_gives_what_the_orm_gives_and_builds_no_sql_again(
    django_assert_num_queries, monkeypatch
):
    """The reads of every saved game (querysets.Prepared): their instances are the ORM's, every
    value converted as the ORM converts it (the event's rules from JSON, dates, yes/no), the
    joined rows included; a later run asks one query and builds no SQL."""
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
    read = Prepared(lambda pk: Table.objects.select_related("round__event").filter(pk=pk))
    found = read.first(table.pk)
    expected = Table.objects.select_related("round__event").get(pk=table.pk)
    _same_rows(found, expected)
    _same_rows(found.round, expected.round)
    _same_rows(found.round.event, expected.round.event)
    assert found.round.event.full_rules() == expected.round.event.full_rules()
    assert found.round.event._season_at_load == expected.round.event.season_id  # its from_db
    hands = services.TABLE_HANDS.all(table.pk)
    assert len(hands) == 1
    _same_rows(hands[0], Hand.objects.get(table=table))

    other = make_table()
    slug = Event.objects.get(rounds__tables=other).slug

    def built(*args, **kwargs):
        raise AssertionError("the SQL was built again")

    monkeypatch.setattr(SQLCompiler, "as_sql", built)
    with django_assert_num_queries(1):
        again = read.first(other.pk)
        assert again.round.event.slug == slug  # no query: read with the table
    assert read.first(0) is None
    monkeypatch.undo()
    found.voided, found.void_reason = True, "unleserlich"
    found.save()  # an instance read this way is saved as any other
    assert Table.objects.get(pk=table.pk).void_reason == "unleserlich"
    shifted = Prepared(lambda pk: Table.objects.filter(pk=pk + 1))
    with pytest.raises(ValueError, match="parameters"):
        shifted.first(table.pk)


def test_only_games_of_unconfirmed_counting_sheets_are_marked_provisional(client):
    """The * of the standings: players at a table with games whose sheet is not confirmed yet;
    not at a confirmed sheet, a voided table or a table without games, nor at another event's
    open table."""
    event = make_event()
    make_entries(event, 16)
    rnd = make_round(event)
    open_, confirmed, voided, empty = rnd.tables.order_by("number")
    for table in (open_, confirmed, voided):
        services.record_hand(table=table, data=cego("halbe", 0, 40))
    services.confirm_table(table=confirmed)
    services.void_table(table=voided, reason="unleserlich")
    elsewhere = make_table()  # another event's open table with a game
    services.record_hand(table=elsewhere, data=cego("halbe", 0, 40))
    assert provisional_entries(event) == set(open_.seats.values_list("entry_id", flat=True))
    assert provisional_entries(elsewhere.round.event) == set(
        elsewhere.seats.values_list("entry_id", flat=True)
    )
    assert empty.hands.count() == 0
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = f"/turnier/{event.slug}/rangliste/"
    assert "Provisional: results marked *" in client.get(url).content.decode()
    services.confirm_table(table=open_)
    assert provisional_entries(event) == set()
    assert "Provisional:" not in client.get(url).content.decode()


def headings(html: str) -> list[str]:
    """The table's column headings as a reader sees them."""
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()
        for cell in re.findall(r"<th[^>]*>(.*?)</th>", html, re.S)
    ]


def test_a_running_events_column_on_the_season_page_is_provisional_until_it_is_finished(client):
    season, _leader, (_finished, running) = season_of_a_finished_and_a_running_event()
    url, paper = f"/saison/{season.slug}/", f"/saison/{season.slug}/druck/"
    first = client.get(url)
    html = first.content.decode()
    # the running event's column is marked, the finished one's is not, and a note says why
    assert headings(html) == ["Rank", "Name", "Club", "Furtwangen", "Triberg *", "Total"]
    assert "Provisional: events marked * are still running" in html
    assert headings(client.get(paper).content.decode())[3:5] == ["1", "2*"]

    # every round closed is not yet final: the director finishes the event for that
    rnd = running.rounds.get()
    services.close_round(round=rnd)
    assert "Triberg *" in headings(client.get(url).content.decode())

    services.finish_event(event=running)
    # the very next request, even one that holds the page already, shows it final
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    html = again.content.decode()
    assert headings(html) == ["Rank", "Name", "Club", "Furtwangen", "Triberg", "Total"]
    assert "Provisional" not in html and "still running" not in html
    assert headings(client.get(paper).content.decode())[3:5] == ["1", "2"]


def test_the_season_page_writes_results_as_the_event_standings_do(client):
    season, leader, (finished, _running) = season_of_a_finished_and_a_running_event()
    html = client.get(f"/saison/{season.slug}/").content.decode()
    row = next(r for r in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S) if leader.last_name in r)
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    assert cells[3:] == ["+1030", "+60", "+1090"]
    event_standings = client.get(f"/turnier/{finished.slug}/rangliste/").content.decode()
    assert '<td class="num">+1030</td>' in event_standings
    assert "1.030" not in html and "1,030" not in html


def test_season_standings_cost_the_same_queries_for_one_and_three_events(client):
    small_season = make_season()
    large_season = make_season()
    for season, count in ((small_season, 1), (large_season, 3)):
        for _ in range(count):
            event = _event_of(8, 1)
            event.season = season
            event.save()
    assert _queries(client, f"/saison/{small_season.slug}/") == _queries(
        client, f"/saison/{large_season.slug}/"
    )


# --- a draw by lot splits only the tie it was drawn for (issue 10) ------------------------------


def tied_for_first():
    """Seats 0 and 1 tied on +40 for first place (each won a Halbe, lost a share of the other)."""
    table = make_table()
    first = services.record_hand(table=table, data=cego("halbe", 0, 47))
    services.record_hand(table=table, data=cego("halbe", 1, 47))
    event = table.round.event
    tied = [e for e in Entry.objects.standings(event) if e.rank == 1]
    assert len(tied) == 2
    return table, event, tied, first


def ranks_of(event, entries) -> list[int]:
    wanted = {e.pk for e in entries}
    return sorted(e.rank for e in Entry.objects.standings(event) if e.pk in wanted)


def test_a_lot_lapses_when_a_correction_changes_the_tied_total():
    _table, event, tied, first = tied_for_first()
    draw = services.decide_by_lot(event=event, entries=tied, seed=11)
    assert ranks_of(event, tied) == [1, 2]
    # seat 0's game is corrected: now seat 0 leads alone
    services.edit_hand(hand=first, data=cego("eine", 0, 47), reason="Eine, nicht Halbe")
    services.edit_hand(hand=first, data=cego("halbe", 0, 47), reason="doch Halbe")
    # back on the same total, but the draw lapsed when the tie went away: the tie shows again
    assert ranks_of(event, tied) == [1, 1]
    draw.refresh_from_db()
    assert draw.lapsed_at is not None
    assert [len(g) for g in standings.prize_ties(event, [])] == [2, 2]


def test_a_lot_lapses_when_another_player_joins_the_tie():
    event = make_event()
    make_entries(event, 8)
    one, two = make_round(event).tables.order_by("number")
    for declarer in (0, 1):  # seats 0 and 1 of table 1: +40 each
        services.record_hand(table=one, data=cego("halbe", declarer, 47))
    services.record_hand(table=two, data=cego("halbe", 0, 47))  # table 2, seat 0: +60, alone
    tied = by_seat(one)[:2]
    assert ranks_of(event, tied) == [2, 2]
    services.decide_by_lot(event=event, entries=tied, seed=11)
    assert ranks_of(event, tied) == [2, 3]
    # table 2's next game brings its seats 0 and 1 to +40 too: a tie of four, not the one drawn
    services.record_hand(table=two, data=cego("halbe", 1, 47))
    rows = [(e.rank, e.total) for e in Entry.objects.standings(event)]
    assert rows[:4] == [(1, 40)] * 4
    assert not Entry.objects.filter(event=event, lot__isnull=False).exists()


def test_a_lot_keeps_counting_while_its_tie_is_unchanged():
    _table, event, tied, first = tied_for_first()
    services.decide_by_lot(event=event, entries=tied, seed=11)
    # a correction that changes no total (48 card points win the Halbe just as 47 did) and a
    # game in another event leave the tie as it was
    services.edit_hand(hand=first, data=cego("halbe", 0, 48), reason="48, nicht 47")
    services.record_hand(table=make_table(), data=cego("halbe", 0, 47))
    assert ranks_of(event, tied) == [1, 2]


def test_voiding_the_table_makes_the_lot_lapse():
    table, event, tied, _first = tied_for_first()
    draw = services.decide_by_lot(event=event, entries=tied, seed=11)
    services.void_table(table=table, reason="Revoke")
    services.restore_table(table=table, reason="doch gültig")
    # the tie is back, but the lot was drawn before a change to it: it does not return
    assert ranks_of(event, tied) == [1, 1]
    draw.refresh_from_db()
    assert draw.lapsed_at is not None


def test_players_not_tied_cannot_be_separated_by_lot():
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
    seats = [s.entry for s in table.seats.select_related("entry").order_by("position")]
    with pytest.raises(errors.Refused, match="tied"):
        services.decide_by_lot(event=table.round.event, entries=seats[:2])
    assert not Entry.objects.filter(lot__isnull=False).exists()


def test_a_new_draw_on_the_same_tie_replaces_the_earlier_one():
    _table, event, tied, _first = tied_for_first()
    earlier = services.decide_by_lot(event=event, entries=tied, seed=11)
    later = services.decide_by_lot(event=event, entries=tied, seed=12)
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
        services.record_hand(
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
        services.record_hand(table=table, data={"team_a_points": points})
    _events, rows = standings.season_standings(season)
    # team A won the match; ordering by the summed defeat points, higher first, put B first
    assert [r["total"] for r in rows] == [8, 8, 12, 12]
    assert [r["rank"] for r in rows] == [1, 1, 3, 3]


# --- who is ranked: entries that played, withdrawn ones marked everywhere ---------------------


def test_an_entry_that_never_sat_at_a_table_is_not_ranked():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    entries = make_entries(event, 5)
    rnd = make_round(event)
    services.record_hand(table=rnd.tables.get(), data=cego("halbe", 0, 47))
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
    services.record_hand(table=first.tables.get(), data=cego("cego", 0, 40))
    sat_out = first.seats.get(table__isnull=True).entry
    services.close_round(round=first)
    make_round(event, seed=9)
    assert sat_out.pk in [e.pk for e in Entry.objects.standings(event)]


def test_before_the_first_draw_nobody_is_ranked(client):
    event = make_event()
    make_entries(event, 4)
    assert not Entry.objects.standings(event).exists()
    page = client.get(f"/turnier/{event.slug}/rangliste/").content.decode()
    assert "Niemand hat bisher gespielt." in page or "Nobody has played yet." in page


def test_the_season_leaves_out_an_event_a_player_registered_for_but_never_played():
    season, _players, events = _season_with_two_events()
    absent = make_player()
    register_services.register_player(event=events[1], player=absent)  # late: after the draw
    _columns, rows = standings.season_standings(season)
    assert absent.last_name not in [r["name"].split(",")[0] for r in rows]


def _withdrawn_after_playing() -> tuple[Event, Entry]:
    season = make_season()
    event = make_event(season=season, table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    table = make_round(event).tables.get()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
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


# --- what the pages show: voided rounds, German name order, the season's side rankings --------

MINUS = "\u2212"


def _row_of(html: str, text: str) -> str:
    return html.split(escape(text), 1)[1].split("</tr>", 1)[0]


def test_the_standings_page_shows_a_dash_for_a_voided_round_not_zero(client):
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event)
    first, second = rnd.tables.order_by("number")
    services.record_hand(table=first, data=cego("halbe", 0, 47))
    services.record_hand(table=second, data=cego("halbe", 0, 47))
    services.void_table(table=first, reason="Blatt unleserlich")
    html = client.get(f"/turnier/{event.slug}/rangliste/").content.decode()
    voided_player = by_seat(first)[1].player
    row = _row_of(html, voided_player.sort_name)
    assert '<td class="num round">—</td>' in row
    counted = _row_of(html, by_seat(second)[1].player.sort_name)
    assert f'<td class="num round">{MINUS}20</td>' in counted


def test_the_standings_page_costs_one_more_query_only_when_a_table_is_voided(client):
    event = _event_of(8, 1)
    url = f"/turnier/{event.slug}/rangliste/"
    plain = _queries(client, url)
    services.void_table(table=event.rounds.get().tables.first(), reason="Blatt verloren")
    # Expect one more: the seats of the voided tables (whose round results show "—")
    assert _queries(client, url) == plain + 1


def test_players_sharing_a_rank_are_listed_in_german_name_order(client):
    event = make_event()
    for last in ("Schwörer", "Schäuble", "Schulz", "Ähnlich"):
        register_services.register_player(
            event=event, player=make_player(first_name="A", last_name=last)
        )
    make_round(event)  # nobody has played: everybody shares rank 1
    html = client.get(f"/turnier/{event.slug}/rangliste/").content.decode()
    shown = sorted(("Schwörer", "Schäuble", "Schulz", "Ähnlich"), key=html.index)
    assert shown == ["Ähnlich", "Schäuble", "Schulz", "Schwörer"]
    projector = client.get(f"/turnier/{event.slug}/beamer/zeilen/").content.decode()
    assert sorted(shown, key=projector.index) == shown
    printed = client.get(f"/turnier/{event.slug}/rangliste/druck/").content.decode()
    assert sorted(shown, key=printed.index) == shown


def test_sorting_the_standings_by_name_follows_german_order(client):
    event = make_event()
    for last in ("Schwörer", "Schäuble", "Zeller", "Abel"):
        register_services.register_player(
            event=event, player=make_player(first_name="A", last_name=last)
        )
    make_round(event)
    html = client.get(f"/turnier/{event.slug}/rangliste/?sort=-name").content.decode()
    shown = sorted(("Schwörer", "Schäuble", "Zeller", "Abel"), key=html.index)
    assert shown == ["Zeller", "Schwörer", "Schäuble", "Abel"]


def test_the_season_page_filters_by_category_and_links_its_print_version(client):
    season, players, _events = _season_with_two_events()
    Player.objects.filter(pk=players[0].pk).update(category="damen")
    html = client.get(f"/saison/{season.slug}/").content.decode()
    assert "?category=damen" in html
    assert f"/saison/{season.slug}/druck/" in html
    women = client.get(f"/saison/{season.slug}/?category=damen").content.decode()
    assert escape(players[0].sort_name) in women
    assert not any(escape(p.sort_name) in women for p in players[1:])
    assert f"/saison/{season.slug}/druck/?category=damen" in women
    _columns, rows = standings.season_standings(season, category="damen")
    assert [(r["rank"], r["total"]) for r in rows] == [(1, 0)]


def test_season_players_with_equal_totals_are_in_german_name_order():
    season = make_season()
    event = make_event(season=season)
    for last in ("Schwörer", "Schäuble", "Schulz", "Abel"):
        register_services.register_player(
            event=event, player=make_player(first_name="A", last_name=last)
        )
    make_round(event)
    _columns, rows = standings.season_standings(season)
    assert [r["name"].split(",")[0] for r in rows] == ["Abel", "Schäuble", "Schulz", "Schwörer"]


def test_standings_entries_are_whole_entries_read_in_one_query(django_assert_num_queries):
    """The standings build their entries without Model.__init__ (querysets.StandingsIterable):
    they still behave as entries read by Django, their players included."""
    table = make_table()
    services.record_hand(table=table, data=cego("halbe", 0, 47))
    event = table.round.event
    with django_assert_num_queries(1):  # the standings, players joined
        rows = list(Entry.objects.standings(event))
        names = [str(row.player) for row in rows]
        assert rows[0].is_active and rows[0].event_id == event.pk
    assert rows[0].player.last_name in names[0]
    assert rows[0] == Entry.objects.get(pk=rows[0].pk)
    with django_assert_num_queries(1):  # a field the standings leave out is read on demand
        assert rows[0].late is False
    with django_assert_num_queries(1):  # and a relation they do not follow, as for any entry
        assert rows[0].event == event
    rows[0].status = Entry.Status.WITHDRAWN
    rows[0].save(update_fields=["status"])
    assert Entry.objects.get(pk=rows[0].pk).status == Entry.Status.WITHDRAWN
    assert Entry.objects.standings(event).filter(pk=rows[0].pk).get().total == 60


def test_the_rounds_come_in_their_order_whatever_order_their_rows_were_made_in(client):
    """Rounds counted with GROUP BY lose the model's default ordering in Django: asked for by
    number, else PostgreSQL (and SQLite, by row id) may give round 2 before round 1, and the
    standings' round columns and the event page's rounds come swapped."""
    event = make_event("cego")
    later = Round.objects.create(event=event, number=2)
    earlier = Round.objects.create(event=event, number=1)
    assert later.pk < earlier.pk
    assert [r.number for r in standings.rounds_of(event)] == [1, 2]
    page = client.get(f"/turnier/{event.slug}/").content.decode()
    assert page.index("/durchgang/1/") < page.index("/durchgang/2/")
