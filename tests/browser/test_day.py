"""A small Cego day, played the way the hall plays it, in a real Chromium.

The director creates the event, imports the players, draws, sets the address for phones and prints
the table sheets to PDF; the QR codes are read back out of the PDF (pdftoppm, zxing-cpp) and each
decoded address is opened on a phone without a login. Two tables enter their games in turn, hand
in their sheets and every player confirms their own seat on their personal link; the director closes
the round, corrects a game with a reason and changes a rule setting. After every step the four
places a person reads a total (the standings page, the projector, the printed standings and the
Excel workbook) agree with each other and with totals computed here from the entered games by
``scoring.score``. It walks the steps the handbook (docs/handbuch, docs/guide) gives for the
morning's draw and printing and for entering, handing in and confirming during play.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook

import scoring
from tests.browser.conftest import (
    PHONE,
    SCREENSHOTS,
    fits,
    log_in,
    next_phone,
    screenshots_wanted,
    shoot,
)
from tests.factories import make_user
from tests.helpers.pages import MINUS, total_shown
from tournament.models import Event, Hand, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "ein-langes-passwort-2026"
GAMES_PER_ROUND = 4
PLAYERS = [
    ("Anna", "Zähringer", "Cegofreunde Furtwangen"),
    ("Bernd", "Kienzler", "Cegofreunde Furtwangen"),
    ("Christa", "Dold", "Narrenzunft Triberg"),
    ("Dieter", "Faller", "Narrenzunft Triberg"),
    ("Elke", "Schwörer", "FFW Schonach"),
    ("Franz", "Hettich", "FFW Schonach"),
    ("Gerda", "Wehrle", "SV Gütenbach"),
    ("Hubert", "Ketterer", "SV Gütenbach"),
]
# The games each table enters, in the engine's words; seat numbers follow the table sheet.
GAMES = {
    1: [
        {"contract": "halbe", "declarer": 1, "declarer_points": 34},
        {"contract": "eine", "declarer": 2, "declarer_points": 41},
        {"contract": "solo", "declarer": 3, "declarer_points": 45},
        {"contract": "ulti", "declarer": 0, "won": True},
    ],
    2: [
        {"contract": "cego", "declarer": 0, "declarer_points": 40},
        {"contract": "leere", "declarer": 1, "declarer_points": 47},
        {"contract": "cego", "declarer": 2, "declarer_took_trick": False},
        {"contract": "piccolo", "declarer": 3, "declarer_tricks": 1},
    ],
}


# --- reading what a person reads -------------------------------------------------------------


def players_xlsx(rows: list[tuple[str, str, str]]) -> bytes:
    """The club's list of players, with the consent each gave on the club's paper form to be
    named with the club in the event's lists and on the season's website (issue 46)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Vorname", "Nachname", "Verein", "Ort", "Kategorie", "Einwilligung"])
    for first, last, club in rows:
        sheet.append([first, last, club, "Schwarzwald", "", "ja, Saison"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def upload(page: Any, content: bytes) -> None:
    page.set_input_files(
        "input[name=file]",
        files=[
            {
                "name": "spieler.xlsx",
                "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "buffer": content,
            }
        ],
    )
    with page.expect_navigation():
        page.click("form[enctype] button.primary")


def read_qr_codes(pdf: bytes, tmp_path: Path) -> list[list[str]]:
    """The text of every QR code on each page of the PDF, read as a phone's camera would: the
    page as a picture (pdftoppm), then zxing-cpp."""
    import zxingcpp

    source = tmp_path / "sheets.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "150", "-gray", str(source), str(tmp_path / "page")], check=True
    )
    if screenshots_wanted():  # one picture of the first sheet for a person
        SCREENSHOTS.mkdir(exist_ok=True)
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "60",
                "-png",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(source),
                str(SCREENSHOTS / "day-table-sheet-pdf"),
            ],
            check=True,
        )
    pages = []
    for picture in sorted(tmp_path.glob("page-*.pgm")):
        data = picture.read_bytes()
        # binary PGM: "P5", width, height, maximum grey, then one byte per pixel
        header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        assert header, picture
        width, height = int(header[1]), int(header[2])
        pixels = memoryview(data[header.end() : header.end() + width * height]).cast(
            "B", (height, width)
        )
        codes = zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode)
        pages.append([code.text for code in codes])
    return pages


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    source = tmp_path / "text.pdf"
    source.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout


class Hall:
    """The day's state as the test knows it: the games entered, the event's rules, the seats."""

    def __init__(self, live_server: Any, browser: Any, desk: Any, tmp_path: Path) -> None:
        self.base = live_server.url
        self.browser = browser
        self.desk = desk
        # standings, projector, print list and workbook are public: read without a login
        self.reader_context = browser.new_context(
            viewport={"width": 1366, "height": 900}, locale="de-DE", accept_downloads=True
        )
        self.reader = self.reader_context.new_page()
        self.reader.set_default_timeout(15_000)
        self.tmp_path = tmp_path
        self.slug = "herbstturnier-schonach"
        self.hands: dict[int, list[dict]] = {1: [], 2: []}
        self.checks = 0

    @property
    def event(self) -> Event:
        return Event.objects.get(slug=self.slug)

    def seats(self) -> dict[int, list[int]]:
        """Table number → the start numbers in seat order (as drawn)."""
        seats: dict[int, list[int]] = {}
        for seat in (
            Seat.objects.filter(round__event=self.event, table__isnull=False)
            .order_by("table__number", "position")
            .select_related("table", "entry")
        ):
            seats.setdefault(seat.table.number, []).append(seat.entry.start_number)
        return seats

    def expected(self) -> dict[int, int]:
        """Every ranked start number's total, computed from the games entered and the current
        rules: a player is ranked once seated at a table (who never played is not ranked)."""
        rules = self.event.full_rules()
        seats = self.seats()
        totals = {start: 0 for numbers in seats.values() for start in numbers}
        for table, numbers in seats.items():
            for hand in self.hands[table]:
                for start, points in zip(
                    numbers, scoring.score("cego", hand, seats=4, rules=rules), strict=True
                ):
                    totals[start] += points
        return totals

    def standings_page(self) -> dict[int, int]:
        """Start number → total; checks the shared ranks and the round column on the way."""
        self.reader.goto(f"{self.base}/turnier/{self.slug}/rangliste/")
        rows = self.reader.eval_on_selector_all(
            "table.standings tbody tr:has(td.rank)",
            "rows => rows.map(r => [r.querySelector('td.rank').innerText,"
            " r.querySelector('td.no').innerText,"
            " [...r.querySelectorAll('td.round')].map(c => c.innerText),"
            " r.querySelector('td:last-child').innerText])",
        )
        totals = {int(no): total_shown(total) for _rank, no, _rounds, total in rows}
        for rank, no, rounds, total in rows:
            # shared ranks: 1 + the number of players ahead; equal totals share the rank
            better = sum(1 for other in totals.values() if other > total_shown(total))
            assert int(rank.rstrip(".")) == better + 1, (no, rank, total)
            # one round: its column says what the total says (an empty cell before it starts)
            assert [total_shown(r) if r.strip() else 0 for r in rounds] in (
                [],
                [total_shown(total)],
            )
        return totals

    def projector(self, names: dict[str, int]) -> dict[int, int]:
        self.reader.goto(f"{self.base}/turnier/{self.slug}/beamer/")
        rows = self.reader.eval_on_selector_all(
            "#rows tr:not([hidden]):has(td.name)",
            # the name without its marks (last place, withdrawn), which a reader tells apart
            "rows => rows.map(r => { const name = r.querySelector('td.name').cloneNode(true);"
            " name.querySelectorAll('.tag').forEach(t => t.remove());"
            " return [name.textContent.trim(), r.querySelector('td.num').innerText]; })",
        )
        return {names[name]: total_shown(total) for name, total in rows}

    def printed(self) -> dict[int, int]:
        self.reader.goto(f"{self.base}/turnier/{self.slug}/rangliste/druck/")
        rows = self.reader.eval_on_selector_all(
            "table.standings-print tbody tr:not(.gap)",
            "rows => rows.filter(r => r.cells.length > 2)"
            ".map(r => [r.cells[1].innerText, r.cells[r.cells.length - 1].innerText])",
        )
        return {int(no): total_shown(total) for no, total in rows}

    def workbook(self) -> dict[int, int]:
        self.reader.goto(f"{self.base}/turnier/{self.slug}/rangliste/")
        with self.reader.expect_download() as download:
            self.reader.click(f"a[href$='/turnier/{self.slug}/excel/']")
        path = self.tmp_path / f"day-{self.checks}.xlsx"
        download.value.save_as(path)
        sheet = load_workbook(path).worksheets[0]
        header = next(sheet.iter_rows(max_row=1, values_only=True))
        total = header.index("Gesamt")
        return {
            int(row[1]): int(row[total]) for row in sheet.iter_rows(min_row=2, values_only=True)
        }

    def agree(self, step: str) -> dict[int, int]:
        """The standings page, the projector, the print list and the workbook say the same, and
        what the games entered say."""
        self.checks += 1
        names = {f"{first} {last}": i for i, (first, last, _club) in enumerate(PLAYERS, 1)}
        expected = self.expected()
        assert sum(expected.values()) == 0  # Cego is zero-sum
        assert self.standings_page() == expected, step
        assert self.projector(names) == expected, step
        assert self.printed() == expected, step
        assert self.workbook() == expected, step
        return expected

    def provisional_marks(self) -> int:
        self.reader.goto(f"{self.base}/turnier/{self.slug}/rangliste/")
        return self.reader.locator("table.standings tbody .tag.provisional").count()

    def phone(self) -> tuple[Any, Any]:
        context = self.browser.new_context(
            viewport=PHONE, locale="de-DE", is_mobile=True, has_touch=True, device_scale_factor=2
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        return context, page


def enter_game(page: Any, hand: dict) -> str:
    """Type one game into a phone's hand form as a player would; the message shown after it."""
    page.select_option("select[name=contract]", hand["contract"])
    page.select_option("select[name=declarer]", str(hand["declarer"]))
    if "declarer_points" in hand:
        page.fill("input[name=declarer_points]", str(hand["declarer_points"]))
    if hand.get("declarer_took_trick") is False:
        page.check("input[name=berg]")
    if "won" in hand:
        page.select_option("select[name=won]", "yes" if hand["won"] else "no")
    if "declarer_tricks" in hand:
        page.fill("input[name=declarer_tricks]", str(hand["declarer_tricks"]))
    with page.expect_navigation():
        page.click("button[value=save]")
    return page.inner_text(".messages li.success")


def test_a_cego_day_from_paper_to_phone_to_prize_list(live_server, browser, desktop, tmp_path):
    if not (shutil.which("pdftoppm") and shutil.which("pdftotext")):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("pdftoppm is missing; .ci/run installs Debian's poppler-utils package")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    make_user("leiter", PASSWORD)
    desk = desktop
    hall = Hall(live_server, browser, desk, tmp_path)
    base = hall.base
    log_in(desk, base, "leiter", PASSWORD)

    # 1. The event: game, date, table policy, games per round
    desk.goto(f"{base}/turnier/neu/")
    desk.fill("input[name=name]", "Herbstturnier Schonach")
    desk.fill("input[name=date]", "2026-12-05")
    desk.select_option("select[name=game]", "cego")
    desk.select_option("select[name=table_policy]", "exact")
    desk.fill("input[name=hands_per_round]", str(GAMES_PER_ROUND))
    desk.click("#event-form button.primary")
    desk.wait_for_url(re.compile(rf"/turnier/{hall.slug}/spieler/$"))

    # 2. Players from an Excel list: a list with a rejected row saves nothing; then the good one
    desk.goto(f"{base}/turnier/{hall.slug}/spieler/import/")
    upload(desk, players_xlsx([*PLAYERS[:2], ("Nur", "", "")]))  # a row without a last name
    assert desk.locator("button[value=confirm]").count() == 0
    assert hall.event.entries.count() == 0
    upload(desk, players_xlsx(PLAYERS))
    assert desk.locator("tr.import-new").count() == len(PLAYERS)
    with desk.expect_navigation():
        desk.click("button[value=confirm]")
    assert hall.event.entries.count() == len(PLAYERS)
    hall.agree("registered, nothing played")

    # 3. A round, its draw (explained, reproducible from its seed)
    desk.goto(f"{base}/turnier/{hall.slug}/")
    desk.click("form[action$='/durchgang/neu/'] button")
    desk.wait_for_url(re.compile(r"/durchgang/1/$"))
    with desk.expect_navigation():
        desk.click("form[action$='/draw/'] button")
    explain = desk.inner_text(".explain")
    assert "8" in explain
    seed = re.search(r"(\d{4,})", desk.inner_text(".explain small"))[1]
    assert desk.locator(".table-card").count() == 2
    drawn = hall.seats()
    desk.fill("input[name=seed]", seed)  # the same seed draws the same tables again
    with desk.expect_navigation():
        desk.click("form[action$='/draw/'] button")
    assert hall.seats() == drawn
    # a swap between two tables, and back
    first, second = drawn[1][0], drawn[2][0]
    for one, other in ((first, second), (second, first)):
        entry = {n: e.pk for n, e in ((e.start_number, e) for e in hall.event.entries.all())}
        desk.select_option("select[name=first]", str(entry[one]))
        desk.select_option("select[name=second]", str(entry[other]))
        with desk.expect_navigation():
            desk.click("form[action$='/swap/'] button")
        if one == first:
            assert hall.seats()[1][0] == second
    assert hall.seats() == drawn
    tables = {t.number: t for t in Table.objects.filter(round__event=hall.event)}
    desk.goto(f"{base}/turnier/{hall.slug}/durchgang/1/druck/sitzplan/")
    boxes = desk.locator(".box ol").all_inner_texts()
    assert [b.split("\n") for b in boxes] == [
        [" ".join(PLAYERS[start - 1][:2]) for start in drawn[n]] for n in (1, 2)
    ]

    # "Wo sitze ich?": a player finds their table and seat
    _first, last, _club = PLAYERS[4]
    desk.goto(f"{base}/turnier/{hall.slug}/wo-sitze-ich/?q={last}")
    seat = Seat.objects.get(round__event=hall.event, entry__player__last_name=last)
    assert f"Tisch {seat.table.number}, Platz {seat.position + 1}" in desk.inner_text(".where")

    # 4. The address for phones and the sheets: the QR code of each sheet is its table link
    port = base.rsplit(":", 1)[1]
    phones_address = f"http://127.0.0.1:{port}"  # the live server under another name
    desk.goto(f"{base}/turnier/{hall.slug}/bearbeiten/")
    desk.fill("input[name=public_url]", phones_address)
    desk.click("#event-form button.primary")
    desk.wait_for_url(re.compile(rf"/turnier/{hall.slug}/$"))
    desk.goto(f"{base}/turnier/{hall.slug}/durchgang/1/druck/tischlisten/")
    warning = desk.locator(".notice .warning")
    assert warning.is_visible()  # 127.0.0.1 works only on this machine: the director is told
    assert phones_address in warning.inner_text()
    shoot(desk, "day-print-sheets-de-desktop")
    pdf = desk.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    assert "Handys im Saal" not in pdf_text(pdf, tmp_path)  # the warning is not printed
    links = {n: f"{phones_address}/t/{table.token}/" for n, table in tables.items()}
    assert read_qr_codes(pdf, tmp_path) == [[links[1]], [links[2]]]

    # the public sheets carry no link
    with browser.new_context(locale="de-DE") as anonymous:
        page = anonymous.new_page()
        page.goto(f"{base}/turnier/{hall.slug}/durchgang/1/druck/tischlisten/")
        html = page.content()
        assert all(table.token not in html for table in tables.values())
        assert page.locator(".qr").count() == 0

    # before the start a phone can only look
    phones = {n: hall.phone() for n in tables}
    for n, (_context, phone) in phones.items():
        phone.goto(links[n])  # no login: the token is the permission
        assert phone.locator("#hand-form").count() == 0
    desk.goto(f"{base}/turnier/{hall.slug}/durchgang/1/")
    with desk.expect_navigation():
        desk.click("form[action$='/start/'] button")

    # 5. Two tables enter their games at the same time, each on its phone
    for i in range(GAMES_PER_ROUND):
        for n, (_context, phone) in phones.items():
            phone.reload()
            hand = GAMES[n][i]
            message = enter_game(phone, hand)
            hall.hands[n].append(hand)
            # the results are shown for the table to agree
            names = [str(s.entry.player) for s in tables[n].seats.order_by("position")]
            shown = scoring.score("cego", hand, seats=4, rules=hall.event.full_rules())
            for name, points in zip(names, shown, strict=True):
                value = f"+{points}" if points > 0 else f"{MINUS}{-points}" if points else "0"
                assert f"{name} {value}" in message
        if i == 0:
            shoot(phones[1][1], "day-table-link-de-phone")
        hall.agree(f"game {i + 1} at both tables")
    assert hall.provisional_marks() == len(PLAYERS)  # not confirmed yet: provisional
    for _context, phone in phones.values():
        ok, culprits = fits(phone, PHONE["width"])
        assert ok, culprits

    # 6. Each table hands in; then each player confirms their own seat on their personal link
    for _n, (_context, phone) in phones.items():
        phone.reload()
        with phone.expect_navigation():
            phone.click("form[action$='/submit/'] button")
        assert phone.locator("#hand-form").count() == 0  # handed in: the table enters no more
    hall.agree("handed in")
    players_context, phone = hall.phone()
    for n, (context, _phone) in phones.items():
        context.close()
        # each player opens their own personal link (the start card's QR code) on their own
        # phone: the table link confirms no seat (issue 43)
        for seat in tables[n].seats.order_by("position").select_related("entry"):
            next_phone(phone)
            phone.goto(f"{base}{seat.entry.get_link_url()}")
            with phone.expect_navigation():
                phone.click("form[action$='/confirm/'] button")
            assert phone.locator(".messages li.success").count() == 1
        next_phone(phone)
        phone.goto(links[n])
        assert phone.locator(".banner.ok").is_visible()
        shoot(phone, "day-table-link-confirmed-de-phone")
    players_context.close()
    assert all(t.confirmed_at for t in Table.objects.filter(round__event=hall.event))
    assert hall.provisional_marks() == 0
    hall.agree("confirmed")

    # 7. The director closes the round; standings and print list no longer say "provisional"
    desk.goto(f"{base}/turnier/{hall.slug}/durchgang/1/")
    with desk.expect_navigation():
        desk.click("form[action$='/close/'] button")
    desk.goto(f"{base}/turnier/{hall.slug}/rangliste/")
    assert desk.locator(".tag.provisional").count() == 0
    desk.goto(f"{base}/turnier/{hall.slug}/rangliste/druck/")
    assert "vorläufig" not in desk.inner_text("body")
    hall.agree("round closed")

    # 8. Only a scorer corrects a game afterwards, and only with a reason
    table = tables[1]
    hand = Hand.objects.get(table=table, number=2)
    desk.goto(f"{base}/tisch/{table.pk}/")
    with desk.expect_navigation():
        desk.click(f"a[href='{hand.get_absolute_url()}']")
    desk.fill("input[name=declarer_points]", "35")
    desk.click("button[value=save]")  # without a reason the browser does not send the form
    assert desk.locator("input[name=reason]:invalid").count() == 1
    assert Hand.objects.get(pk=hand.pk).data["declarer_points"] == 41
    desk.fill("input[name=reason]", "Augen neu gezählt")
    with desk.expect_navigation():
        desk.click("button[value=save]")
    hall.hands[1][1] = {**hall.hands[1][1], "declarer_points": 35}
    assert Hand.objects.get(pk=hand.pk).data["declarer_points"] == 35
    desk.goto(f"{base}/tisch/{table.pk}/verlauf/")
    assert "Augen neu gezählt" in desk.inner_text("table.history")
    hall.agree("game 2 at table 1 corrected")

    # 9. A game is corrected into a Bettel (worth 30), then the director makes a Bettel worth 50 at
    # this event: the page says which stored games change before anything is saved, and the
    # confirmed change rescores the stored Bettel at once (RULES.md 2.5; issue 10)
    hand = Hand.objects.get(table=tables[2], number=4)
    desk.goto(f"{base}{hand.get_absolute_url()}")
    desk.select_option("select[name=contract]", "bettel")
    desk.fill("input[name=declarer_tricks]", "0")
    desk.fill("input[name=reason]", "Es war ein Bettel")
    with desk.expect_navigation():
        desk.click("button[value=save]")
    hall.hands[2][3] = {"contract": "bettel", "declarer": 3, "declarer_tricks": 0}
    bettel = hall.agree("game 4 at table 2 corrected into a Bettel")
    declarer = hall.seats()[2][3]
    desk.goto(f"{base}/turnier/{hall.slug}/bearbeiten/")
    desk.fill("input[name=cego__bettel]", "50")
    with desk.expect_navigation():
        desk.click("#event-form > button.primary")
    asked = desk.inner_text(".rescore")
    stored = Hand.objects.filter(table__round__event=hall.event).count()
    assert f"{stored} gespeicherte Spiele werden sofort" in asked, asked
    assert "Die Summen von 4 Spielern ändern sich" in asked, asked  # the Bettel's table
    assert hall.event.full_rules()["bettel"] == 30  # nothing saved before the confirmation
    desk.fill("input[name=reason]", "Turnierregel: Bettel zählt 50")
    with desk.expect_navigation():
        desk.click("button[name=confirm_rules]")
    assert hall.event.full_rules()["bettel"] == 50
    after = hall.agree("Bettel worth 50: the stored Bettel rescored")
    assert after[declarer] - bettel[declarer] == 3 * 50 - 3 * 30
    desk.goto(f"{base}/turnier/{hall.slug}/verlauf/")
    assert "Turnierregel: Bettel zählt 50" in desk.inner_text("body")
    hall.reader_context.close()

    # 10. The prize-giving list: the places and the last
    desk.goto(f"{base}/turnier/{hall.slug}/rangliste/druck/?prize=1")
    rows = desk.eval_on_selector_all(
        "table.standings-print tbody tr",
        "rows => rows.map(r => [r.cells[2].innerText, r.cells[r.cells.length - 1].innerText])",
    )
    assert len(rows) == len(PLAYERS)  # fewer players than prize places: everybody is listed
    assert "letzter Platz" in rows[-1][0]
    assert total_shown(rows[-1][1]) == min(after.values())
    assert total_shown(rows[0][1]) == max(after.values())
    shoot(desk, "day-prize-list-de-desktop")
