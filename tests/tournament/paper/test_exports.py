"""Excel workbooks, read back with openpyxl and checked cell by cell against the database.

Sheets are found by position (standings, one per round, the games, the seating), never by their
translated names; columns by their English headings, so the workbooks are written in English here.
"""

from __future__ import annotations

import io
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_season,
    make_table,
)
from tests.helpers.results import standings_result, ziege_season
from tournament.core import workbook as core_workbook
from tournament.models import Entry, Event, Hand, Result, Round, Season, Seat
from tournament.paper import exports
from tournament.play import hands, imports, rounds
from tournament.register import services
from tournament.results import standings

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# Cego hands whose results differ from seat to seat (RULES.md 7): Halbe lost with 34 card points
# costs the declarer 60, won with 47 brings 60.
HANDS = [cego("halbe", 0, 34), cego("halbe", 1, 47), cego("halbe", 2, 34), cego("halbe", 3, 47)]


# --- helpers ----------------------------------------------------------------------------------


def play_round(event: Event, hand_count: int, *, seed: int = 1) -> Round:
    """Draw and start the next round; every table plays ``hand_count`` games."""
    rnd = make_round(event, seed=seed)
    for table in rnd.tables.order_by("number"):
        for number in range(hand_count):
            hands.record_hand(table=table, data=HANDS[number % len(HANDS)])
    return rnd


def cego_event(players: int, hand_count: int, *, round_count: int = 1, **kwargs: Any) -> Event:
    """A Cego event of ``players`` whose every table has played ``hand_count`` games per round."""
    event = make_event(hands_per_round={"4": hand_count}, **kwargs)
    make_entries(event, players)
    for number in range(1, round_count + 1):
        rnd = play_round(event, hand_count, seed=number)
        if number < round_count:
            rounds.close_round(round=rnd)
    return event


def workbook(output: io.BytesIO) -> list[Worksheet]:
    return load_workbook(io.BytesIO(output.getvalue())).worksheets


def english_workbook(event: Event) -> list[Worksheet]:
    with translation.override("en"):
        return workbook(exports.event_workbook(event))


def table_of(ws: Worksheet) -> tuple[list[Any], list[list[Any]]]:
    """The heading row and the data rows of a sheet."""
    rows = [list(row) for row in ws.iter_rows(values_only=True)]
    return rows[0], rows[1:]


def column(ws: Worksheet, heading: str) -> list[Any]:
    header, rows = table_of(ws)
    index = header.index(heading)
    return [row[index] for row in rows]


def stored_results(event: Event) -> dict[tuple[int, int, int], dict[int, int]]:
    """(round, table, game) → {seat position: points}, as the result cache holds them."""
    found: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    for rnd, table, number, position, points in Result.objects.filter(event=event).values_list(
        "round__number", "table__number", "hand__number", "position", "points"
    ):
        found[(rnd, table, number)][position] = points
    return found


def count_queries(build: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        build()
    return len(ctx.captured_queries)


# --- the event workbook -----------------------------------------------------------------------


def test_the_event_workbook_has_standings_a_sheet_per_round_then_games_then_seating():
    event = cego_event(8, 2, round_count=2)
    sheets = english_workbook(event)
    assert len(sheets) == 1 + 2 + 1 + 1
    standings_sheet, games, seating = sheets[0], sheets[3], sheets[4]
    assert len(table_of(standings_sheet)[1]) == 8
    assert len(table_of(games)[1]) == Hand.objects.filter(table__round__event=event).count() == 8
    assert len(table_of(seating)[1]) == Seat.objects.filter(round__event=event).count() == 16


def test_the_standings_sheet_shows_every_players_total_in_the_standings_order():
    event = cego_event(8, 4, round_count=2)
    sheet = english_workbook(event)[0]
    expected = [(e.start_number, e.total) for e in Entry.objects.standings(event)]
    assert list(zip(column(sheet, "No."), column(sheet, "Total"), strict=True)) == expected
    assert len({total for _n, total in expected}) > 1  # the order is not trivially all equal


def test_the_cego_totals_in_the_standings_sheet_add_up_to_zero():
    event = cego_event(12, 3)
    totals = column(english_workbook(event)[0], "Total")
    assert any(totals)
    assert sum(totals) == 0


def test_the_standings_sheet_has_a_column_per_round_adding_up_to_the_total():
    event = cego_event(8, 2, round_count=2)
    sheet = english_workbook(event)[0]
    rounds = zip(column(sheet, "Round 1"), column(sheet, "Round 2"), strict=True)
    assert [a + b for a, b in rounds] == column(sheet, "Total")


def test_a_round_sheet_shows_each_seats_result_for_that_round():
    event = cego_event(8, 3, round_count=2)
    sheets = english_workbook(event)
    for number, sheet in ((1, sheets[1]), (2, sheets[2])):
        rnd = event.rounds.get(number=number)
        expected: dict[tuple[int, int], int] = defaultdict(int)
        for result in Result.objects.filter(round=rnd).select_related("table"):
            expected[(result.table.number, result.position + 1)] += result.points
        shown = {
            (table, seat): result
            for table, seat, result in zip(
                column(sheet, "Table"), column(sheet, "Seat"), column(sheet, "Result"), strict=True
            )
        }
        assert shown == expected
        assert len(shown) == Seat.objects.filter(round=rnd, table__isnull=False).count()


def test_the_games_sheet_has_one_row_per_hand_with_each_seats_stored_result():
    event = cego_event(12, 3, round_count=2)
    sheet = english_workbook(event)[3]
    header, rows = table_of(sheet)
    assert len(rows) == Hand.objects.filter(table__round__event=event).count() == 18
    stored = stored_results(event)
    round_i, table_i, game_i = header.index("Round"), header.index("Table"), header.index("Game")
    shown = {}
    for row in rows:
        results = {p: row[header.index(f"Result {p + 1}")] for p in range(4)}
        shown[(row[round_i], row[table_i], row[game_i])] = results
    assert shown == stored


def test_the_games_sheet_names_the_player_of_each_result_column():
    event = cego_event(4, 1)
    sheet = english_workbook(event)[2]  # standings, round 1, games, seating
    header, rows = table_of(sheet)
    seats = Seat.objects.filter(round__event=event).select_related("entry__player")
    names = [str(s.entry.player) for s in seats.order_by("position")]
    assert [rows[0][header.index(f"Player {p}")] for p in range(1, 5)] == names


def test_the_seating_sheet_has_one_row_per_seat():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT, hands_per_round={"4": 1})
    make_entries(event, 9)  # one player sits out: a seat without a table
    make_round(event)
    header, rows = table_of(english_workbook(event)[3])  # standings, round 1, games, seating
    assert len(rows) == Seat.objects.filter(round__event=event).count() == 9
    seated = [row for row in rows if row[header.index("Table")] is not None]
    assert len(seated) == 8
    expected = {s.entry.start_number for s in Seat.objects.filter(round__event=event)}
    assert {row[header.index("No.")] for row in rows} == expected


def test_every_sheet_has_a_bold_frozen_filtered_header_and_prints_landscape_with_it():
    event = cego_event(8, 2, round_count=2)
    sheets = english_workbook(event)
    assert len(sheets) == 5
    for sheet in sheets:
        assert all(cell.font.b for cell in sheet[1]), sheet.title
        assert sheet.freeze_panes == "A2", sheet.title
        last = get_column_letter(sheet.max_column)
        assert sheet.auto_filter.ref == f"A1:{last}{sheet.max_row}", sheet.title
        assert sheet.page_setup.orientation == "landscape", sheet.title
        assert sheet.print_title_rows in ("1:1", "$1:$1"), sheet.title


@pytest.mark.parametrize("name", ["=1+1", "@SUM(A1)", "+49 171 1234", "-1-1"])
def test_a_name_that_looks_like_a_formula_is_written_as_text(name: str):
    event = make_event(hands_per_round={"4": 1})
    services.register_player(event=event, player=make_player(first_name="Eva", last_name=name))
    services.register_player(event=event, player=make_player(first_name=name, last_name="Maier"))
    make_entries(event, 2)
    play_round(event, 1)
    output = exports.event_workbook(event)
    cells = [
        cell
        for sheet in workbook(output)
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and name in cell.value
    ]
    # standings (last name, first name), round and seating sheets (sort name), games (players)
    assert len(cells) >= 6
    for cell in cells:
        assert cell.data_type == "s", (cell.coordinate, cell.value)
        assert cell.value.startswith("'") or not cell.value.startswith(("=", "+", "-", "@"))
    with zipfile.ZipFile(io.BytesIO(output.getvalue())) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        assert all(b"<f>" not in archive.read(n) and b"<f " not in archive.read(n) for n in sheets)


def test_a_name_with_markup_appears_literally():
    event = make_event(hands_per_round={"4": 1})
    services.register_player(
        event=event, player=make_player(first_name="Eva", last_name="<script>x</script>")
    )
    make_entries(event, 3)
    play_round(event, 1)
    sheet = english_workbook(event)[0]
    assert "<script>x</script>" in column(sheet, "Last name")


def test_a_crazy_solo_workbook_shows_the_balance_start_150_plus_the_results():
    table = make_table("crazy_solo", 4)
    event = table.round.event
    hands.record_hand(
        table=table, data={"contract": "solo", "bidder": 0, "partner": 1, "soloist_points": 80}
    )
    sheet = english_workbook(event)[0]
    expected = [(e.start_number, 150 + e.total) for e in Entry.objects.standings(event)]
    assert list(zip(column(sheet, "No."), column(sheet, "Balance"), strict=True)) == expected
    assert {balance for _n, balance in expected} != {150}


# --- the command ------------------------------------------------------------------------------


def test_export_xlsx_writes_the_event_workbook_to_the_output_file(tmp_path: Path):
    event = cego_event(8, 2)
    target = tmp_path / "ergebnisse.xlsx"
    call_command("export_xlsx", event.slug, "--output", str(target), stdout=io.StringIO())
    sheets = load_workbook(target).worksheets
    assert len(sheets) == 1 + 1 + 1 + 1
    _header, rows = table_of(sheets[0])
    names = {(e.player.last_name, e.player.first_name) for e in Entry.objects.filter(event=event)}
    assert {(row[2], row[3]) for row in rows} == names


def test_export_xlsx_of_an_unknown_event_is_an_error(tmp_path: Path):
    target = tmp_path / "nichts.xlsx"
    with pytest.raises(CommandError):
        call_command("export_xlsx", "gibt-es-nicht", "--output", str(target))
    assert not target.exists()


# --- the season workbook ----------------------------------------------------------------------


def season_of(events: int) -> Season:
    """A season of ``events`` Cego events; the same eight players enter each, four more the last."""
    season = make_season()
    players = [make_player() for _ in range(8)]
    for number in range(events):
        event = make_event(hands_per_round={"4": 2}, season=season)
        event.date = event.date.replace(day=1 + number)
        event.save(update_fields=["date"])
        for player in players:
            services.register_player(event=event, player=player)
        if number == events - 1:
            make_entries(event, 4)
        play_round(event, 2, seed=number + 1)
    return season


def season_sheet(season: Season) -> Worksheet:
    with translation.override("en"):
        return workbook(exports.season_workbook(season))[0]


def test_the_season_workbook_has_a_column_per_event_and_the_sum():
    season = season_of(3)
    events = list(season.events.order_by("date", "pk"))
    header, rows = table_of(season_sheet(season))
    assert header[3:-2] == [e.name for e in events]
    assert header[-2:] == ["Total", "Withdrawn from"]
    for row in rows:
        assert sum(value or 0 for value in row[3:-2]) == row[-2]
    # the four late players took part in the last event only
    assert sum(1 for row in rows if row[3] is None) == 4


def test_the_season_workbook_sum_equals_the_season_standings():
    season = season_of(2)
    _events, expected = standings.season_standings(season)
    _header, rows = table_of(season_sheet(season))
    assert [(row[0], row[1], row[-2]) for row in rows] == [
        (r["rank"], r["name"], r["total"]) for r in expected
    ]
    assert len(rows) == 12


def test_the_season_workbook_names_the_events_a_player_withdrew_from():
    season = season_of(2)
    first, _second = season.events.order_by("date", "pk")
    leaver = first.entries.select_related("player").first()
    services.withdraw_entry(entry=leaver)
    _header, rows = table_of(season_sheet(season))
    marked = {row[1]: row[-1] for row in rows if row[-1]}
    assert marked == {leaver.player.sort_name: first.name}


# --- query counts: a workbook costs the same whatever the size -----------------------------------


def test_the_event_workbook_costs_the_same_queries_for_8_players_and_40():
    small, large = cego_event(8, 2), cego_event(40, 3)
    # Expect per event: its rounds, the standings, per round its seats and its sums by seat,
    # the games sheet's seats, results and hands, the seating
    assert count_queries(lambda: exports.event_workbook(small)) == count_queries(
        lambda: exports.event_workbook(large)
    )


def test_the_season_workbook_costs_the_same_queries_for_one_event_and_three():
    small, large = season_of(1), season_of(3)
    # Expect 2 queries: the season's events, every entry's sum per event
    assert count_queries(lambda: exports.season_workbook(small)) == count_queries(
        lambda: exports.season_workbook(large)
    )


def download(client: Any, event: Event) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("event_xlsx", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert load_workbook(io.BytesIO(response.content)).worksheets[0].max_row == (
        Entry.objects.filter(event=event).count() + 1
    )
    return len(ctx.captured_queries)


def test_the_excel_download_costs_the_same_queries_for_8_players_and_40(client):
    small, large = cego_event(8, 2), cego_event(40, 3)
    # Expect the event (with its season), then the workbook's queries
    assert download(client, small) == download(client, large)


# --- whatever is stored, a download never fails and never holds a formula (issue 11) -----------


def formulas_in(content: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        return [n for n in sheets if b"<f>" in archive.read(n) or b"<f " in archive.read(n)]


def test_control_characters_already_stored_never_break_a_download(client):
    """Stored before names were checked (or written around the forms): the downloads of the event,
    the season and the result template still open, the characters dropped."""
    nul = "\x00" if connection.vendor == "sqlite" else ""  # PostgreSQL cannot store NUL at all
    season = make_season(name="Saison\x07 2026")
    event = make_event(name="Turnier\x1b[31m", season=season, hands_per_round={"4": 1})
    services.register_player(
        event=event, player=make_player(first_name="\x01\x0bEva", last_name=f"Maier\x1f{nul}")
    )
    make_entries(event, 3)
    rnd = play_round(event, 1)
    hands.void_table(table=rnd.tables.get(), reason="Karten\x0cfehlten")
    for url in (
        reverse("event_xlsx", args=[event.slug]),
        reverse("season_xlsx", args=[season.slug]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert load_workbook(io.BytesIO(response.content)).worksheets

    for content in (
        exports.event_workbook(event).getvalue(),
        exports.season_workbook(season).getvalue(),
        imports.result_template(rnd).getvalue(),
    ):
        values = [
            cell
            for sheet in load_workbook(io.BytesIO(content)).worksheets
            for row in sheet.iter_rows(values_only=True)
            for cell in row
            if isinstance(cell, str)
        ]
        assert any("Eva" in v for v in values)
        assert not any(ch in v for v in values for ch in "\x00\x01\x07\x0b\x0c\x1b\x1f")


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","Klick")', "+1+1", "@cmd"])
def test_event_names_in_the_season_workbook_are_text_not_formulas(name: str):
    season = make_season(name=name)
    event = make_event(name=name, season=season, hands_per_round={"4": 1})
    make_entries(event, 4)
    play_round(event, 1)
    content = exports.season_workbook(season).getvalue()
    assert formulas_in(content) == []
    sheet = load_workbook(io.BytesIO(content)).worksheets[0]
    heading = next(cell for cell in sheet[1] if name in str(cell.value))
    assert heading.data_type == "s"
    assert heading.value == "'" + name


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("-3", "'-3"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("Eva\x00\x01\x0b", "Eva"),
        ("\x01=1+1", "'=1+1"),
        ("Anna Müller", "Anna Müller"),
        (7, 7),
        (None, None),
    ],
)
def test_every_cell_goes_through_one_formula_safe_writer(value, written):
    assert core_workbook.text(value) == written


def test_a_loss_shows_the_same_minus_sign_in_excel_as_on_the_pages():
    standings = english_workbook(cego_event(4, 1))[0]
    header, _rows = table_of(standings)
    totals = next(standings.iter_cols(min_col=header.index("Total") + 1, min_row=2))
    loss = next(cell for cell in totals if cell.value < 0)
    negative = loss.number_format.split(";")[1]
    assert "−" in negative and "-" not in negative  # U+2212, as the standings page writes it
    assert isinstance(loss.value, int)  # still a number to add up


# --- a game's result figure, one meaning per heading (issue 43) --------------------------------


def downloaded(client: Any, name: str, slug: str) -> list[Worksheet]:
    """The workbook a reader downloads from the page's button (English)."""
    response = client.get(reverse(name, args=[slug]))
    assert response["Content-Type"] == XLSX
    return load_workbook(io.BytesIO(response.content)).worksheets


def rows_by(ws: Worksheet, key: str) -> dict[Any, dict[str, Any]]:
    """A sheet's rows as {heading: value}, by the value under ``key``."""
    header, rows = table_of(ws)
    return {row[header.index(key)]: dict(zip(header, row, strict=True)) for row in rows}


def number_formats(ws: Worksheet, heading: str) -> set[str]:
    header, _rows = table_of(ws)
    index = header.index(heading)
    return {row[index].number_format for row in ws.iter_rows(min_row=2)}


def test_the_ziege_season_workbook_shows_each_players_matches_won_as_the_standings_do(client):
    ziege = ziege_season()
    sheet = downloaded(client, "season_xlsx", ziege.season.slug)[0]
    rows = rows_by(sheet, "Name")
    for entry in (ziege.winner, ziege.loser):
        row = rows[entry.player.sort_name]
        assert row[ziege.event.name] == row["Matches won"] == standings_result(ziege.event, entry)
    assert rows[ziege.winner.player.sort_name]["Matches won"] == 2
    assert rows[ziege.winner.player.sort_name]["Difference (dealt out − taken)"] == -2
    # matches won are a count: no plus in front of them in Excel either
    for heading in (ziege.event.name, "Matches won"):
        assert number_formats(sheet, heading) == {"General"}
    assert number_formats(sheet, "Difference (dealt out − taken)") == {core_workbook.SIGNED}


def test_the_ziege_event_workbook_has_the_pair_ranking_as_its_page(client):
    ziege = ziege_season()
    sheets = downloaded(client, "event_xlsx", ziege.event.slug)
    assert sheets[1].title == "Pair ranking"
    pairs_sheet = rows_by(sheets[1], "Pair")
    players = rows_by(sheets[0], "No.")
    for entry in (ziege.winner, ziege.loser):
        pair = pairs_sheet[entry.pair.name]
        assert str(entry.player) in pair["Players"]
        assert pair["Matches won"] == standings_result(ziege.event, entry)
        # each figure as the standings sheet has it for the pair's players, under its heading
        mine = players[entry.start_number]
        for heading in table_of(sheets[1])[0][3:]:
            assert pair[heading] == mine[heading]
    assert [pairs_sheet[e.pair.name]["Rank"] for e in (ziege.winner, ziege.loser)] == [1, 2]


def test_a_heading_names_the_same_figure_on_every_sheet_of_the_ziege_workbook(client):
    """A round's and a deal's figures are headed as the standings sheet heads that figure, and
    add up to the standings' figure under that heading: no "Result" that means the defeat points
    taken on one sheet while the standings rank by another figure."""
    ziege = ziege_season()
    sheets = downloaded(client, "event_xlsx", ziege.event.slug)
    standings_sheet, round_sheet, games_sheet = sheets[0], sheets[2], sheets[3]
    standing = rows_by(standings_sheet, "No.")
    headings = set(table_of(standings_sheet)[0])
    # the round sheet (one round: its figure is the event's)
    places = {"Table", "Seat", "No.", "Name", "Club", "Note"}
    figures = [h for h in table_of(round_sheet)[0] if h not in places]
    assert figures and set(figures) <= headings
    for number, row in rows_by(round_sheet, "No.").items():
        for heading in figures:
            assert row[heading] == standing[number][heading] == standing[number]["Round 1"]
    # the games sheet: each seat's figure of a deal under the standings' heading and the seat's
    # number, adding up over the deals to the standings' figure of the player in that seat
    number_of = {f"{r['First name']} {r['Last name']}": n for n, r in standing.items()}
    header, rows = table_of(games_sheet)
    summed: dict[tuple[int, str], int] = defaultdict(int)
    for seat in range(1, 5):
        name_at, figure_at = header.index(f"Player {seat}"), header.index(f"Player {seat}") + 1
        heading = header[figure_at].removesuffix(f" {seat}")
        assert heading in headings
        for row in rows:
            summed[(number_of[row[name_at]], heading)] += row[figure_at]
    assert summed == {(number, heading): standing[number][heading] for number, heading in summed}
    assert summed[(ziege.winner.start_number, "Defeat points taken")] == 22
