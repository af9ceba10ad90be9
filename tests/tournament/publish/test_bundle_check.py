"""Every record of a bundle is checked as the forms and the model fields would check it, with the
same answer on SQLite and PostgreSQL, before anything is written (issue 28, point 12): a crafted
bundle is refused through the web import and the command with a sentence that names the record
in the director's words, nothing is stored, and the public pages still answer."""

from __future__ import annotations

import copy
import gzip
import hashlib
import html
import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.factories import cego, make_entries, make_event, make_round, make_season, make_user
from tournament.models import Confirmation, Event, Player, Round, Team
from tournament.play import confirmations, hands
from tournament.publish.bundles import export
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db


def sealed(doc: dict[str, Any]) -> bytes:
    doc = copy.deepcopy(doc)
    doc["sha256"] = hashlib.sha256(export.canonical(doc["content"])).hexdigest()
    return gzip.compress(json.dumps(doc).encode())


def hall_event() -> dict[str, Any]:
    """The bundle of a played event of a season: a team, one table with a game confirmed on a
    phone. The event is then removed here, as on the association's server before its import."""
    event = make_event(
        name="Turnier Schonach",
        slug="schonach",
        season=make_season(slug="swm", name="Schwarzwald-Cup"),
    )
    for i in range(4):
        register_services.register_player(
            event=event,
            player=Player(first_name=f"Anna{i}", last_name="Faller", club="CC Schonach"),
            team="Schonach" if i < 2 else "",
        )
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego(points=60))
    confirmations.confirm_table(table=table)
    doc = export.document(event)
    event.delete()
    return doc


def refusal_shown(response: Any) -> str:
    """The refusal the import page shows the director, as read on the page."""
    found = re.search(r'<p class="banner error" role="alert">(.*?)</p>', response.content.decode())
    return html.unescape(found.group(1)) if found else ""


def first_table(c: dict[str, Any]) -> dict[str, Any]:
    return c["rounds"][0]["tables"][0]


def phone_confirmation(c: dict[str, Any]) -> None:
    first_table(c)["confirmations"] = [
        {
            "position": 1,
            "via": Confirmation.Via.LINK,
            "user": "",
            "device": "f" * 500,
            "confirmed_at": "2026-10-03T15:00:00+00:00",
        }
    ]


CRAFTED: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    (
        "a draw's basis that is a list",
        lambda c: c["rounds"][0].update(draw_basis=[1, 2]),
        "Round 1: The basis of the draw is not one this app writes. Nothing was imported.",
    ),
    (
        "a draw's basis with a count that is text",
        lambda c: c["rounds"][0].update(draw_basis={"count": "x"}),
        "Round 1: The basis of the draw is not one this app writes.",
    ),
    (
        "a draw's basis of 100 million players",
        lambda c: c["rounds"][0]["draw_basis"].update(count=10**8),
        "Round 1: The basis of the draw is not one this app writes.",
    ),
    (
        "a draw's basis of 10^18 players",
        lambda c: c["rounds"][0]["draw_basis"].update(count=10**18),
        "Round 1: The basis of the draw is not one this app writes.",
    ),
    (
        "a team name of 151 characters with control characters",
        lambda c: [
            t.update(name="\x1b[2J" + "x" * 147)
            for t in c["teams"]
            if [e.update(squad="\x1b[2J" + "x" * 147) for e in c["entries"] if e["squad"]]
        ],
        "The team ?[2Jxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…: Name: Remove the control character "
        "U+001B (position 1): only one line of ordinary text is allowed here. Ensure this value "
        "has at most 150 characters (it has 151). Nothing was imported.",
    ),
    (
        "a team name with a control character",
        lambda c: [
            t.update(name="Scho\x00nach")
            for t in c["teams"]
            if [e.update(squad="Scho\x00nach") for e in c["entries"] if e["squad"]]
        ],
        "The team Scho?nach: Name: Remove the control character U+0000",
    ),
    (
        "a phone identifier of 500 characters",
        phone_confirmation,
        "Round 1, table 1: Phone: Ensure this value has at most 64 characters (it has 500).",
    ),
    (
        "round number 30000",
        lambda c: c["rounds"][0].update(number=30000),
        "Round 30000: A round has the number 1 to 99. Nothing was imported.",
    ),
    (
        "a season counting the best 10^12 results",
        lambda c: c["season"].update(best_of=10**12),
        "The season Schwarzwald-Cup: “best results counted” must be 0 to 32767",
    ),
    (
        "a player's club of 151 characters",
        lambda c: c["players"][2].update(club="C" * 151),
        "Player 3 (Anna2 Faller): Club: Ensure this value has at most 150 characters",
    ),
    (
        "a start number of 3 billion",
        lambda c: c["entries"][0].update(start_number=3 * 10**9),
        "“start number” must be 0 to 2147483647, not 3000000000.",
    ),
    (
        "a game number of 20000",
        lambda c: first_table(c)["hands"][0].update(number=20000),
        "Round 1, table 1, game 20000: “number” must be 1 to 10000, not 20000.",
    ),
    (
        "a dealer at seat 7 of a table of four",
        lambda c: first_table(c)["hands"][0].update(dealer=7),
        "“dealer” must be 0 to 3, not 7.",
    ),
    (
        "a table of two at Cego",
        lambda c: first_table(c).update(size=2, seats=first_table(c)["seats"][:2]),
        "Round 1, table 1: Cego is not played at a table of 2.",
    ),
    (
        "an event name with a line break",
        lambda c: c["event"].update(name="Turnier\nSchonach"),
        "Remove the control character U+000A",
    ),
]


@pytest.mark.parametrize(
    ("crafted", "sentence"), [(c[1], c[2]) for c in CRAFTED], ids=[c[0] for c in CRAFTED]
)
def test_a_crafted_bundle_is_refused_by_the_web_import_and_the_command_naming_the_record(
    client: Client, tmp_path: Path, crafted: Callable[[dict[str, Any]], Any], sentence: str
):
    doc = hall_event()
    crafted(doc["content"])
    data = sealed(doc)
    players, teams = Player.objects.count(), Team.objects.count()
    client.force_login(make_user())

    upload = io.BytesIO(data)
    upload.name = "schonach.cego.json.gz"
    response = client.post("/turnier/import/", {"file": upload})
    assert response.status_code == 200
    assert sentence in refusal_shown(response)

    path = tmp_path / "schonach.cego.json.gz"
    path.write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command("import_event", str(path), stdout=io.StringIO())
    assert sentence in str(refused.value)

    assert not Event.objects.exists()
    assert (Player.objects.count(), Team.objects.count()) == (players, teams)
    assert client.get("/").status_code == 200


def test_the_bundle_of_a_played_event_still_imports(client: Client):
    doc = hall_event()
    client.force_login(make_user())
    upload = io.BytesIO(sealed(doc))
    upload.name = "schonach.cego.json.gz"
    response = client.post("/turnier/import/", {"file": upload})
    assert "New event Turnier Schonach" in response.content.decode()


@pytest.mark.parametrize(
    "basis",
    [
        [1, 2],
        {"count": "x"},
        {"count": 0, "game": "cego", "policy": "exact", "target": 4},
        {"count": 3, "game": "cego", "policy": "exact", "target": 4},
        {"count": 10**8, "game": "cego", "policy": "exact", "target": 4},
        {"count": 6, "pairs": "yes"},
        "text",
    ],
    ids=["list", "count-text", "no-players", "too-few", "100-million", "pairs-text", "text"],
)
def test_the_seating_page_answers_for_a_bad_basis_of_the_draw_already_stored(
    client: Client, basis: Any
):
    event = make_event(slug="furtwangen")
    make_entries(event, 8)
    make_round(event)
    Round.objects.filter(event=event).update(draw_basis=basis)
    start = time.perf_counter()
    response = client.get("/turnier/furtwangen/durchgang/1/")
    assert response.status_code == 200
    assert time.perf_counter() - start < 1
    page = response.content.decode()
    assert "Table sizes:" not in page
    assert "Table 2" in page  # the seating itself is shown


def test_the_seating_page_still_explains_the_draw(client: Client):
    event = make_event(slug="triberg")
    make_entries(event, 8)
    make_round(event)
    page = client.get("/turnier/triberg/durchgang/1/").content.decode()
    assert "Table sizes:" in page and "8 players fill 2 tables of four." in page
