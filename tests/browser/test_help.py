"""The handbook in the browser, on the sample files of tests/tournament/handbook/: a director's
"?" leads to the page's section, a chapter reads well on a phone and on a wide screen, and on
paper it is the text alone. Screenshots: screenshots/handbook-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, fits, log_in, shoot
from tests.factories import make_table, make_user
from tournament import handbook

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLES = Path(__file__).resolve().parents[1] / "tournament" / "handbook"
WIDE = {"width": 1366, "height": 900}


@pytest.fixture(autouse=True)
def samples(monkeypatch):
    monkeypatch.setitem(handbook.BOOKS, "de", handbook.Book("de", SAMPLES / "handbuch", "handbook"))
    monkeypatch.setitem(handbook.BOOKS, "en", handbook.Book("en", SAMPLES / "guide", "guide"))


def test_the_question_mark_of_a_directors_page_opens_its_section_on_a_phone(live_server, phone):
    make_user("help-director", "pw-for-tests-only")
    table = make_table()
    page = phone
    log_in(page, live_server.url, "help-director", "pw-for-tests-only")
    page.goto(f"{live_server.url}/tisch/{table.pk}/")
    question = page.get_by_role("link", name="Hilfe zu dieser Seite")
    assert question.is_visible()
    box = question.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"] and box["width"] >= 44
    shoot(page, "handbook-question-mark")
    question.click()
    page.wait_for_url("**/hilfe/3-during-play/#scorer")
    heading = page.locator("#scorer")
    assert heading.inner_text() == "Die Seite des Schreibers"
    assert heading.is_visible()
    assert page.evaluate("document.documentElement.lang") == "de"
    ok, culprits = fits(page, PHONE["width"])
    assert ok, culprits
    shoot(page, "handbook-phone-section")


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("wide", WIDE)])
def test_a_chapter_reads_well_at_phone_and_desktop_width(live_server, desktop, name, viewport):
    page = desktop
    page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}/hilfe/3-during-play/")
    ok, culprits = fits(page, viewport["width"])
    assert ok, culprits
    assert page.locator("img[src='/hilfe/img/phone.png']").evaluate("i => i.naturalWidth") > 0
    menu = page.get_by_role("navigation", name="Kapitel des Handbuchs")
    assert menu.get_by_role("link", name="Während des Spiels").get_attribute("aria-current")
    shoot(page, f"handbook-{name}")


def test_a_printed_chapter_is_the_text_without_the_menus(live_server, desktop):
    page = desktop
    page.set_viewport_size(WIDE)
    page.goto(f"{live_server.url}/hilfe/3-during-play/")
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()
    assert not page.locator("nav.chapters").is_visible()
    assert not page.locator("nav.prev-next").is_visible()
    assert page.get_by_role("heading", name="Die Telefone an den Tischen").is_visible()
    # a link of the text keeps its address on paper
    after = page.locator("a[href='/turnier/beispiel/rangliste/']").evaluate(
        "a => getComputedStyle(a, '::after').content"
    )
    assert after == '" (" attr(href) ")"' or "/turnier/beispiel/rangliste/" in after
    shoot(page, "handbook-print")
