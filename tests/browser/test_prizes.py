"""The organiser's evening (issue 17), in Chromium: fees at the door, the prize table, finishing
the event, the prize-giving list and the cash report printed to PDF (each page rendered to PNG
in ``screenshots/`` to be looked at), and the workbook's cash sheet read back with openpyxl."""

from __future__ import annotations

import subprocess
from io import BytesIO
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.browser.conftest import SCREENSHOTS, log_in, screenshots_wanted, shoot
from tests.factories import make_entries, make_event, make_round, make_user
from tournament.models import EntryFee, Event, FeeCategory, Player, Prize, PrizeSettings
from tournament.play import confirmations, events, hands, rounds

pytestmark = pytest.mark.django_db(transaction=True)


def played_event() -> tuple[Event, list]:
    """Eight players, one round of totals, closed; the third of table 1 is a woman."""
    event = make_event(name="Preisskat-Ersatz Cego", hands_per_round={"*": 1})
    make_entries(event, 8)
    rnd = make_round(event)
    entries = []
    for table, totals in zip(
        rnd.tables.order_by("number"), ([60, 20, -30, -50], [50, 10, -20, -40]), strict=True
    ):
        hands.record_totals(table=table, totals=totals)
        confirmations.confirm_table(table=table)  # the players signed the paper sheet
        entries += [s.entry for s in table.seats.select_related("entry").order_by("position")]
    rounds.close_round(round=rnd)
    Player.objects.filter(pk=entries[2].player_id).update(category=Player.Category.WOMEN)
    return event, entries


def pdf_pages(page, path: Path, name: str) -> tuple[str, list[Path]]:
    """Print the page to PDF, its text and each page rendered to PNG (beside the PDF, or in
    ``screenshots/`` where ``SCREENSHOTS=1`` asks for pictures)."""
    page.pdf(path=str(path), format="A4", prefer_css_page_size=True)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    folder = SCREENSHOTS if screenshots_wanted() else path.parent
    folder.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(path), str(folder / name)], check=True)
    return text, sorted(folder.glob(f"{name}*.png"))


def test_the_organiser_enters_prizes_and_fees_finishes_and_prints(live_server, desktop, tmp_path):
    event, entries = played_event()
    base = f"{live_server.url}/turnier/{event.slug}"
    make_user("kasse", "prizes-test-2026")
    log_in(desktop, live_server.url, "kasse", "prizes-test-2026")

    # the fees: the form offers full, reduced and free (juniors) to be filled in
    desktop.goto(f"{base}/startgeld/arten/")
    desktop.fill("input[name=fee-0-amount]", "15")
    desktop.fill("input[name=fee-1-amount]", "12,50")
    desktop.click("form button.primary")
    desktop.wait_for_url(f"{base}/startgeld/")
    # one tap per player at the door
    for entry, status in zip(entries[:4], ["cash", "cash", "ahead", "waived"], strict=True):
        desktop.click(f"#entry-{entry.pk} button[name=status][value={status}]")
        desktop.wait_for_selector(f"#entry-{entry.pk} button[value={status}][aria-pressed=true]")
    assert EntryFee.objects.filter(status="cash").count() == 2
    desktop.goto(f"{base}/startgeld/?offen=1")
    assert desktop.locator("table.fees tbody tr").count() == 4
    shoot(desktop, "fees-unpaid")

    # the prize table: money for the first three, flowers for the best woman, the sausage salad
    # for the last, and a gift basket for every second player
    desktop.goto(f"{base}/preise/")
    rows = [
        ("overall", "1", "150", ""),
        ("overall", "2", "100", ""),
        ("overall", "3", "50", ""),
        ("damen", "1", "", "Blumenstrauß"),
        ("last", "1", "", "Wurstsalat"),
    ]
    for i, (ranking, place, amount, goods) in enumerate(rows):
        desktop.select_option(f"select[name=prize-{i}-ranking]", ranking)
        desktop.fill(f"input[name=prize-{i}-place]", place)
        desktop.fill(f"input[name=prize-{i}-amount]", amount)
        desktop.fill(f"input[name=prize-{i}-goods]", goods)
    desktop.fill("input[name=every]", "2")
    desktop.fill("input[name=goods]", "Präsentkorb")
    desktop.fill("input[name=sponsor]", "Dorfladen")
    desktop.click("form.prize-form button.primary")
    desktop.wait_for_selector(".messages li")
    assert event.prizes.count() == 5

    # one round of the two planned: the page says so and finishes only when told to end here
    assert "1 von 2 geplanten Durchgängen gespielt." in desktop.inner_text("main")
    desktop.click("button[name=action][value=finish]")
    desktop.wait_for_selector(".messages li")
    assert "„Mit weniger Durchgängen beenden“ ankreuzen" in desktop.inner_text(".messages")
    assert Event.objects.get(pk=event.pk).status != Event.Status.FINISHED
    desktop.check("input[name=fewer_rounds]")
    desktop.click("button[name=action][value=finish]")
    desktop.wait_for_selector("button[name=action][value=reopen]")
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    shoot(desktop, "prize-table")

    # the hall rent from the box
    desktop.goto(f"{base}/kasse/")
    desktop.fill("input[name=description]", "Hallenmiete")
    desktop.select_option("select[name=direction]", "out")
    desktop.select_option("select[name=via]", "box")
    desktop.fill("input[name=amount]", "80")
    desktop.click("form.card button.primary")
    desktop.wait_for_selector("text=Hallenmiete")
    shoot(desktop, "cash-book")

    # the prize-giving list on paper: from the sausage salad to the winner's 150 euros
    desktop.goto(f"{base}/preisverteilung/druck/")
    text, pngs = pdf_pages(desktop, tmp_path / "prizes.pdf", "print-prize-giving")
    flat = " ".join(text.split())
    assert flat.index("Wurstsalat") < flat.index("Blumenstrauß") < flat.index("150,00 €")
    assert flat.count("Präsentkorb") == 1  # place 4 of 8: every second player, 1 to 3 have money
    assert pngs

    # the cash report: fees 15 + 15 in the box, 15 ahead in the bank, 300 prize money, 80 rent
    desktop.goto(f"{base}/kasse/druck/")
    text, pngs = pdf_pages(desktop, tmp_path / "cash.pdf", "print-cash-report")
    flat = " ".join(text.split())
    assert "Saldo −350,00 € 15,00 € −335,00 €" in flat
    for line in ("Kassenbestand gezählt", "Kassier", "Kassenprüfer", "Ort, Datum"):
        assert line in flat
    assert len(pngs) == 1  # one signable page

    # the workbook with its cash sheet, read back
    desktop.goto(f"{base}/kasse/")
    with desktop.expect_download() as download:
        desktop.click(f"a[href='/turnier/{event.slug}/excel/']")
    path = download.value.path()
    sheet = load_workbook(BytesIO(Path(path).read_bytes()))["Kasse"]
    rows = {row[0].value: row for row in sheet.iter_rows() if row[0].value}
    assert [c.value for c in rows["Saldo"][2:5]] == [-350, 15, -335]
    assert rows["Hallenmiete"][2].number_format.endswith('"€"')


@pytest.mark.parametrize("width", [1366, 360])
def test_the_prize_giving_and_the_fee_list_fit_a_laptop_and_a_phone(live_server, desktop, width):
    event, _entries = played_event()

    FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)
    Prize.objects.create(event=event, place=1, amount_cents=15000, sponsor="Brauerei Rogg")
    Prize.objects.create(event=event, place=2, goods="Präsentkorb vom Dorfladen")
    Prize.objects.create(event=event, ranking="last", goods="Wurstsalat")
    events.finish_event(event=event)
    make_user("kasse", "prizes-test-2026")
    page = desktop
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, live_server.url, "kasse", "prizes-test-2026")
    base = f"{live_server.url}/turnier/{event.slug}"
    pages = [("/preisverteilung/", "prize-giving"), ("/startgeld/", "fees"), ("/preise/", "prizes")]
    if width > 1000:  # the projector is a laptop's second screen
        pages.append(("/preisverteilung/?beamer=1", "prize-giving-projector"))
    for url, name in pages:
        page.goto(base + url)
        shoot(page, f"{name}-{width}")
        # nothing wider than the screen but the tables' own scrolling boxes
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (name, overflow)
        # and no list wider than the page around it, but the prize form in its scrolling box
        cut = page.evaluate(
            """[...document.querySelectorAll('table.prize-giving, table.fees')]
                 .filter(t => t.getBoundingClientRect().right > window.innerWidth + 1).length"""
        )
        assert cut == 0, (name, cut)


def test_the_prize_giving_says_why_a_player_in_line_has_another_prize(
    live_server, desktop, tmp_path
):
    """Issue 28.1: the junior on rank 4 is on a place of the rule's goods and takes the juniors'
    prize; the goods pass on to rank 5, and the screen, the projector and the paper say why."""
    event, entries = played_event()
    junior = entries[5]  # 10 points: rank 4
    Player.objects.filter(pk=junior.player_id).update(category=Player.Category.JUNIORS)
    for place, cents in ((1, 15000), (2, 10000), (3, 5000)):
        Prize.objects.create(event=event, place=place, amount_cents=cents)
    Prize.objects.create(event=event, ranking="jugend", goods="Jugendpokal")
    PrizeSettings.objects.create(event=event, every=2, goods="Präsentkorb")
    make_user("kasse", "prizes-test-2026")
    log_in(desktop, live_server.url, "kasse", "prizes-test-2026")
    base = f"{live_server.url}/turnier/{event.slug}"
    desktop.goto(f"{base}/preise/")
    desktop.check("input[name=fewer_rounds]")  # one round of the two planned: ends here
    desktop.click("button[name=action][value=finish]")
    desktop.wait_for_selector("button[name=action][value=reopen]")

    name = Player.objects.get(pk=junior.player_id).sort_name
    why = f"{name} (Rang 4) hat den 1. Jugendpreis"
    for url in ("/preise/", "/preisverteilung/", "/preisverteilung/?beamer=1"):
        desktop.goto(base + url)
        row = desktop.locator("table.prize-giving tr", has=desktop.locator(".passed"))
        assert row.count() == 1, url
        assert row.locator("td.place").inner_text() == "Platz 4"
        assert row.locator(".passed").inner_text() == why
        assert row.locator(".passed").is_visible()
    desktop.goto(f"{base}/preisverteilung/druck/")
    text, _pngs = pdf_pages(desktop, tmp_path / "why.pdf", "print-prize-giving-why")
    assert why in " ".join(text.split())
