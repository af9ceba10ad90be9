"""Standings tables (django-tables2): Ziege's columns, whose headings say which way each figure
points, and whose signs read the right way round (+ good for the player, − bad)."""

from __future__ import annotations

import re
from typing import Any

import django_tables2
import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django_tables2 import RequestConfig

from tests.factories import cego, make_entries, make_event, make_round, make_season, make_table
from tournament.models import Entry, Event, Player, Team, provisional_entries
from tournament.paper import tables as tables_
from tournament.play import services
from tournament.register import services as register_services
from tournament.results import standings

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def standings_rows(html: str) -> tuple[list[str], list[list[str]]]:
    """Headings and cell texts of the standings table on a page."""
    table = html.split('<table class="standings"', 1)[1].split("</table>", 1)[0]

    def text(cell: str) -> str:
        return re.sub(r"<[^>]+>", "", cell).strip()

    heads = [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    body = table.split("<tbody", 1)[1]
    rows = [
        [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
    return heads, rows


@pytest.fixture
def ziege_table():
    table = make_table("ziege", 4)
    services.record_hand(table=table, data={"team_a_points": 120})  # B takes 6
    services.record_hand(table=table, data={"team_a_points": 120})  # B takes 6: A wins the match
    services.record_hand(table=table, data={"team_a_points": 20})  # A takes 4
    return table


def test_ziege_standings_show_matches_dealt_out_taken_and_difference(ziege_table, client) -> None:
    event = ziege_table.round.event
    html = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    heads, rows = standings_rows(html)
    assert heads[-4:] == [
        "Matches won",
        "Defeat points dealt out",
        "Defeat points taken",
        "Difference (dealt out − taken)",
    ]
    # no second column with the same defeat points under another name
    assert "Defeat points" not in heads
    figures = sorted(tuple(row[-4:]) for row in rows)
    assert figures == [
        ("0", "4", "12", f"{MINUS}8"),
        ("0", "4", "12", f"{MINUS}8"),
        ("1", "12", "4", "+8"),
        ("1", "12", "4", "+8"),
    ]


def test_a_ziege_round_column_is_the_difference_so_plus_is_good(ziege_table, client) -> None:
    event = ziege_table.round.event
    rnd = event.rounds.get()
    rows = list(Entry.objects.standings(event, [rnd]))
    assert [(r.matches, r.round_1) for r in rows] == [(1, 8), (1, 8), (0, -8), (0, -8)]
    html = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    heads, cells = standings_rows(html)
    column = heads.index("R1")
    assert sorted(row[column] for row in cells) == ["+8", "+8", f"{MINUS}8", f"{MINUS}8"]


def test_the_excel_standings_use_the_same_ziege_headings(ziege_table, client: Client) -> None:
    import io

    import openpyxl

    event = ziege_table.round.event
    content = client.get(reverse("event_xlsx", args=[event.slug])).content
    sheet = openpyxl.load_workbook(io.BytesIO(content)).worksheets[0]
    heads = [cell.value for cell in next(sheet.iter_rows(max_row=1))]
    for heading in ("Matches won", "Defeat points dealt out", "Defeat points taken"):
        assert heading in heads
    assert "Difference (dealt out − taken)" in heads


# --- the body rows written in Python (RowsInPython) against django-tables2's own template ------

LIBRARY_TEMPLATE = "django_tables2/bootstrap5.html"


def _tight(html: str) -> str:
    """HTML with the whitespace between tags taken out (the templates indent, the rows do not)."""
    return re.sub(r"\s+", " ", re.sub(r">\s+", ">", re.sub(r"\s+<", "<", html))).strip()


def both_ways(build, address: str = "/?per_page=all", paginate: Any = False) -> tuple[str, str]:
    """The table rendered through RowsInPython and through django-tables2's template."""
    request = RequestFactory().get(address)
    rendered = []
    for template in (None, LIBRARY_TEMPLATE):
        table = build()
        if template:
            table.template_name = template
        RequestConfig(request, paginate=paginate).configure(table)
        rendered.append(_tight(table.as_html(request)))
    return rendered[0], rendered[1]


@pytest.fixture
def eventful():
    """Eight Cego players at two tables: a voided table, an unconfirmed sheet, a withdrawal, a
    last place, a name that needs escaping."""
    event = make_event("cego")
    entries = make_entries(event, 8)
    Player.objects.filter(pk=entries[0].player_id).update(last_name="<O'Brien & Co>")
    first, second = make_round(event).tables.order_by("number")
    for points in (34, 47, 20):
        services.record_hand(table=first, data=cego(points=points))
    services.record_hand(table=second, data=cego(points=60))
    services.void_table(table=second, reason="Kartenfehler")
    register_services.withdraw_entry(entry=first.seats.order_by("position")[1].entry)
    return event


def _standings(event):
    rounds = standings.rounds_of(event)
    rows = standings.mark_last_place(standings.named_rows(Entry.objects.standings(event, rounds)))
    return lambda: tables_.standings_table(
        event,
        rows,
        rounds,
        provisional=provisional_entries(event),
        voided=standings.voided_entries(rounds),
    )


def test_the_standings_rows_are_the_ones_django_tables2_writes(eventful) -> None:
    fast, library = both_ways(_standings(eventful))
    assert fast == library
    # what makes the comparison worth something: every kind of cell is on the page
    marks = ('class="tag last"', 'class="tag provisional"', ">withdrawn<", "\u2014", "&lt;O&#x27;")
    for mark in marks:
        assert mark in fast


def test_sorted_and_paginated_standings_rows_are_the_ones_django_tables2_writes(eventful) -> None:
    for address in ("/?sort=-name&page=2", "/?sort=total", "/?sort=round_2&page=1"):
        fast, library = both_ways(_standings(eventful), address, paginate={"per_page": 3})
        assert fast == library
        assert 'class="pagination' in fast


def test_an_event_nobody_has_played_shows_the_empty_text_either_way() -> None:
    event = make_event("cego")
    make_entries(event, 4)
    fast, library = both_ways(_standings(event))
    assert fast == library
    assert "Nobody has played yet." in fast


def test_the_season_and_team_rows_are_the_ones_django_tables2_writes(eventful) -> None:
    season = make_season()
    Event.objects.filter(pk=eventful.pk).update(season=season)
    events, rows = standings.season_standings(season)
    fast, library = both_ways(lambda: tables_.season_table(events, rows))
    assert fast == library
    assert ">withdrawn<" in fast
    entries = list(eventful.entries.order_by("start_number"))
    red = Team.objects.create(event=eventful, name="Rot & <Weiß>", kind=Team.Kind.SQUAD)
    Entry.objects.filter(pk__in=[e.pk for e in entries[:4]]).update(squad=red)
    fast, library = both_ways(lambda: tables_.SideTable(standings.team_standings(eventful)))
    assert fast == library
    assert "Rot &amp; &lt;Weiß&gt;" in fast


def test_standings_given_in_rank_order_keep_the_order_django_tables2_would_sort_them_into(
    eventful,
) -> None:
    """The standings arrive by rank (names in German order within a rank): the table keeps them
    as they are instead of sorting them again, and the order is the one the library's own
    (stable) sort gives."""
    kept = _standings(eventful)()
    by_library = _standings(eventful)()
    django_tables2.Table.order_by.fset(by_library, ("rank",))  # the library's own sort
    order = [row.record.pk for row in kept.rows]
    assert order == [row.record.pk for row in by_library.rows]
    ranks = [row.record.rank for row in kept.rows]
    assert len(set(ranks)) < len(ranks)  # players share a rank: the order within it counts


def test_standings_given_out_of_rank_order_are_sorted_by_rank(eventful) -> None:
    rounds = standings.rounds_of(eventful)
    rows = standings.named_rows(Entry.objects.standings(eventful, rounds))
    table = tables_.standings_table(eventful, list(reversed(rows)), rounds)
    ranks = [row.record.rank for row in table.rows]
    assert ranks == sorted(ranks)
    assert ranks != [row.rank for row in reversed(rows)]
