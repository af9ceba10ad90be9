"""Paper and screens a director shows: the printed five-seat sheet and the projector (Chromium)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.browser.conftest import log_in, shoot
from tests.factories import cego, make_entries, make_event, make_player, make_round, make_user
from tournament import services
from tournament.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

# long names, as they come: double first names, double last names, umlauts
FIVE = [
    ("Hans-Peter", "Schwörer-Oberkirchner"),
    ("Anna-Lena", "Schäuble-Furtwängler"),
    ("Karl-Heinz", "Dold-Kienzler"),
    ("Maria-Theresia", "Wehrle-Hettich"),
    ("Wolfgang", "Kirner-Scherzinger"),
]


def five_seat_round(hands: int = 0) -> Event:
    # 25 games: the longest a five-seat Durchgang is set to (every player deals five times)
    event = make_event(table_policy=Event.TablePolicy.MIXED, hands_per_round={"5": 25})
    for first, last in FIVE:
        services.register_player(event=event, player=make_player(first_name=first, last_name=last))
    rnd = make_round(event)
    table = rnd.tables.get()
    assert table.size == 5
    for number in range(1, hands + 1):
        dealer = services.dealer_for(number, 5)
        declarer = (dealer + 1) % 5
        services.record_hand(
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
