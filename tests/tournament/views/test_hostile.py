"""Property-based hostile input: random and malicious values sent to every form, to the table link
and to the imports. Whatever arrives: never an error 500, never a partial save, always an answer."""

from __future__ import annotations

import io
import time
import tracemalloc
import zipfile

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from tests.factories import make_entries, make_event, make_round, make_user
from tournament.core import validators
from tournament.models import Entry, Event, Hand, Player, Result
from tournament.play import imports

pytestmark = pytest.mark.django_db

HOSTILE_TEXT = st.sampled_from(
    [
        "",
        "0",
        "-1",
        "79",
        "80",
        "1e9",
        "10" * 40,
        "-" + "9" * 30,
        "²",
        "٣",
        "NaN",
        "true",
        "<script>alert(1)</script>",
        "=1+1",
        "' OR 1=1 --",
        "\x00",
        "halbe",
        "raeuber",
        "solo",
        "null",
        "[]",
        "{}",
    ]
)
VALUE = st.one_of(
    HOSTILE_TEXT,
    st.text(max_size=30),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
)
CEGO_FIELDS = [
    "contract",
    "declarer",
    "declarer_points",
    "berg",
    "gegensolo",
    "declarer_tricks",
    "won",
    "announcer",
    "forfeit",
    "points_0",
    "points_1",
    "points_2",
    "points_3",
    "submission",
    "action",
    "number",
    "version",
    "reason",
]
FORM = st.dictionaries(st.sampled_from(CEGO_FIELDS), VALUE, max_size=len(CEGO_FIELDS))
# Each example posts several forms: these run 3 in 10 of the profile's examples (tests/conftest.py),
# the uploads 3 in 20 (30 and 15 in the suite, 300 and 150 with --hypothesis-profile=thorough).
SLOW = settings(
    max_examples=settings.default.max_examples * 3 // 10,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def clean(data: dict[str, str]) -> dict[str, str]:
    # a browser cannot send NUL bytes in a form; Django's test client refuses them too
    return {k: v.replace("\x00", "") for k, v in data.items()}


@pytest.fixture
def open_table():
    event = make_event()
    make_entries(event, 4)
    return make_round(event).tables.get()


def consistent(table) -> None:
    """No partial save: every stored hand has its four results, and they add up to zero."""
    hands = Hand.objects.filter(table=table).count()
    results = list(Result.objects.filter(table=table).values_list("points", flat=True))
    assert len(results) == 4 * hands
    assert sum(results) == 0


@SLOW
@given(data=FORM)
def test_the_table_link_answers_every_form_without_an_error(open_table, data):
    client = Client(raise_request_exception=False)
    url = open_table.get_link_url()
    for path in (url, url + "vorschau/", url + "undo/", url + "submit/", url + "confirm/"):
        response = client.post(path, clean(data))
        assert response.status_code in (200, 302, 403), (path, response.status_code)
    # the phone's queue (issue 14): stored, or refused with a reason as JSON
    response = client.post(url + "senden/", clean(data))
    assert response.status_code in (200, 409, 422), response.status_code
    assert "message" in response.json() or response.json()["ok"]
    consistent(open_table)


@SLOW
@given(data=FORM)
def test_the_scorers_pages_answer_every_form_without_an_error(open_table, data):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    for path in (
        f"/tisch/{open_table.pk}/",
        f"/tisch/{open_table.pk}/vorschau/",
        f"/tisch/{open_table.pk}/summen/",
        f"/tisch/{open_table.pk}/bestaetigen/",
    ):
        response = client.post(path, clean(data))
        assert response.status_code in (200, 302), (path, response.status_code)
    hand = Hand.objects.filter(table=open_table).first()
    if hand:
        response = client.post(hand.get_absolute_url(), clean(data))
        assert response.status_code in (200, 302)
    consistent(open_table)


EVENT_FIELDS = [
    "name",
    "slug",
    "date",
    "game",
    "table_policy",
    "target_table_size",
    "rounds_planned",
    "pairing",
    "hands_per_round",
    "cego__bettel",
    "cego__win_threshold",
    "cego__solo_double",
    "first_name",
    "last_name",
    "club",
    "town",
    "category",
    "team",
    "player",
]


@SLOW
@given(data=st.dictionaries(st.sampled_from(EVENT_FIELDS), VALUE, max_size=len(EVENT_FIELDS)))
def test_the_director_forms_answer_every_input_without_an_error(data):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    event = Event.objects.first() or make_event()
    events, players = Event.objects.count(), Player.objects.count()
    for path in ("/turnier/neu/", f"/turnier/{event.slug}/spieler/", "/saison/neu/"):
        response = client.post(path, clean(data))
        assert response.status_code in (200, 302), (path, response.status_code)
    # a form either saved one whole thing or nothing
    assert Event.objects.count() in (events, events + 1)
    assert Player.objects.count() in (players, players + 1)
    assert Entry.objects.filter(player__isnull=True).count() == 0


@SLOW
@given(content=st.binary(max_size=2000), name=st.sampled_from(["a.xlsx", "a.csv", "a.txt", "a"]))
def test_the_imports_answer_any_file_without_an_error(open_table, content, name):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    event = open_table.round.event
    entries = Entry.objects.count()
    upload = io.BytesIO(content)
    upload.name = name
    response = client.post(f"/turnier/{event.slug}/spieler/import/", {"file": upload})
    assert response.status_code == 200
    upload = io.BytesIO(content)
    upload.name = name
    response = client.post(f"/turnier/{event.slug}/durchgang/1/ergebnisimport/", {"file": upload})
    assert response.status_code == 200
    assert Entry.objects.count() == entries  # a preview saves nothing
    consistent(open_table)


# --- hostile uploads: shapes, packing, characters (issue 11, findings 3 to 5) ------------------

SHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
SECONDS_PER_UPLOAD = 5
MEMORY_PER_UPLOAD = 100 * 1024 * 1024
CELL_TEXT = st.one_of(
    st.sampled_from(
        [
            "Vorname",
            "Nachname",
            "Anna",
            "Müller",
            '=HYPERLINK("http://evil.example","x")',
            "@SUM(A1)",
            "+1",
            "-1",
            "\tTab",
            "J\x01\x0börg",
            "Jö\x00rg",
            "a\u2028b",
            "x" * 200,
        ]
    ),
    st.text(max_size=12),
)
ROW_NUMBERS = st.sampled_from([1, 2, 3, 4, 5, 5000, 5001, 1_048_576, 10**9])
COLUMNS = st.sampled_from(["A", "B", "C", "E", "AX", "AY", "ZZ", "XFD"])


def xml_text(text: str) -> str:
    # XML cannot carry most control characters at all; an attacker's file escapes what it can
    return "".join(
        f"&#{ord(ch)};" if ch in "\t\n\r" else ch
        for ch in text.replace("&", "&amp;").replace("<", "&lt;")
        if ch in "\t\n\r" or ord(ch) >= 0x20
    )


@st.composite
def hostile_sheets(draw) -> bytes:
    """A sheet's XML as a hand-made file may have it: any declared size, rows far apart, cells
    far right, shared strings that do not exist, numbers out of range, megabytes of packing."""
    rows = []
    for number in sorted({*draw(st.lists(ROW_NUMBERS, max_size=6)), 1}):
        cells = []
        for column in draw(st.lists(COLUMNS, max_size=5, unique=True)):
            ref = f"{column}{number}"
            kind = draw(st.sampled_from(["inline"] * 6 + ["shared", "number", "bool", "broken"]))
            if kind == "inline":
                text = xml_text(draw(CELL_TEXT))
                cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>')
            elif kind == "shared":
                cells.append(f'<c r="{ref}" t="s"><v>{draw(st.sampled_from([0, 1]))}</v></c>')
            elif kind == "number":
                value = draw(st.sampled_from(["1", "-0.5", "1e999", "4E+307"]))
                cells.append(f'<c r="{ref}"><v>{value}</v></c>')
            elif kind == "bool":
                cells.append(f'<c r="{ref}" t="b"><v>1</v></c>')
            else:  # a string that does not exist, a number that is none
                cells.append(
                    draw(
                        st.sampled_from(
                            [f'<c r="{ref}" t="s"><v>99999</v></c>', f'<c r="{ref}"><v>x</v></c>']
                        )
                    )
                )
        if number == 1:
            cells.insert(0, '<c r="A1" t="inlineStr"><is><t>Vorname</t></is></c>')
            cells.insert(1, '<c r="B1" t="inlineStr"><is><t>Nachname</t></is></c>')
        rows.append(f'<row r="{number}">{"".join(cells)}</row>')
    dimension = draw(st.sampled_from(["A1:E4", "A1:XFD1048576", "A1", "ZZZ0", ""]))
    padding = draw(st.sampled_from([0, 10_000, 30_000_000]))
    return (
        f'<worksheet xmlns="{SHEET_NS}"><dimension ref="{dimension}"/><sheetData>'.encode()
        + "".join(rows).encode()
        + b" " * padding
        + b"</sheetData></worksheet>"
    )


def replace_first_sheet(workbook: bytes, sheet: bytes) -> bytes:
    output = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(workbook)) as source,
        zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            member = info.filename == "xl/worksheets/sheet1.xml"
            target.writestr(info.filename, sheet if member else source.read(info.filename))
    return output.getvalue()


@st.composite
def hostile_csv(draw) -> bytes:
    width = draw(st.sampled_from([2, 5, 50, 51, 300]))
    height = draw(st.sampled_from([0, 1, 3, 5000, 5001]))
    cell = draw(CELL_TEXT)
    delimiter = draw(st.sampled_from([";", ",", "\t"]))
    header = delimiter.join(["Vorname", "Nachname"] + ["x"] * (width - 2))
    row = delimiter.join([cell.replace(delimiter, " "), "Weiß"] + [""] * (width - 2))
    text = "\r\n".join([header] + [row] * height)
    return text.encode(draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16"])), "replace")


def post_bounded(client: Client, url: str, name: str, content: bytes):
    upload = io.BytesIO(content)
    upload.name = name
    tracemalloc.start()
    started = time.monotonic()
    try:
        response = client.post(url, {"file": upload})
    finally:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    seconds = time.monotonic() - started
    assert response.status_code == 200, (url, response.status_code)
    assert seconds < SECONDS_PER_UPLOAD, (url, seconds)
    assert peak < MEMORY_PER_UPLOAD, (url, peak)
    return response


def refused_or_clean_preview(response) -> None:
    """A clear refusal of the file, or a preview whose accepted rows are clean text."""
    form = response.context["form"]
    preview = response.context.get("preview")
    if preview is None:
        assert form.errors["file"]
        assert all(message.strip() for message in form.errors["file"])
        return
    for row in getattr(preview, "rows", []):
        if getattr(row, "status", "") in ("new", "matched"):
            for text in (row.first_name, row.last_name, row.club, row.town):
                assert not validators.CONTROL.search(text), row


UPLOADS = settings(
    max_examples=settings.default.max_examples * 3 // 20,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@UPLOADS
@given(sheet=hostile_sheets())
def test_hostile_workbooks_get_a_refusal_or_a_clean_preview_in_bounded_time_and_memory(
    open_table, sheet
):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    event = open_table.round.event
    entries, hands = Entry.objects.count(), Hand.objects.count()
    players = replace_first_sheet(xlsx_of([["Vorname", "Nachname"]]), sheet)
    response = post_bounded(client, f"/turnier/{event.slug}/spieler/import/", "a.xlsx", players)
    refused_or_clean_preview(response)
    results = replace_first_sheet(imports.result_template(open_table.round).getvalue(), sheet)
    response = post_bounded(
        client, f"/turnier/{event.slug}/durchgang/1/ergebnisimport/", "a.xlsx", results
    )
    refused_or_clean_preview(response)
    assert (Entry.objects.count(), Hand.objects.count()) == (entries, hands)


@UPLOADS
@given(content=hostile_csv())
def test_hostile_csv_lists_get_a_refusal_or_a_clean_preview_in_bounded_time_and_memory(
    open_table, content
):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    event = open_table.round.event
    entries = Entry.objects.count()
    response = post_bounded(client, f"/turnier/{event.slug}/spieler/import/", "a.csv", content)
    refused_or_clean_preview(response)
    assert Entry.objects.count() == entries


def xlsx_of(rows: list[list[str]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    output = io.BytesIO()
    book.save(output)
    return output.getvalue()
