"""The handbook's machinery (tournament/handbook.py) on small sample files
(tests/tournament/handbook/): sections, pages lines and labels read, links rewritten, broken links
and a broken format named, images kept to their folder, files read again only when they change."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tournament import handbook

SAMPLES = Path(__file__).resolve().parent / "handbook"
GERMAN = handbook.Book("de", SAMPLES / "handbuch", "handbook")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the German sample to spoil."""
    copy = tmp_path / "handbuch"
    shutil.copytree(SAMPLES / "handbuch", copy)
    return copy


def write(folder: Path, name: str, text: str) -> handbook.Handbook:
    (folder / name).write_text(text, encoding="utf-8")
    return handbook.parse(handbook.Book("de", folder, "handbook"), "/hilfe/")


def test_the_start_page_comes_first_then_the_chapters_by_file_name(folder):
    book = write(folder, "1-before-the-day.md", "# Vor dem Tag\n")
    assert [c.slug for c in book.chapters] == ["index", "1-before-the-day", "3-during-play"]
    assert [c.title for c in book.chapters] == [
        "Handbuch (Beispiel)",
        "Vor dem Tag",
        "Während des Spiels",
    ]
    first, during = book.chapter("1-before-the-day"), book.chapter("3-during-play")
    assert book.neighbours(first) == (book.chapter("index"), during)
    assert book.neighbours(during) == (first, None)


def test_a_section_has_its_anchor_title_pages_and_bold_labels():
    chapter = handbook.parse(GERMAN, "/hilfe/").chapter("3-during-play")
    phones, scorer, standings, wifi = chapter.sections
    assert (phones.anchor, phones.title) == ("phones", "Die Telefone an den Tischen")
    assert phones.pages == ("table_link", "link_preview", "link_send", "link_action")
    # bold across a line break is one label, its spaces made one
    assert phones.labels == ("Spiel speichern", "Liste abgeben")
    assert scorer.pages == ("table", "hand_preview", "table_confirm", "table_totals", "table_void")
    assert scorer.labels == ()  # the bold inside a code block is no label
    assert standings.pages == ("event_standings",)
    assert (wifi.anchor, wifi.pages) == ("wifi-dropout", ())
    assert {"phones", "scorer", "wifi-dropout", "vom-papier-eintragen"} <= chapter.ids


def test_the_handbook_finds_the_section_of_a_page():
    book = handbook.parse(GERMAN, "/hilfe/")
    chapter, section = book.section_of("table_link")
    assert (chapter.slug, section.anchor) == ("3-during-play", "phones")
    assert book.section_of("event_finish") is None


def test_links_to_chapters_and_images_lead_to_the_apps_addresses():
    book = handbook.parse(GERMAN, "/hilfe/")
    index, during = book.chapter("index"), book.chapter("3-during-play")
    assert '<a href="/hilfe/3-during-play/">' in index.html
    assert '<a href="/hilfe/3-during-play/#phones">' in index.html
    assert '<a href="/hilfe/">Anfang</a>' in during.html  # index.md is the start page
    assert 'src="/hilfe/img/phone.png"' in during.html
    # an anchor of the same page and a page of the app stay as written
    assert '<a href="#wifi-dropout">' in during.html
    assert '<a href="/turnier/beispiel/rangliste/">' in during.html
    assert handbook.problems(book) == []


def test_no_heading_is_rendered_more_than_one_level_below_the_one_before(folder):
    """Issue 43.11: the start page's parts (``###`` under its title) skipped a level, which a
    screen reader's list of headings shows as a gap; a section's own ``###`` stays a third."""
    book = write(
        folder,
        "index.md",
        "# Handbuch\n\n### Wer macht was\n\nText\n\n##### Am Morgen\n\n### Anmelden\n",
    )
    assert re.findall(r"<(h[1-6]) id=\"([^\"]+)\"", book.chapter("index").html) == [
        ("h1", "handbuch"),
        ("h2", "wer-macht-was"),
        ("h3", "am-morgen"),
        ("h2", "anmelden"),
    ]
    book = write(folder, "3-during-play.md", "# Spiel\n\n## Telefone {#phones}\n\n### Offline\n")
    assert re.findall(r"<(h[1-6])", book.chapter("3-during-play").html) == ["h1", "h2", "h3"]
    assert handbook.problems(book) == []


def test_every_broken_link_is_named_with_its_file(folder):
    book = write(
        folder,
        "3-during-play.md",
        "# Spiel\n\n## Telefone {#phones}\n\n"
        "[a](4-the-evening.md) [b](index.md#nowhere) [c](#phone) [d](https://example.org/)\n"
        "[e](/turnier/x/nirgends/) [f](../deployment.md) ![g](img/missing.png)\n"
        "[h](img/phone.png)\n",
    )
    assert handbook.problems(book) == [
        "3-during-play.md: link '4-the-evening.md' names no chapter of the handbook",
        "3-during-play.md: link 'index.md#nowhere' names no anchor of index.md",
        "3-during-play.md: link '#phone' names no anchor of 3-during-play.md",
        "3-during-play.md: link 'https://example.org/' leads out of the app (the handbook is "
        "read offline)",
        "3-during-play.md: link '/turnier/x/nirgends/' is no page of the app",
        "3-during-play.md: link '../deployment.md' is neither a chapter (X.md#anchor), an image "
        "(img/x.png) nor a page of the app",
        "3-during-play.md: link 'img/missing.png' names no image in img/",
    ]


def test_a_broken_format_is_named(folder):
    book = write(
        folder,
        "3-during-play.md",
        "Kein Titel\n\n## Ohne Anker\n\n## Telefone {#phones}\n\nText\n<!-- pages: table -->\n\n"
        "## Noch einmal {#phones}\n",
    )
    assert handbook.problems(book) == [
        "3-during-play.md: line 3: section 'Ohne Anker' has no {#anchor}",
        "3-during-play.md: line 8: a pages line not directly under a '##' heading",
        "3-during-play.md: no '# title' line",
        "3-during-play.md: anchor #phones used twice",
    ]


@pytest.mark.parametrize(
    "name",
    [
        "../index.md",
        "..",
        "phone.gif",
        ".phone.png",
        "phone.png/",
        "sub/phone.png",
        "phone.PNG",
        "missing.png",
        "phone.png\x00.png",
    ],
)
def test_an_image_outside_the_img_folder_or_of_another_kind_is_refused(name):
    assert handbook.image_path(GERMAN, name) is None


def test_an_image_linked_out_of_the_img_folder_is_refused(folder):
    (folder / "img" / "secret.png").unlink(missing_ok=True)
    os.symlink(SAMPLES / "handbuch" / "index.md", folder / "img" / "escape.png")
    book = handbook.Book("de", folder, "handbook")
    assert handbook.image_path(book, "escape.png") is None
    assert handbook.image_path(book, "phone.png") == (folder / "img" / "phone.png").resolve()


def test_the_files_are_read_again_only_when_one_changes(folder, monkeypatch):
    parsed = []
    parse = handbook.parse
    monkeypatch.setattr(handbook, "parse", lambda *a: parsed.append(a) or parse(*a))
    book = handbook.Book("de", folder, "handbook")
    first = handbook.read(book, "/hilfe/")
    assert handbook.read(book, "/hilfe/") is first
    assert len(parsed) == 1
    chapter = folder / "3-during-play.md"
    chapter.write_text(chapter.read_text() + "\nNeu.\n")
    os.utime(chapter, ns=(1, 1))  # a different modification time, whatever the clock's grain
    again = handbook.read(book, "/hilfe/")
    assert again is not first
    assert "Neu." in again.chapter("3-during-play").html
    assert len(parsed) == 2
