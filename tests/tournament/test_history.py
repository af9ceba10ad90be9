"""The history pages read like a score sheet: games as written on the sheet, seats by player name,
values and reasons in the reader's language, no internal names, and paged."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import cego, make_event, make_player, make_round, make_user
from tournament import services
from tournament.models import Table

pytestmark = pytest.mark.django_db

NAMES = [("Anna", "Schäuble"), ("Bernd", "Schwörer"), ("Clara", "Dold"), ("Dieter", "Kienzler")]


def played_table(games: int = 24) -> Table:
    """A table whose history has an entry, a correction with a reason, a deletion, a void and a
    restore, and a confirmation."""
    event = make_event(name="Cego-Turnier Furtwangen", hands_per_round={"4": games})
    for first, last in NAMES:
        services.register_player(event=event, player=make_player(first_name=first, last_name=last))
    table = make_round(event, seed=7).tables.get()
    user = make_user()
    hand = services.record_hand(table=table, data=cego("halbe", 0, 34), user=user)
    services.edit_hand(
        hand=hand, data=cego("halbe", 0, 44), reason="Augen falsch gezählt", user=user
    )
    second = services.record_hand(table=table, data=cego("solo", 1, 50), user=user)
    services.delete_hand(hand=second, reason="doppelt eingetragen", user=user)
    services.void_table(table=table, reason="Blatt unleserlich", user=user)
    services.restore_table(table=table, reason="", user=user)
    services.confirm_table(table=table, user=user)
    return table


def reader(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(make_user())
    return client


def seat_names(table: Table) -> list[str]:
    return [str(s.entry.player) for s in table.seats.order_by("position")]


def page_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_table_history_describes_each_game_as_on_the_sheet():
    table = played_table()
    players = seat_names(table)
    html = page_text(reader("en"), reverse("table_history", args=[table.pk]))
    # the correction: before and after, as the sheet's game column writes them
    assert (
        f"<del>Halbe, {players[0]}, 34 points</del> → <ins>Halbe, {players[0]}, 44 points</ins>"
        in html
    )
    assert "Augen falsch gezählt" in html
    # the deleted game is described, struck through, with its reason
    assert f"<del>Solo, {players[1]}, 50 points</del>" in html
    assert "doppelt eingetragen" in html
    assert "Game 1" in html and "Game 2" in html


def test_the_history_has_no_internal_names_dicts_or_historical_records():
    table = played_table()
    html = page_text(reader("en"), reverse("table_history", args=[table.pk]))
    for internal in (
        "historical",
        "declarer_points",
        "{'",
        "contract",
        "<code>",
        "void_reason",
        "confirmed_at",
        table.token,
        "True",
        "False",
        "None",
    ):
        assert internal not in html, internal


def test_seats_and_confirmations_are_named_by_the_player():
    table = played_table()
    players = seat_names(table)
    html = page_text(reader("en"), reverse("table_history", args=[table.pk]))
    for name in players:
        assert f"Seat of {name}" in html
        assert f"Confirmation by {name}" in html
    assert "Table 1, seat 1" in html
    # the void and its undoing in words: a flag is yes or no, the draw's reason translated
    assert "Voided: <del>no</del> → <ins>yes</ins>" in html
    assert "Voided: <del>yes</del> → <ins>no</ins>" in html
    assert "restored" in html
    assert "draw, seed 7" in html


def test_the_history_reads_german_for_a_german_reader():
    table = played_table()
    players = seat_names(table)
    html = page_text(reader("de"), reverse("table_history", args=[table.pk]))
    assert (
        f"<del>Halbe, {players[0]}, 34 Augen</del> → <ins>Halbe, {players[0]}, 44 Augen</ins>"
        in html
    )
    assert "Spiel 1" in html
    assert f"Platz von {players[0]}" in html
    assert f"Bestätigung von {players[0]}" in html
    assert "Ungültig: <del>nein</del> → <ins>ja</ins>" in html
    assert "Auslosung, Startwert 7" in html
    assert "wiederhergestellt" in html
    for english in (
        "Game 1",
        " points",
        "· entered",
        "· changed",
        "· deleted",
        ">yes<",
        "historical",
    ):
        assert english not in html, english


def test_the_event_history_names_entries_and_is_german_too():
    table = played_table()
    event = table.round.event
    html = page_text(reader("de"), reverse("event_history", args=[event.slug]))
    assert "Teilnahme von Anna Schäuble" in html
    assert "Startnummer 1" in html
    assert "Spiel 1" in html


def test_a_long_history_is_paged_newest_first():
    table = played_table(games=60)
    user = make_user()
    services.reopen_table(table=table, reason="noch nicht fertig", user=user)
    for n in range(3, 60):
        services.record_hand(table=table, data=cego("cego", n % 4, 40), user=user)
    newest = f"Game {table.hands.order_by('-number').first().number}<"
    client = reader("en")
    url = reverse("table_history", args=[table.pk])
    first = page_text(client, url)
    assert first.count("<tr class=") == 50
    assert newest in first and "Page 1 of 2" in first
    assert 'href="?page=2"' in first
    second = page_text(client, url + "?page=2")
    assert newest not in second and "draw, seed 7" in second
    # a page number out of range or not a number shows a page, not an error
    assert "Page 2 of 2" in page_text(client, url + "?page=99")
    assert "Page 1 of 2" in page_text(client, url + "?page=x")


def test_the_correction_page_shows_the_games_history_as_on_the_sheet():
    table = played_table()
    services.reopen_table(table=table, reason="Korrektur", user=make_user())
    hand = table.hands.get(number=1)
    players = seat_names(table)
    html = page_text(reader("en"), hand.get_absolute_url())
    history = html.split("<h2>History</h2>", 1)[1]
    assert f"<del>Halbe, {players[0]}, 34 points</del>" in history
    assert "Augen falsch gezählt" in history
    assert "{" not in history and "declarer" not in history and "historical" not in history


def _queries(client: Client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_a_history_page_costs_the_same_queries_for_few_and_many_games():
    short, long = played_table(games=40), played_table(games=40)
    user = make_user()
    services.reopen_table(table=long, reason="weiter", user=user)
    for n in range(3, 30):
        services.record_hand(table=long, data=cego("cego", n % 4, 40), user=user)
    client = reader("en")
    for name, args in (("table_history", lambda t: [t.pk]), ("event_history", None)):
        urls = [
            reverse(name, args=args(t) if args else [t.round.event.slug]) for t in (short, long)
        ]
        assert _queries(client, urls[0]) == _queries(client, urls[1])
