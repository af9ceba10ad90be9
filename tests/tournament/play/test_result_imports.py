"""A round's results filled in offline and read back; every write exactly once, uploads read with
hard limits, text refused at the boundary, formulas in the result template.
"""

from __future__ import annotations

import io
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from tests.factories import cego, make_entries, make_event, make_player, make_round
from tests.helpers.imports import (
    FORMATS,
    GERMAN,
    PLAYERS,
    counts,
    csv_file,
    preview_of,
    upload,
    xlsx_file,
)
from tests.helpers.pages import html_tables, messages_of
from tournament.core import errors, reading
from tournament.core import workbook as core_workbook
from tournament.models import Entry, Hand, Round, Seat
from tournament.play import hands
from tournament.play import imports as play_imports
from tournament.register import imports, services

pytestmark = pytest.mark.django_db


# --- results filled in offline ----------------------------------------------------------------

HALBE_LOST = {"Contract": "Halbe", "Declarer": 1, "Declarer's card points": 34}
HALBE_WON = {"Contract": "halbe", "Declarer": 2, "Declarer's card points": 47}


def cego_round(players: int = 8) -> Round:
    event = make_event()
    make_entries(event, players)
    return make_round(event)


def seated_names(rnd: Round, table: int) -> list[str]:
    seats = Seat.objects.filter(round=rnd, table__number=table).select_related("entry__player")
    return [str(s.entry.player) for s in seats.order_by("position")]


def fill(sheet: Worksheet, games: list[dict[str, Any]]) -> None:
    """Write games below the template's column names (third row), one row per game."""
    header = [cell.value for cell in sheet[3]]
    for offset, game in enumerate(games):
        for label, value in game.items():
            sheet.cell(row=4 + offset, column=header.index(label) + 1, value=value)


def filled_template(rnd: Round, games: dict[int, list[dict[str, Any]]]) -> io.BytesIO:
    book = load_workbook(play_imports.result_template(rnd))
    for table, rows in games.items():
        fill(book[f"Table {table}"], rows)
    output = io.BytesIO()
    book.save(output)
    output.seek(0)
    return output


def stored(rnd: Round, table: int) -> list[list[int]]:
    hands = Hand.objects.filter(table__round=rnd, table__number=table).order_by("number")
    return [list(h.results.order_by("position").values_list("points", flat=True)) for h in hands]


def test_the_result_template_has_a_sheet_per_table_listing_its_players():
    rnd = cego_round(8)
    with translation.override("en"):
        book = load_workbook(play_imports.result_template(rnd))
    assert book.sheetnames == ["Table 1", "Table 2"]
    for number in (1, 2):
        listed = [cell.value for cell in book[f"Table {number}"][2] if cell.value][1:]
        names = seated_names(rnd, number)
        assert listed == [f"{i} = {name}" for i, name in enumerate(names, start=1)]
        games = [row[0] for row in book[f"Table {number}"].iter_rows(min_row=4, values_only=True)]
        assert games == list(range(1, 25))


def test_the_result_template_says_what_goes_into_each_column_and_offers_the_values():
    rnd = cego_round(8)
    with translation.override("en"):
        book = load_workbook(play_imports.result_template(rnd))
    sheet = book["Table 1"]
    header = {cell.value: cell for cell in sheet[3]}
    # the note Excel shows on each column's name
    notes = {name: cell.comment.text if cell.comment else "" for name, cell in header.items()}
    assert "One row per game played" in notes["Game"]
    assert notes["Declarer"].startswith("The player's number 1 to 4 (row 2 lists them)")
    assert notes["Contract"].startswith("One of: Cego; Halbe; Eine; ")
    assert notes["Contract"].endswith("; Räuber.")
    assert notes["Declarer's card points"] == "A whole number, as on the paper sheet."
    assert all(notes.values()), [name for name, note in notes.items() if not note]
    # the drop-downs: in the rows of the games, below the column's name
    column = {name: cell.column_letter for name, cell in header.items()}
    offered = {str(v.sqref): v.formula1 for v in sheet.data_validations.dataValidation}
    assert offered[f"{column['Declarer']}4:{column['Declarer']}27"] == '"1,2,3,4"'
    contracts = offered[f"{column['Contract']}4:{column['Contract']}27"]
    assert contracts.startswith('"Cego,Halbe,Eine,')
    # a game typed with the drop-downs' values is read
    label = contracts.strip('"').split(",")[1]
    with translation.override("en"):
        upload = filled_template(
            rnd, {1: [{"Contract": label, "Declarer": "2", "Declarer's card points": 47}]}
        )
        preview = play_imports.read_results(rnd, upload)
    assert preview.ok, [row.error for row in preview.rows]
    assert [r.results for r in preview.rows] == [[-20, 60, -20, -20]]


def test_filled_in_results_are_read_as_the_engine_scores_them_and_saved():
    rnd = cego_round(8)
    with translation.override("en"):
        upload = filled_template(rnd, {1: [HALBE_LOST, HALBE_WON], 2: [HALBE_WON]})
        preview = play_imports.read_results(rnd, upload)
    assert preview.ok
    assert [(r.table, r.number, r.results) for r in preview.rows] == [
        (1, 1, [-60, 20, 20, 20]),
        (1, 2, [-20, 60, -20, -20]),
        (2, 1, [-20, 60, -20, -20]),
    ]
    assert Hand.objects.count() == 0  # reading saves nothing
    assert play_imports.save_results(rnd, preview.payload()) == 3
    assert stored(rnd, 1) == [[-60, 20, 20, 20], [-20, 60, -20, -20]]
    assert stored(rnd, 2) == [[-20, 60, -20, -20]]


def test_a_declarer_may_be_written_by_name():
    rnd = cego_round(4)
    name = seated_names(rnd, 1)[2]
    with translation.override("en"):
        upload = filled_template(rnd, {1: [{**HALBE_LOST, "Declarer": name.upper()}]})
        preview = play_imports.read_results(rnd, upload)
    assert [r.results for r in preview.rows] == [[20, 20, -60, 20]]


def test_an_illegal_game_is_shown_on_its_row_and_the_workbook_cannot_be_saved():
    rnd = cego_round(8)
    illegal = {**HALBE_LOST, "Declarer's card points": 80}  # the deck has 79 card points
    with translation.override("en"):
        upload = filled_template(rnd, {1: [HALBE_LOST, illegal], 2: [HALBE_WON]})
        preview = play_imports.read_results(rnd, upload)
    assert [bool(r.error) for r in preview.rows] == [False, True, False]
    assert preview.rows[1].number == 2
    assert not preview.ok
    with pytest.raises(errors.Refused):
        play_imports.save_results(rnd, preview.payload())
    assert Hand.objects.count() == 0


def test_a_table_that_already_has_games_is_reported_as_a_problem():
    rnd = cego_round(8)
    table = rnd.tables.get(number=1)
    hands.record_hand(table=table, data=cego())
    with translation.override("en"):
        upload = filled_template(rnd, {1: [HALBE_LOST], 2: [HALBE_WON]})
        preview = play_imports.read_results(rnd, upload)
    assert len(preview.problems) == 1
    assert "Table 1" in preview.problems[0]
    assert not preview.ok
    assert Hand.objects.filter(table=table).count() == 1


def test_uploading_results_previews_them_and_confirming_saves_the_games(director: Client):
    rnd = cego_round(8)
    slug = rnd.event.slug
    template = director.get(reverse("result_template", args=[slug, 1]))
    assert template.status_code == 200
    book = load_workbook(io.BytesIO(template.content))
    fill(book["Table 1"], [HALBE_LOST])
    fill(book["Table 2"], [HALBE_WON, HALBE_LOST])
    output = io.BytesIO()
    book.save(output)
    url = reverse("import_results", args=[slug, 1])
    response = upload(director, url, "ergebnisse.xlsx", output.getvalue())
    assert response.status_code == 200
    assert response.context["preview"].ok
    assert Hand.objects.count() == 0
    response = director.post(url, {"action": "confirm", "payload": response.context["payload"]})
    assert response.status_code == 302
    assert response["Location"] == reverse("round_results", args=[slug, 1])
    assert stored(rnd, 1) == [[-60, 20, 20, 20]]
    assert stored(rnd, 2) == [[-20, 60, -20, -20], [-60, 20, 20, 20]]


def test_a_result_upload_with_an_illegal_game_cannot_be_confirmed(director: Client):
    rnd = cego_round(8)
    illegal = {**HALBE_LOST, "Declarer's card points": 80}
    with translation.override("en"):
        upload_file = filled_template(rnd, {1: [HALBE_LOST, illegal]})
    url = reverse("import_results", args=[rnd.event.slug, 1])
    response = upload(director, url, "ergebnisse.xlsx", upload_file.getvalue())
    assert response.status_code == 200
    assert not response.context["preview"].ok
    assert 'value="confirm"' not in response.content.decode()
    # sending the preview's payload anyway saves nothing either
    response = director.post(url, {"action": "confirm", "payload": response.context["payload"]})
    assert messages_of(response)
    assert Hand.objects.count() == 0


def test_anonymous_users_are_sent_to_log_in_for_the_result_import(client: Client):
    rnd = cego_round(4)
    for name in ("import_results", "result_template"):
        response = client.get(reverse(name, args=[rnd.event.slug, 1]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    with translation.override("en"):
        upload_file = filled_template(rnd, {1: [HALBE_LOST]})
    response = upload(
        client,
        reverse("import_results", args=[rnd.event.slug, 1]),
        "ergebnisse.xlsx",
        upload_file.getvalue(),
    )
    assert response.status_code == 302
    assert Hand.objects.count() == 0


# --- every write exactly once (issue 11, findings 1 and 2) ------------------------------------


def test_a_result_import_confirmed_twice_stores_its_games_once_and_says_so(director: Client):
    rnd = cego_round(8)
    url = reverse("import_results", args=[rnd.event.slug, 1])
    with translation.override("en"):
        upload_file = filled_template(rnd, {1: [HALBE_LOST, HALBE_WON], 2: [HALBE_WON]})
    payload = upload(director, url, "ergebnisse.xlsx", upload_file.getvalue()).context["payload"]
    first = director.post(url, {"action": "confirm", "payload": payload})
    assert first.status_code == 302
    # a double click, the back button and a resend, a retry after a timeout
    again = director.post(url, {"action": "confirm", "payload": payload}, follow=True)
    assert again.status_code == 200
    assert any("already imported: 3 games" in m for m in messages_of(again))
    assert stored(rnd, 1) == [[-60, 20, 20, 20], [-20, 60, -20, -20]]
    assert stored(rnd, 2) == [[-20, 60, -20, -20]]


def test_a_result_import_is_checked_again_when_saved_and_refused_if_a_table_got_games():
    rnd = cego_round(8)
    with translation.override("en"):
        preview = play_imports.read_results(
            rnd, filled_template(rnd, {1: [HALBE_LOST], 2: [HALBE_WON]})
        )
    assert preview.ok
    # between the preview and the confirm the table entered a game through its link
    table = rnd.tables.get(number=1)
    hands.record_hand(table=table, data=cego())
    with pytest.raises(errors.Refused, match="Round 1 already has games at table 1"):
        play_imports.save_results(rnd, preview.payload(), key=preview.key)
    assert stored(rnd, 1) == [[-60, 20, 20, 20]]  # the link's game only
    assert stored(rnd, 2) == []  # and nothing at the other table either


def test_a_player_list_confirmed_twice_registers_it_once_and_says_so(director: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    payload = upload(director, url, "spieler.xlsx", xlsx_file([GERMAN, *PLAYERS])).context[
        "payload"
    ]
    assert director.post(url, {"action": "confirm", "payload": payload}).status_code == 302
    again = director.post(url, {"action": "confirm", "payload": payload}, follow=True)
    assert again.status_code == 200
    assert any("already imported: 3 players" in m for m in messages_of(again))
    assert counts() == (3, 3)
    numbers = Entry.objects.filter(event=event).values_list("start_number", flat=True)
    assert sorted(numbers) == [1, 2, 3]


# --- uploads read with hard limits (finding 3) ------------------------------------------------

SHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def with_sheet(
    workbook: bytes, sheet_xml: bytes, member: str = "xl/worksheets/sheet1.xml"
) -> bytes:
    """The workbook with one sheet's XML replaced: how an attacker hand-makes a file."""
    output = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(workbook)) as source,
        zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            data = sheet_xml if info.filename == member else source.read(info.filename)
            target.writestr(info.filename, data, compress_type=zipfile.ZIP_DEFLATED)
    return output.getvalue()


def inline(ref: str, value: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


def sheet_xml(rows: str, dimension: str = "A1:E4", padding: int = 0) -> bytes:
    return (
        f'<worksheet xmlns="{SHEET_NS}"><dimension ref="{dimension}"/><sheetData>{rows}'.encode()
        + b" " * padding
        + b"</sheetData></worksheet>"
    )


HEADER_ROW = '<row r="1">' + inline("A1", "Vorname") + inline("B1", "Nachname") + "</row>"
ANNA_ROW = '<row r="2">' + inline("A2", "Anna") + inline("B2", "Müller") + "</row>"
# issue 11: 1.5 KB that declares the whole of Excel's grid and has one cell in its last row; the
# reader padded every row to 16,384 columns (137 GB)
WHOLE_GRID = sheet_xml(
    HEADER_ROW + ANNA_ROW + '<row r="1048576">' + inline("XFD1048576", "x") + "</row>",
    dimension="A1:XFD1048576",
)
# 60 MB of XML packed into some 60 KB
TIGHTLY_PACKED = sheet_xml(HEADER_ROW + ANNA_ROW, padding=60_000_000)


def bounded(post: Callable[[], HttpResponse]) -> tuple[HttpResponse, float, int]:
    """The answer, the seconds it took and the peak of memory allocated meanwhile."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        response = post()
    finally:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return response, time.monotonic() - started, peak


@pytest.mark.parametrize(
    ("content", "says"),
    [(WHOLE_GRID, "beyond row 5000"), (TIGHTLY_PACKED, "unpacks to more than 20 MB")],
    ids=["whole-grid", "tightly-packed"],
)
def test_a_player_list_bomb_is_refused_quickly_with_the_limit_and_what_to_do(
    director: Client, content: bytes, says: str
):
    event = make_event()
    bomb = with_sheet(xlsx_file([GERMAN]), content)
    assert len(bomb) < 100_000
    url = reverse("import_players", args=[event.slug])
    response, seconds, peak = bounded(lambda: upload(director, url, "spieler.xlsx", bomb))
    assert response.status_code == 200
    error = " ".join(response.context["form"].errors["file"])
    assert says in error
    assert "preview" not in response.context
    assert seconds < 5
    assert peak < 100 * 1024 * 1024
    assert counts() == (0, 0)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (
            sheet_xml('<row r="1048576">' + inline("XFD1048576", "x") + "</row>", "A1:XFD1048576"),
            "beyond row",
        ),
        (sheet_xml("", padding=60_000_000), "unpacks to more than 20 MB"),
    ],
    ids=["whole-grid", "tightly-packed"],
)
def test_a_result_workbook_bomb_is_refused_quickly_with_the_limit(
    director: Client, content: bytes, says: str
):
    rnd = cego_round(4)
    bomb = with_sheet(play_imports.result_template(rnd).getvalue(), content)
    url = reverse("import_results", args=[rnd.event.slug, 1])
    response, seconds, peak = bounded(lambda: upload(director, url, "ergebnisse.xlsx", bomb))
    assert response.status_code == 200
    error = " ".join(response.context["form"].errors["file"])
    assert says in error
    assert seconds < 5
    assert peak < 100 * 1024 * 1024
    assert Hand.objects.count() == 0


def test_data_to_the_right_of_the_column_limit_is_refused_naming_the_row():
    rows = HEADER_ROW + '<row r="2">' + inline("A2", "Anna") + inline("ZZ2", "x") + "</row>"
    bomb = with_sheet(xlsx_file([GERMAN]), sheet_xml(rows, "A1:ZZ2"))
    with pytest.raises(reading.UnreadableFile, match="Row 2 has data beyond column 50"):
        reading.read_table(io.BytesIO(bomb), "spieler.xlsx")


def test_a_sheet_with_empty_formatted_rows_far_down_is_read_as_its_filled_rows():
    rows = HEADER_ROW + ANNA_ROW + '<row r="900000"><c r="A900000" s="0"/></row>'
    book = with_sheet(xlsx_file([GERMAN]), sheet_xml(rows, "A1:XFD1048576"))
    assert reading.read_table(io.BytesIO(book), "spieler.xlsx") == [
        ["Vorname", "Nachname"],
        ["Anna", "Müller"],
    ]


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        ([GERMAN] + [["A", f"B{i}"] for i in range(5001)], "more than 5000 rows"),
        ([GERMAN + ["x"] * 60], "beyond column 50"),
    ],
    ids=["rows", "columns"],
)
def test_a_csv_list_beyond_the_limits_is_refused_with_the_limit(rows, says):
    with pytest.raises(reading.UnreadableFile, match=says):
        reading.read_table(io.BytesIO(csv_file(rows, "utf-8")), "spieler.csv")


def test_a_file_larger_than_the_upload_limit_is_refused_by_the_reader_too():
    with pytest.raises(reading.UnreadableFile, match="larger than 5 MB"):
        reading.read_table(io.BytesIO(b"Vorname;Nachname\n" + b"A;B\n" * 1_500_000), "a.csv")


def test_reading_stops_with_a_clear_message_when_the_time_budget_is_spent(monkeypatch):
    monkeypatch.setattr(reading, "READ_SECONDS", 0)
    content = xlsx_file([GERMAN, *PLAYERS])
    with pytest.raises(reading.UnreadableFile, match="longer than 0 seconds"):
        reading.read_table(io.BytesIO(content), "spieler.xlsx")


def test_a_document_type_declaration_is_refused_before_any_entity_is_expanded():
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        + sheet_xml(HEADER_ROW + '<row r="2">' + inline("A2", "&lol2;") + "</row>")
    )
    book = with_sheet(xlsx_file([GERMAN]), laughs)
    with pytest.raises(reading.UnreadableFile, match="Excel never writes"):
        reading.read_table(io.BytesIO(book), "spieler.xlsx")


# --- text refused at the boundary (finding 4) -------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "bad", ["Jö\x00rg", "J\x01\x0börg", "Jö\x7frg", "Jö\x9brg"], ids=["nul", "c0", "del", "c1"]
)
def test_a_row_with_a_control_character_is_rejected_at_preview_naming_the_line(fmt, bad):
    if fmt == "xlsx" and bad[2] < " ":
        pytest.skip("an XML file cannot carry C0 control characters (CSV can)")
    if fmt == "csv-cp1252" and bad[2] > "\x7f":
        pytest.skip("Windows-1252 has no C1 control characters")
    event = make_event()
    preview = preview_of(event, [GERMAN, PLAYERS[0], [bad, "Weiß", "", "", ""]], fmt)
    assert [(r.line, r.status) for r in preview.rows] == [(2, "new"), (3, "rejected")]
    assert "first name" in preview.rows[1].reason
    assert "control character" in preview.rows[1].reason
    with pytest.raises(errors.Refused, match="line 3"):
        imports.save_players(event, preview.payload())
    assert counts() == (0, 0)


def test_a_line_break_or_tab_inside_a_cell_becomes_a_space():
    event = make_event()
    rows = [GERMAN, ["Anna\tMaria", "Müller", "CC\r\nRottweil", "Rott\u2028weil", ""]]
    preview = preview_of(event, rows)
    assert preview.ok
    assert [(r.first_name, r.club, r.town) for r in preview.rows] == [
        ("Anna Maria", "CC Rottweil", "Rott weil")
    ]


# --- formulas in the result template (finding 5) ----------------------------------------------


def test_player_names_in_the_result_template_are_text_and_still_read_back():
    event = make_event()
    trap = '=HYPERLINK("http://evil.example","Klick")'
    services.register_player(event=event, player=make_player(first_name=trap, last_name="Mayer"))
    services.register_player(event=event, player=make_player(first_name="@SUM(A1)", last_name="x"))
    make_entries(event, 2)
    rnd = make_round(event)
    with translation.override("en"):
        content = play_imports.result_template(rnd).getvalue()
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        assert all(b"<f>" not in archive.read(n) and b"<f " not in archive.read(n) for n in sheets)
    sheet = load_workbook(io.BytesIO(content))["Table 1"]
    labels = [
        cell for cell in sheet[3] if isinstance(cell.value, str) and "HYPERLINK" in cell.value
    ]
    assert labels  # Räuber's card points are entered in a column per player
    assert all(cell.data_type == "s" and cell.value.startswith("'") for cell in labels)
    # the template still reads back: the Räuber points land in the right player's column
    names = seated_names(rnd, 1)
    raeuber = {"Contract": "Räuber", **dict(zip(names, [25, 20, 18, 16], strict=True))}
    book = load_workbook(io.BytesIO(content))
    header = [cell.value for cell in book["Table 1"][3]]
    for label, value in raeuber.items():
        column = next(i for i, h in enumerate(header) if h in (label, core_workbook.text(label)))
        book["Table 1"].cell(row=4, column=column + 1, value=value)
    output = io.BytesIO()
    book.save(output)
    output.seek(0)
    with translation.override("en"):
        preview = play_imports.read_results(rnd, output)
    assert preview.ok, (preview.problems, [r.error for r in preview.rows])
    assert preview.rows[0].hand["points"] == [25, 20, 18, 16]


def test_a_part_that_declares_less_than_it_holds_is_refused_as_unreadable():
    """The archive's sizes are what the limits trust: a part that unpacks to more than it
    declares is cut at its declared size and fails its checksum."""
    book = bytearray(xlsx_file([GERMAN, *PLAYERS]))
    directory = book.find(b"PK\x01\x02")  # the central directory, the sizes zip readers use
    while directory != -1:
        name_length = int.from_bytes(book[directory + 28 : directory + 30], "little")
        name = bytes(book[directory + 46 : directory + 46 + name_length])
        if name == b"xl/worksheets/sheet1.xml":
            book[directory + 24 : directory + 28] = (100).to_bytes(4, "little")
        directory = book.find(b"PK\x01\x02", directory + 4)
    with pytest.raises(reading.UnreadableFile, match="could not be read"):
        reading.read_table(io.BytesIO(bytes(book)), "spieler.xlsx")


def with_part(workbook: bytes, name: str, content: bytes) -> bytes:
    output = io.BytesIO(workbook)
    with zipfile.ZipFile(output, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return output.getvalue()


def test_a_part_is_checked_as_xml_whatever_its_name_and_an_image_is_left_alone():
    book = xlsx_file([GERMAN, *PLAYERS])
    logo = with_part(book, "xl/media/image1.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    assert len(reading.read_table(io.BytesIO(logo), "spieler.xlsx")) == 4
    disguised = with_part(book, "xl/media/image2.png", b'<?xml version="1.0"?><!DOCTYPE x []><x/>')
    with pytest.raises(reading.UnreadableFile, match="Excel never writes"):
        reading.read_table(io.BytesIO(disguised), "spieler.xlsx")


def test_the_preview_shows_each_game_with_the_players_the_contract_and_the_table_totals(
    director: Client,
):
    rnd = cego_round(4)
    names = seated_names(rnd, 1)
    with translation.override("en"):
        upload_file = filled_template(rnd, {1: [HALBE_LOST, HALBE_WON]})
    url = reverse("import_results", args=[rnd.event.slug, 1])
    page = upload(director, url, "ergebnisse.xlsx", upload_file.getvalue()).content.decode()
    _caption, rows = next(t for t in html_tables(page) if t[0].startswith("Table 1"))
    assert rows[0] == ["Game", "Played", *[f"{i} · {n}" for i, n in enumerate(names, start=1)]]
    first, second = rows[1], rows[2]
    assert first[0] == "1" and "Halbe" in first[1] and names[0] in first[1]
    # each seat: the game's points, then the table total after the game
    assert first[2:] == ["−60 −60", "+20 20", "+20 20", "+20 20"]
    assert second[0] == "2" and "Halbe" in second[1] and names[1] in second[1]
    assert second[2:] == ["−20 −80", "+60 80", "−20 0", "−20 0"]
