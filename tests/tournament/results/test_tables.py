"""Standings tables (django-tables2): Ziege's columns, whose headings say which way each figure
points, and whose signs read the right way round (+ good for the player, − bad)."""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client, RequestFactory
from django.urls import reverse
from django_tables2 import RequestConfig

from tests.factories import cego, make_entries, make_event, make_round, make_season, make_table
from tournament import games
from tournament.core import collation
from tournament.models import Entry, Event, Player, Team, provisional_entries
from tournament.play import hands
from tournament.register import services as register_services
from tournament.results import standings
from tournament.results import tables as tables_

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
    hands.record_hand(table=table, data={"team_a_points": 120})  # B takes 6
    hands.record_hand(table=table, data={"team_a_points": 120})  # B takes 6: A wins the match
    hands.record_hand(table=table, data={"team_a_points": 20})  # A takes 4
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


# --- the standings table on the standings query: sorted and paged by the database -------------


def rendered(table: Any, address: str = "/?per_page=all", paginate: Any = False) -> str:
    """The table as django-tables2 writes it for a request to ``address``."""
    request = RequestFactory().get(address)
    RequestConfig(request, paginate=paginate).configure(table)
    return table.as_html(request)


@pytest.fixture(scope="module")
def built_eventful(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Event]:
    """Eight Cego players at two tables: a voided table, an unconfirmed sheet, a withdrawal, a
    last place, a name that needs escaping. Built once for the module's tests, which only read
    it, in a transaction rolled back after the last of them."""
    with django_db_blocker.unblock(), transaction.atomic():
        event = make_event("cego")
        entries = make_entries(event, 8)
        Player.objects.filter(pk=entries[0].player_id).update(last_name="<O'Brien & Co>")
        first, second = make_round(event).tables.order_by("number")
        for points in (34, 47, 20):
            hands.record_hand(table=first, data=cego(points=points))
        hands.record_hand(table=second, data=cego(points=60))
        hands.void_table(table=second, reason="Kartenfehler")
        register_services.withdraw_entry(entry=first.seats.order_by("position")[1].entry)
        event.refresh_from_db()
        yield event
        transaction.set_rollback(True)


@pytest.fixture
def eventful(built_eventful: Event) -> Event:
    return copy.deepcopy(built_eventful)


def _standings(event):
    rounds = standings.rounds_of(event)
    rows = Entry.objects.standings(event, rounds)
    return tables_.standings_table(
        event,
        rows,
        rounds,
        provisional=provisional_entries(event),
        voided=standings.voided_entries(rounds),
        last=Entry.objects.last_place(event),
    )


def test_the_standings_table_shows_every_mark_and_escapes_names(eventful) -> None:
    html = rendered(_standings(eventful))
    for mark in ('class="tag last"', 'class="tag provisional"', ">withdrawn<", "\u2014"):
        assert mark in html, mark
    assert "&lt;O&#x27;Brien &amp; Co&gt;" in html and "<O'Brien" not in html
    _heads, rows = standings_rows(html)
    assert len(rows) == 8
    assert [row[0] for row in rows] == sorted((row[0] for row in rows), key=int)


def test_sorted_and_paginated_standings_are_the_databases_order_and_slices(eventful) -> None:
    everyone = standings_rows(rendered(_standings(eventful)))[1]
    by_name = standings_rows(rendered(_standings(eventful), "/?sort=-name&per_page=all"))[1]
    # the German name order, reversed (collation: umlauts with their base letter)
    players = sorted(
        (entry.player for entry in Entry.objects.standings(eventful)),
        key=collation.player_key,
        reverse=True,
    )
    expected = [f"{p.last_name}, {p.first_name}" for p in players]
    shown = [html.unescape(row[2]) for row in by_name]
    assert [text[: len(name)] for text, name in zip(shown, expected, strict=True)] == expected
    totals = standings_rows(rendered(_standings(eventful), "/?sort=total&per_page=all"))[1]
    points = [int(row[-1].replace(MINUS, "-").replace("+", "")) for row in totals]
    assert points == sorted(points)
    pages = [
        standings_rows(
            rendered(_standings(eventful), f"/?sort=round_1&page={n}", paginate={"per_page": 3})
        )[1]
        for n in (1, 2, 3)
    ]
    assert [len(page) for page in pages] == [3, 3, 2]
    seen = [row[1] for page in pages for row in page]  # start numbers: nobody twice
    assert sorted(seen) == sorted(row[1] for row in everyone)


def test_an_event_nobody_has_played_shows_the_empty_text() -> None:
    event = make_event("cego")
    make_entries(event, 4)
    assert "Nobody has played yet." in rendered(_standings(event))


def test_the_season_and_team_tables_mark_and_escape(eventful) -> None:
    season = make_season()
    Event.objects.filter(pk=eventful.pk).update(season=season)
    events, rows = standings.season_standings(season)
    game = games.get(season.game)
    assert ">withdrawn<" in rendered(tables_.season_table(game, events, rows))
    entries = list(eventful.entries.order_by("start_number"))
    red = Team.objects.create(event=eventful, name="Rot & <Weiß>", kind=Team.Kind.SQUAD)
    Entry.objects.filter(pk__in=[e.pk for e in entries[:4]]).update(squad=red)
    html = rendered(tables_.SideTable(standings.team_standings(eventful)))
    assert "Rot &amp; &lt;Weiß&gt;" in html
