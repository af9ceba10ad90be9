"""Event bundles: an event moves between installations as one file (issue 15).

The round trip takes the demo season out of one database and into an empty one through the
commands, and compares what a director and the newspapers read: season standings, every event's
standings and the Excel workbooks, cell by cell.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from tests.factories import cego, make_entries, make_event, make_role, make_round, make_user
from tests.helpers.results import event_standings, what_a_reader_sees
from tournament import demo
from tournament.core import errors
from tournament.models import Entry, Event, Hand, Player, Result
from tournament.play import confirmations, hands, lots, rounds
from tournament.publish import bundles
from tournament.publish.bundles import export, read, write
from tournament.publish.bundles import plan as bundles_plan
from tournament.register import services as register_services

# --- helpers ----------------------------------------------------------------------------------


def played_event(hand_count: int = 3, **kwargs: Any) -> Event:
    """A Cego event of four players with ``hand_count`` games at its one table."""
    event = make_event(**kwargs)
    make_entries(event, 4)
    table = make_round(event).tables.get()
    for i in range(hand_count):
        hands.record_hand(table=table, data=cego(declarer=i % 4, points=(30 + 5 * i) % 80))
    return event


def packed(doc: dict[str, Any]) -> bytes:
    return gzip.compress(json.dumps(doc).encode())


def resealed(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with its checksum made to fit its (changed) content again."""
    doc = copy.deepcopy(doc)
    doc["sha256"] = hashlib.sha256(export.canonical(doc["content"])).hexdigest()
    return doc


def run(*args: Any) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# --- the round trip ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_the_demo_season_moves_into_an_empty_database_through_bundles_unchanged(tmp_path: Path):
    demo.load_demo()
    before = what_a_reader_sees()
    files = []
    for slug in demo.DEMO_EVENTS:
        files.append(tmp_path / f"{slug}{bundles.SUFFIX}")
        run("export_event", slug, "--output", str(files[-1]))

    call_command("flush", interactive=False)
    assert not Event.objects.exists() and not Player.objects.exists()
    for path in files:
        assert "Imported" in run("import_event", str(path))

    after = what_a_reader_sees()
    assert after == before
    assert len(after["season"]) > 30  # the comparison compared something

    # everything a second time: nothing changes, nothing is written
    hands_history = Hand.history.count()
    results = list(Result.objects.order_by("pk").values_list("pk", "points"))
    for path in files:
        assert "Nothing to import: this bundle is imported already." in run(
            "import_event", str(path)
        )
    assert Hand.history.count() == hands_history
    assert list(Result.objects.order_by("pk").values_list("pk", "points")) == results
    assert what_a_reader_sees() == before


HALL_LAPTOP = """
import json, django
django.setup()
from django.core.management import call_command
from django.utils import translation
from tournament import demo
from tests.helpers.results import what_a_reader_sees
call_command("migrate", verbosity=0)
demo.load_demo()
for slug in demo.DEMO_EVENTS:
    call_command("export_event", slug, output=f"{OUT}/{slug}.cego.json.gz", verbosity=0)
translation.activate("en")
print(json.dumps(what_a_reader_sees(), default=str))
"""


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
@pytest.mark.django_db
def test_bundles_from_a_laptop_with_sqlite_import_into_postgresql_unchanged(tmp_path: Path):
    """The hall's laptop runs SQLite, the association's server PostgreSQL (issue 15)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/hall.sqlite3",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
    }
    hall = subprocess.run(
        [sys.executable, "-c", f"OUT = {str(tmp_path)!r}\n" + HALL_LAPTOP],
        env=env,
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    seen_in_the_hall = json.loads(hall.stdout.strip().splitlines()[-1])
    for slug in demo.DEMO_EVENTS:
        run("import_event", str(tmp_path / f"{slug}.cego.json.gz"))
    assert json.loads(json.dumps(what_a_reader_sees(), default=str)) == seen_in_the_hall


@pytest.mark.django_db
def test_an_imported_game_keeps_its_times_and_says_in_its_history_where_it_came_from():
    event = played_event(hand_count=1)
    hand = Hand.objects.get(table__round__event=event)
    data = export.bundle_bytes(event)
    uid = event.uid
    event.delete()

    director = make_user("verband")
    write.apply_import(read.read_bundle(data), user=director, source="furtwangen.gz")

    imported = Hand.objects.get(table__round__event__uid=uid)
    assert (imported.entered_at, imported.updated_at) == (hand.entered_at, hand.updated_at)
    record = imported.history.get()
    assert record.history_user == director
    assert record.history_change_reason.startswith("imported from bundle furtwangen.gz")
    assert ") by verband" in record.history_change_reason


@pytest.mark.django_db
def test_the_bundle_keeps_no_table_link_and_the_importer_makes_new_ones():
    event = played_event(hand_count=1)
    token = event.rounds.get().tables.get().token
    data = export.bundle_bytes(event)
    assert token.encode() not in gzip.decompress(data)
    uid = event.uid
    event.delete()
    write.apply_import(read.read_bundle(data))
    new_token = Event.objects.get(uid=uid).rounds.get().tables.get().token
    assert new_token and new_token != token


def without_export_time(content: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in content.items() if k != "exported_at"}


@pytest.mark.django_db
def test_teams_withdrawals_totals_voided_tables_confirmations_and_lots_survive_the_trip():
    director = make_user()
    event = make_event(name="Turnier Gütenbach")
    for i in range(8):
        register_services.register_player(
            event=event,
            player=Player(first_name=f"Anna{i}", last_name="Faller", club="CC Gütenbach"),
            team="Gütenbach" if i < 4 else "",
        )
    first, second = make_round(event).tables.order_by("number")
    hands.record_hand(table=first, data=cego(points=60), user=director)
    hands.record_hand(table=first, data=cego(declarer=2, points=20), user=director)
    confirmations.confirm_table(table=first, user=director)
    hands.record_totals(table=second, totals=[30, -10, -10, -10], user=director)
    hands.void_table(table=second, reason="sheet lost", user=director)
    tied = list(Entry.objects.filter(seats__table=second).order_by("start_number")[:2])
    lots.decide_by_lot(event=event, entries=tied, user=director, seed=7)
    register_services.withdraw_entry(entry=tied[0], user=director)
    before = without_export_time(export.event_content(event))
    standings_before = event_standings(event)
    data = export.bundle_bytes(event)
    event.delete()

    write.apply_import(read.read_bundle(data), user=director)

    imported = Event.objects.get(uid=before["event"]["uid"])
    assert without_export_time(export.event_content(imported)) == before
    assert event_standings(imported) == standings_before
    assert before["lot_draws"] and before["teams"] and before["rounds"][0]["tables"][1]["voided"]


# --- a newer export of the same event ---------------------------------------------------------


@pytest.mark.django_db
def test_a_newer_export_shows_the_games_added_and_changed_then_updates_the_event():
    event = played_event(hand_count=2)
    first = read.read_bundle(export.bundle_bytes(event))
    table = event.rounds.get().tables.get()
    hands.record_hand(table=table, data=cego(declarer=1, points=60))
    hands.edit_hand(
        hand=table.hands.get(number=1), data=cego(declarer=0, points=70), reason="misread"
    )
    second = read.read_bundle(export.bundle_bytes(event))
    expected = event_standings(event)
    event.delete()

    write.apply_import(first)
    plan = bundles_plan.plan_import(second)
    assert plan.changes is not None
    assert plan.changes.games_added == ["R1 T1 G3"]
    assert plan.changes.games_changed == ["R1 T1 G1"]
    assert plan.changes.games_removed == []
    assert any("1 game added: R1 T1 G3" in line for line in plan.summary())

    write.apply_import(second)
    updated = Event.objects.get(uid=first["event"]["uid"])
    assert event_standings(updated) == expected
    assert bundles_plan.plan_import(second).unchanged


@pytest.mark.django_db
def test_a_second_import_of_the_same_bundle_writes_nothing():
    event = played_event(hand_count=2)
    content = read.read_bundle(export.bundle_bytes(event))
    history = Hand.history.count()
    plan = write.apply_import(content)
    assert plan.unchanged
    assert Hand.history.count() == history


# --- refusals ---------------------------------------------------------------------------------


@pytest.fixture
def document(db: Any) -> dict[str, Any]:
    return export.document(played_event(hand_count=3, name="Turnier Furtwangen"))


def test_a_bundle_changed_after_export_is_refused(document: dict[str, Any]):
    document["content"]["rounds"][0]["tables"][0]["hands"][0]["data"]["declarer_points"] = 79
    with pytest.raises(bundles.BundleError, match="changed after export"):
        read.read_bundle(packed(document))


def test_a_truncated_bundle_is_refused_as_incomplete(document: dict[str, Any]):
    data = packed(document)
    with pytest.raises(bundles.BundleError, match="incomplete"):
        read.read_bundle(data[: len(data) // 2])
    plain = json.dumps(document).encode()
    with pytest.raises(bundles.BundleError, match="incomplete"):
        read.read_bundle(plain[: len(plain) - 40])


def test_a_bundle_of_a_newer_format_is_refused_with_update_first(document: dict[str, Any]):
    document["version"] = bundles.VERSION + 1
    document["content"]["something_new"] = True
    with pytest.raises(bundles.BundleError, match=r"newer version of the app.*update"):
        read.read_bundle(packed(document))


def test_a_file_that_is_no_bundle_is_refused(db: Any):
    hostile = (
        b"PK\x03\x04 an excel file",
        b'{"format": "other"}',
        b"\x00\xff" * 20,
        b"[" * 100_000,
        b'{"format": "cego-event-bundle", "version": 1, "sha256": "", "content": {"a": NaN}}',
        b'{"format": "cego-event-bundle", "version": 1, "n": ' + b"9" * 5000 + b"}",
    )
    for data in hostile:
        with pytest.raises(bundles.BundleError, match="not an event bundle"):
            read.read_bundle(data)


def test_a_bundle_whose_results_disagree_is_refused_naming_the_game(
    document: dict[str, Any],
):
    hand = document["content"]["rounds"][0]["tables"][0]["hands"][1]
    hand["results"][0][0] += 10
    content = read.read_bundle(packed(resealed(document)))
    with pytest.raises(bundles.BundleError) as refused:
        bundles_plan.plan_import(content)
    message = str(refused.value)
    assert "Turnier Furtwangen, round 1, table 1, game 2" in message
    assert "nothing was imported" in message


def test_a_damaged_record_is_refused_with_what_is_wrong(document: dict[str, Any]):
    del document["content"]["rounds"][0]["tables"][0]["hands"][0]["kind"]
    with pytest.raises(bundles.BundleError, match="round 1, table 1 has no “kind”"):
        read.read_bundle(packed(resealed(document)))


def test_a_refused_import_writes_nothing(document: dict[str, Any]):
    Event.objects.filter(uid=document["content"]["event"]["uid"]).delete()
    players = Player.objects.count()
    document["content"]["rounds"][0]["tables"][0]["hands"][2]["results"][3][0] = 999
    content = read.read_bundle(packed(resealed(document)))
    with pytest.raises(bundles.BundleError, match="game 3"):
        write.apply_import(content)
    assert not Event.objects.filter(uid=document["content"]["event"]["uid"]).exists()
    assert Player.objects.count() == players


@pytest.mark.django_db
def test_an_event_with_the_same_short_name_but_another_identity_is_not_overwritten():
    event = played_event(hand_count=1, slug="furtwangen")
    content = read.read_bundle(export.bundle_bytes(event))
    Event.objects.filter(pk=event.pk).update(uid="00000000-0000-4000-8000-000000000001")
    with pytest.raises(bundles.BundleError, match="another event with the short name furtwangen"):
        bundles_plan.plan_import(content)


# --- the commands -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_dry_run_shows_the_plan_and_saves_nothing(tmp_path: Path):
    event = played_event(hand_count=2, name="Turnier Triberg")
    path = tmp_path / "triberg.gz"
    run("export_event", event.slug, "-o", str(path))
    event.delete()
    out = run("import_event", str(path), "--dry-run")
    assert "New event Turnier Triberg: 4 entries, 1 round, 1 table, 2 games." in out
    assert "Dry run: nothing saved." in out
    assert not Event.objects.filter(name="Turnier Triberg").exists()


@pytest.mark.django_db
def test_the_command_refuses_a_changed_file_with_the_reason(tmp_path: Path):
    doc = export.document(played_event(hand_count=1))
    doc["content"]["event"]["name"] = "Anders"
    path = tmp_path / "changed.gz"
    path.write_bytes(packed(doc))
    with pytest.raises(CommandError, match="changed after export"):
        run("import_event", str(path))


# --- the pages --------------------------------------------------------------------------------


@pytest.fixture
def director(client: Client) -> Client:
    client.force_login(make_user())
    return client


def upload(client: Client, data: bytes, name: str = "event.cego.json.gz") -> Any:
    file = io.BytesIO(data)
    file.name = name
    return client.post("/turnier/import/", {"file": file})


@pytest.mark.django_db
def test_the_upload_page_previews_the_bundle_and_imports_it_on_confirm(director: Client):
    event = played_event(hand_count=2, name="Turnier Schonach")
    data = export.bundle_bytes(event)
    uid = event.uid
    event.delete()

    response = upload(director, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "New event Turnier Schonach: 4 entries" in page
    assert not Event.objects.filter(uid=uid).exists()

    payload = response.context["payload"]
    response = director.post("/turnier/import/", {"payload": payload, "action": "import"})
    imported = Event.objects.get(uid=uid)
    assert response.status_code == 302 and response["Location"] == imported.get_absolute_url()
    assert Hand.objects.filter(table__round__event=imported).count() == 2

    response = director.post("/turnier/import/", {"payload": payload, "action": "import"})
    assert response.status_code == 302
    followed = director.get(response["Location"]).content.decode()
    assert "Nothing to import: this bundle is imported already." in followed


@pytest.mark.django_db
def test_a_bad_file_on_the_upload_page_gives_a_message_not_an_error(director: Client):
    response = upload(director, b"just some text")
    assert response.status_code == 200
    assert "This file is not an event bundle." in response.content.decode()
    event = played_event(hand_count=1)
    data = export.bundle_bytes(event)
    response = upload(director, data[:100])
    assert response.status_code == 200
    assert "incomplete" in response.content.decode()


@pytest.mark.django_db
def test_a_tampered_preview_imports_nothing(director: Client):
    response = director.post("/turnier/import/", {"payload": "forged", "action": "import"})
    assert response.status_code == 302
    followed = director.get(response["Location"]).content.decode()
    assert "The preview has expired; upload the file again." in followed


@pytest.mark.django_db
def test_only_directors_may_import_and_only_organisers_download(client: Client):
    event = played_event(hand_count=1)
    assert client.get("/turnier/import/").status_code == 302  # to the login
    scorer = make_role(event, "scorer")
    client.force_login(scorer)
    assert client.get("/turnier/import/").status_code == 403
    assert client.get(f"/turnier/{event.slug}/paket/").status_code == 403
    client.force_login(make_role(event, "organiser"))
    response = client.get(f"/turnier/{event.slug}/paket/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{event.slug}.cego.json.gz"'
    assert read.read_bundle(response.content)["event"]["uid"] == str(event.uid)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda c: c["entries"].append(dict(c["entries"][0])), "has the start number 1 twice"),
        (lambda c: c["rounds"][0]["tables"][0]["seats"].pop(), "has not one player for each seat"),
        (lambda c: c["rounds"][0]["tables"][0].update(size=99), "has not one player for each"),
        (lambda c: c["event"].update(game="skat"), "of a game this installation does not know"),
        (lambda c: c["entries"][0].update(player="nobody"), "entry 1 has a wrong “player”"),
    ],
)
def test_a_bundle_that_does_not_hold_together_is_refused_with_what_is_wrong(
    document: dict[str, Any], damage: Any, message: str
):
    damage(document["content"])
    with pytest.raises(bundles.BundleError, match=message):
        read.read_bundle(packed(resealed(document)))


def test_a_game_the_engine_refuses_is_named(document: dict[str, Any]):
    hand = document["content"]["rounds"][0]["tables"][0]["hands"][2]
    hand["data"]["declarer_points"] = 80
    content = read.read_bundle(packed(resealed(document)))
    with pytest.raises(bundles.BundleError, match="round 1, table 1, game 3 is not valid here"):
        bundles_plan.plan_import(content)


@pytest.mark.django_db
def test_a_round_drawn_again_in_the_hall_gets_the_new_seats():
    event = make_event()
    make_entries(event, 8)
    rnd = make_round(event, seed=1, start=False)
    first = read.read_bundle(export.bundle_bytes(event))
    rounds.draw_round(round=rnd, seed=2)
    second = read.read_bundle(export.bundle_bytes(event))
    assert first["rounds"][0]["tables"] != second["rounds"][0]["tables"]
    event.delete()

    write.apply_import(first)
    plan = bundles_plan.plan_import(second)
    assert plan.changes is not None and plan.changes.rounds_redrawn == [1]
    write.apply_import(second)
    imported = Event.objects.get(uid=second["event"]["uid"])
    assert without_export_time(export.event_content(imported)) == without_export_time(second)


@pytest.mark.django_db
def test_an_export_costs_twelve_queries_however_large_the_event(django_assert_num_queries: Any):
    small = played_event(hand_count=1)
    large = played_event(hand_count=12)
    make_entries(large, 4)
    for event in (small, large):
        # the event and season, entries with players and teams, the players' consents, seats,
        # results, hands with their users, who entered the games without a user (their
        # history), confirmations, tables, teams, rounds, draws by lot
        with django_assert_num_queries(12):
            export.event_content(event)


@pytest.mark.django_db
def test_who_entered_a_game_travels_on_where_that_user_does_not_exist():
    event = played_event(hand_count=0)
    table = event.rounds.get().tables.get()
    hands.record_hand(table=table, data=cego(points=50), user=make_user("hallenleitung"))
    data = export.bundle_bytes(event)
    event.delete()
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="hallenleitung").delete()
    write.apply_import(read.read_bundle(data), user=make_user("verband"))
    imported = Event.objects.get(uid=read.read_bundle(data)["event"]["uid"])
    assert Hand.objects.get(table__round__event=imported).entered_by is None
    again = export.event_content(imported)
    assert again["rounds"][0]["tables"][0]["hands"][0]["entered_by"] == "hallenleitung"


def test_the_history_shows_the_import_in_the_readers_language():
    from django.utils import translation

    from tournament.results.history import reason_text

    reason = "imported from bundle a.cego.json.gz (exported 2026-10-03T20:00:00+00:00) by leitung"
    with translation.override("de"):
        assert reason_text(reason + "; entered by hans") == (
            "importiert aus Paket a.cego.json.gz (exportiert 2026-10-03T20:00:00+00:00) von "
            "leitung; eingetragen von hans"
        )
    assert reason_text(reason) == reason


@pytest.mark.django_db
def test_an_older_bundle_after_a_newer_one_is_shown_as_taking_games_back_with_a_warning():
    event = played_event(hand_count=2)
    older = read.read_bundle(export.bundle_bytes(event))
    hands.record_hand(table=event.rounds.get().tables.get(), data=cego(points=50))
    newer = read.read_bundle(export.bundle_bytes(event))
    event.delete()
    write.apply_import(newer)

    plan = bundles_plan.plan_import(older)
    assert plan.changes is not None and plan.changes.games_removed == ["R1 T1 G3"]
    assert any(line.startswith("Careful: a game here was changed at") for line in plan.summary())
    assert not any("Careful" in line for line in bundles_plan.plan_import(newer).summary())


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in leaves(item, (*path, key))] or [path]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in leaves(item, (*path, i))] or [path]
    return [path]


HOSTILE = [None, -1, 0, 2**70, "", "x" * 400, "<script>", [], {}, True, 3.5, "2026-13-45"]


@pytest.mark.django_db
def test_no_changed_value_anywhere_in_a_bundle_gives_anything_but_a_refusal_or_an_import():
    """A file that someone edited and sealed again (or another program wrote): every record the
    app reads is checked, so any value anywhere either imports or is refused with a message.
    ``BUNDLE_FUZZ=1500`` tries more changes (1,500 passed on SQLite and PostgreSQL)."""
    import random

    from django.db import transaction

    event = played_event(hand_count=3)
    confirmations.confirm_table(table=event.rounds.get().tables.get())
    original = export.document(event)
    event.delete()
    paths = leaves(original["content"])
    rng = random.Random(15)
    outcomes = {"refused": 0, "imported": 0}
    for _ in range(int(os.environ.get("BUNDLE_FUZZ", "150"))):
        doc = copy.deepcopy(original)
        *parents, last = rng.choice(paths)
        target = doc["content"]
        for key in parents:
            target = target[key]
        target[last] = rng.choice(HOSTILE)
        try:
            with transaction.atomic():
                write.apply_import(read.read_bundle(packed(resealed(doc))))
                transaction.set_rollback(True)
        except errors.Refused:
            outcomes["refused"] += 1
        else:
            outcomes["imported"] += 1
    assert outcomes["refused"] > 50  # the test hit the checks, and got through them too
    assert outcomes["imported"] > 5
