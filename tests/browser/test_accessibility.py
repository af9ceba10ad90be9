"""Accessibility: axe-core (shipped inside axe-playwright-python, nothing is downloaded) checks
every main page of the demo season at desktop (1280 px) and phone width (360 px); no serious or
critical violation may be reported, nor any of the milder ones fixed once. The same pass reads
every main page in a browser that asks for English: they speak German, the app's language, and
the pages a phone and a laptop show fit the window at both widths.

The browser window of these tests carries axe-core into every page it opens (``axe_window``), as
axe-playwright-python's ``Axe.run`` would put it into each page by hand: the same script and the
same ``axe.run`` options, without sending its 570 KB to the browser again for every page."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import polib
import pytest

from tests.browser.conftest import PHONE, fits, log_in, shoot, window
from tests.factories import make_round, make_user
from tests.helpers.pairs import fixed_pair_event, play_pairs_round
from tournament.demo import DEMO_PASSWORD, DEMO_USER, load_demo
from tournament.models import Entry, Event, Hand, Table

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": PHONE}
BLOCKING = {"serious", "critical"}
# milder findings that were fixed once and must not come back: a list scrolling sideways on a
# phone that a keyboard cannot reach, a page without a main landmark, a column without a name
KEPT_FIXED = {"scrollable-region-focusable", "landmark-one-main", "empty-table-header"}
# the outside review's findings on these pages (issue 28.10; the round results, issue 43.11):
# headings that skip a level and content outside every landmark must not come back there
STRICT_PAGES = {"player", "rule-card", "register-merge", "player-merge", "results"}
STRICT_RULES = {"heading-order", "region", "empty-table-header"}
# headings that skip a level (issue 43.11: the handbook's start page, the published round results)
HEADINGS = {"heading-order"}
CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"


def main_pages() -> dict[str, str]:
    event = Event.objects.get(slug="triberg-2026")
    table = Table.objects.filter(round__event=event, round__number=2).first()
    hand = Hand.objects.filter(table__round__event=event, kind=Hand.Kind.HAND).first()
    first = Entry.objects.filter(event=event).order_by("start_number").first()
    # a player of another event than ``first``'s only: the comparison, not the refusal
    other = Entry.objects.exclude(player__entries__event=event).order_by("pk").first()
    return {
        "home": "/",
        "event": f"/turnier/{event.slug}/",
        "standings": f"/turnier/{event.slug}/rangliste/",
        "teams": f"/turnier/{event.slug}/mannschaften/",
        "seating": f"/turnier/{event.slug}/durchgang/2/",
        "results": f"/turnier/{event.slug}/durchgang/1/ergebnisse/",
        "table": f"/tisch/{table.pk}/",
        "table-link": table.get_link_url(),
        "table-history": f"/tisch/{table.pk}/verlauf/",
        "hand-edit": hand.get_absolute_url(),
        "where": f"/turnier/{event.slug}/wo-sitze-ich/?q=maier",
        "season": "/saison/schwarzwaldmeisterschaft-2026-27/",
        "players": f"/turnier/{event.slug}/spieler/",
        "import-players": f"/turnier/{event.slug}/spieler/import/",
        "new-event": "/turnier/neu/",
        "edit-event": f"/turnier/{event.slug}/bearbeiten/",
        "projector": f"/turnier/{event.slug}/beamer/",
        "print-sheets": f"/turnier/{event.slug}/durchgang/2/druck/tischlisten/?table=1",
        "print-seating": f"/turnier/{event.slug}/durchgang/2/druck/sitzplan/",
        "print-standings": f"/turnier/{event.slug}/rangliste/druck/",
        "ziege": "/turnier/ziege-schonach-2026/rangliste/",
        # prizes, fees and the cash book (issue 17)
        "prizes": f"/turnier/{event.slug}/preise/",
        "prize-giving": f"/turnier/{event.slug}/preisverteilung/",
        "fees": f"/turnier/{event.slug}/startgeld/",
        "fee-categories": f"/turnier/{event.slug}/startgeld/arten/",
        "cash-book": f"/turnier/{event.slug}/kasse/",
        "print-cash-report": f"/turnier/{event.slug}/kasse/druck/",
        # the public player page with its statistics, the rule card, both merge comparisons
        "player": f"/spieler/{first.player.uid}/",
        "rule-card": f"/turnier/{event.slug}/regelkarte/",
        "register-merge": f"/spielerverzeichnis/{first.player.uid}/zusammenfuehren/"
        f"?other={other.player.uid}",
        "player-merge": f"/turnier/{event.slug}/spieler/{first.pk}/zusammenfuehren/"
        f"?other={other.player_id}",
        # last: it logs out
        "login": "/anmelden/",
    }


@contextmanager
def axe_window(
    windows: dict[str, Any], browser: Any, viewport: dict[str, int], locale: str = "de-DE"
) -> Iterator[Any]:
    """A browser window of this size and language (German unless ``locale`` says otherwise)
    whose every page has axe-core loaded, before the page's own scripts (axe-core only adds
    ``window.axe``)."""
    from axe_playwright_python.base import AXE_FILE_PATH

    kind = f"axe-{locale}-{viewport['width']}"
    with window(
        windows, browser, kind, init_script=AXE_FILE_PATH, viewport=viewport, locale=locale
    ) as page:
        yield page


def findings(page: Any, strict: Collection[str] = ()) -> list[dict]:
    """What axe-core finds on the page that fails these tests: a serious or critical finding, a
    rule kept fixed everywhere, or one of ``strict``'s rules. The options are ``Axe.run``'s
    (axe-playwright-python): every rule axe-core runs by default, only the violations reported."""
    return [
        v
        for v in page.evaluate("axe.run({resultTypes: ['violations']})")["violations"]
        if v["impact"] in BLOCKING or v["id"] in KEPT_FIXED or v["id"] in strict
    ]


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:3])
        for v in violations
    )


def english_phrases() -> list[str]:
    """Phrases of the catalogue that read differently in German: on a German page none of them
    may appear (single words like "Solo" are the same in both languages and are left out)."""
    phrases = []
    for entry in polib.pofile(str(CATALOGUE)):
        text = entry.msgid
        if entry.msgid_plural or "%" in text or "{" in text or entry.msgstr == text:
            continue
        if len(text.split()) >= 3 and len(text) >= 16:
            phrases.append(text)
    return phrases


# the main pages a phone and a laptop show, checked for fitting the window: the printed sheets
# and the director's forms are read at a desk and printed
FITTING = (
    "home", "event", "standings", "seating", "results", "table", "table-link", "where", "season",
    "players", "new-event", "projector", "ziege",
)  # fmt: skip


def test_every_main_page_reads_german_and_has_no_serious_or_critical_accessibility_violation(
    live_server, browser, windows
):
    """Both checks of the demo season's main pages in one pass, so that the demo season (hundreds
    of games played through the services) is loaded once and each page opened once a width: in
    a browser that asks for English, at desktop (1280 px) and phone width, every main page
    speaks German (no English phrase of the catalogue on it), the pages of ``FITTING`` stick
    out nowhere sideways, and axe-core finds nothing serious or critical."""
    load_demo()
    pages = main_pages()
    english = english_phrases()
    assert len(english) > 100
    assert set(FITTING) <= set(pages)
    # axe-core runs inside the page: the test fails if it would fetch anything from outside
    outside: list[str] = []
    found = {}

    def out(request: Any) -> None:
        if not request.url.startswith(live_server.url):
            outside.append(request.url)

    for width, viewport in WIDTHS.items():
        with axe_window(windows, browser, viewport, locale="en-US") as page:
            page.on("request", out)
            log_in(page, live_server.url, DEMO_USER, DEMO_PASSWORD)
            for name, path in pages.items():
                if name == "login":
                    page.context.clear_cookies()
                response = page.goto(live_server.url + path)
                assert response.status == 200, (width, path)
                text = page.inner_text("body")
                shown = [phrase for phrase in english if phrase in text]
                assert shown == [], f"{path} shows English: {shown[:5]}"
                if name in FITTING:
                    ok, culprits = fits(page, viewport["width"])
                    assert ok, f"{path} at {width} width: {culprits}"
                    shoot(page, f"{name}-de-{width}")
                blocking = findings(page, STRICT_RULES if name in STRICT_PAGES else ())
                if blocking:
                    found[f"{name} ({path}) at {width} width"] = describe(blocking)
            page.remove_listener("request", out)
    assert outside == []
    assert found == {}, "\n\n".join(f"{page}:\n{text}" for page, text in found.items())


def assert_no_blocking_finding(
    request: pytest.FixtureRequest,
    pages: dict[str, str],
    user: str,
    strict: frozenset[str] = frozenset(),
) -> None:
    """Every page at both widths, logged in as ``user``: no serious or critical finding, nor one
    of the ``strict`` rules. ``request``: the test's, which asks for the live server and the
    browser's windows."""
    browser, windows = request.getfixturevalue("browser"), request.getfixturevalue("windows")
    base = request.getfixturevalue("live_server").url
    found = {}
    for width, viewport in WIDTHS.items():
        with axe_window(windows, browser, viewport) as page:
            log_in(page, base, user, "pw-for-tests-only")
            for name, path in pages.items():
                response = page.goto(base + path)
                assert response.status == 200, (width, path)
                blocking = findings(page, strict)
                if blocking:
                    found[f"{name} ({path}) at {width} width"] = describe(blocking)
    assert found == {}, "\n\n".join(f"{page}:\n{text}" for page, text in found.items())


def test_the_round_pages_of_ziege_with_their_swap_forms_have_no_serious_finding(request):
    """A drawn Ziege round in fixed pairs (the pair swap), one with drawn partners (the swap of
    two players), the pair ranking and a fixed pair's phone page, at both widths."""
    make_user("a11y-director", "pw-for-tests-only")
    fixed, teams = fixed_pair_event(4)
    play_pairs_round(make_round(fixed, seed=3), teams)
    rnd = make_round(fixed, seed=5, start=False)
    drawn, _teams = fixed_pair_event(2, pairing="drawn")
    make_round(drawn, seed=3, start=False)
    pages = {
        "pair-swap": f"/turnier/{fixed.slug}/durchgang/{rnd.number}/",
        "player-swap": f"/turnier/{drawn.slug}/durchgang/1/",
        "pair-ranking": f"/turnier/{fixed.slug}/paare/rangliste/",
        "pair-phone": fixed.rounds.get(number=1).tables.first().get_link_url(),
    }
    assert_no_blocking_finding(request, pages, "a11y-director")


def test_the_players_day_pages_have_no_serious_finding(request):
    """Issue 29's pages at both widths: the registration form, the participant list, the desk with
    a search, the start cards, and personal pages (on the waiting list, and seated at a table
    whose games are being played)."""
    from tests.factories import cego, make_entries, make_event, make_table
    from tournament.models import Entry
    from tournament.play import hands

    make_user("a11y-desk", "pw-for-tests-only")
    event = make_event(registration_open=True, capacity=2, waiting_list=True)
    make_entries(event, 2)
    waiting = make_entries(event, 1)[0]
    Entry.objects.filter(pk=waiting.pk).update(status=Entry.Status.WAITING)
    table = make_table()
    hands.record_hand(table=table, data=cego())
    seated = table.seats.order_by("position").first().entry
    pages = {
        "register": f"/turnier/{event.slug}/anmeldung/",
        "participants": f"/turnier/{event.slug}/teilnehmer/",
        "checkin": f"/turnier/{event.slug}/checkin/?q=na",
        "start-cards": f"/turnier/{event.slug}/startkarten/",
        "personal-waiting": waiting.get_link_url(),
        "personal-seated": seated.get_link_url(),
    }
    assert_no_blocking_finding(request, pages, "a11y-desk")


def test_the_handbook_has_no_serious_finding(request):
    """Issue 31's handbook: every chapter of docs/handbuch (/hilfe/) and docs/guide (/help/) at
    both widths, read by a logged-in director; no heading skips a level (issue 43.11: the start
    page's headings did)."""
    from tournament import handbook

    make_user("a11y-reader", "pw-for-tests-only")
    pages = {
        f"{language}-{chapter.slug}": handbook.of(language).chapter_url(chapter.slug)
        for language in ("de", "en")
        for chapter in handbook.of(language).chapters
    }
    assert len(pages) == 12, f"docs/handbuch and docs/guide should have 6 chapters each: {pages}"
    assert pages["de-index"] == "/hilfe/" and pages["en-index"] == "/help/"
    assert_no_blocking_finding(request, pages, "a11y-reader", strict=HEADINGS)


def test_the_published_round_results_have_no_serious_finding(browser, windows, tmp_path):
    """Issue 43.11: the published season's copy of the round results, opened from the disk at
    both widths: no serious or critical finding, and no heading that skips a level."""
    import io

    from django.core.management import call_command

    from tests.factories import make_played_season

    season = make_played_season()
    call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    pages = sorted(tmp_path.glob("*/turnier/*/durchgang-*.html"))
    pages = [path for path in pages if not path.stem.endswith("-sitzplan")]
    assert len(pages) == 4, "two events of one round each, in German and English"
    found = {}
    for width, viewport in WIDTHS.items():
        with axe_window(windows, browser, viewport) as page:
            for path in pages:
                page.goto(path.resolve().as_uri())
                blocking = findings(page, HEADINGS)
                if blocking:
                    found[f"{path.relative_to(tmp_path)} at {width} width"] = describe(blocking)
    assert found == {}, "\n\n".join(f"{page}:\n{text}" for page, text in found.items())
