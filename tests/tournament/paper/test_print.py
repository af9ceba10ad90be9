"""Print pages: the table sheets of a round, the seating list for the wall, the standings and the
prize-giving list. Public, without the site's navigation, and a fixed number of queries each."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_round,
    make_season,
    make_table,
    make_user,
)
from tests.helpers.pages import html_table, projector_lines
from tests.helpers.results import standings_result, ziege_season
from tournament.core.qr import qr_svg
from tournament.models import Entry, Event, Player, Round, Seat, Table
from tournament.play import hands
from tournament.register import services as register_services
from tournament.results import standings

pytestmark = pytest.mark.django_db

MINUS = "\u2212"  # the sheet prints −60 with a real minus sign, as on paper

# Last name, first name: the alphabetical list must not follow the start numbers
NAMES = [
    ("Zeller", "Anna"),
    ("Adler", "Bernd"),
    ("Maier", "Christa"),
    ("Maier", "Adam"),
    ("Bäuerle", "Doris"),
    ("Kuhn", "Emil"),
    ("Fischer", "Gerda"),
    ("Ott", "Hans"),
    ("Eberle", "Ida"),
]


# --- helpers ----------------------------------------------------------------------------------


def cego_round(players: int, hand_count: int = 0, **event_kwargs: Any) -> Round:
    """A started Cego round; every table has played ``hand_count`` games."""
    event = make_event(**event_kwargs)
    make_entries(event, players)
    rnd = make_round(event)
    for table in rnd.tables.all():
        for _ in range(hand_count):
            hands.record_hand(table=table, data=cego("halbe", 0, 47))
    return rnd


def sheets_url(rnd: Round, query: str = "") -> str:
    return reverse("print_sheets", args=[rnd.event.slug, rnd.number]) + query


def get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def sheet_pages(html: str) -> list[str]:
    """The HTML of each table sheet (one A4 page each)."""
    return re.split(r'<section class="page sheet-page[^"]*">', html)[1:]


def game_rows(sheet: str) -> list[tuple[str, list[str]]]:
    """(game number, each seat's printed result) for every row of the sheet's games table."""
    games = sheet.split('<table class="games">', 1)[1].split("<tfoot>", 1)[0]
    return [
        (number, re.findall(r'<td class="pts">(.*?)</td>', cells))
        for number, cells in re.findall(r'<tr><td class="n">(\d+)</td>(.*?)</tr>', games, re.S)
    ]


def signatures(sheet: str) -> list[str]:
    return re.findall(r'<div class="sig"><span></span>(.*?)</div>', sheet)


def seated(table: Table) -> list[Seat]:
    return list(table.seats.select_related("entry__player").order_by("position"))


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


# --- table sheets -----------------------------------------------------------------------------


def test_the_round_prints_one_sheet_per_table_with_its_players(client: Client):
    rnd = cego_round(12)
    pages = sheet_pages(get(client, sheets_url(rnd)))
    tables = list(rnd.tables.order_by("number"))
    assert len(pages) == len(tables) == 3
    for page, table in zip(pages, tables, strict=True):
        names = [str(seat.entry.player) for seat in seated(table)]
        players = page.split('<table class="players">', 1)[1].split("</table>", 1)[0]
        assert re.findall(r"<tr><td>\d+</td><td>\d+</td><td>(.*?)</td>", players) == names


def test_a_cego_sheet_has_24_game_rows_a_signature_per_player_and_a_qr_code(client: Client):
    rnd = cego_round(8)
    client.force_login(make_user())
    pages = sheet_pages(get(client, sheets_url(rnd)))
    for page, table in zip(pages, rnd.tables.order_by("number"), strict=True):
        rows = game_rows(page)
        assert [number for number, _results in rows] == [str(n) for n in range(1, 25)]
        assert all(results == ["", "", "", ""] for _number, results in rows)
        assert signatures(page) == [str(seat.entry.player) for seat in seated(table)]
        qr = page.split('<div class="qr">', 1)[1]
        assert qr.lstrip().startswith("<svg")


def test_a_sheet_has_as_many_game_rows_as_the_event_plays_per_round(client: Client):
    rnd = cego_round(4, hands_per_round={"4": 12})
    (page,) = sheet_pages(get(client, sheets_url(rnd)))
    assert len(game_rows(page)) == 12


def test_one_table_is_printed_alone_with_its_number(client: Client):
    rnd = cego_round(12)
    second = rnd.tables.get(number=2)
    pages = sheet_pages(get(client, sheets_url(rnd, "?table=2")))
    assert len(pages) == 1
    assert signatures(pages[0]) == [str(seat.entry.player) for seat in seated(second)]
    assert client.get(sheets_url(rnd, "?table=9")).status_code == 404


def test_games_already_entered_are_printed_with_their_signed_results(client: Client):
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))  # lost: −60 and +20 each
    hands.record_hand(table=table, data=cego("halbe", 1, 47))  # won: +60 and −20 each
    (page,) = sheet_pages(get(client, sheets_url(table.round)))
    rows = game_rows(page)
    assert rows[0][1] == [f"{MINUS}60", "+20", "+20", "+20"]
    assert rows[1][1] == [f"{MINUS}20", "+60", f"{MINUS}20", f"{MINUS}20"]
    assert rows[2][1] == ["", "", "", ""]
    totals = re.findall(r'<th class="pts">(.*?)</th>', page.split("<tfoot>", 1)[1])
    assert totals == [f"{MINUS}80", "+80", "0", "0"]


def test_the_ziege_sheet_names_the_teams(client: Client):
    table = make_table("ziege", 4)
    (page,) = sheet_pages(get(client, sheets_url(table.round)))
    players = page.split('<table class="players">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r"<tr><td>(\d+)</td><td>\d+</td><td>(.*?)</td><td>.*?</td><td>(.*?)</td>", players
    )
    # partners sit opposite: seats 1 and 3 are team A, seats 2 and 4 team B
    names = [str(seat.entry.player) for seat in seated(table)]
    assert rows == [
        ("1", names[0], "A"),
        ("2", names[1], "B"),
        ("3", names[2], "A"),
        ("4", names[3], "B"),
    ]


def test_the_hennes_sibbe_sheet_has_a_penalty_tally_per_player(client: Client):
    table = make_table("hennes_sibbe", 4, rules={"penalty_limit": 5})
    (page,) = sheet_pages(get(client, sheets_url(table.round)))
    tally = page.split('<table class="tally">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td>", tally)
    assert [name for name, _boxes in rows] == [str(seat.entry.player) for seat in seated(table)]
    assert all(boxes.count("☐") == 5 for _name, boxes in rows)


def test_the_printed_hennes_sibbe_sheet_names_the_penalty_cards_taker_as_next_dealer(
    client: Client,
):
    """Issue 43: the printed "Dealer" column rotated by seat; in Hennes Sibbe whoever took the
    penalty card deals next (RULES.md 5.1), so only the games entered and the next one are
    known, and the others are left for the table to write in."""
    table = make_table("hennes_sibbe", 4)
    claim = {"count": 5, "colour": "rot"}
    # the claimant (seat 1) was wrong, then the challenger (seat 4) was
    hands.record_hand(
        table=table,
        data={"claimant": 0, "challenger": 1, "claim": claim, "claim_correct": False},
    )
    hands.record_hand(
        table=table,
        data={"claimant": 2, "challenger": 3, "claim": claim, "claim_correct": True},
    )
    (page,) = sheet_pages(get(client, sheets_url(table.round)))
    dealers = re.findall(r'<td class="dealer" title="[^"]*">([^<]*)</td>', page)
    assert dealers[:4] == ["1", "1", "4", ""]
    assert (
        "Dealing order: seat 1 deals the first challenge; whoever takes a penalty card deals "
        "the next." in page
    )
    assert "then the deal passes on in seat order" not in page


# --- the seating list -------------------------------------------------------------------------


def named_round(**event_kwargs: Any) -> Round:
    """A round of the nine players of NAMES: two tables of four, one sitting out."""
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT, **event_kwargs)
    for last, first in NAMES:
        register_services.register_player(
            event=event, player=make_player(first_name=first, last_name=last)
        )
    return make_round(event)


def seating_url(rnd: Round) -> str:
    return reverse("print_seating", args=[rnd.event.slug, rnd.number])


def test_the_seating_list_shows_every_table_with_its_players_in_seat_order(client: Client):
    rnd = named_round()
    html = get(client, seating_url(rnd))
    boxes = re.findall(r'<div class="box"><h3>.*?(\d+)</h3>\s*<ol>(.*?)</ol>', html, re.S)
    expected = [
        (str(table.number), [str(seat.entry.player) for seat in seated(table)])
        for table in rnd.tables.order_by("number")
    ]
    assert [(number, re.findall(r"<li>(.*?)</li>", items)) for number, items in boxes] == expected
    out = Seat.objects.select_related("entry__player").get(round=rnd, table__isnull=True)
    assert (
        str(out.entry.player) in html.split('<div class="columns">', 1)[1].split("<section", 1)[0]
    )


def test_the_seating_list_lists_every_player_alphabetically_with_table_and_seat(client: Client):
    rnd = named_round()
    html = get(client, seating_url(rnd))
    body = html.split('<table class="alpha">', 1)[1].split("</tbody>", 1)[0]
    left, right = [], []
    for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S):
        cells = re.findall(r"<td>(.*?)</td>", row)
        left.append(tuple(cells[:3]))
        if cells[3]:
            right.append(tuple(cells[3:]))
    seats = Seat.objects.filter(round=rnd).select_related("entry__player", "table")
    expected = sorted(
        (
            (s.entry.player.last_name, s.entry.player.first_name),
            (
                s.entry.player.sort_name,
                str(s.table.number) if s.table else "—",
                str(s.position + 1) if s.table else "",
            ),
        )
        for s in seats
    )
    assert left + right == [shown for _key, shown in expected]
    assert len(left + right) == len(NAMES)


# --- standings --------------------------------------------------------------------------------


def standings_url(event: Event, query: str = "") -> str:
    return reverse("print_standings", args=[event.slug]) + query


def standing_rows(html: str) -> list[tuple[str, str]]:
    """(rank, name cell) of every printed row."""
    body = html.split('<table class="standings-print">', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr(?: class=\"last\")?><td>(\d+)\.</td><td>\d+</td><td>(.*?)</td>", body)


def sixteen_ranked() -> Event:
    """Sixteen players with sixteen different totals (the paper fallback's round totals, in tens
    as every Cego result is)."""
    event = make_event()
    make_entries(event, 16)
    rnd = make_round(event)
    for k, table in enumerate(rnd.tables.order_by("number")):
        step = 100 * k
        hands.record_totals(table=table, totals=[50 + step, 20 + step, -(10 + step), -(60 + step)])
    return event


def test_the_printed_standings_list_every_player_in_order(client: Client):
    event = sixteen_ranked()
    rows = standing_rows(get(client, standings_url(event)))
    expected = [(str(e.rank), e.player.sort_name) for e in Entry.objects.standings(event)]
    assert rows == expected
    assert len(rows) == 16


def test_the_prize_list_shows_the_first_ten_places_and_the_last(client: Client):
    event = sixteen_ranked()
    rows = standing_rows(get(client, standings_url(event, "?prize=1")))
    ranked = list(Entry.objects.standings(event))
    top = [(str(e.rank), e.player.sort_name) for e in ranked if e.rank <= standings.PRIZE_LIST]
    assert len(top) == 10
    last = ranked[-1]
    assert rows[:-1] == top
    assert rows[-1][0] == "16"
    assert rows[-1][1].startswith(last.player.sort_name)
    assert len(rows) == 11


# --- query counts: the same whatever the size -----------------------------------------------------


def test_the_table_sheets_cost_the_same_queries_for_8_players_and_40(client: Client):
    small, large = cego_round(8, 2), cego_round(40, 2)
    # Expect 4 queries: the round (with event and season), the seats with players and tables,
    # the round's hands, their results
    assert count_queries(client, sheets_url(small)) == count_queries(client, sheets_url(large))


def test_the_table_sheets_cost_the_same_queries_for_2_games_per_table_and_20(client: Client):
    short, long = cego_round(8, 2), cego_round(8, 20)
    assert count_queries(client, sheets_url(short)) == count_queries(client, sheets_url(long))


def test_the_seating_list_costs_the_same_queries_for_8_players_and_40(client: Client):
    small, large = cego_round(8), cego_round(40)
    # Expect 2 queries: the round (with event and season), the seats with players and tables
    assert count_queries(client, seating_url(small)) == count_queries(client, seating_url(large))


@pytest.mark.parametrize("query", ["", "?prize=1"])
def test_the_printed_standings_cost_the_same_queries_for_8_players_and_40(
    client: Client, query: str
):
    small, large = cego_round(8, 2).event, cego_round(40, 2).event
    # Expect 3 queries: the event (with its season), its rounds, the standings
    assert count_queries(client, standings_url(small, query)) == count_queries(
        client, standings_url(large, query)
    )


# --- the table links on the sheets --------------------------------------------------------------

LAN = "http://192.168.1.20:8000"


def links(sheet: str) -> list[str]:
    """The table link printed as text under the sheet's QR code."""
    return re.findall(r'<small class="link">(.*?)</small>', sheet)


def qr_code(sheet: str) -> str:
    return sheet.split('<div class="qr">', 1)[1].split("<small", 1)[0]


def test_the_qr_code_of_each_sheet_is_that_tables_link_for_a_director(client: Client):
    rnd = cego_round(12)
    client.force_login(make_user())
    pages = sheet_pages(get(client, sheets_url(rnd)))
    tables = list(rnd.tables.order_by("number"))
    assert len(pages) == len(tables) == 3
    for page, table in zip(pages, tables, strict=True):
        link = f"http://testserver/t/{table.token}/"
        assert links(page) == [link]
        # the very QR code of that address (segno is deterministic), not the public table page
        assert qr_code(page) == qr_svg(link)


def test_a_scorer_of_the_event_gets_the_table_links(client: Client):
    rnd = cego_round(4)
    client.force_login(make_role(rnd.event, "scorer"))
    (page,) = sheet_pages(get(client, sheets_url(rnd)))
    assert links(page) == [f"http://testserver/t/{rnd.tables.get().token}/"]


@pytest.mark.parametrize("who", ["anonymous", "user-without-role", "scorer-elsewhere"])
def test_the_public_sheets_show_no_table_link_and_no_qr_code(client: Client, who: str):
    rnd = cego_round(8)
    if who == "user-without-role":
        client.force_login(make_user("visitor", staff=False))
    if who == "scorer-elsewhere":
        client.force_login(make_role(make_event(), "scorer"))
    html = get(client, sheets_url(rnd))
    assert len(sheet_pages(html)) == 2
    for table in rnd.tables.all():
        assert table.token not in html
    assert '<div class="qr">' not in html
    assert "<svg" not in html
    assert "/t/" not in html


def test_the_qr_codes_use_the_events_address_for_phones(client: Client):
    rnd = cego_round(4, public_url=LAN + "/")
    client.force_login(make_user())
    html = get(client, sheets_url(rnd))
    link = f"{LAN}/t/{rnd.tables.get().token}/"
    (page,) = sheet_pages(html)
    assert links(page) == [link]
    assert qr_code(page) == qr_svg(link)
    assert "cannot open these QR codes" not in html


def test_the_qr_codes_use_the_servers_address_for_phones_unless_the_event_has_one(
    client: Client, settings: Any
):
    settings.PUBLIC_URL = "http://10.1.2.3:8000"
    rnd = cego_round(4)
    client.force_login(make_user())
    token = rnd.tables.get().token
    assert links(get(client, sheets_url(rnd))) == [f"http://10.1.2.3:8000/t/{token}/"]
    Event.objects.filter(pk=rnd.event.pk).update(public_url=LAN)
    assert links(get(client, sheets_url(rnd))) == [f"{LAN}/t/{token}/"]


@pytest.mark.parametrize(
    "address", ["http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"]
)
def test_the_director_is_warned_when_the_qr_codes_would_reach_only_this_machine(
    client: Client, address: str
):
    rnd = cego_round(4, public_url=address)
    client.force_login(make_user())
    html = get(client, sheets_url(rnd))
    warning = html.split('<p class="warning" role="alert">', 1)[1].split("</p>", 1)[0]
    assert "Phones in the hall cannot open these QR codes." in warning
    assert address in warning
    # where the address is set: the event's settings, not the event page itself
    assert "in the event's settings (the event page's Settings button)" in warning
    assert reverse("event_edit", args=[rnd.event.slug]) in html  # where to change it


def test_the_director_is_warned_when_this_server_does_not_answer_to_the_address(
    client: Client, settings: Any
):
    rnd = cego_round(4, public_url=LAN)
    client.force_login(make_user())
    assert "does not answer to http://192.168.1.20:8000" in get(client, sheets_url(rnd))
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]
    html = get(client, sheets_url(rnd))
    assert "does not answer" not in html
    assert 'role="alert"' not in html


def test_the_sheets_with_links_cost_the_same_queries_for_8_players_and_40(client: Client):
    small, large = cego_round(8, 1), cego_round(40, 1)
    client.force_login(make_role(small.event, "scorer", username="scorer-small"))
    with_links = count_queries(client, sheets_url(small))
    client.force_login(make_role(large.event, "scorer", username="scorer-large"))
    assert "/t/" in get(client, sheets_url(large))
    assert count_queries(client, sheets_url(large)) == with_links


# --- public, and nothing of the site around them ------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        lambda rnd: sheets_url(rnd),
        lambda rnd: sheets_url(rnd, "?table=1"),
        lambda rnd: seating_url(rnd),
        lambda rnd: standings_url(rnd.event),
        lambda rnd: standings_url(rnd.event, "?prize=1"),
    ],
    ids=["sheets", "one-sheet", "seating", "standings", "prize-list"],
)
def test_print_pages_are_public_and_show_no_site_navigation(client: Client, url: Any):
    rnd = cego_round(8, 1)
    html = get(client, url(rnd))
    assert "<html" in html
    assert not re.search(r'class="[^"]*\bsite\b', html)
    assert "<nav" not in html


# --- the last place and the figures that decide the order (issue 10) ----------------------------


def last_rows(html: str) -> list[str]:
    """The name cells of the rows printed as last place."""
    body = html.split('<table class="standings-print">', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<tr class="last"><td>\d+\.</td><td>\d+</td><td>(.*?)</td>', body)


def tied_for_last() -> Event:
    """Sixteen players; the last two of table 4 share the last place."""
    event = make_event()
    make_entries(event, 16)
    rnd = make_round(event)
    for k, table in enumerate(rnd.tables.order_by("number")):
        # Cego totals are multiples of 10; distinct elsewhere, -700 shared by two at table 4
        step = 10 * k
        totals = (
            [1000, 400, -700, -700]
            if k == 3
            else [500 + step, 200 + step, -(100 + step), -(600 + step)]
        )
        hands.record_totals(table=table, totals=totals)
    return event


def test_every_player_tied_on_the_last_place_is_printed_as_last(client: Client):
    event = tied_for_last()
    tied = [e for e in Entry.objects.standings(event) if e.total == -700]
    assert [e.rank for e in tied] == [15, 15]
    names = last_rows(get(client, standings_url(event)))
    assert sorted(names) == sorted(e.player.sort_name for e in tied)


def test_the_prize_list_names_every_player_tied_on_the_last_place(client: Client):
    event = tied_for_last()
    html = get(client, standings_url(event, "?prize=1"))
    rows = standing_rows(html)
    assert [rank for rank, _name in rows] == [str(n) for n in range(1, 11)] + ["15", "15"]
    assert len(re.findall("last place|letzter Platz", html)) == 2
    assert html.count('class="gap"') == 1


def test_nobody_is_last_while_everyone_shares_the_first_place(client: Client):
    rnd = cego_round(8, 0)
    assert last_rows(get(client, standings_url(rnd.event))) == []


def printed_cells(html: str) -> tuple[list[str], list[list[str]]]:
    """The column headings and each row's number cells of the printed standings."""
    table = html.split('<table class="standings-print">', 1)[1].split("</table>", 1)[0]
    head = re.findall(r'<th class="pts">(.*?)</th>', table)
    rows = [
        re.findall(r'<td class="pts[^"]*">(.*?)</td>', row)
        for row in table.split("<tbody>", 1)[1].split("</tr>")[:-1]
    ]
    return head, rows


def test_printed_ziege_standings_show_matches_won_difference_and_conceded(client: Client):
    table = make_table("ziege", 4)
    for points in (120, 120, 20):  # team B concedes 6 twice (A wins the match), then A 4
        hands.record_hand(table=table, data={"team_a_points": points})
    for query in ("", "?prize=1"):
        head, rows = printed_cells(get(client, standings_url(table.round.event, query)))
        # the standings page's headings: each figure is named once, the same everywhere
        assert head[-3:] == ["Matches won", "Difference (dealt out − taken)", "Defeat points taken"]
        assert rows[0][-3:] == ["1", "+8", "4"]
        assert rows[-1][-3:] == ["0", MINUS + "8", "12"]


def test_printed_hennes_sibbe_standings_show_penalty_cards_then_games_lost(client: Client):
    table = make_table("hennes_sibbe", 3)
    for challenger in (1, 1, 1, 2):  # seat 1 loses a game (3 penalty cards), seat 2 takes one
        hands.record_hand(
            table=table,
            data={
                "claimant": 0,
                "challenger": challenger,
                "claim": {"count": 1, "colour": "rot"},
                "claim_correct": True,
            },
        )
    head, rows = printed_cells(get(client, standings_url(table.round.event)))
    assert head[-2:] == ["Penalty cards", "Games lost"]
    assert [r[-2:] for r in rows] == [["0", "0"], ["1", "0"], ["3", "1"]]


# --- voided tables, minus signs, German order, the season on paper --------------------------


def test_a_voided_table_prints_a_dash_for_its_totals_and_says_why(client: Client):
    rnd = cego_round(4, hand_count=1)
    table = rnd.tables.get()
    hands.void_table(table=table, reason="Blatt verloren")
    sheet = sheet_pages(get(client, sheets_url(rnd)))[0]
    totals = re.findall(r'<th class="pts">(.*?)</th>', sheet.split("<tfoot>", 1)[1])
    assert totals == ["—"] * 4
    assert "Blatt verloren" in sheet
    assert "counts nothing" in sheet


def test_the_printed_standings_show_a_dash_for_a_voided_round_and_a_real_minus(client: Client):
    rnd = cego_round(8, hand_count=1)  # two tables; seat 0 wins 60 at each, the others lose 20
    first, second = rnd.tables.order_by("number")
    hands.void_table(table=first, reason="Durchgang nicht nachvollziehbar")
    html = get(client, reverse("print_standings", args=[rnd.event.slug]))
    for seat in seated(first):
        row = html.split(escape(seat.entry.player.sort_name), 1)[1].split("</tr>", 1)[0]
        assert '<td class="pts">—</td>' in row  # the round counts nothing: not "0"
    loser = seated(second)[1].entry.player.sort_name
    row = html.split(escape(loser), 1)[1].split("</tr>", 1)[0]
    assert f"{MINUS}20" in row
    assert "-20" not in row


def test_the_seating_list_sorts_umlauts_as_germans_do(client: Client):
    event = make_event(table_policy=Event.TablePolicy.MIXED)  # five at one table
    for last in ["Schwörer", "Schulz", "Schäuble", "Scholz", "Zeller"]:
        register_services.register_player(
            event=event, player=make_player(first_name="A", last_name=last)
        )
    rnd = make_round(event)
    html = get(client, reverse("print_seating", args=[event.slug, rnd.number]))
    alpha = html.split('class="alpha"', 1)[1]
    names = ["Schwörer", "Schulz", "Schäuble", "Scholz", "Zeller"]
    in_page = sorted(names, key=alpha.index)
    # two columns read row by row: left Schäuble, Scholz, Schulz; right Schwörer, Zeller
    # (a byte-order sort would put Schäuble after Schwörer)
    assert in_page == ["Schäuble", "Schwörer", "Scholz", "Zeller", "Schulz"]


def season_with_two_events() -> tuple[Any, list[Event]]:
    season = make_season(name="Schwarzwaldmeisterschaft 2026/27")
    events = []
    for day, name in ((7, "Furtwangen"), (21, "Schonach")):
        event = make_event(name=f"Turnier {name}", season=season, date=date(2026, 11, day))
        for first, last, category in (
            ("Anna", "Schäuble", "damen"),
            ("Bernd", "Schwörer", ""),
            ("Clara", "Schulz", "damen"),
            ("Dieter", "Adler", "jugend"),
        ):
            player = Player.objects.filter(last_name=last).first() or make_player(
                first_name=first, last_name=last, category=category
            )
            register_services.register_player(event=event, player=player)
        rnd = make_round(event)
        hands.record_hand(table=rnd.tables.get(), data=cego("halbe", 0, 34))
        events.append(event)
    return season, events


def test_the_season_prints_in_landscape_with_a_column_per_event_and_a_key(client: Client):
    season, _events = season_with_two_events()
    html = get(client, reverse("print_season", args=[season.slug]))
    assert "size: A4 landscape" in html
    assert "Turnier Furtwangen" in html and "Turnier Schonach" in html
    for name in ("Schäuble, Anna", "Schwörer, Bernd", "Schulz, Clara", "Adler, Dieter"):
        assert escape(name) in html
    assert f"{MINUS}120" in html  # two lost Halbe at −60 each for the declarer


def test_the_printed_ziege_season_shows_the_matches_won_without_a_plus(client: Client):
    ziege = ziege_season()
    page = client.get(reverse("print_season", args=[ziege.season.slug]))
    rows = {row["Name"]: row for row in html_table(page.content, 'class="standings-print')}
    row = rows[ziege.winner.player.sort_name]
    # the event's column, numbered and still running (*)
    assert row["1*"] == row["Matches won"] == str(standings_result(ziege.event, ziege.winner))
    assert row["Difference (dealt out − taken)"] == f"{MINUS}2"


def test_the_printed_season_can_be_one_category(client: Client):
    season, _events = season_with_two_events()
    html = get(client, reverse("print_season", args=[season.slug]) + "?category=damen")
    assert "Women" in html
    assert escape("Schäuble, Anna") in html and "Schulz, Clara" in html
    assert "Schwörer" not in html and "Adler" not in html


def test_the_printed_season_costs_the_same_queries_for_one_and_two_events(client: Client):
    small = make_season()
    event = make_event(season=small)
    make_entries(event, 4)
    make_round(event)
    large, _events = season_with_two_events()
    assert count_queries(client, reverse("print_season", args=[small.slug])) == count_queries(
        client, reverse("print_season", args=[large.slug])
    )


@pytest.mark.parametrize("page", ["event_standings", "projector_rows"])
def test_the_standings_page_and_the_projector_mark_everyone_tied_on_the_last_place(
    client: Client, page: str
):
    event = tied_for_last()
    tied = sorted(e.player.last_name for e in Entry.objects.standings(event) if e.total == -700)
    html = get(client, reverse(page, args=[event.slug]))
    if page == "projector_rows":  # the lines as the projector's script writes them
        rows = [line.text for line in projector_lines(html)[0]]
        marked = [row for row in rows if "last place" in row]
    else:
        marked = [row for row in html.split("<tr")[1:] if 'class="tag last"' in row]
    assert len(marked) == 2
    assert sorted(name for name in tied for row in marked if name in row) == tied
    assert all("last place" in row for row in marked)  # tests read English (conftest)
