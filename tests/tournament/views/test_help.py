"""The handbook's pages (/hilfe/, /help/) and the "?" link of every page it documents, on the
sample files of tests/tournament/handbook/ (the real handbook: tests/test_handbook.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_table
from tests.helpers.pages import page_text
from tournament import handbook

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[1] / "handbook"


@pytest.fixture(autouse=True)
def samples(monkeypatch):
    monkeypatch.setitem(handbook.BOOKS, "de", handbook.Book("de", SAMPLES / "handbuch", "handbook"))
    monkeypatch.setitem(handbook.BOOKS, "en", handbook.Book("en", SAMPLES / "guide", "guide"))


def visitor(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_a_chapter_is_german_at_hilfe_whatever_the_language_switch_says():
    response = visitor("en").get("/hilfe/3-during-play/")
    content = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="de">' in content
    assert response["Content-Language"] == "de"
    assert '<h2 id="phones">Die Telefone an den Tischen</h2>' in content
    # the page around it speaks German too: the menu, the chapter menu, the way to English
    assert '<a href="/hilfe/">Hilfe</a>' in content
    assert '<a href="/hilfe/3-during-play/" aria-current="page">Während des Spiels</a>' in content
    assert '<a rel="prev" href="/hilfe/">← Handbuch (Beispiel)</a>' in content
    assert 'href="/help/3-during-play/" hreflang="en" lang="en">This chapter in English</a>' in (
        content
    )


def test_the_guide_is_english_at_help_on_a_german_site():
    response = visitor("de").get("/help/")
    content = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="en">' in content
    assert "<h1" in content and "Guide (sample)" in page_text(response)
    assert '<a rel="next" href="/help/3-during-play/">During play →</a>' in content
    assert 'lang="de">Dieses Kapitel auf Deutsch</a>' in content


def test_the_handbook_needs_no_login_and_takes_no_post():
    client = Client()
    assert client.get("/hilfe/").status_code == 200
    assert client.post("/hilfe/3-during-play/").status_code == 405


@pytest.mark.parametrize(
    "url", ["/hilfe/nix/", "/hilfe/index/", "/help/1-before-the-day/", "/hilfe/3-During-Play/"]
)
def test_an_unknown_chapter_is_not_found(url):
    response = Client().get(url)
    assert response.status_code == 404


def test_an_image_of_the_handbook_is_served_from_its_img_folder():
    response = Client().get("/hilfe/img/phone.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content) == (SAMPLES / "handbuch/img/phone.png").read_bytes()


@pytest.mark.parametrize(
    "url",
    [
        "/hilfe/img/..%2F3-during-play.md",
        "/hilfe/img/%2E%2E%2F%2E%2E%2Fhandbook.py",
        "/hilfe/img/..",
        "/hilfe/img/phone.gif",
        "/hilfe/img/missing.png",
        "/hilfe/img/",
        "/help/img/..%5C..%5Cindex.md",
    ],
)
def test_nothing_else_is_served_as_an_image(url):
    assert Client().get(url).status_code == 404


@pytest.mark.parametrize(
    ("language", "href", "label"),
    [
        ("de", "/hilfe/3-during-play/#phones", "Hilfe zu dieser Seite"),
        ("en", "/help/3-during-play/#phones", "Help for this page"),
    ],
)
def test_a_documented_page_has_its_question_mark_to_its_section(language, href, label):
    table = make_table()
    content = visitor(language).get(table.get_link_url()).content.decode()
    assert f'<a class="help-link no-print" href="{href}" aria-label="{label}"' in content
    chapter = visitor(language).get(href.split("#")[0])
    assert 'id="phones"' in chapter.content.decode()


@pytest.mark.parametrize(("language", "menu"), [("de", "/hilfe/"), ("en", "/help/")])
def test_an_undocumented_page_has_no_question_mark_and_the_menu_leads_to_the_handbook(
    language, menu
):
    content = visitor(language).get(reverse("home")).content.decode()
    assert "help-link" not in content
    word = {"de": "Hilfe", "en": "Help"}[language]
    assert f'<a href="{menu}">{word}</a>' in content


def test_a_page_kept_whole_in_the_page_cache_has_the_question_mark_of_its_language():
    event = make_table().round.event
    url = reverse("event_standings", args=[event.slug])
    for language, href in (("de", "/hilfe/"), ("en", "/help/"), ("de", "/hilfe/")):
        for _ in range(2):  # the second from the page cache
            content = visitor(language).get(url).content.decode()
            assert f'class="help-link no-print" href="{href}3-during-play/#standings"' in content


def test_the_question_mark_costs_no_query(monkeypatch):
    table = make_table()
    url = table.get_link_url()
    client = visitor("de")
    client.get(url)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        return len(captured)

    with_link = queries()
    assert "help-link" in client.get(url).content.decode()
    monkeypatch.setitem(handbook.BOOKS, "de", handbook.Book("de", SAMPLES / "none", "handbook"))
    cache.clear()  # the table link's page is kept whole (issue 29): made again without the link
    assert "help-link" not in client.get(url).content.decode()
    assert queries() == with_link
