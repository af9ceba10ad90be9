"""The season, published (issue 15): ``manage.py publish_season`` writes a static website that
needs no server: every page there, every link a file, German and English, no script, nothing from
another site; the same as a zip for directors."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse

from tests.factories import make_played_season, make_role, make_season, make_user
from tests.helpers.pages import html_table
from tests.helpers.results import standings_result, ziege_season
from tournament.models import EventRole, Player, Season

pytestmark = pytest.mark.django_db

ATTRIBUTE = re.compile(r'\b(href|src|action|srcset|poster|data)="([^"]*)"')


@pytest.fixture(scope="module")
def season(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Season]:
    """The played season (``make_played_season``), built once for the module: in a transaction
    rolled back after its last test, each test in a savepoint inside it (pytest-django)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield make_played_season()
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def published(season: Season, tmp_path_factory: pytest.TempPathFactory, django_db_blocker) -> Path:
    """The season published once, for the tests that only read the files."""
    folder = tmp_path_factory.mktemp("published")
    with django_db_blocker.unblock():
        call_command("publish_season", season.slug, "--output", str(folder), stdout=io.StringIO())
    return folder


@pytest.fixture
def site(published: Path, tmp_path: Path) -> Path:
    """A copy of the published season of the test's own, to change or to publish again."""
    return Path(shutil.copytree(published, tmp_path / "site"))


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def references(page: Path) -> list[str]:
    return [value for _name, value in ATTRIBUTE.findall(page.read_text())]


def test_every_page_of_the_season_is_written_in_german_and_english(published):
    season = Season.objects.get(slug="swm-2026")
    players = {p.uid for e in season.events.all() for p in [x.player for x in e.entries.all()]}
    assert len(players) == 7
    expected = ["index.html", "saison-damen.html", "saison-jugend.html", "spieler/index.html"]
    for slug in ("turnier-furtwangen", "turnier-triberg"):
        expected += [
            f"turnier/{slug}/{name}"
            for name in (
                "index.html",
                "rangliste.html",
                "rangliste-damen.html",
                "mannschaften.html",
                "durchgang-1.html",
                "durchgang-1-sitzplan.html",
            )
        ]
    expected += [f"spieler/{uid}.html" for uid in players]
    for language in ("de", "en"):
        for name in expected:
            assert (published / language / name).is_file(), f"{language}/{name}"
    assert not list(published.rglob("*anderswo*"))
    css = published / "static" / "app.css"
    assert (published / "index.html").is_file() and css.is_file()
    assert css.read_bytes() == Path("static/css/app.css").read_bytes()


def test_every_link_is_a_relative_path_to_a_published_file(published):
    checked = 0
    for page in pages(published):
        for value in references(page):
            parts = urlsplit(value)
            assert not parts.scheme and not parts.netloc, f"{page}: {value}"
            assert not parts.path.startswith("/"), f"{page}: {value}"
            if parts.path:
                target = (page.parent / unquote(parts.path)).resolve()
                assert target.is_file(), f"{page.relative_to(published)} links to missing {value}"
                assert published.resolve() in target.parents
                checked += 1
    assert checked > 200


def test_every_page_is_reached_by_links_from_the_index(published):
    seen, todo = set(), [(published / "index.html").resolve()]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".html":
            continue
        seen.add(page)
        for value in references(page):
            path = urlsplit(value).path
            if path:
                todo.append((page.parent / unquote(path)).resolve())
    assert seen == {p.resolve() for p in pages(published)}


def test_no_page_has_a_script_a_form_or_a_reference_to_another_site(published):
    for page in pages(published):
        text = page.read_text()
        assert "<script" not in text and "<form" not in text, page
        assert "<iframe" not in text, page
        for value in references(page):
            assert not value.startswith(("http:", "https:", "//")), f"{page}: {value}"
    assert not re.search(
        r"url\(\s*['\"]?(https?:)?//", (published / "static" / "app.css").read_text()
    )


def test_no_page_offers_a_login_or_the_apps_print_excel_and_projector_pages(published):
    for page in pages(published):
        text = page.read_text()
        for word in ("Anmelden", "Log in", "Excel", "Beamer", "Projector", "Drucken"):
            assert word not in text, f"{page}: {word}"


def test_german_and_english_pages_link_to_each_other(published):
    german = (published / "de" / "turnier" / "turnier-triberg" / "rangliste.html").read_text()
    english = (published / "en" / "turnier" / "turnier-triberg" / "rangliste.html").read_text()
    assert '<html lang="de">' in german and "Rangliste" in german
    assert '<html lang="en">' in english and "Standings" in english and "Rangliste" not in english
    assert 'href="../../../en/turnier/turnier-triberg/rangliste.html"' in german
    assert 'href="../../../de/turnier/turnier-triberg/rangliste.html"' in english
    root = (published / "index.html").read_text()
    assert 'url=de/index.html"' in root


def test_the_published_pages_show_what_the_app_shows(published, client):
    app = client.get(reverse("season", args=["swm-2026"]), HTTP_ACCEPT_LANGUAGE="en")
    app_page = app.content.decode()
    index = (published / "en" / "index.html").read_text()
    # each name links to the player's page, in the app and in the publication
    name = r"<td[^>]*>\s*<a href=\"([^\"]+)\">(Schwörer, Eva|Nachname\d+, Vorname\d+)</a>"
    names = re.findall(name, app_page)
    assert len(names) == 7
    files = re.findall(name, index)
    assert [n for _link, n in files] == [n for _link, n in names]
    for (link, _n), (file, _same) in zip(names, files, strict=True):
        assert link.startswith("/spieler/") and file == f"spieler/{link.split('/')[2]}.html"
    women = (published / "de" / "saison-damen.html").read_text()
    assert "Schwörer, Eva" in women and "Nachname" not in women.split("<main>")[1]


def test_a_player_page_names_an_unpublished_event_without_linking_it(published):
    # Eva's own page: the one headed with her name (the list of players names her too)
    (eva,) = [
        page
        for page in (published / "de" / "spieler").glob("*.html")
        if "<h1>Eva Schwörer</h1>" in page.read_text()
    ]
    text = eva.read_text()
    assert "Turnier Anderswo" in text
    assert 'href="../turnier/turnier-triberg/rangliste.html"' in text
    assert "anderswo" not in text


def test_publishing_an_unknown_season_is_refused(tmp_path):
    with pytest.raises(CommandError, match="No season"):
        call_command("publish_season", "gibt-es-nicht", "--output", str(tmp_path))


def test_a_director_downloads_the_same_site_as_a_zip(published, client):
    season = Season.objects.get(slug="swm-2026")
    url = reverse("season_publish", args=[season.slug])
    client.force_login(make_user())
    assert url in client.get(reverse("season", args=[season.slug])).content.decode()
    response = client.get(url)
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = {name.removeprefix("swm-2026/") for name in archive.namelist()}
    assert names == {str(p.relative_to(published)) for p in published.rglob("*") if p.is_file()}


def test_anyone_but_a_director_gets_no_zip(client, season):
    url = reverse("season_publish", args=[season.slug])
    assert client.get(url).status_code == 302
    assert url not in client.get(reverse("season", args=[season.slug])).content.decode()
    client.force_login(make_role(season.events.first(), EventRole.Role.ORGANISER))
    assert client.get(url).status_code == 403


def test_a_season_without_events_is_published_too(tmp_path):
    season = make_season(name="Saison 2027/28", slug="saison-2027")
    call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    page = (tmp_path / "en" / "index.html").read_text()
    assert "Saison 2027/28" in page and "0 events" in page
    assert "0 players in Saison 2027/28" in (tmp_path / "en" / "spieler" / "index.html").read_text()


def test_an_event_called_like_a_published_page_keeps_its_own_folder(tmp_path, season):
    event = season.events.first()
    event.slug = "spieler"
    event.save()
    call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    assert "Players" in (tmp_path / "en" / "spieler" / "index.html").read_text()
    assert event.name in (tmp_path / "en" / "turnier" / "spieler" / "index.html").read_text()


def test_publishing_again_removes_the_pages_no_longer_published(site):
    season = Season.objects.get(slug="swm-2026")
    event = season.events.order_by("date", "pk").last()
    removed = event.entries.exclude(player__last_name="Schwörer").first().player
    other_season = make_season()
    other_season.events.add(event)  # the event moves: its players leave this season's pages
    out = io.StringIO()
    call_command("publish_season", season.slug, "--output", str(site), stdout=out)
    assert not (site / "de" / "spieler" / f"{removed.uid}.html").exists()
    assert not list((site / "de" / "turnier" / event.slug).rglob("*.html"))
    assert "Removed" in out.getvalue()
    assert (site / "de" / "index.html").is_file()


def test_publishing_again_keeps_the_files_it_did_not_write(site):
    imprint = site / "de" / "impressum.html"
    imprint.write_text("<h1>Impressum</h1>", encoding="utf-8")
    (site / "en" / "notes").mkdir()
    (site / "en" / "notes" / "draft.html").write_text("mine", encoding="utf-8")
    out = io.StringIO()
    call_command("publish_season", "swm-2026", "--output", str(site), stdout=out)
    assert imprint.read_text(encoding="utf-8") == "<h1>Impressum</h1>"
    assert (site / "en" / "notes" / "draft.html").is_file()
    assert "Removed" not in out.getvalue()


def test_a_hand_made_imprint_survives_and_a_player_no_longer_published_goes(site):
    imprint = site / "impressum.html"
    imprint.write_text("<h1>Impressum des Vereins</h1>", encoding="utf-8")
    season = Season.objects.get(slug="swm-2026")
    event = season.events.order_by("date", "pk").last()
    gone = event.entries.exclude(player__last_name="Schwörer").first().player
    make_season().events.add(event)  # the event moves: its players leave this season's pages
    call_command("publish_season", season.slug, "--output", str(site), stdout=io.StringIO())
    assert imprint.read_text(encoding="utf-8") == "<h1>Impressum des Vereins</h1>"
    assert not (site / "de" / "spieler" / f"{gone.uid}.html").exists()
    # the event's folder is gone too, not left behind empty
    assert not (site / "de" / "turnier" / event.slug).exists()


def test_a_folder_of_the_clubs_own_pages_is_refused_before_anything_is_written(tmp_path, season):
    own = tmp_path / "index.html"
    own.write_text("Unser Verein", encoding="utf-8")
    (tmp_path / "impressum.html").write_text("Impressum", encoding="utf-8")
    with pytest.raises(CommandError, match=r"index\.html.*--replace"):
        call_command("publish_season", season.slug, "--output", str(tmp_path))
    assert own.read_text(encoding="utf-8") == "Unser Verein"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["impressum.html", "index.html"]


def test_a_folder_published_without_a_record_is_replaced_when_the_director_says_so(site):
    """A folder published before the record was kept: nothing is removed the first time."""
    (site / ".published.json").unlink()
    imprint = site / "de" / "impressum.html"
    imprint.write_text("Impressum", encoding="utf-8")
    with pytest.raises(CommandError, match="--replace"):
        call_command("publish_season", "swm-2026", "--output", str(site))
    out = io.StringIO()
    call_command("publish_season", "swm-2026", "--output", str(site), "--replace", stdout=out)
    assert imprint.read_text(encoding="utf-8") == "Impressum"
    assert "Removed" not in out.getvalue()
    # from now on the folder has its record: publishing again needs no --replace
    call_command("publish_season", "swm-2026", "--output", str(site), stdout=io.StringIO())


def test_the_directors_zip_unpacked_beside_an_imprint_is_republished_keeping_the_imprint(
    client, tmp_path, season
):
    client.force_login(make_user())
    response = client.get(reverse("season_publish", args=[season.slug]))
    zipfile.ZipFile(io.BytesIO(response.content)).extractall(tmp_path)
    site = tmp_path / season.slug
    imprint = site / "impressum.html"
    imprint.write_text("Impressum", encoding="utf-8")
    event = season.events.order_by("date", "pk").last()
    gone = event.entries.exclude(player__last_name="Schwörer").first().player
    assert (site / "en" / "spieler" / f"{gone.uid}.html").is_file()
    make_season().events.add(event)
    call_command("publish_season", season.slug, "--output", str(site), stdout=io.StringIO())
    assert imprint.read_text(encoding="utf-8") == "Impressum"
    assert not (site / "en" / "spieler" / f"{gone.uid}.html").exists()


def test_the_published_site_shows_no_players_town(tmp_path: Path, season: Season):
    """The consent given at registration names name and club in the published lists: the town
    stays in the register (issue 43.11)."""
    Player.objects.update(town="Schönwald")
    call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    listed = (tmp_path / "de" / "spieler" / "index.html").read_text()
    assert "Furtwangen" in listed or "CC" in listed  # the clubs are there
    assert not [page for page in pages(tmp_path) if "Schönwald" in page.read_text()]


def test_the_published_ziege_season_shows_the_matches_won_the_standings_rank_by(tmp_path):
    """The published season page, as its visitors read it: each event's column and the sum are
    the matches won (the standings' result), without a plus, never the defeat points taken."""
    ziege = ziege_season()
    call_command(
        "publish_season", ziege.season.slug, "--output", str(tmp_path), stdout=io.StringIO()
    )
    page = (tmp_path / "en" / "index.html").read_text()
    rows = {row["Name"]: row for row in html_table(page)}
    for entry in (ziege.winner, ziege.loser):
        row = rows[entry.player.sort_name]
        result = str(standings_result(ziege.event, entry))
        assert row[f"{ziege.event.name} *"] == row["Matches won"] == result
    assert rows[ziege.winner.player.sort_name]["Defeat points taken"] == "22"
