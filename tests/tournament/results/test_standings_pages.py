"""The standings pages: a fixed number of queries whatever the size of the event, and what they
show (voided rounds, German name order, the season's side rankings).
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
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
from tests.helpers.pages import projector_lines
from tests.helpers.results import (
    by_seat,
    season_of_a_finished_and_a_running_event,
    season_with_two_events,
)
from tournament.models import Entry, Event, Player, Round, provisional_entries
from tournament.play import confirmations, events, hands, rounds
from tournament.register import services as register_services
from tournament.results import standings

pytestmark = pytest.mark.django_db


# --- query counts: a page costs the same whatever the size of the event ------------------------


def _event_of(players: int, hand_count: int) -> Event:
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, players)
    rnd = make_round(event)
    for table in rnd.tables.all():
        for _ in range(hand_count):
            hands.record_hand(table=table, data=cego("halbe", 0, 47))
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


def test_the_event_standings_page_and_the_projector_rows_cost_a_fixed_number_of_queries(client):
    event = _event_of(12, 2)
    # Expect 8 queries: the event's version (is the page ready? the one query of every request
    # that finds it so), the event itself (with its season), its rounds, the entries with
    # unconfirmed results (marked provisional), how many are ranked (the pages), what ranks the
    # last place (its players are marked), the rows of the page shown (one query over the
    # entries' stored totals) and those rows' results per round
    assert _queries(client, f"/turnier/{event.slug}/rangliste/") == 8
    # Expect 5 for the projector's rows: the version, the event, the standings, the provisional
    # entries, the round being played (the "last result" is stored on the event)
    assert _queries(client, f"/turnier/{event.slug}/beamer/zeilen/") == 5
    # then both come from the cache: the event's version alone
    assert _queries(client, f"/turnier/{event.slug}/rangliste/") == 1
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
def test_a_game_from_the_table_link_costs_the_same_queries_for_the_2nd_game_and_the_20th(client):
    table = make_table(hands_per_round={"4": 24})
    _post_game(client, table, 1)  # the phone's first game also gives it its device cookie
    second = _post_game(client, table, 2)
    for number in range(3, 20):
        _post_game(client, table, number)
    twentieth = _post_game(client, table, 20)
    # Expect 18 for the game: before the write lock the table, its sheet's state and its games'
    # numbers (the form's set-up and its check); BEGIN; under the lock the table again, its
    # games (the form's key, the next number and the replay all come from them), the history's
    # key check, the game and its history row, the seats, the game's results (a new game has
    # none to delete first), the seats' sums, their entries' sums, the event's lots, the time of
    # the event's latest game, the event's and the season's versions; COMMIT. The message says
    # the results as they were written, without reading them back. PostgreSQL asks one more:
    # the round's and the event's rows held before the table's (play.locks.table_for_a_game), so
    # that two tables' games are stored at the same moment. Nothing is computed for the pages
    # after the answer: the next reader of the standings computes them.
    held = 1 if connection.vendor == "postgresql" else 0
    assert (second, twentieth) == (18 + held, 18 + held)
    assert table.hands.count() == 20


def test_only_games_of_unconfirmed_counting_sheets_are_marked_provisional(client):
    """The * of the standings: players at a table with games whose sheet is not confirmed yet;
    not at a confirmed sheet, a voided table or a table without games, nor at another event's
    open table."""
    event = make_event()
    make_entries(event, 16)
    rnd = make_round(event)
    open_, confirmed, voided, empty = rnd.tables.order_by("number")
    for table in (open_, confirmed, voided):
        hands.record_hand(table=table, data=cego("halbe", 0, 40))
    confirmations.confirm_table(table=confirmed)
    hands.void_table(table=voided, reason="unleserlich")
    elsewhere = make_table()  # another event's open table with a game
    hands.record_hand(table=elsewhere, data=cego("halbe", 0, 40))
    assert provisional_entries(event) == set(open_.seats.values_list("entry_id", flat=True))
    assert provisional_entries(elsewhere.round.event) == set(
        elsewhere.seats.values_list("entry_id", flat=True)
    )
    assert empty.hands.count() == 0
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = f"/turnier/{event.slug}/rangliste/"
    assert "Provisional: results marked *" in client.get(url).content.decode()
    confirmations.confirm_table(table=open_)
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
    rounds.close_round(round=rnd)
    assert "Triberg *" in headings(client.get(url).content.decode())

    events.finish_event(event=running)
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


# --- what the pages show: voided rounds, German name order, the season's side rankings --------

MINUS = "\u2212"


def _row_of(html: str, text: str) -> str:
    return html.split(escape(text), 1)[1].split("</tr>", 1)[0]


def test_the_standings_page_shows_a_dash_for_a_voided_round_not_zero(client):
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event)
    first, second = rnd.tables.order_by("number")
    hands.record_hand(table=first, data=cego("halbe", 0, 47))
    hands.record_hand(table=second, data=cego("halbe", 0, 47))
    hands.void_table(table=first, reason="Blatt unleserlich")
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
    hands.void_table(table=event.rounds.get().tables.first(), reason="Blatt verloren")
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
    season, players, _events = season_with_two_events()
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
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
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


def test_the_projector_marks_unconfirmed_results_as_the_standings_do(client):
    """The projector's rows carry the standings' * for players at a sheet not yet confirmed, and
    its status line says what the * means; once the table confirms, both are gone (issue 28.9)."""
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event)
    open_, other = rnd.tables.order_by("number")
    hands.record_hand(table=open_, data=cego("halbe", 0, 40))
    hands.record_hand(table=other, data=cego("halbe", 1, 40))
    confirmations.confirm_table(table=other)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    rows_url = f"/turnier/{event.slug}/beamer/zeilen/"

    def marked(content: bytes) -> tuple[set[str], str]:
        lines, status = projector_lines(content)
        return {line.name for line in lines if "*" in line.marks}, status

    names, status = marked(client.get(rows_url).content)
    waiting = {str(seat.entry.player) for seat in open_.seats.select_related("entry__player")}
    assert names == waiting
    assert "* not yet confirmed by the table" in status
    names, status = marked(client.get(f"/turnier/{event.slug}/beamer/").content)
    assert names == waiting and "* not yet confirmed by the table" in status
    confirmations.confirm_table(table=open_)
    names, status = marked(client.get(rows_url).content)
    assert names == set() and "not yet confirmed" not in status


# --- a page of the standings reads the rows it shows ------------------------------------------


# a row's rank cell, the start number's cell, the name's cell
RANK_AND_NAME = (
    r'<td class="num rank"[^>]*>\s*([^<]*?)\s*</td>.*?<td[^>]*>.*?</td>\s*<td[^>]*>(.*?)</td>'
)


def _ranks_and_names(client, url: str) -> list[tuple[str, str]]:
    html = client.get(url).content.decode()
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        (rank, re.sub(r"<[^>]+>", "", name).strip())
        for rank, name in re.findall(RANK_AND_NAME, body, re.S)
    ]


def test_a_tie_across_a_page_boundary_keeps_its_shared_rank_and_only_the_page_is_read(client):
    """Twelve players, ten a page: one won a game (+60), eight are on 0 (ranks 2 to 9), three
    lost it (-20, all on rank 10): the tie on rank 10 runs across the boundary, and page 2 says
    rank 10 and 'last place' for its two rows, as page 1 does for its one."""
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 12)
    table = make_round(event).tables.get(number=1)
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    url = f"/turnier/{event.slug}/rangliste/?per_page=10"
    first = _ranks_and_names(client, url)
    second = _ranks_and_names(client, url + "&page=2")
    assert [rank for rank, _name in first] == ["1", *["2"] * 8, "10"]
    assert [rank for rank, _name in second] == ["10", "10"]
    assert all("last place" in name for _rank, name in first[-1:] + second)
    # the ten rows and the two are the database's slices of one order: nobody twice, nobody lost
    names = [name for _rank, name in first + second]
    assert len(set(names)) == 12
    with CaptureQueriesContext(connection) as asked:
        client.get(url + "&page=2&sort=name")
    page = [
        q["sql"] for q in asked.captured_queries if "RANK()" in q["sql"] and "LIMIT" in q["sql"]
    ]
    assert len(page) == 1, page  # the page's two rows, nobody else's


def test_a_finished_event_with_a_sheet_left_unconfirmed_is_not_called_provisional(client):
    """Issue 43.9: an event finished with a sheet the players never confirmed (finished before
    the prize table asked for it, or from a bundle) said "Provisional" although its standings
    are final. The star still says what it means: that table's sheet was not confirmed."""
    event = make_event(hands_per_round={"*": 1})
    make_entries(event, 4)
    rnd = make_round(event)
    hands.record_hand(table=rnd.tables.get(), data=cego("halbe", 0, 40))
    rounds.close_round(round=rnd)
    events.finish_event(event=event)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(f"/turnier/{event.slug}/rangliste/").content.decode()
    assert "Provisional" not in html
    assert "The event is finished: its standings are final. Results marked * include" in html
    assert html.count('class="tag provisional" title="includes results not yet confirmed') == 4
