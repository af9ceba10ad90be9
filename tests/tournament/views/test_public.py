"""Public pages as a reader sees them: the home page's order, the event's rule settings by name,
voided tables, plurals, the projector's figures and the favicon."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import (
    cego,
    challenge,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_round,
    make_season,
    make_table,
    make_user,
)
from tests.helpers.pages import html_table, page_text
from tests.helpers.results import standings_result, ziege_season
from tournament.play import hands
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def german() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    return client


def test_the_home_page_lists_events_by_date_newest_first(client: Client):
    for name, day in (("Herbstturnier", 10), ("Wintercup", 30), ("Sommerfest", 1)):
        make_event(name=name, date=datetime.date(2026, 11, day))
    make_event(name="Frühjahrsturnier", date=datetime.date(2027, 3, 1))
    html = client.get("/").content.decode()
    shown = sorted(["Herbstturnier", "Wintercup", "Sommerfest", "Frühjahrsturnier"], key=html.index)
    assert shown == ["Frühjahrsturnier", "Wintercup", "Herbstturnier", "Sommerfest"]


def test_the_event_page_names_the_rule_settings_not_their_keys(client: Client):
    event = make_event(rules={"solo_double": "after_rounding", "bettel": 40})
    html = client.get(reverse("event", args=[event.slug])).content.decode()
    assert "win_threshold" not in html and "solo_double" not in html
    assert "The declarer wins with at least (card points)" in html
    assert "A won Solo is doubled" in html
    assert "after rounding to tens" in html
    assert "Bettel is worth</dt><dd>40" in html


def test_the_event_page_names_the_rule_settings_in_german():
    event = make_event("ziege", rules={"balls_double_next": True})
    html = german().get(reverse("event", args=[event.slug])).content.decode()
    assert "balls_double_next" not in html and "match_limit" not in html
    assert "Nach 60:60 zählt das nächste Spiel doppelt</dt><dd>ja" in html


def test_round_results_show_a_dash_for_a_voided_table(client: Client):
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))  # −60, +20, +20, +20
    rnd = table.round
    url = reverse("round_results", args=[rnd.event.slug, rnd.number])
    html = client.get(url).content.decode()
    assert f'<td class="num">{MINUS}60</td>' in html
    hands.void_table(table=table, reason="Blatt verloren")
    html = client.get(url).content.decode()
    assert html.count('<td class="num">—</td>') == 4
    assert f"{MINUS}60" not in html and ">0<" not in html


def test_the_table_page_shows_a_dash_as_the_total_of_a_voided_table(client: Client):
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.void_table(table=table, reason="Blatt verloren")
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    totals = html.split("<tfoot>", 1)[1] if "<tfoot>" in html else html
    assert totals.count('<th class="num">—</th>') == 4


def test_one_round_planned_and_one_event_are_singular(client: Client):
    season = make_season()
    event = make_event(rounds_planned=1, season=season)
    client.force_login(make_user())  # the plan is shown to the director
    assert "1 round planned." in client.get(reverse("event", args=[event.slug])).content.decode()
    html = client.get(reverse("season", args=[season.slug])).content.decode()
    assert "1 event" in html and "1 events" not in html


def test_one_round_planned_is_singular_in_german():
    event = make_event(rounds_planned=1)
    director = german()
    director.force_login(make_user())
    html = director.get(reverse("event", args=[event.slug])).content.decode()
    assert "1 Durchgang geplant." in html


sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the live copy is of the laptop's SQLite file"
)


@sqlite_only
def test_the_director_is_warned_on_the_event_page_when_the_copy_is_gone(tmp_path):
    event = make_event()
    director = german()
    director.force_login(make_user())
    organiser = german()  # the event's organiser, no director
    organiser.force_login(make_role(event, "organiser"))
    with override_settings(REPLICA=tmp_path / "usb" / "cego"):
        seen = page_text(director.get(reverse("event", args=[event.slug])))
        public = german().get(reverse("event", args=[event.slug])).content.decode()
        organisers = organiser.get(reverse("event", args=[event.slug])).content.decode()
    assert "Kopie auf dem USB-Stick fehlt: Stick eingesteckt?" in seen
    assert f"Der Ordner {tmp_path / 'usb' / 'cego'} ist nicht da" in seen
    # the copy is the director's to look after: nobody else is told about it
    for html in (public, organisers):
        assert "Kopie" not in html and 'id="replica"' not in html


@sqlite_only
def test_the_director_reads_that_the_copy_is_off_when_no_folder_is_named():
    event = make_event()
    director = german()
    director.force_login(make_user())
    with override_settings(REPLICA=None):
        seen = page_text(director.get(reverse("event", args=[event.slug])))
        public = german().get(reverse("event", args=[event.slug])).content.decode()
    assert "Laufende Kopie der Datenbank: aus" in seen
    assert "Laufende Kopie" not in public


def test_the_projector_writes_a_negative_balance_with_a_minus_sign(client: Client):
    table = make_table("crazy_solo", players=3, rules={"start_balance": 0})
    hands.record_hand(
        table=table,
        data={"contract": "alleingang", "bidder": 0, "partner": None, "soloist_points": 40},
    )
    html = client.get(reverse("projector_rows", args=[table.round.event.slug])).content.decode()
    assert f"{MINUS}" in html
    assert ">-" not in html


def test_every_page_links_the_apps_own_favicon(client: Client):
    event = make_event()
    make_entries(event, 4)
    make_round(event)
    for url in (
        "/",
        reverse("projector", args=[event.slug]),
        reverse("print_standings", args=[event.slug]),
    ):
        html = client.get(url).content.decode()
        assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in html
    icon = finders.find("img/favicon.svg")
    assert icon is not None
    with open(icon, encoding="utf-8") as svg:
        assert svg.read().lstrip().startswith("<svg")


def test_favicon_ico_answers_with_the_apps_own_icon(client: Client):
    """A browser that asks for /favicon.ico (a PDF tab, the history) gets the icon the pages
    link, not a 404 in the log."""
    home = client.get("/").content.decode()
    linked = re.search(r'<link rel="icon" href="([^"]+)"', home)[1]
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == linked
    icon = client.get(linked)
    assert icon.status_code == 200
    assert icon["Content-Type"].startswith("image/svg+xml")
    assert b"".join(icon.streaming_content).lstrip().startswith(b"<svg")


def test_the_home_page_counts_a_seasons_events_in_words(client: Client):
    one, two = make_season(name="Saison Eins"), make_season(name="Saison Zwei")
    make_event(season=one)
    make_event(season=two)
    make_event(season=two)
    html = client.get("/").content.decode()
    assert "Saison Eins</a> (1 event)" in html
    assert "Saison Zwei</a> (2 events)" in html
    assert "Saison Eins</a> (1 Turnier)" in german().get("/").content.decode()


def test_the_seating_page_and_the_seat_finder_list_names_in_german_order(client: Client):
    event = make_event(table_policy="mixed")
    for last in ("Schwörer", "Schäuble", "Schulz", "Scholz", "Schaefer"):
        register_services.register_player(
            event=event, player=make_player(first_name="Anna", last_name=last)
        )
    make_round(event)
    expected = ["Schaefer", "Schäuble", "Scholz", "Schulz", "Schwörer"]
    seating = client.get(reverse("round_seating", args=[event.slug, 1])).content.decode()
    by_name = seating.split("<h2", 2)[-1]  # the list by name follows the tables
    assert sorted(expected, key=by_name.index) == expected
    found = client.get(reverse("where_do_i_sit", args=[event.slug]) + "?q=Sch").content.decode()
    assert sorted(expected, key=found.index) == expected


def test_a_players_page_lists_the_events_played_across_seasons_with_rank_and_total(
    client: Client,
):
    autumn = make_season(name="Saison 2025/26", slug="s25")
    winter = make_season(name="Saison 2026/27", slug="s26")
    first = make_table(season=autumn, name="Herbstturnier", date=datetime.date(2025, 10, 4))
    second = make_table(season=winter, name="Wintercup", date=datetime.date(2026, 12, 5))
    hands.record_hand(table=first, data=cego("halbe", 0, 34))  # seat 0 declares and loses 60
    hands.record_hand(table=second, data=cego("halbe", 1, 34))  # seat 0 defends and wins 20
    player = first.seats.get(position=0).entry.player
    later = second.seats.get(position=0).entry
    later.player = player  # the same person at the second event
    later.save()
    html = german().get(reverse("player", args=[player.uid])).content.decode()
    rows = [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        # the events table: the first body on the page (the charts' tables follow it)
        for row in re.findall(
            r"<tr>(.*?)</tr>", html.split("<tbody>")[1].split("</tbody>")[0], re.S
        )
    ]
    # signed as the standings write it; both events are still running, their figures provisional
    assert rows == [
        ["05.12.2026", "Wintercup vorläufig", "Saison 2026/27", "1", "+20"],
        ["04.10.2025", "Herbstturnier vorläufig", "Saison 2025/26", "4", f"{MINUS}60"],
    ]
    assert client.get(reverse("player", args=[uuid.uuid4()])).status_code == 404


def test_the_public_player_page_shows_the_club_and_not_the_town(client: Client):
    """The consent given at registration names name and club (issue 43.11)."""
    player = make_player(club="CC Schonach", town="Schönwald")
    html = client.get(reverse("player", args=[player.uid])).content.decode()
    assert "CC Schonach" in html and "Schönwald" not in html


def test_every_player_has_an_identifier_of_their_own():
    players = [make_player() for _ in range(3)]
    assert len({p.uid for p in players}) == 3


# --- a game's result figure, the same on every page (issue 43) -------------------------------


def test_the_ziege_season_page_shows_each_players_matches_won_as_the_standings_do(
    client: Client,
):
    """The season's column of an event and its total are the result the standings rank by
    (matches won), never the defeat points taken with a plus; the difference that breaks a tie
    is there under its own heading, signed."""
    ziege = ziege_season()
    event, game = ziege.event, ziege.event.game_type
    page = client.get(reverse("season", args=[ziege.season.slug]))
    rows = {row["Name"]: row for row in html_table(page.content)}
    column = f"{event.name} *"  # the event's column, still running
    for entry in (ziege.winner, ziege.loser):
        row = rows[entry.player.sort_name]
        shown = game.result_figure().text(standings_result(event, entry))
        assert row[column] == row["Matches won"] == shown
        assert "+" not in row[column] + row["Matches won"]
    winner = rows[ziege.winner.player.sort_name]
    assert (winner["Matches won"], winner["Rank"]) == ("2", "1")
    assert winner["Difference (dealt out − taken)"] == f"{MINUS}2"
    assert winner["Defeat points taken"] == "22"


def test_a_hennes_sibbe_season_page_shows_penalty_cards_without_a_plus(client: Client):
    season = make_season(game="hennes_sibbe")
    table = make_table("hennes_sibbe", 3, season=season)
    hands.record_hand(table=table, data=challenge(loser=0))
    loser = table.seats.get(position=0).entry
    page = client.get(reverse("season", args=[season.slug]))
    row = {r["Name"]: r for r in html_table(page.content)}[loser.player.sort_name]
    assert row[f"{table.round.event.name} *"] == row["Penalty cards"] == "1"


def standings_row(content: bytes, name: str) -> dict[str, str]:
    """A player's row of an event's standings (the name marked * while results are open, and
    "last place")."""
    return next(r for r in html_table(content) if r["Name"].startswith(f"{name} *"))


def test_a_crazy_solo_season_shows_each_events_balance_as_its_standings_do(client: Client):
    """Crazy Solo's result is the chips held (the start balance plus every result), an amount:
    the season's column is the balance the event's standings show, not the chips won."""
    season = make_season(game="crazy_solo")
    table = make_table("crazy_solo", 4, season=season)
    # the bidder and partner win 80 card points: +40 and +40, the Gang pays 40 each
    hands.record_hand(
        table=table,
        data={"contract": "solo", "bidder": 0, "partner": 1, "soloist_points": 80},
    )
    event = table.round.event
    page = client.get(reverse("season", args=[season.slug]))
    rows = {row["Name"]: row for row in html_table(page.content)}
    for position in range(4):
        entry = table.seats.get(position=position).entry
        row = rows[entry.player.sort_name]
        assert row[f"{event.name} *"] == row["Balance"] == str(standings_result(event, entry))
    assert sorted(row["Balance"] for row in rows.values()) == ["110", "110", "190", "190"]


def test_the_ziege_round_results_show_the_difference_the_standings_round_column_shows(
    client: Client,
):
    ziege = ziege_season()
    rnd = ziege.event.rounds.get()
    page = client.get(reverse("round_results", args=[ziege.event.slug, rnd.number]))
    text = page_text(page)
    assert "Difference (dealt out − taken)" in text
    assert f"{ziege.winner.player} {MINUS}2" in text
    assert f"{ziege.loser.player} +2" in text
    standings_page = client.get(reverse("event_standings", args=[ziege.event.slug]))
    row = standings_row(standings_page.content, ziege.winner.player.sort_name)
    assert row["R1"] == f"{MINUS}2"


def test_a_hennes_sibbe_round_column_shows_penalty_cards_without_a_plus(client: Client):
    table = make_table("hennes_sibbe", 3)
    hands.record_hand(table=table, data=challenge(loser=0))
    loser = table.seats.get(position=0).entry
    event = table.round.event
    page = client.get(reverse("event_standings", args=[event.slug]))
    row = standings_row(page.content, loser.player.sort_name)
    assert row["R1"] == row["Penalty cards"] == "1"
    results = page_text(client.get(reverse("round_results", args=[event.slug, 1])))
    assert f"{loser.player} 1" in results and f"{loser.player} +1" not in results


def test_a_rounds_name_on_the_event_page_leads_to_its_seating(scorer) -> None:
    # on a phone the table of rounds is wider than the screen: the first column, always in
    # view, is the way to the round
    table = make_table()
    event = table.round.event
    page = scorer.get(event.get_absolute_url()).content.decode()
    seating = reverse("round_seating", args=[event.slug, 1])
    assert f'<td><a href="{seating}">Round 1</a></td>' in page
