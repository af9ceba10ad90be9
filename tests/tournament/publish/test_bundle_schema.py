"""The bundle's shape is the published JSON Schema (issue 44, point 2): the exporter writes what
the schema file describes, the schema's allowed values are the models', every bundle is checked
against it, and what it refuses is said in the director's words."""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from jsonschema import Draft202012Validator

from tests.factories import cego, make_event, make_round, make_season
from tournament.models import Confirmation, Entry, Event, Hand, Player, Round, Team
from tournament.play import confirmations, hands, lots
from tournament.publish import bundles
from tournament.publish.bundles import export, read, shape
from tournament.register import services as register_services

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_FILE = ROOT / "tournament" / "publish" / "bundles" / "bundle.schema.json"


def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def document(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """A bundle as the exporter writes it, with a record of every kind: an event of a season,
    teams, a round with games confirmed at one table and paper totals at the other, and a
    draw by lot. The event stays in the database: an import of it would update it, and the
    refusals below come before any import."""
    with django_db_blocker.unblock(), transaction.atomic():
        event = make_event(name="Turnier Schonach", season=make_season(slug="swm"))
        for i in range(8):
            register_services.register_player(
                event=event,
                player=Player(first_name=f"Anna{i}", last_name="Faller", club="CC Schonach"),
                team="Schonach" if i < 4 else "",
            )
        first, second = make_round(event).tables.order_by("number")
        for i in range(3):
            hands.record_hand(table=first, data=cego(declarer=i, points=30 + 10 * i))
        confirmations.confirm_table(table=first)
        hands.record_totals(table=second, totals=[10, 10, -10, -10])
        tied = list(
            Entry.objects.filter(event=event, seats__table=second).order_by("seats__position")
        )[:2]
        lots.decide_by_lot(event=event, entries=tied, seed=7)
        yield export.document(event)
        transaction.set_rollback(True)


def test_the_schema_file_is_a_json_schema_of_draft_2020_12():
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_a_freshly_exported_bundle_is_what_the_schema_file_describes(document: dict[str, Any]):
    content = document["content"]
    assert content["season"] and content["teams"] and content["lot_draws"]
    kinds = {h["kind"] for t in content["rounds"][0]["tables"] for h in t["hands"]}
    assert kinds == {Hand.Kind.HAND, Hand.Kind.TOTALS}
    # read from the file by jsonschema as anyone else would, formats included
    validator = Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
    assert [e.message for e in validator.iter_errors(document)] == []
    assert list(shape.VALIDATOR.iter_errors(document)) == []


def described(schema_part: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The properties a (sub)schema describes, following a local reference."""
    if "$ref" in schema_part:
        return described(defs[schema_part["$ref"].removeprefix("#/$defs/")], defs)
    return schema_part.get("properties", {})


def test_every_key_the_exporter_writes_is_described_in_the_schema(document: dict[str, Any]):
    """The other way round: a key added to the exporter and not to the schema (and so not to
    the documentation) fails here."""
    defs = schema()["$defs"]
    undescribed = []

    def walk(value: Any, part: dict[str, Any], path: str) -> None:
        if isinstance(value, list):
            for item in value[:1]:
                walk(item, part.get("items", {}), f"{path}[]")
        elif isinstance(value, dict) and path not in FREE:
            properties = described(part, defs)
            for key, item in value.items():
                if key not in properties:
                    undescribed.append(f"{path}.{key}")
                else:
                    walk(item, properties[key], f"{path}.{key}")

    walk(document, schema(), "")
    assert undescribed == []


# objects whose keys are the engine's or the draw's, not the bundle's
FREE = {
    ".content.event.rules",
    ".content.event.hands_per_round",
    ".content.rounds[].draw_basis",
    ".content.rounds[].tables[].hands[].data",
}


@pytest.mark.parametrize(
    ("record", "field", "choices"),
    [
        ("event", "table_policy", Event.TablePolicy.values),
        ("event", "pairing", Event.Pairing.values),
        ("event", "status", Event.Status.values),
        ("player", "category", Player.Category.values),
        ("team", "kind", Team.Kind.values),
        ("entry", "status", Entry.Status.values),
        ("entry", "source", Entry.Source.values),
        ("round", "status", Round.Status.values),
        ("hand", "kind", Hand.Kind.values),
        ("confirmation", "via", Confirmation.Via.values),
    ],
)
def test_the_schemas_allowed_values_are_the_models_choices(
    record: str, field: str, choices: list[str]
):
    assert sorted(schema()["$defs"][record]["properties"][field]["enum"]) == sorted(choices)


def sealed(doc: dict[str, Any]) -> bytes:
    doc = copy.deepcopy(doc)
    doc["sha256"] = hashlib.sha256(export.canonical(doc["content"])).hexdigest()
    return gzip.compress(json.dumps(doc).encode())


def first_table(c: dict[str, Any]) -> dict[str, Any]:
    return c["rounds"][0]["tables"][0]


DAMAGED: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("no event", lambda c: c.pop("event"), "the bundle has no “event”."),
    ("an event as text", lambda c: c.update(event="x"), "the bundle has no “event”."),
    ("an event with no date", lambda c: c["event"].pop("date"), "the event has no “date”."),
    (
        "an event's rules as a list",
        lambda c: c["event"].update(rules=[]),
        "the event has a wrong “rule settings”.",
    ),
    ("rounds as text", lambda c: c.update(rounds="1"), "the bundle has no “rounds”."),
    ("a time as text", lambda c: c.update(exported_at="today"), "has a wrong “exported at”."),
    ("a season as a list", lambda c: c.update(season=[]), "the season is not a record."),
    ("a player with no club", lambda c: c["players"][1].pop("club"), "player 2 has no “club”"),
    ("a team of a third kind", lambda c: c["teams"][0].update(kind="trio"), "team 1 has a wrong"),
    ("a start number 1.0", lambda c: c["entries"][0].update(start_number=1.0), "an entry has a"),
    (
        "a personal link of two letters",
        lambda c: c["entries"][0].update(token="ab"),
        "entry 1 has a wrong “personal link”.",
    ),
    (
        "a check-in without its offset from UTC",
        lambda c: c["entries"][0].update(present_at="2026-10-03T09:00:00"),
        "entry 1 has a wrong “checked in at”.",
    ),
    ("a round's number as text", lambda c: c["rounds"][0].update(number="1"), "a round has a"),
    (
        "a table voided as text",
        lambda c: first_table(c).update(voided="no"),
        "round 1, table 1 has a wrong “voided”.",
    ),
    (
        "a seat of text",
        lambda c: first_table(c)["seats"].__setitem__(0, "1"),
        "round 1, table 1 has a wrong list of start numbers.",
    ),
    (
        "a game's result of three figures",
        lambda c: first_table(c)["hands"][1]["results"][2].pop(),
        "round 1, table 1 has wrong results for game 2.",
    ),
    (
        "a game's result of true",
        lambda c: first_table(c)["hands"][0]["results"][0].__setitem__(0, True),
        "round 1, table 1 has wrong results for game 1.",
    ),
    (
        "a confirmation with no seat",
        lambda c: first_table(c)["confirmations"][0].pop("position"),
        "round 1, table 1 has no “seat”.",
    ),
    (
        "a draw by lot of 21 tied figures",
        lambda c: c["lot_draws"][0].update(tie=list(range(21))),
        "a draw by lot has wrong tied figures.",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("damage", "sentence"), [(d[1], d[2]) for d in DAMAGED], ids=[d[0] for d in DAMAGED]
)
def test_a_bundle_the_schema_refuses_is_refused_naming_the_record_and_the_field(
    document: dict[str, Any], damage: Callable[[dict[str, Any]], Any], sentence: str
):
    doc = copy.deepcopy(document)
    damage(doc["content"])
    with pytest.raises(bundles.BundleError) as refused:
        read.read_bundle(sealed(doc))
    assert str(refused.value).startswith("The bundle cannot be read: ")
    assert sentence in str(refused.value)


HOSTILE = [None, -1, 0, 2**70, "", "x" * 70, [], {}, True, 3.5, 1.0, "2026-13-45", "a" * 20]
