"""The history pages read like a score sheet: games as written on the sheet, seats by player name,
values and reasons in the reader's language, no internal names, and paged."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import cego, make_entries, make_event, make_player, make_round, make_user
from tests.helpers.play import ON_A_STARTED_TABLE, PREPARED, started
from tournament.models import Entry, Event, Hand, Player, Table
from tournament.play import confirmations, events, hands, rounds
from tournament.register import imports
from tournament.register import services as register_services
from tournament.results import history

pytestmark = pytest.mark.django_db

NAMES = [("Anna", "Schäuble"), ("Bernd", "Schwörer"), ("Clara", "Dold"), ("Dieter", "Kienzler")]


def played_table(games: int = 24) -> Table:
    """A table whose history has an entry, a correction with a reason, a deletion, a void and a
    restore, and a confirmation."""
    event = make_event(name="Cego-Turnier Furtwangen", hands_per_round={"4": games})
    for first, last in NAMES:
        register_services.register_player(
            event=event, player=make_player(first_name=first, last_name=last)
        )
    table = make_round(event, seed=7).tables.get()
    user = make_user()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34), user=user)
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 44), reason="Augen falsch gezählt", user=user)
    second = hands.record_hand(table=table, data=cego("solo", 1, 50), user=user)
    hands.delete_hand(hand=second, reason="doppelt eingetragen", user=user)
    hands.void_table(table=table, reason="Blatt unleserlich", user=user)
    hands.restore_table(table=table, reason="", user=user)
    confirmations.confirm_table(table=table, user=user)
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
    confirmations.reopen_table(table=table, reason="noch nicht fertig", user=user)
    for n in range(3, 60):
        hands.record_hand(table=table, data=cego("cego", n % 4, 40), user=user)
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
    confirmations.reopen_table(table=table, reason="Korrektur", user=make_user())
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
    confirmations.reopen_table(table=long, reason="weiter", user=user)
    for n in range(3, 30):
        hands.record_hand(table=long, data=cego("cego", n % 4, 40), user=user)
    client = reader("en")
    for name, args in (("table_history", lambda t: [t.pk]), ("event_history", None)):
        urls = [
            reverse(name, args=args(t) if args else [t.round.event.slug]) for t in (short, long)
        ]
        assert _queries(client, urls[0]) == _queries(client, urls[1])


# --- every service names the user who acted (issue 12) ----------------------------------------
# The actions below run outside a request, as a management command or a script does: the history
# can only name the user the service was given.


def changes_made(event: Event, act: Callable[[], Any]) -> list[Any]:
    """The entries of the event's and its players' history that ``act`` writes."""
    moment = timezone.now()
    act()
    changes = history.for_event(event)
    for entry in Entry.objects.filter(event=event).select_related("player"):
        changes += history.for_player(entry.player)
    return [c for c in changes if c.when >= moment]


@pytest.mark.parametrize("action", ON_A_STARTED_TABLE)
def test_the_history_names_the_user_who_acted(action: str):
    table = started()
    PREPARED.get(action, lambda t: None)(table)
    user = make_user("hanna", staff=False)
    made = changes_made(table.round.event, lambda: ON_A_STARTED_TABLE[action](table, user))
    assert made, "the action left no trace in the history"
    assert {(c.what, c.who) for c in made} == {(c.what, "hanna") for c in made}
    if action == "void_table lapsing a lot":  # the tie is gone with the table's results
        lots = [c for c in made if c.changes and c.changes[0][0] == "Draw by lot"]
        assert sorted(c.changes[0][2] for c in lots) == ["no lot", "no lot", "no lot"]


def _swapped(event: Event, user: Any) -> None:
    rnd = event.rounds.get()
    one, other = (t.seats.get(position=0).entry for t in rnd.tables.all())
    rounds.swap_seats(round=rnd, first=one, second=other, user=user)


def _paired(event: Event, user: Any) -> None:
    first, second = event.entries.all()[:2]
    register_services.create_pair(event=event, name="", entries=[first, second], user=user)


def _merged(event: Event, user: Any) -> None:
    keep = event.entries.first().player
    register_services.merge_players(keep=keep, remove=make_player(town="Triberg"), user=user)


BEFORE_PLAY: dict[str, Callable[[Event, Any], Any]] = {
    "draw_round": lambda e, u: rounds.draw_round(round=rounds.add_round(event=e), seed=3, user=u),
    "draw_round again": lambda e, u: rounds.draw_round(round=e.rounds.get(), seed=4, user=u),
    "swap_seats": _swapped,
    "remove_entry": lambda e, u: register_services.remove_entry(entry=e.entries.first(), user=u),
    "create_pair": _paired,
    "merge_players": _merged,
}


@pytest.mark.parametrize("action", BEFORE_PLAY)
def test_the_history_names_the_user_who_prepared_the_round(action: str):
    event = make_event("ziege")
    make_entries(event, 8)
    if action in ("draw_round again", "swap_seats"):
        make_round(event, seed=3, start=False)
    user = make_user("hanna", staff=False)
    made = changes_made(event, lambda: BEFORE_PLAY[action](event, user))
    assert made, "the action left no trace in the history"
    assert {(c.what, c.who) for c in made} == {(c.what, "hanna") for c in made}


def test_the_event_history_names_who_created_the_event():
    user = make_user("hanna", staff=False)
    event = events.create_event(
        values={"name": "Herbstturnier", "slug": "herbst", "date": "2026-11-07"}, user=user
    )
    (created,) = history.for_event(event)
    assert (created.kind, created.who, created.summary) == ("created", "hanna", "Herbstturnier")


def test_rows_written_in_bulk_without_a_user_say_who_acted_like_the_others():
    # a draw and an import write their history rows in bulk: outside a request they read
    # "system", as every row written one at a time does, not a bare dash
    event = make_event()
    make_entries(event, 4)
    make_round(event, seed=3, start=False)
    changes = history.for_event(event)
    assert {c.what.split(" ")[0] for c in changes} == {"Entry", "Seat", "Round", "Event"}
    assert {c.who for c in changes} == {"system"}


def test_the_reasons_the_tool_writes_itself_read_german_in_the_event_history():
    """An import, a removed entry, a merged player, a removed round, a draw and the finish write
    their own reason: a German director reads each in German, never the stored English."""
    event = make_event(name="Cego-Turnier Triberg", rounds_planned=1)
    rows = [["Vorname", "Nachname"], *[["Spieler", f"Nummer{n}"] for n in range(1, 9)]]
    preview = imports.read_players(event, rows)
    imports.save_players(event, preview.payload(), key=preview.key)
    mistake = register_services.register_player(event=event, player=make_player(last_name="Irrtum"))
    register_services.remove_entry(entry=mistake)
    twin = Player.objects.get(last_name="Nummer8")
    same = make_player(first_name="Spieler", last_name="Nummer8", club="CC Schonach")
    register_services.merge_players(keep=same, remove=twin)
    rounds.remove_round(round=make_round(event, seed=5, start=False))
    rnd = make_round(event, seed=7)
    for table in rnd.tables.all():
        hands.record_totals(table=table, totals=[0] * table.size)
    rounds.close_round(round=rnd)
    events.finish_event(event=event)

    html = page_text(reader("de"), reverse("event_history", args=[event.slug]))
    assert "aus einer Liste importiert" in html
    assert "entfernt: versehentlich angemeldet" in html
    assert f"zusammengeführt: Spieler {twin.pk} (Spieler Nummer8) in Spieler {same.pk}" in html
    assert "Durchgang 1 entfernt" in html
    assert "Auslosung, Startwert 7" in html
    assert "beendet" in html
    for english in ("import ", "registered by mistake", "merged:", " removed", "seed", "finished"):
        assert english not in html, english


# --- which game, and who, on the event's page --------------------------------------------------


def two_rounds_of_two_tables() -> Event:
    """Eight players, two rounds of two tables, game 1 entered at every table."""
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 8)
    for seed in (3, 4):
        rnd = make_round(event, seed=seed)
        for table in rnd.tables.all():
            hands.record_hand(table=table, data=cego("halbe", 0, 34))
        if seed == 3:
            rounds.close_round(round=rnd)
    return event


def test_the_event_history_names_the_round_and_table_of_a_corrected_game():
    # every table has a game 1: the director must see which one was corrected
    event = two_rounds_of_two_tables()
    table = event.rounds.get(number=2).tables.get(number=2)
    hands.edit_hand(hand=table.hands.get(number=1), data=cego("halbe", 0, 44), reason="verzählt")
    url = reverse("event_history", args=[event.slug])
    html = page_text(reader("en"), url)
    assert "<strong>Round 2 · Table 2 · Game 1</strong> · changed" in html
    assert "<strong>Round 1 · Table 1 · Game 1</strong> · entered" in html
    assert "<strong>Game 1</strong>" not in html
    german = page_text(reader("de"), url)
    assert "<strong>Durchgang 2 · Tisch 2 · Spiel 1</strong> · geändert" in german
    # the table's own history is one table: the game's number says which
    own = page_text(reader("en"), reverse("table_history", args=[table.pk]))
    assert "<strong>Game 1</strong> · changed" in own
    assert "Round 2 · Table 2 · Game 1" not in own


def test_the_event_history_names_the_round_of_a_voided_table():
    event = two_rounds_of_two_tables()
    table = event.rounds.get(number=2).tables.get(number=1)
    hands.void_table(table=table, reason="unleserlich")
    html = page_text(reader("en"), reverse("event_history", args=[event.slug]))
    assert "<strong>Round 2 · Table 1</strong> · changed" in html


def game_from_a_phone(language: str) -> Table:
    """Game 1 entered through the table link of table 2 by a phone set to ``language``."""
    event = make_event(hands_per_round={"4": 2})
    make_entries(event, 8)
    table = make_round(event, seed=3).tables.get(number=2)
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("table_link", args=[table.token])
    phone.get(url)  # the phone gets its id
    post = {"contract": "halbe", "declarer": "0", "declarer_points": "34", "action": "save"}
    assert phone.post(url, post).status_code == 302
    return table


def who_wrote_game_1(language: str, table: Table) -> set[str]:
    """Who the entry of game 1 names, on the event's history and on the table's."""
    found = set()
    for url in (
        reverse("event_history", args=[table.round.event.slug]),
        reverse("table_history", args=[table.pk]),
    ):
        html = page_text(reader(language), url)
        found.update(
            re.findall(
                r'<tr class="created"><td>[^<]*</td><td>([^<]*)</td> <td><strong>[^<]*'
                r"(?:Game|Spiel) 1</strong>",
                html,
            )
        )
    return found


@pytest.mark.parametrize("written_in", ["de", "en"])
def test_the_phone_that_entered_a_game_is_named_in_the_readers_language(written_in: str):
    table = game_from_a_phone(written_in)
    phone = Hand.history.get().history_actor[-6:]
    assert who_wrote_game_1("en", table) == {f"table link, table 2, phone {phone}"}
    assert who_wrote_game_1("de", table) == {f"Tisch-Link, Tisch 2, Handy {phone}"}


@pytest.mark.parametrize(
    "stored",
    [
        "Tisch-Link, Tisch 2, Handy 1be32f",  # written in German before the who was kept in English
        "table link, table 2, phone 1be32f",
    ],
)
def test_a_stored_who_of_a_table_link_reads_in_the_readers_language(stored: str):
    table = game_from_a_phone("de")
    Hand.history.update(history_actor=stored)
    assert who_wrote_game_1("en", table) == {"table link, table 2, phone 1be32f"}
    assert who_wrote_game_1("de", table) == {"Tisch-Link, Tisch 2, Handy 1be32f"}


def test_the_system_reads_in_the_readers_language_also_when_stored_in_german():
    event = make_event()
    make_entries(event, 4)
    Entry.history.update(history_actor="System")
    assert {c.who for c in history.for_event(event) if c.what.startswith("Entry")} == {"system"}


def test_an_imported_game_names_the_phone_that_entered_it_in_the_readers_language():
    # a bundle names who entered each game with no user of its own (``bundles._enterers``): a
    # table link as the other installation stored it, in German before the who was kept in English
    reason = (
        "imported from bundle a.cego.json.gz (exported 2026-10-03T20:00:00+00:00) by system; "
        "entered by Tisch-Link, Tisch 2, Handy 1be32f"
    )
    assert history.reason_text(reason) == reason.replace(
        "Tisch-Link, Tisch 2, Handy", "table link, table 2, phone"
    )
