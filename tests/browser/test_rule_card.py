"""The rule card printed by Chromium: one A4 sheet holding the same A5 card twice, nothing cut
off, readable on a phone."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.browser.conftest import SCREENSHOTS, fits, screenshots_wanted, shoot
from tests.factories import make_event

pytestmark = pytest.mark.django_db(transaction=True)


def pdf_text(path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def pdf_info(path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return {
        key.strip(): value.strip()
        for key, _sep, value in (line.partition(":") for line in out.stdout.splitlines())
    }


# the fullest card of each game: every rule setting changed (each one listed as a difference)
FULLEST = {
    "cego": {
        "total_points": 80,
        "win_threshold": 45,
        "solo_double": "after_rounding",
        "gegensolo_raises": "cego_only",
        "bettel": 35,
        "piccolo": 45,
        "ulti": 90,
        "raeuber": 50,
    },
    "ziege": {"match_limit": 7, "balls_double_next": True},
    "crazy_solo": {"rounding": "up", "start_balance": 200},
    "hennes_sibbe": {
        "jokers_fit_all": True,
        "goat_doubling": "hand",
        "hennes_value": 5,
        "penalty_limit": 4,
    },
}


@pytest.mark.parametrize("game", list(FULLEST))
def test_the_rule_card_prints_as_one_a4_sheet_with_two_identical_a5_cards(
    live_server, desktop, tmp_path, game
):
    event = make_event(
        game,
        name="Schwarzwaldmeisterschaft Furtwangen",
        target_table_size=12 if game == "crazy_solo" else 4,
        rules=FULLEST[game],
    )
    desktop.goto(f"{live_server.url}/turnier/{event.slug}/regelkarte/")
    desktop.emulate_media(media="print")
    overflow = desktop.eval_on_selector_all(
        "article.card", "cards => cards.map(c => c.scrollHeight - c.clientHeight)"
    )
    pdf = tmp_path / "card.pdf"
    pdf.write_bytes(desktop.pdf(print_background=True, prefer_css_page_size=True))
    info = pdf_info(pdf)
    assert info["Pages"] == "1"
    width, height = (float(x) for x in re.findall(r"[0-9.]+", info["Page size"])[:2])
    assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points
    text = pdf_text(pdf)
    assert text.count("Regelkarte · ") == 2
    assert text.count("Beispiel") == 2
    if game == "cego":
        assert text.count("Bettel zählt: 35 (Standard: 30)") == 2
    if screenshots_wanted():  # the printed sheet as an image, next to the other screenshots
        SCREENSHOTS.mkdir(exist_ok=True)
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "70",
                "-singlefile",
                str(pdf),
                str(SCREENSHOTS / f"rule-card-{game}"),
            ],
            check=True,
        )
    # every card fits its A5 half: nothing is cut off at the bottom
    assert overflow == [0, 0]


def test_the_rule_card_reads_on_a_phone(live_server, phone):
    event = make_event("cego")
    phone.goto(f"{live_server.url}/turnier/{event.slug}/regelkarte/")
    ok, culprits = fits(phone, 360)
    assert ok, culprits
    shoot(phone, "rule-card-phone")


def test_the_rule_card_on_a_laptop_screen_shows_both_cards(live_server, desktop):
    event = make_event("cego", rules={"bettel": 35})
    page = desktop
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/turnier/{event.slug}/regelkarte/")
    assert page.locator("article.card").nth(1).is_visible()
    shoot(page, "rule-card-desktop")
