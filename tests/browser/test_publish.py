"""The published season (issue 15) opened in Chromium from the file system: every link followed,
none broken, and not a single request anywhere but to the published files."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.core.management import call_command

from tests.browser.conftest import shoot
from tests.factories import make_played_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(tmp_path: Path) -> Path:
    season = make_played_season()
    call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    return tmp_path


def test_the_published_season_opens_from_the_disk_with_no_broken_link_and_no_request_out(
    browser, site
):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    requests: list[str] = []
    refused: list[str] = []
    context.on("request", lambda request: requests.append(request.url))

    def only_files(route):
        # anything that is not a published file would need a server or the internet
        refused.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith("file://"), only_files)
    page = context.new_page()
    page.set_default_timeout(15_000)
    start = (site / "index.html").resolve().as_uri()
    page.goto(start)
    page.wait_for_url("**/de/index.html")  # the root page chooses German, without a script
    assert page.locator("h1").inner_text() == "Schwarzwaldmeisterschaft 2026/27"
    shoot(page, "published-season")

    visited: set[str] = set()
    todo = [page.url]
    while todo:
        url = todo.pop()
        if url in visited:
            continue
        visited.add(url)
        response = page.goto(url)
        assert response is None or response.ok, url
        assert page.title(), url
        # the app's own style sheet applies: the header is laid out as in the app (the charts'
        # drawings carry their own styles inside)
        sheets = page.evaluate("[...document.styleSheets].map(s => s.href).filter(h => h)")
        assert [urlsplit(h).path.rsplit("/", 2)[-2:] for h in sheets] == [["static", "app.css"]]
        assert page.evaluate("document.scripts.length") == 0, url
        for link in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
            parts = urlsplit(link)
            assert parts.scheme == "file", f"{url} links to {link}"
            target = Path(unquote(parts.path))
            assert target.is_file(), f"{url} has a broken link to {link}"
            todo.append(parts._replace(fragment="").geturl())

    published = {p.resolve().as_uri() for p in site.rglob("*.html")} - {start}
    assert visited == published
    assert not refused
    assert requests and all(url.startswith("file://") for url in requests)
    context.close()


def test_the_published_standings_read_well_on_a_phone_and_in_print(desktop, site):
    page = desktop
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto((site / "de" / "turnier" / "turnier-triberg" / "rangliste.html").resolve().as_uri())
    # no sideways scrolling of the whole page on a phone: wide tables scroll in their own box
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "published-standings-phone")
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()
    assert page.locator("table").first.is_visible()
