"""Paper and screens a director shows: the printed five-seat sheet and the projector (Chromium)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.browser.conftest import SCREENSHOTS, log_in, screenshots_wanted, shoot
from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_round,
    make_table,
    make_user,
)
from tournament.models import Event
from tournament.play import hands, sheets
from tournament.register import services

pytestmark = pytest.mark.django_db(transaction=True)

# long names, as they come: double first names, double last names, umlauts
FIVE = [
    ("Hans-Peter", "Schwörer-Oberkirchner"),
    ("Anna-Lena", "Schäuble-Furtwängler"),
    ("Karl-Heinz", "Dold-Kienzler"),
    ("Maria-Theresia", "Wehrle-Hettich"),
    ("Wolfgang", "Kirner-Scherzinger"),
]


def five_seat_round(hand_count: int = 0) -> Event:
    # 25 games: the longest a five-seat Durchgang is set to (every player deals five times)
    event = make_event(table_policy=Event.TablePolicy.MIXED, hands_per_round={"5": 25})
    for first, last in FIVE:
        services.register_player(event=event, player=make_player(first_name=first, last_name=last))
    rnd = make_round(event)
    table = rnd.tables.get()
    assert table.size == 5
    for number in range(1, hand_count + 1):
        dealer = sheets.dealer_for(number, 5)
        declarer = (dealer + 1) % 5
        hands.record_hand(
            table=table, data=cego("halbe", declarer, 34 + number % 12, sitting_out=dealer)
        )
    return event


def pdf_text(path: Path) -> tuple[int, str]:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    pages = next(
        int(line.split()[-1]) for line in info.stdout.splitlines() if line.startswith("Pages:")
    )
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return pages, text


@pytest.mark.parametrize("hands", [0, 25])
def test_a_five_seat_table_sheet_prints_on_one_a4_page_with_five_full_names_and_signatures(
    live_server, desktop, tmp_path, hands
):
    event = five_seat_round(hands)
    # the director's sheet: with the table link's QR code, as it goes onto the table
    make_user("leitung", "sheet-test-2026")
    log_in(desktop, live_server.url, "leitung", "sheet-test-2026")
    desktop.goto(f"{live_server.url}/turnier/{event.slug}/durchgang/1/druck/tischlisten/")
    assert desktop.locator(".sheet-page .qr svg").count() == 1
    shoot(desktop, f"print-sheet-five-seats-{hands}")
    pdf = tmp_path / "sheet.pdf"
    desktop.pdf(path=str(pdf), format="A4", prefer_css_page_size=True)
    pages, text = pdf_text(pdf)
    assert pages == 1
    flat = " ".join(text.split())
    for first, last in FIVE:
        # the player list and a signature line each name the player in full
        assert flat.count(f"{first} {last}") >= 2, (first, last)
    # a signature line per player
    assert desktop.locator(".signatures .sig").count() == 5
    assert desktop.locator("table.games tbody tr").count() == 25


DPI = 150
MM = DPI / 25.4  # picture pixels per millimetre
MARGIN = 12 * MM  # print.css: @page margin
# a pixel is ink where it is darker than mid-grey: the sheet's lines are #555, 0.3 mm wide
INK = bytes(ord("#") if grey < 128 else ord(".") for grey in range(256))


def printed_page(pdf: Path) -> tuple[int, int, bytes]:
    """The first page of ``pdf`` as a picture (pdftoppm, grey): width, height, and a byte per
    pixel, ``#`` for ink and ``.`` for paper."""
    subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-gray", "-singlefile", str(pdf), str(pdf.with_suffix(""))],
        check=True,
    )
    data = pdf.with_suffix(".pgm").read_bytes()
    # binary PGM: "P5", width, height, maximum grey, then one byte per pixel
    header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+\d+\s", data)
    assert header
    width, height = int(header[1]), int(header[2])
    return width, height, data[header.end() :].translate(INK)


def longest_line(pixels: bytes) -> range:
    """Where the longest unbroken stretch of ink lies among ``pixels`` (a row or a column)."""
    return max((range(*m.span()) for m in re.finditer(rb"#+", pixels)), key=len, default=range(0))


@pytest.mark.parametrize(
    ("game", "seats"), [("cego", 3), ("cego", 4), ("cego", 5), ("hennes_sibbe", 6)]
)
def test_the_printed_table_sheet_shows_the_games_table_s_right_border_inside_the_margins(
    live_server, desktop, tmp_path, game, seats
):
    """A4 in Chromium: the games table spans the page, and its right border, the last player's
    column's edge, is on the paper like its left border, not cut off at the page margin."""
    table = make_table(game, seats)
    make_user("leitung", "sheet-test-2026")
    log_in(desktop, live_server.url, "leitung", "sheet-test-2026")
    desktop.goto(
        f"{live_server.url}/turnier/{table.round.event.slug}/durchgang/1/druck/tischlisten/"
    )
    pdf = tmp_path / "sheet.pdf"
    desktop.pdf(path=str(pdf), format="A4", prefer_css_page_size=True)
    if screenshots_wanted():
        SCREENSHOTS.mkdir(exist_ok=True)
        picture = SCREENSHOTS / f"print-sheet-{seats}-seats-pdf"
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", pdf, picture], check=True)
    width, height, page = printed_page(pdf)
    # the games table's rules are the longest lines on the sheet
    rules = max((longest_line(page[y * width : (y + 1) * width]) for y in range(height)), key=len)
    assert rules.start >= MARGIN - 1
    assert rules.stop <= width - MARGIN + 1
    assert len(rules) >= 184 * MM  # the page's whole width for the writing fields

    def upright(columns: range) -> int:
        """The longest upright line among these columns of pixels."""
        return max(len(longest_line(page[x::width])) for x in columns)

    left_border = upright(range(rules.start, rules.start + 3))
    assert left_border >= 60 * MM  # from the column heads down to the totals
    right_border = upright(range(rules.stop - 3, rules.stop))
    assert right_border >= left_border - 2, (
        f"the right border is {right_border / MM:.0f} mm long, the left {left_border / MM:.0f} mm"
    )


def test_the_projector_header_and_column_heads_are_opaque(live_server, desktop):
    event = make_event()
    make_entries(event, 40)
    desktop.goto(f"{live_server.url}/turnier/{event.slug}/beamer/")
    looks = desktop.evaluate(
        """() => {
          const report = (el) => {
            const s = getComputedStyle(el);
            return {opacity: s.opacity, background: s.backgroundColor, position: s.position};
          };
          return {header: report(document.querySelector("body > header")),
                  heads: [...document.querySelectorAll("table.projector th")].map(report)};
        }"""
    )
    for part in [looks["header"], *looks["heads"]]:
        assert part["opacity"] == "1"
        # an rgb() colour has no alpha; rgba(…, 0.x) or "transparent" would let rows through
        assert part["background"].startswith("rgb("), part["background"]
    assert all(h["position"] == "sticky" for h in looks["heads"])
    # the rows pass under the column heads: the head covers the row scrolled beneath it
    desktop.evaluate("document.getElementById('scroller').scrollTop = 200")
    covered = desktop.evaluate(
        """() => {
          const th = document.querySelector("table.projector th").getBoundingClientRect();
          const el = document.elementFromPoint(th.left + 5, th.top + th.height / 2);
          return el.tagName;
        }"""
    )
    assert covered == "TH"
    shoot(desktop, "projector")
