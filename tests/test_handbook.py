"""The directors' handbook (docs/handbuch, docs/guide) against the app it describes, by the contract
of docs/handbook-format.md: every page a director uses has its section in both languages, every
link leads somewhere, every bold label is on one of its pages, and every page's "?" leads to its
section. Each failure says what is missing, file and anchor first.

The pages are rendered once for the module, in four states of a test event and in both languages
(``rendered``), for a logged-in director, from the page lists of the access tests.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import Resolver404, URLPattern, resolve, reverse

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_round,
    make_season,
    make_user,
)
from tests.helpers.access import (
    DIRECTOR_PAGES,
    PLAYER_PAGES,
    TABLE_LINK_PAGES,
    WRITES,
)
from tests.helpers.money import prize
from tests.helpers.pages import page_text
from tests.helpers.pairs import fixed_pair_event
from tests.helpers.world import PUBLIC_PAGES, World
from tournament import handbook
from tournament import urls as tournament_urls
from tournament.models import CashItem, Entry, EntryFee, FeeCategory, Player, Seat, Team
from tournament.play import confirmations, events, hands, rounds
from tournament.register import checkin

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs" / "handbook-format.md"
LANGUAGES = ("de", "en")
CHAPTERS = [
    "index",
    *(
        f"{n}-{name}"
        for n, name in enumerate(
            ["before-the-day", "the-morning", "during-play", "the-evening", "after-the-day"],
            start=1,
        )
    ),
]
MAX_IMAGES = 5
MAX_IMAGE_BYTES = 80 * 1024

# declared pages that show no "?": they have no header a person clicks in
WITHOUT_HEADER = {
    "projector": "the hall's wall, shown full screen",
    "projector_rows": "the rows the projector's script fetches, not a page",
}


# --- the contract and the handbooks ---------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    chapter: str
    anchor: str
    pages: tuple[str, ...]


def contract() -> list[Row]:
    """The table of docs/handbook-format.md: chapter, anchor and the URL names of each section."""
    rows = re.findall(r"^\| ([\w-]+) \| `([\w-]+)` \| ([^|]+) \|", CONTRACT.read_text(), re.M)
    return [
        Row(chapter, anchor, tuple(n for n in pages.split() if n != "(none)"))
        for chapter, anchor, pages in rows
    ]


def book(language: str) -> handbook.Handbook:
    return handbook.of(language)


def where(language: str, chapter: str, anchor: str = "") -> str:
    path = handbook.BOOKS[language].folder.relative_to(ROOT) / f"{chapter}.md"
    return f"{path}#{anchor}" if anchor else str(path)


def url_names() -> set[str]:
    return {p.name for p in tournament_urls.urlpatterns if isinstance(p, URLPattern) and p.name}


def declared(language: str) -> dict[str, list[tuple[str, str]]]:
    """URL name → every (chapter, anchor) whose pages line names it."""
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for chapter in book(language).chapters:
        for section in chapter.sections:
            for name in section.pages:
                found[name].append((chapter.slug, section.anchor))
    return found


# --- a: every page has its section, in both languages ---------------------------------------------


def test_the_contract_names_every_page_once_and_only_pages_that_exist():
    rows = contract()
    assert len(rows) >= 30, "the table of docs/handbook-format.md was not found"
    names = [name for row in rows for name in row.pages]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    assert sorted(set(names) - url_names()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_chapter_is_written(language):
    missing = [where(language, c) for c in CHAPTERS if book(language).chapter(c) is None]
    assert missing == [], "chapters not written yet: " + ", ".join(missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_file_keeps_the_format(language):
    broken = [
        f"{where(language, c.slug)}: {problem}"
        for c in book(language).chapters
        for problem in c.problems
    ]
    names = url_names()
    broken += [
        f"{where(language, c.slug, s.anchor)}: no page of the app is named '{name}'"
        for c in book(language).chapters
        for s in c.sections
        for name in s.pages
        if name not in names
    ]
    assert broken == [], "\n".join(broken)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_the_contract_is_declared_by_exactly_its_section(language):
    found = declared(language)
    sections = {(c.slug, s.anchor) for c in book(language).chapters for s in c.sections}
    wrong = []
    for row in contract():
        if (row.chapter, row.anchor) not in sections:
            pages = " ".join(row.pages) or "no page"
            wrong.append(f"{where(language, row.chapter, row.anchor)}: no such section ({pages})")
            continue
        for name in row.pages:
            declaring = found.get(name, [])
            expected = where(language, row.chapter, row.anchor)
            if not declaring:
                wrong.append(f"{expected}: the pages line does not name '{name}'")
            elif declaring != [(row.chapter, row.anchor)]:
                at = ", ".join(where(language, c, a) for c, a in declaring)
                wrong.append(f"'{name}' is declared by {at}; it belongs to {expected} only")
    assert wrong == [], "\n".join(wrong)


def test_both_languages_have_the_same_chapters_and_anchors():
    def outline(language: str) -> dict[str, list[str]]:
        return {c.slug: [s.anchor for s in c.sections] for c in book(language).chapters}

    german, english = outline("de"), outline("en")
    differ = [
        f"{slug}: handbuch has {german.get(slug)}, guide has {english.get(slug)}"
        for slug in sorted(set(german) | set(english))
        if german.get(slug) != english.get(slug)
    ]
    assert differ == [], "\n".join(differ)


# --- b: every link leads somewhere ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_link_leads_somewhere_inside_the_app(language):
    hb = book(language)
    folder = hb.book.folder.relative_to(ROOT)
    broken = [f"{folder}/{p}" for p in handbook.problems(hb) if "link '" in p]
    assert broken == [], "\n".join(broken)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_images_are_few_and_small(language):
    folder = handbook.BOOKS[language].folder / "img"
    images = sorted(folder.glob("*")) if folder.is_dir() else []
    assert len(images) <= MAX_IMAGES, [p.name for p in images]
    large = [f"{p.name}: {p.stat().st_size // 1024} KB" for p in images]
    assert [
        x for x, p in zip(large, images, strict=True) if p.stat().st_size > MAX_IMAGE_BYTES
    ] == []


# --- the pages, rendered in four states -----------------------------------------------------------


@dataclass
class Page:
    """A page as rendered: what a reader sees of it, its "?" link and the URL names it leads to."""

    text: str
    help_href: str | None
    leads_to: set[str] = field(default_factory=set)


# the pages of the table's and the player's links that a person reads (the others are POSTs and
# the phone's service worker); the login page
LINK_PAGES: dict[str, Callable[[World], tuple[str, str]]] = {
    "table_link": lambda w: (w.table.get_link_url(), ""),
    "personal_link": lambda w: (
        Entry.objects.get(event=w.event, player=w.player).get_link_url(),
        "",
    ),
    "event_register": lambda w: (reverse("event_register", args=[w.event.slug]), ""),
    "login": lambda w: (reverse("login"), ""),
}
# the pages of the world's own round (the access tests' lists read round 1)
ROUND_PAGES: dict[str, Callable[[World], tuple[str, str]]] = {
    name: lambda w, name=name: (reverse(name, args=[w.event.slug, w.round.number]), "")
    for name in ("round_seating", "round_results", "print_sheets", "print_seating")
}
# url name → the ways to reach it in a world: the access tests' lists, the links' own pages
MAKERS: dict[str, list[Callable[[World], tuple[str, str]]]] = defaultdict(list)
for pages in (PUBLIC_PAGES, DIRECTOR_PAGES, LINK_PAGES, ROUND_PAGES):
    for name, make in pages.items():
        MAKERS[name].append(make)


def test_every_page_the_contract_names_is_rendered_or_is_no_page():
    """A URL name the label test cannot render is a POST, a file or a link's POST (the access
    tests' WRITES, TABLE_LINK_PAGES, PLAYER_PAGES): its labels are read where its form is."""
    not_pages = {name for name, _make in WRITES} | TABLE_LINK_PAGES | PLAYER_PAGES
    names = {name for row in contract() for name in row.pages}
    assert sorted(names - set(MAKERS) - not_pages) == []


def before_the_draw(season) -> list[World]:
    """Online registration open with a waiting list, players registered, some checked in, fees,
    round 1 added but not drawn; an event whose round is drawn but not started; a Ziege event in
    fixed pairs (the pair form of the players page)."""
    event = make_event(
        season=season, registration_open=True, capacity=8, waiting_list=True, point_value_cents=5
    )
    entries = make_entries(event, 6)
    Entry.objects.filter(pk__in=[e.pk for e in entries[4:]]).update(source=Entry.Source.ONLINE)
    waiting = make_entries(event, 1)[0]
    Entry.objects.filter(pk=waiting.pk).update(status=Entry.Status.WAITING)
    for entry in entries[:4]:
        checkin.check_in(entry=entry)
    # one of the same name removed as not come: the desk's search for the world's player shows
    # how such a player is brought back
    gone = make_entries(event, 1)[0]
    Player.objects.filter(pk=gone.player_id).update(last_name=entries[5].player.last_name)
    Entry.objects.filter(pk=gone.pk).update(status=Entry.Status.WITHDRAWN)
    category = FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)
    EntryFee.objects.create(
        entry=entries[0], category=category, status=EntryFee.Status.CASH, paid_cents=1500
    )
    rnd = rounds.add_round(event=event)
    seated = make_event(season=season)
    make_entries(seated, 8)
    drawn = make_round(seated, seed=4, start=False)
    ziege, _teams = fixed_pair_event(2)
    return [
        World(season, event, rnd, None, None, entries[5].player, squad_of(event)),
        World(
            season, seated, drawn, drawn.tables.first(), None, player_at(drawn), squad_of(seated)
        ),
        World(season, ziege, None, None, None, ziege.entries.first().player, squad_of(ziege)),
    ]


def drawn_and_playing(season) -> list[World]:
    """Round 1 drawn and started at three tables: one with a game entered and corrected, one
    with none yet, one with all its games entered (ready to hand in); the table links and the
    players' personal links."""
    event = make_event(season=season, hands_per_round={"4": 2}, point_value_cents=5)
    make_entries(event, 12)
    rnd = make_round(event, seed=1)
    first, empty, full = rnd.tables.order_by("number")
    hand = hands.record_hand(table=first, data=cego())
    hand = hands.edit_hand(hand=hand, data=cego(points=20), reason="Zählfehler")
    last = None
    for declarer in (0, 1):
        last = hands.record_hand(table=full, data=cego(declarer=declarer))
    squad = squad_of(event)
    Entry.objects.filter(event=event).update(squad=squad)
    return [
        World(season, event, rnd, first, hand, player_at(rnd, first), squad),
        World(season, event, rnd, empty, None, player_at(rnd, empty), squad),
        World(season, event, rnd, full, last, player_at(rnd, full), squad),
    ]


def closed_with_a_tie(season) -> list[World]:
    """Round 1 closed after the table handed in and confirmed its sheet; two players tied on
    first place: the lot decides."""
    event = make_event(season=season, hands_per_round={"*": 1})
    make_entries(event, 4)
    rnd = make_round(event, seed=2)
    table = rnd.tables.get()
    hand = hands.record_totals(table=table, totals=[30, 30, -30, -30])
    confirmations.confirm_table(table=table)
    rounds.close_round(round=rnd)
    prize(event, place=1, cents=5000)
    return [World(season, event, rnd, table, hand, player_at(rnd, table), squad_of(event))]


def finished(season) -> list[World]:
    """The event finished after two rounds (the same four players met again), its prizes handed
    out, fees paid, a cash book kept; played for money."""
    event = make_event(season=season, hands_per_round={"*": 1}, point_value_cents=5)
    entries = make_entries(event, 4)
    for seed, totals in ((3, [60, 20, -30, -50]), (5, [10, -10, 20, -20])):
        rnd = make_round(event, seed=seed)
        table = rnd.tables.get()
        hand = hands.record_totals(table=table, totals=totals)
        rounds.close_round(round=rnd)
    prize(event, place=1, cents=5000)
    prize(event, place=2, goods="Präsentkorb")
    category = FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)
    for entry in entries:
        EntryFee.objects.create(
            entry=entry, category=category, status=EntryFee.Status.CASH, paid_cents=1500
        )
    CashItem.objects.create(event=event, description="Hallenmiete", amount_cents=8000)
    events.finish_event(event=event)
    return [World(season, event, rnd, table, hand, player_at(rnd, table), squad_of(event))]


def squad_of(event) -> Team:
    return Team.objects.create(event=event, name=f"Spielgemeinschaft {event.pk}")


def player_at(rnd, table=None):
    table = table or rnd.tables.order_by("number").first()
    return Seat.objects.get(round=rnd, table=table, position=0).entry.player


# files, not pages (the access tests read them as workbooks, archives and JSON): not fetched
DOWNLOADS = {"season_publish", "event_bundle", "result_template", "event_xlsx", "season_xlsx"}
STATES = [before_the_draw, drawn_and_playing, closed_with_a_tie, finished]
ATTRIBUTES = re.compile(r'\s(?:value|aria-label)="([^"]*)"')
TARGETS = re.compile(r'\s(?:href|action|formaction)="([^"]*)"')
HELP_LINK = re.compile(r'<a class="help-link[^"]*" href="([^"]*)"')


def read(response: HttpResponse, own: str) -> Page:
    """What a reader sees of a page, its "?" link, and the URL names of its links and forms."""
    content = response.content.decode()
    text = page_text(response)
    text += " " + " ".join(" ".join(html.unescape(v).split()) for v in ATTRIBUTES.findall(content))
    leads_to = set()
    for target in TARGETS.findall(content):
        path = urlsplit(html.unescape(target)).path
        if not path:
            leads_to.add(own)
            continue
        with contextlib.suppress(Resolver404):  # an address of no page: a static file
            leads_to.add(resolve(path).url_name)
    found = HELP_LINK.search(content)
    return Page(text, html.unescape(found[1]) if found else None, leads_to)


def pages_to_render() -> set[str]:
    names = {name for row in contract() for name in row.pages}
    for language in LANGUAGES:
        names |= set(declared(language))
    return names & set(MAKERS)


@pytest.fixture(scope="module")
def rendered(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, dict]]:
    """language → url name → every HTML rendering of the page (one per state and world)."""
    found: dict[str, dict[str, list[Page]]] = {lang: defaultdict(list) for lang in LANGUAGES}
    # the worlds are rolled back after the module, as in tests/tournament/conftest.py
    with django_db_blocker.unblock(), transaction.atomic():
        cache.clear()
        season = make_season()
        worlds = [world for state in STATES for world in state(season)]
        clients = {}
        for language in LANGUAGES:
            clients[language] = Client()
            clients[language].force_login(make_user("handbook-director"))
            clients[language].cookies[settings.LANGUAGE_COOKIE_NAME] = language
        seen: set[str] = set()  # a page of no event (the start page, the rating) once
        files = set(DOWNLOADS)  # URL names that answer with a file, not a page
        for world in worlds:
            for name, make in ((n, m) for n in sorted(pages_to_render()) for m in MAKERS[n]):
                try:
                    url = make(world)[0]
                except AttributeError:  # a page of a round, a table or a game the state lacks
                    continue
                if url in seen or name in files:
                    continue
                seen.add(url)
                for language, client in clients.items():
                    response = client.get(url)
                    if "text/html" not in response.get("Content-Type", "text/html"):
                        files.add(name)
                    if response.status_code == 200 and name not in files:
                        found[language][name].append(read(response, name))
        yield found
        transaction.set_rollback(True)


def section_pages(section: handbook.Section, pages: dict[str, list[Page]]) -> list[str]:
    """The pages a section's labels are read on: its HTML pages, and for its URL names that are
    no page (a POST, a file) the pages that hold a form or a link to them."""
    own = [name for name in section.pages if name in pages]
    hosts = {
        host
        for name in section.pages
        if name not in pages
        for host, renderings in pages.items()
        if any(name in page.leads_to for page in renderings)
    }
    return own + sorted(hosts - set(own))


# --- c: what is bold is on the page ---------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bold_label_is_on_one_of_its_pages(rendered, language):
    pages = rendered[language]
    missing = []
    for chapter in book(language).chapters:
        for section in chapter.sections:
            if not section.pages:
                continue
            names = section_pages(section, pages)
            texts = [page.text for name in names for page in pages[name]]
            for label in section.labels:
                if not any(label in text for text in texts):
                    missing.append(
                        f"{where(language, chapter.slug, section.anchor)}: '{label}' not on "
                        f"{' '.join(names) or '(no page rendered)'} ({language})"
                    )
    assert missing == [], f"{len(missing)} labels not found:\n" + "\n".join(missing)


# --- d: every page's "?" leads to its section -----------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_declared_page_has_its_question_mark_to_its_section(rendered, client, language):
    hb = book(language)
    wrong = []
    for name, renderings in sorted(rendered[language].items()):
        found = hb.section_of(name)
        if found is None or name in WITHOUT_HEADER:
            continue
        chapter, section = found
        expected = f"{hb.chapter_url(chapter.slug)}#{section.anchor}"
        seen = {page.help_href for page in renderings}
        if seen != {expected}:
            wrong.append(f"{name}: '?' leads to {sorted(map(str, seen))}, not {expected}")
            continue
        response = client.get(expected.split("#")[0])
        if response.status_code != 200 or f'id="{section.anchor}"' not in response.content.decode():
            wrong.append(f"{name}: {expected} answers {response.status_code} without the anchor")
    assert wrong == [], "\n".join(wrong)


def test_the_pages_were_rendered_in_every_state(rendered):
    """The label test reads what it should: the pages of a director's day, in both languages."""
    for language in LANGUAGES:
        assert {"event", "checkin", "round_seating", "table", "table_link", "prize_giving"} <= set(
            rendered[language]
        )
