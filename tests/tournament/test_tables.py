"""Standings tables (django-tables2): Ziege's columns, whose headings say which way each figure
points, and whose signs read the right way round (+ good for the player, − bad)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_table
from tournament import services
from tournament.models import Entry

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
