"""The players' data under their control (issue 46), walked end to end as the people do it,
through the app's pages and commands:

1. A player of a finished season is anonymised on request on the register's page; afterwards
   none of the words of any name, club or town the player ever had is on any page, print,
   workbook, in a fresh bundle, in any file of the published season, or in any row of any table
   of the project, the history included; and every standings stays as it was.
2. A consent given on the online form travels with the event's bundle to the hall's laptop and
   back, and the season's published website names each player as far as that consent reaches:
   by name with the consent to the website, by the neutral label without it, by initials where
   the desk recorded none.
"""

from __future__ import annotations

import gzip
import html
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from simple_history.models import registered_models

from tests.factories import make_player, make_season, make_user
from tests.helpers.forms import cego_post, register_post
from tests.helpers.money import prize
from tests.helpers.pages import page_text, workbook_cells
from tournament.models import Consent, Entry, Event, Player, Season
from tournament.money import prizes
from tournament.play import confirmations, hands, rounds
from tournament.register import services
from tournament.results import standings

pytestmark = pytest.mark.django_db


def en() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def director() -> Client:
    client = en()
    client.force_login(make_user())
    return client


def register_online(event: Event, **fields: str) -> Any:
    """A player sends the event's public registration form as a browser does (its one-time
    key), with the boxes ``fields`` ticks."""
    client = en()
    url = reverse("event_register", args=[event.slug])
    key = re.search(r'name="submission" value="([^"]+)"', client.get(url).content.decode())
    data = {"town": "", "category": "", "club": "", "submission": key.group(1), **fields}
    return client.post(url, data)


# --- what a reader reads ------------------------------------------------------------------------


def readable(text: str) -> str:
    """A text as a reader reads it, whatever wrote it: HTML's entities and a link's escapes
    undone, case left aside."""
    return html.unescape(unquote(text)).casefold()


def file_text(name: str, content: bytes) -> str:
    """What a file says, as a reader opens it: every cell of every sheet of a workbook, each
    file of a zip, a gzip's content, a JSON document's values (its escapes undone), any other
    file as text."""
    if content[:4] == b"PK\x03\x04":
        archive = zipfile.ZipFile(io.BytesIO(content))
        if "xl/workbook.xml" not in archive.namelist():
            return "\n".join(
                f"{inner}\n{file_text(inner, archive.read(inner))}" for inner in archive.namelist()
            )
        return "\n".join(workbook_cells(content))
    if content[:2] == b"\x1f\x8b":
        return file_text(name.removesuffix(".gz"), gzip.decompress(content))
    text = content.decode("utf-8", errors="replace")
    if name.endswith(".json") or text[:1] in ("{", "["):
        try:
            return json.dumps(json.loads(text), ensure_ascii=False)
        except ValueError:
            pass
    return text


def response_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return file_text(url, response.content)


def folder_texts(folder: Path) -> dict[str, str]:
    """Every file of a folder (the published site), by its path: the path and what it says."""
    return {
        str(path.relative_to(folder)): f"{path.relative_to(folder)}\n"
        + file_text(path.name, path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def every_table() -> dict[str, str]:
    """Every row of every table of the project (the history tables among them: every model
    django-simple-history keeps one for), written out, by the table's name."""
    models = apps.get_models()
    assert set(registered_models.values()) <= set(models)
    return {
        f"table {model._meta.db_table}": "\n".join(
            written_out(row) for row in model._base_manager.values()
        )
        for model in models
    }


def written_out(row: dict[str, Any]) -> str:
    """A table's row as text, a binary column's file (an uploaded bundle) as it reads."""
    return repr(
        {
            name: file_text("", bytes(value)) if isinstance(value, bytes | memoryview) else value
            for name, value in row.items()
        }
    )


# --- 1. anonymised: the name is nowhere, the standings stay --------------------------------------

# the player's words: as first registered, as corrected, as registered online for the second
# event; every one of them must be gone
FIRST, LAST, CLUB, TOWN = "Kunigunde", "Quirinhuber", "Kartenrunde Zwölfeichen", "Hinterzartenbach"
OLD_LAST, OLD_CLUB = "Quirinhueber", "Kegelfreunde Altmühlried"
WORDS = [FIRST, LAST, OLD_LAST, TOWN, *CLUB.split(), *OLD_CLUB.split()]


def play_and_finish(event: Event, totals_of: dict[int, int]) -> None:
    """The event's one round drawn, its table's totals as ``totals_of`` (player id → total),
    the sheet signed, the round closed and the event finished with its prize-giving list kept."""
    drawn = rounds.draw_round(round=rounds.add_round(event=event), seed=1)
    table = rounds.start_round(round=drawn).tables.get()
    seats = table.seats.select_related("entry").order_by("position")
    hands.record_totals(table=table, totals=[totals_of[s.entry.player_id] for s in seats])
    confirmations.confirm_table(table=table)
    rounds.close_round(round=table.round)
    prizes.finish_event(event=event)


def season_public_urls(season: Season, player: Player) -> list[str]:
    """The public pages, print and workbook of the season, and the player's page."""
    return [
        reverse("home"),
        reverse("season", args=[season.slug]),
        reverse("season", args=[season.slug]) + "?category=damen",
        reverse("print_season", args=[season.slug]),
        reverse("season_xlsx", args=[season.slug]),
        reverse("player", args=[player.uid]),
        reverse("rating"),
        reverse("rating_game", args=["cego"]),
    ]


def event_public_urls(entry: Entry) -> list[str]:
    """The public pages, prints and workbook of the entry's event (its round 1) and of the
    entry's table; the prize-giving's once the event is finished."""
    slug = entry.event.slug
    table = entry.seats.get().table
    return [
        reverse("event", args=[slug]),
        reverse("event_standings", args=[slug]),
        reverse("event_teams", args=[slug]),
        reverse("event_statistics", args=[slug]),
        reverse("event_participants", args=[slug]),
        reverse("round_seating", args=[slug, 1]),
        reverse("round_results", args=[slug, 1]),
        reverse("projector", args=[slug]),
        reverse("projector_rows", args=[slug]),
        reverse("where_do_i_sit", args=[slug]) + f"?q={entry.start_number}",
        reverse("table", args=[table.pk]),
        reverse("print_standings", args=[slug]),
        reverse("print_seating", args=[slug, 1]),
        reverse("print_sheets", args=[slug, 1]),
        reverse("event_xlsx", args=[slug]),
    ] + (prize_urls(entry.event) if entry.event.status == Event.Status.FINISHED else [])


def prize_urls(event: Event) -> list[str]:
    """The prize-giving's pages, public once the event is finished."""
    url = reverse("prize_giving", args=[event.slug])
    return [url, url + "?beamer=1", reverse("print_prize_giving", args=[event.slug])]


def event_director_urls(entry: Entry) -> list[str]:
    """The director's pages of the entry's event that name its players, and a fresh bundle."""
    slug = entry.event.slug
    table = entry.seats.get().table
    return [
        reverse("event_players", args=[slug]),
        reverse("player_edit", args=[slug, entry.pk]),
        reverse("event_history", args=[slug]),
        reverse("table_history", args=[table.pk]),
        reverse("start_cards", args=[slug]),
        reverse("checkin", args=[slug]) + f"?q={entry.start_number}",
        reverse("fee_list", args=[slug]),
        reverse("event_settlement", args=[slug]),
        *prize_urls(entry.event),
        reverse("event_bundle", args=[slug]),  # a fresh bundle
    ]


def every_page_and_file(season: Season, player: Player, out: Path) -> dict[str, str]:
    """Every place the season shows the player, by where it is: the public pages, prints and
    workbooks of the season and each event; the director's pages of each event, a fresh bundle
    and the register's pages of the player; every file of the season published into ``out``."""
    public, desk = en(), director()
    found = {url: response_text(public, url) for url in season_public_urls(season, player)}
    for entry in player.entries.filter(event__season=season):
        found.update({url: response_text(public, url) for url in event_public_urls(entry)})
        for url in event_director_urls(entry):
            found[f"director {url}"] = response_text(desk, url)
    for url in (
        reverse("register"),
        reverse("register_player", args=[player.uid]),
        reverse("register_player_data", args=[player.uid]),
        reverse("register_player_data_json", args=[player.uid]),
    ):
        found[f"director {url}"] = response_text(desk, url)
    call_command("publish_season", season.slug, "--output", str(out), stdout=io.StringIO())
    found.update({f"published {path}": text for path, text in folder_texts(out).items()})
    return found


def words_in(places: dict[str, str]) -> dict[str, list[str]]:
    """Each of the player's words and the places it is found in."""
    read = {place: readable(text) for place, text in places.items()}
    return {
        word: [place for place, text in read.items() if word.casefold() in text] for word in WORDS
    }


def events_standings(season: Season) -> list[list[tuple[int, int, int]]]:
    """Each event's standings: start number, rank and total of each entry."""
    return [
        list(Entry.objects.standings(event).values_list("start_number", "rank", "total"))
        for event in season.events.order_by("date")
    ]


def season_standings(season: Season) -> list[tuple[Any, ...]]:
    """The season's standings without the names: each player's rank, total and events."""
    _events, rows = standings.season_standings(season)
    return sorted(
        (str(r["uid"]), r["rank"], r["total"], *(v for k, v in r.items() if k.startswith("event_")))
        for r in rows
    )


def test_an_anonymised_player_is_in_no_page_file_or_table_and_the_standings_stay(tmp_path: Path):
    desk = director()
    season = make_season(name="Saison der Vergessenen", slug="saison-vergessen")
    first_event, second_event = (
        Event.objects.create(
            name=f"Turnier {n}",
            slug=f"vergessen-{n}",
            date=f"2026-10-{n:02}",
            game="cego",
            season=season,
            hands_per_round={"*": 1},
            rounds_planned=1,
            registration_open=True,
        )
        for n in (3, 17)
    )
    others = [make_player() for _ in range(3)]
    # the first event: entered at the desk, misspelt, with the club of then, in a team of four,
    # agreeing to be named in public and on the season's website, with her town
    entered = desk.post(
        reverse("event_players", args=[first_event.slug]),
        register_post(
            first_name=FIRST,
            last_name=OLD_LAST,
            club=OLD_CLUB,
            town=TOWN,
            team="Spielgemeinschaft Süd",
            same_person="new",
            consent_lists="on",
            consent_season="on",
            consent_town="on",
        ),
    )
    assert entered.status_code == 302
    first_entry = Entry.objects.get(event=first_event)
    player = first_entry.player
    for other in others:
        services.register_player(event=first_event, player=other, team="Spielgemeinschaft Süd")
    prize(first_event, 1, 5000)
    totals = {player.pk: 90, others[0].pk: 10, others[1].pk: -40, others[2].pk: -60}
    play_and_finish(first_event, totals)
    # the name and club corrected on the event's player page
    corrected = desk.post(
        reverse("player_edit", args=[first_event.slug, first_entry.pk]),
        {"first_name": FIRST, "last_name": LAST, "club": CLUB, "town": TOWN, "category": ""},
    )
    assert corrected.status_code == 302
    player.refresh_from_db()
    assert (player.last_name, player.club) == (LAST, CLUB)
    # the second event: she registers online, and the director joins that registration to her
    assert (
        register_online(
            second_event,
            first_name=FIRST,
            last_name=LAST,
            club=CLUB,
            town=TOWN,
            consent="on",
            consent_season="on",
            consent_town="on",
        ).status_code
        == 302
    )
    online = Entry.objects.get(event=second_event).player
    assert online.pk != player.pk
    merged = desk.post(
        reverse("player_merge", args=[first_event.slug, first_entry.pk]), {"other": online.pk}
    )
    assert merged.status_code == 302 and not Player.objects.filter(pk=online.pk).exists()
    for other in others:
        services.register_player(event=second_event, player=other)
    prize(second_event, 1, goods="Präsentkorb")
    totals = {player.pk: 50, others[0].pk: -30, others[1].pk: 20, others[2].pk: -40}
    play_and_finish(second_event, totals)
    # a copy of its bundle uploaded again on the import page: the preview has nothing to import
    file = io.BytesIO(desk.get(reverse("event_bundle", args=[second_event.slug])).content)
    file.name = "vergessen-17.cego.json.gz"
    preview = desk.post(reverse("bundle_import"), {"file": file})
    assert "this bundle is imported already" in page_text(preview)

    before = events_standings(season)
    season_before = season_standings(season)
    # the search finds what is there: before, the public reads every word somewhere (the old
    # spellings in the first event's prize-giving list, kept as it was when it was finished)
    seen = words_in({**every_page_and_file(season, player, tmp_path / "vorher"), **every_table()})
    public = [w for w, places in seen.items() if any(p.startswith(("/", "pub")) for p in places)]
    assert public == WORDS  # the public pages' addresses begin with "/", the site's "published"

    # the director anonymises her on the register's page, with her request as the reason
    url = reverse("register_anonymise", args=[player.uid])
    done = desk.post(url, {"reason": "Bitte per Brief vom 1.12."}, follow=True)
    assert done.redirect_chain == [(reverse("register_player", args=[player.uid]), 302)]
    player.refresh_from_db()
    assert str(player) == f"Anonym {player.pk}"

    after = {**every_page_and_file(season, player, tmp_path / "nachher"), **every_table()}
    found = {word: places for word, places in words_in(after).items() if places}
    assert not found, json.dumps(found, indent=1)
    assert events_standings(season) == before
    assert season_standings(season) == season_before


# --- 2. a consent from the online form to the published site -------------------------------------

AGREED = {"first_name": "Amalia", "last_name": "Zustimmig", "club": "CC Offenherzig"}
LISTS_ONLY = {"first_name": "Bruno", "last_name": "Listenreich", "club": "CC Halbgeheim"}
AT_THE_DESK = {"first_name": "Cäcilia", "last_name": "Ohnewort", "club": "CC Stillschweig"}
FOURTH = {"first_name": "Dora", "last_name": "Vierte", "club": "CC Offenherzig"}


def fresh_installation() -> Client:
    """Another installation (the hall's laptop, or the server's new copy): an empty database,
    an empty page cache, its own director logged in."""
    # the test's rows are written in its one transaction: PostgreSQL empties a table only once
    # their deferred foreign-key checks have run
    connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    assert not Event.objects.exists() and not Consent.objects.exists()
    return director()


def imported_on_the_page(desk: Client, data: bytes) -> None:
    """The director uploads the bundle on the import page, reads the preview and imports."""
    file = io.BytesIO(data)
    file.name = "einwilligung.cego.json.gz"
    preview = desk.post(reverse("bundle_import"), {"file": file})
    assert "New event Turnier Einwilligung: 3 entries" in page_text(preview)
    payload = preview.context["payload"]
    done = desk.post(reverse("bundle_import"), {"payload": payload, "action": "import"})
    assert done.status_code == 302


def read_file(path: Path) -> str:
    """What a reader of a published file reads: a page's text without its tags, its entities
    undone, spaces collapsed; any other file as ``file_text`` reads it."""
    text = file_text(path.name, path.read_bytes())
    if path.suffix == ".html":
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return re.sub(r"\s+", " ", text)


def consents_by_name() -> dict[str, tuple[Any, ...]]:
    """Each recorded consent by its player's last name: identifier, how, which words, when, and
    what it covers (the public lists, the season's website)."""
    return {
        c.player.last_name: (c.uid, c.via, c.wording, c.given_at, c.lists, c.season_site)
        for c in Consent.objects.select_related("player")
    }


def test_a_consent_given_online_travels_to_the_hall_and_back_into_the_published_site(
    tmp_path: Path,
):
    # the association's server: the event open for online registration
    season = make_season(name="Saison Einwilligung", slug="saison-einwilligung")
    event = Event.objects.create(
        name="Turnier Einwilligung",
        slug="einwilligung",
        date="2026-11-07",
        game="cego",
        season=season,
        hands_per_round={"*": 1},
        registration_open=True,
    )
    for person, ticked in (
        (AGREED, {"consent": "on", "consent_season": "on"}),
        (LISTS_ONLY, {"consent": "on"}),
        (FOURTH, {"consent": "on", "consent_season": "on"}),
    ):
        assert register_online(event, **person, **ticked).status_code == 302
    given = consents_by_name()
    assert given[AGREED["last_name"]][4:] == (True, True)
    assert given[LISTS_ONLY["last_name"]][4:] == (True, False)
    # the director takes the event's bundle to the hall
    taken = director().post(reverse("event_bundle", args=[event.slug]))
    assert taken.status_code == 200

    # the hall's laptop: the bundle imported on its import page
    desk = fresh_installation()
    imported_on_the_page(desk, taken.content)
    assert consents_by_name() == given
    assert given[AGREED["last_name"]][1:3] == (Consent.Via.ONLINE, Consent.WORDING)
    # a walk-in entered at the hall's desk, no consent ticked
    walk_in = desk.post(
        reverse("event_players", args=[event.slug]),
        register_post(**AT_THE_DESK, same_person="new"),
    )
    assert walk_in.status_code == 302
    # the event played: a round added, drawn and started, a game entered at its table
    assert desk.post(reverse("round_add", args=[event.slug])).status_code == 302
    for step, data in (("round_draw", {"seed": "1"}), ("round_start", {})):
        assert desk.post(reverse(step, args=[event.slug, 1]), data).status_code == 302
    [table] = Event.objects.get(slug=event.slug).rounds.get().tables.all()
    assert desk.post(reverse("table", args=[table.pk]), cego_post()).status_code == 302
    hall = page_text(en().get(reverse("event_standings", args=[event.slug])))
    c_number = Entry.objects.get(player__last_name=AT_THE_DESK["last_name"]).start_number
    for person in (AGREED, LISTS_ONLY):
        assert f"{person['last_name']}, {person['first_name']}" in hall
    assert AT_THE_DESK["last_name"] not in hall and f"C. O. (No. {c_number})" in hall
    back = desk.get(reverse("event_bundle", args=[event.slug]))

    # the server again (a new copy): the hall's bundle imported, the season published
    fresh_installation()
    path = tmp_path / "einwilligung.cego.json.gz"
    path.write_bytes(back.content)
    call_command("import_event", str(path), stdout=io.StringIO())
    assert consents_by_name() == given  # and none for the walk-in
    site = tmp_path / "site"
    call_command("publish_season", season.slug, "--output", str(site), stdout=io.StringIO())
    b_number = Entry.objects.get(player__last_name=LISTS_ONLY["last_name"]).start_number
    published = "\n".join(read_file(path) for path in site.rglob("*") if path.is_file())
    # A agreed to the website: named, with the club
    assert f"{AGREED['last_name']}, {AGREED['first_name']}" in published
    assert AGREED["club"] in published
    # B agreed to the lists only, C to nothing: neither's name nor club is in any file
    for person in (LISTS_ONLY, AT_THE_DESK):
        for word in person.values():
            assert word not in published, word
    # each by the neutral label: initials and start number in the event's standings, the
    # initials alone in the season's
    for language, number in (("de", "Nr."), ("en", "No.")):
        standings_page = read_file(site / language / "turnier" / event.slug / "rangliste.html")
        assert f"B. L. ({number} {b_number})" in standings_page
        assert f"C. O. ({number} {c_number})" in standings_page
        season_page = read_file(site / language / "index.html")
        assert "B. L." in season_page and "C. O." in season_page
    # the app's own public pages name B (the lists agreed to), and C on none of them
    live = page_text(en().get(reverse("event_standings", args=[event.slug])))
    assert f"{LISTS_ONLY['last_name']}, {LISTS_ONLY['first_name']}" in live
    assert f"C. O. (No. {c_number})" in live
    walked_in = Entry.objects.select_related("player", "event").get(start_number=c_number)
    public = en()
    # a player the public lists may not name has no public page at all
    own_page = reverse("player", args=[walked_in.player.uid])
    assert public.get(own_page).status_code == 404
    urls = [*season_public_urls(season, walked_in.player), *event_public_urls(walked_in)]
    for url in [url for url in urls if url != own_page]:
        text = readable(response_text(public, url))
        for word in AT_THE_DESK.values():
            assert word.casefold() not in text, (url, word)
