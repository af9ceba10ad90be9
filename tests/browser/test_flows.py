"""The flows people use, in a real Chromium: the director's morning, the players' phones, the
projector, the Excel download, the language switch. That every main page of the demo season reads
German at desktop and phone width is checked in test_accessibility.py, with the demo loaded once."""

from __future__ import annotations

import io
import re

import pytest
from openpyxl import Workbook, load_workbook

from tests.browser.conftest import DESKTOP, PHONE, fits, log_in, next_phone, shoot
from tests.factories import cego, make_entries, make_event, make_round, make_user
from tournament.models import Entry, Event, Hand, Table
from tournament.play import hands

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "ein-langes-passwort-2026"


def players_xlsx(count: int) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Vorname", "Nachname", "Verein", "Ort", "Kategorie"])
    for i in range(count):
        sheet.append([f"Anna{i}", f"Zähringer{i}", "Cegofreunde Furtwangen", "Furtwangen", ""])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", data))


def test_the_director_creates_an_event_imports_players_draws_and_prints_the_sheets(
    live_server, desktop
):
    make_user("leiter", PASSWORD)
    base = live_server.url
    log_in(desktop, base, "leiter", PASSWORD)

    desktop.goto(f"{base}/turnier/neu/")
    desktop.fill("input[name=name]", "Herbstturnier Schonach")
    desktop.fill("input[name=date]", "2026-12-05")
    desktop.select_option("select[name=game]", "cego")
    desktop.click("#event-form button.primary")
    desktop.wait_for_url(re.compile(r"/turnier/herbstturnier-schonach/spieler/$"))

    desktop.goto(f"{base}/turnier/herbstturnier-schonach/spieler/import/")
    desktop.set_input_files(
        "input[name=file]",
        files=[
            {
                "name": "spieler.xlsx",
                "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "buffer": players_xlsx(16),
            }
        ],
    )
    desktop.click("form[enctype] button.primary")
    desktop.wait_for_selector("button[value=confirm]")
    assert desktop.locator("tr.import-new").count() == 16
    shoot(desktop, "import-preview-de-desktop")
    desktop.click("button[value=confirm]")
    desktop.wait_for_url(re.compile(r"/spieler/$"))
    event = Event.objects.get(slug="herbstturnier-schonach")
    assert Entry.objects.filter(event=event).count() == 16

    desktop.goto(f"{base}/turnier/{event.slug}/")
    desktop.click("form[action$='/durchgang/neu/'] button")
    desktop.wait_for_url(re.compile(r"/durchgang/1/$"))
    desktop.click("form[action$='/draw/'] button")
    desktop.wait_for_selector(".explain")
    assert "16" in desktop.inner_text(".explain")
    assert desktop.locator(".table-card").count() == 4
    shoot(desktop, "seating-de-desktop")

    desktop.goto(f"{base}/turnier/{event.slug}/durchgang/1/druck/tischlisten/")
    pdf = desktop.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    assert pdf_pages(pdf) == 4  # one clean A4 page per table


def test_a_table_link_on_a_phone_enters_three_games_and_every_player_confirms_on_their_link(
    live_server, phone, browser
):
    event = make_event(hands_per_round={"4": 3})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    base = live_server.url
    phone.goto(f"{base}{table.get_link_url()}")
    shoot(phone, "table-link-de-phone")
    hands = [("halbe", "1", "34"), ("cego", "2", "40"), ("eine", "3", "41")]
    for number, (contract, declarer, points) in enumerate(hands, start=1):
        phone.select_option("select[name=contract]", contract)
        phone.select_option("select[name=declarer]", declarer)
        phone.fill("input[name=declarer_points]", points)
        phone.click("button[value=save]")
        # the page the phone shows once the game is stored, with the game's number
        phone.locator(".messages li.success", has_text=f"Spiel {number} gespeichert").wait_for()
    assert Hand.objects.filter(table=table).count() == 3
    ok, culprits = fits(phone, PHONE["width"])
    assert ok, culprits  # nothing sticks out sideways on a 360 px screen
    with phone.expect_navigation():
        phone.click("form[action$='/submit/'] button")
    # the table link confirms no seat (issue 43): every player confirms on their personal link
    assert phone.locator(".confirm button").count() == 0
    assert phone.locator(".confirm p:has-text('noch nicht bestätigt')").count() == 4
    # each on their own phone (``next_phone``: the server tells phones apart by their cookies)
    other = browser.new_context(viewport=PHONE, locale="de-DE", is_mobile=True)
    other_phone = other.new_page()
    for seat in table.seats.order_by("position").select_related("entry"):
        next_phone(other_phone)
        other_phone.goto(f"{base}{seat.entry.get_link_url()}")
        with other_phone.expect_navigation():
            other_phone.click("form[action$='/confirm/'] button")
    other.close()
    phone.reload()
    phone.wait_for_selector(".banner.ok")
    shoot(phone, "table-link-confirmed-de-phone")
    table.refresh_from_db()
    assert table.confirmed_at is not None

    # the director corrects one game and reads its history
    make_user("leiter", PASSWORD)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    desk = context.new_page()
    log_in(desk, base, "leiter", PASSWORD)
    hand = Hand.objects.get(table=table, number=2)
    desk.goto(f"{base}{hand.get_absolute_url()}")
    desk.fill("input[name=declarer_points]", "47")
    desk.fill("input[name=reason]", "Augen neu gezählt")
    desk.click("button[value=save]")
    desk.wait_for_url(re.compile(r"/tisch/\d+/$"))
    desk.goto(f"{base}/tisch/{table.pk}/verlauf/")
    history = desk.inner_text("table.history")
    assert "Augen neu gezählt" in history
    assert "leiter" in history
    assert "Tisch 1" in history or "table link" in history.lower() or "Tisch-Link" in history
    shoot(desk, "history-de-desktop")
    hand.refresh_from_db()
    assert hand.data["declarer_points"] == 47
    context.close()


def test_the_projector_shows_new_standings_without_a_reload(live_server, browser):
    event = make_event()
    make_entries(event, 4)
    table = make_round(event).tables.get()
    # a window of its own whose clock the test moves on, 2 seconds (the projector's ``refresh``)
    # at a time, instead of waiting them out (a clock, once set, stays with its window)
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    desktop = context.new_page()
    desktop.set_default_timeout(15_000)
    desktop.clock.install()

    def asks(page) -> int:
        """The status of the projector's next question to the server, 2 seconds on."""
        with page.expect_response(lambda r: r.url.endswith("/beamer/zeilen/")) as answer:
            page.clock.run_for(2_000)
        return answer.value.status

    desktop.goto(f"{live_server.url}/turnier/{event.slug}/beamer/?refresh=2")
    # from here on the projector's time moves only when the test moves it
    desktop.clock.pause_at(desktop.evaluate("Date.now()") + 50)
    desktop.evaluate("window.__marker = 'same page'")
    first = desktop.inner_text("#rows")
    assert "+60" not in first
    # while nothing changes, the projector asks with the ETag of its rows and gets 304, no rows
    assert [asks(desktop), asks(desktop)] == [304, 304]
    assert desktop.inner_text("#rows") == first
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    assert asks(desktop) == 200
    desktop.clock.resume()
    desktop.wait_for_function("document.querySelector('#rows').innerText.includes('+60')")
    assert desktop.evaluate("window.__marker") == "same page"  # refreshed in place
    assert re.search(r"Durchgang 1", desktop.inner_text("#status"))
    shoot(desktop, "projector-de-desktop")
    context.close()


def test_the_excel_download_opens_with_openpyxl(live_server, desktop, tmp_path):
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event)
    for table in Table.objects.filter(round=rnd):
        hands.record_hand(table=table, data=cego("halbe", 0, 47))
    desktop.goto(f"{live_server.url}/turnier/{event.slug}/rangliste/")
    with desktop.expect_download() as download:
        desktop.click(f"a[href$='/turnier/{event.slug}/excel/']")
    path = tmp_path / "turnier.xlsx"
    download.value.save_as(path)
    workbook = load_workbook(path)
    standings = workbook.worksheets[0]
    assert standings.title == "Rangliste"
    totals = [row[-2] for row in standings.iter_rows(min_row=2, values_only=True)]
    assert sorted(totals) == sorted(e.total for e in Entry.objects.standings(event))
    assert sum(totals) == 0


def test_the_language_switch_turns_a_page_english_and_back(live_server, desktop):
    event = make_event()
    make_entries(event, 4)
    desktop.goto(f"{live_server.url}/turnier/{event.slug}/rangliste/")
    assert desktop.inner_text("h1").startswith("Rangliste")
    desktop.click("form.lang button[value=en]")
    desktop.wait_for_function("document.querySelector('h1').innerText.startsWith('Standings')")
    desktop.click("form.lang button[value=de]")
    desktop.wait_for_function("document.querySelector('h1').innerText.startsWith('Rangliste')")
