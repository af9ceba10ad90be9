"""Many phones and scorers at once: nothing lost, nothing stored twice, no silent overwrite.

Runs against the database the suite runs on: SQLite (a file, WAL, busy timeout) and, in CI, a real
PostgreSQL server (``DATABASE_URL``).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import cego, make_entries, make_event, make_round, make_table
from tests.helpers.db import THREADS, run_in_threads
from tournament.core import reading
from tournament.models import Entry, Hand, Player, Result, Table
from tournament.play import events, hands, locks, rounds
from tournament.play import imports as play_imports
from tournament.register import imports
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db(transaction=True)

HANDS_EACH = 5


def test_eight_threads_entering_hands_at_one_table_lose_nothing_and_double_nothing():
    table = make_table(hands_per_round={"4": THREADS * HANDS_EACH})

    def enter(i: int) -> None:
        for j in range(HANDS_EACH):
            # each thread's hands are recognisable by their points: 40 + thread, declarer seat j
            hands.record_hand(
                table=table,
                data=cego("cego", j % 4, 40 + i),
                submission_key=uuid.uuid4(),
            )

    assert run_in_threads(enter) == []
    played = list(Hand.objects.filter(table=table).order_by("number"))
    assert [h.number for h in played] == list(range(1, THREADS * HANDS_EACH + 1))
    per_thread = sorted(h.data["declarer_points"] for h in played)
    assert per_thread == sorted(40 + i for i in range(THREADS) for _ in range(HANDS_EACH))
    assert Result.objects.filter(table=table).count() == 4 * THREADS * HANDS_EACH
    assert sum(Result.objects.filter(table=table).values_list("points", flat=True)) == 0


def test_a_form_sent_again_by_eight_impatient_phones_is_stored_once():
    table = make_table()
    key = uuid.uuid4()

    def resend(_i: int) -> None:
        hands.record_hand(table=table, data=cego("halbe", 0, 34), submission_key=key)

    assert run_in_threads(resend) == []
    assert Hand.objects.filter(table=table).count() == 1
    assert Result.objects.filter(table=table).count() == 4


def test_eight_tables_written_at_once_each_get_their_own_hands():
    tables = [make_table() for _ in range(THREADS)]

    def enter(i: int) -> None:
        for _ in range(HANDS_EACH):
            hands.record_hand(table=tables[i], data=cego("halbe", 0, 47))

    assert run_in_threads(enter) == []
    for table in tables:
        assert Hand.objects.filter(table=table).count() == HANDS_EACH


def test_two_scorers_correcting_the_same_game_cannot_overwrite_each_other():
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    outcomes: list[str] = []

    def correct(i: int) -> None:
        try:
            hands.edit_hand(
                hand=hand,
                data=cego("halbe", 0, 47 if i == 0 else 20),
                reason=f"scorer {i}",
                version=1,
            )
            outcomes.append("saved")
        except hands.StaleEdit:
            outcomes.append("refused")

    assert run_in_threads(correct, count=2) == []
    assert sorted(outcomes) == ["refused", "saved"]
    hand.refresh_from_db()
    assert hand.version == 2


# --- imports confirmed several times at once (issue 11, findings 1 and 2) -----------------------

CONFIRMS = 4


def test_four_concurrent_confirms_of_a_player_list_register_it_once():
    """On PostgreSQL two of four confirms of a 50-row list registered it twice (100 entries), two
    more answered 500; now the event row is locked and the list is checked again inside."""
    event = make_event()
    rows = [["Vorname", "Nachname", "Verein"]] + [[f"V{i}", f"N{i}", "CC"] for i in range(50)]
    preview = imports.read_players(event, rows)
    outcomes: list[str] = []

    def confirm(_i: int) -> None:
        try:
            with translation.override("en"):  # a thread starts in the default language
                imports.save_players(event, preview.payload(), key=preview.key)
            outcomes.append("saved")
        except reading.AlreadyImported as exc:
            outcomes.append(str(exc))

    assert run_in_threads(confirm, count=CONFIRMS) == []
    assert outcomes.count("saved") == 1
    assert all("already imported: 50 players" in o for o in outcomes if o != "saved")
    numbers = sorted(Entry.objects.filter(event=event).values_list("start_number", flat=True))
    assert numbers == list(range(1, 51))
    assert Player.objects.count() == 50


def test_desks_and_an_import_registering_at_once_give_every_player_their_own_start_number():
    """The desk and the import register through one service that locks the event once per
    registration: start numbers stay unique and consecutive whoever writes first."""
    event = make_event()
    rows = [["Vorname", "Nachname", "Verein"]] + [[f"L{i}", f"Liste{i}", "CC"] for i in range(20)]
    preview = imports.read_players(event, rows)
    desk = [Player.objects.create(first_name=f"D{i}", last_name=f"Desk{i}") for i in range(5)]

    def register(i: int) -> None:
        with translation.override("en"):
            if i == 0:
                imports.save_players(event, preview.payload(), key=preview.key)
            else:
                register_services.register_player(event=event, player=desk[i - 1])

    assert run_in_threads(register, count=6) == []
    numbers = sorted(Entry.objects.filter(event=event).values_list("start_number", flat=True))
    assert numbers == list(range(1, 26))


def test_four_concurrent_confirms_of_a_result_import_store_each_game_once():
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event)
    tables = {t.number: t for t in rnd.tables.all()}
    payload = [{"table": n, "hand": cego("halbe", j % 4, 34 + j)} for n in tables for j in range(5)]
    key = uuid.uuid4().hex
    outcomes: list[str] = []

    def confirm(_i: int) -> None:
        try:
            with translation.override("en"):
                play_imports.save_results(rnd, payload, key=key)
            outcomes.append("saved")
        except reading.AlreadyImported as exc:
            outcomes.append(str(exc))

    assert run_in_threads(confirm, count=CONFIRMS) == []
    assert outcomes.count("saved") == 1
    assert all("already imported: 10 games" in o for o in outcomes if o != "saved")
    for table in tables.values():
        numbers = list(Hand.objects.filter(table=table).values_list("number", flat=True))
        assert sorted(numbers) == [1, 2, 3, 4, 5]
        assert Result.objects.filter(table=table).count() == 20


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's writers take turns for the whole transaction (tournament.sqlite)",
)


def _holding_a_game_open(table, held: threading.Event, release: threading.Event) -> None:
    """A game being stored at ``table``, held at the moment its locks are taken."""
    try:
        with transaction.atomic():
            locks.table_for_a_game(table)
            held.set()
            assert release.wait(30), "the test never let the held game go"
    finally:
        connection.close()


@contextmanager
def _a_game_held_open(table, lock_timeout: float) -> Iterator[None]:
    """While the block runs, a game at ``table`` holds its locks in another thread; this
    thread's statements wait at most ``lock_timeout`` seconds for a lock."""
    held, release = threading.Event(), threading.Event()
    other = threading.Thread(target=_holding_a_game_open, args=(table, held, release))
    other.start()
    try:
        assert held.wait(30)
        _wait_for_locks_at_most(lock_timeout)
        yield
    finally:
        release.set()
        other.join(30)
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def _wait_for_locks_at_most(seconds: float) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = '{int(seconds * 1000)}ms'")


@postgresql_only
def test_two_tables_of_one_event_store_their_games_at_the_same_moment():
    """A game waits for another table's game only while the event's version changes at the end
    of it, not for the whole of it: the hall's 36 tables post at once (issue 13)."""
    event = make_event()
    make_entries(event, 8)
    first, second = make_round(event).tables.order_by("number")
    with _a_game_held_open(first, lock_timeout=5):
        hand = hands.record_hand(table=second, data=cego("halbe", 0, 47))
    assert hand.number == 1
    assert Result.objects.filter(table=second).count() == 4


@postgresql_only
@pytest.mark.parametrize(
    "change",
    [
        lambda t: events.change_event_settings(
            event=t.round.event, values={"rules": {"win_threshold": 34}}, reason="Hausregel"
        ),
        lambda t: rounds.close_round(round=t.round),
    ],
    ids=["a rule change", "the round's close"],
)
def test_a_rule_change_or_a_round_close_waits_for_a_game_being_stored(change):
    """The game is scored under the rules it is stored with: a rule change that rescores the
    event (or the round's close) cannot cross it."""
    table = make_table(hands_per_round={"4": 1})
    with _a_game_held_open(table, lock_timeout=0.5), pytest.raises(OperationalError) as waited:
        change(table)
    assert waited.value.__cause__.sqlstate == "55P03"  # lock_not_available: it waited


@postgresql_only
def test_the_admins_change_of_an_event_waits_for_a_game_being_stored(caplog):
    """The admin's event page can change what a game is scored and counted with (games per round,
    the point value, the season): its save locks the event's row as the services do, so a plain
    UPDATE cannot cross a game that holds the row shared."""
    table = make_table(hands_per_round={"4": 1})
    event = table.round.event
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("admin", "", "pw-tests-only"))
    form = {
        "name": "Umbenannt",
        "slug": event.slug,
        "date": event.date.isoformat(),
        "table_policy": event.table_policy,
        "target_table_size": event.target_table_size,
        "hands_per_round": json.dumps({"4": 2}),
        "rounds_planned": event.rounds_planned,
        "pairing": event.pairing,
        "_save": "1",
    }
    url = reverse("admin:tournament_event_change", args=[event.pk])
    with (
        _a_game_held_open(table, lock_timeout=0.5),
        caplog.at_level(logging.ERROR, logger="tournament.middleware"),
    ):
        response = client.post(url, form)
    # the admin is answered "try again" (tournament.middleware), not with an error 500, and
    # what it met was the game's lock: lock_not_available, it waited
    assert response.status_code == 503
    (logged,) = [r for r in caplog.records if r.exc_info]
    assert isinstance(logged.exc_info[1], OperationalError)
    assert logged.exc_info[1].__cause__.sqlstate == "55P03"
    event.refresh_from_db()
    assert event.name != "Umbenannt"
    assert client.post(url, form).status_code == 302  # with no game being stored, it saves
    event.refresh_from_db()
    assert (event.name, event.hands_per_round) == ("Umbenannt", {"4": 2})


@postgresql_only
def test_a_game_and_a_service_on_another_table_of_the_round_do_not_wait_for_each_other_for_ever():
    """Every lock on a table's rows takes the round's and the event's rows first: a table voided
    (or a seat confirmed) while other tables' games are being stored waits for those games, and
    a new game at the voided table meanwhile waits for nothing the service holds. Taken the
    other way round (the table first), the game would wait for the service and the service for
    the game: PostgreSQL ends one of them with an error."""
    event = make_event()
    make_entries(event, 8)
    first, second = make_round(event).tables.order_by("number")
    voided: list[BaseException | None] = []

    def void() -> None:
        try:
            hands.void_table(table=second, reason="unleserlich")
            voided.append(None)
        except BaseException as exc:  # asserted on below
            voided.append(exc)
        finally:
            connection.close()

    voiding = threading.Thread(target=void)
    with _a_game_held_open(first, lock_timeout=5):
        voiding.start()
        _wait_until_waiting(1)  # the void waits for the game at the first table
        hands.record_hand(table=second, data=cego("halbe", 0, 47))
    voiding.join(30)
    assert voided == [None]
    assert Table.objects.get(pk=second.pk).voided


def _wait_until_waiting(count: int) -> None:
    """Until ``count`` of this database's connections wait for a lock (or 10 s)."""
    for _ in range(200):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] >= count:
                return
        time.sleep(0.05)
