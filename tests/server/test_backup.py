"""The association's server's nightly backup and its restore, as docs/deployment.md has them:
deploy/backup.sh run as ``cego-backup.service`` runs it, and the restore by the documented
commands (the app servers stopped, deploy/restore.sh, the servers started).

A backup, more games entered through both app servers, the restore: both servers then show the
backup's standings, no page of the games the restore took back, and an ETag a phone got before
the restore is answered with the page, not with 304. A backup keeps its dumps private, and one
that fails ends with an error and leaves no dump.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy import stack as recipe
from tests.server.conftest import (
    EVENT,
    ROOT,
    STANDINGS,
    Browser,
    database_url,
    fresh_database,
    games_stored,
    save_a_game,
    standings,
    start,
)

pytestmark = pytest.mark.slow

ROWS = f"/turnier/{EVENT}/beamer/zeilen/"  # the projector's rows, asked for with their ETag
DOCS = ROOT / "docs" / "deployment.md"


@pytest.fixture(scope="module")
def database(stack_database) -> Iterator[str]:
    """A copy of the stack's database for this module alone: a restore replaces it."""
    import psycopg

    server = database_url()
    name = f"cego_backup_{os.getpid()}"
    url = fresh_database(server, name)
    dumped = subprocess.run(
        ["pg_dump", "--format=custom", stack_database], capture_output=True, timeout=300
    )
    assert dumped.returncode == 0, dumped.stderr
    loaded = subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", url],
        input=dumped.stdout,
        capture_output=True,
        timeout=300,
    )
    assert loaded.returncode == 0, loaded.stderr
    yield url
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def documented_restore() -> list[str]:
    """The commands of docs/deployment.md's restore, one a line."""
    blocks = re.findall(r"```sh\n(.*?)```", DOCS.read_text(), re.S)
    (block,) = [b for b in blocks if "deploy/restore.sh" in b]
    return [line.strip() for line in block.splitlines() if line.strip()]


def restore_as_documented(stack: recipe.Stack, dump: Path, work: Path) -> None:
    """The documented restore on the stack: ``systemctl stop`` and ``start`` of the app servers
    as the stack stops and starts them, and the restore's own line run as written, with the
    stack's folders, settings file and dump in place of the server's."""
    dump_line, stop, restore, begin = documented_restore()
    ports = {f"cego@{port}": mine for port, mine in zip((8001, 8002), stack.app_ports, strict=True)}
    assert dump_line.startswith("dump=/var/lib/cego-backups/cego-")
    assert stop.split() == ["systemctl", "stop", *ports]
    assert begin.split() == ["systemctl", "start", *ports]
    # the server's /etc/cego/cego.env, as the recipe writes it: deploy/cego.env with its values
    settings = work / "cego.env"
    settings.write_text("".join(f"{k}={v}\n" for k, v in stack.recipe_settings().items()))
    prefix = "cd /srv/cego && su cego -s /bin/bash -c "
    assert restore.startswith(prefix), restore
    command = restore.removeprefix(prefix)
    command = command.replace("/etc/cego/cego.env", str(settings))
    # root's environment, which su keeps: none of the app's settings but those the line reads
    environment = {k: v for k, v in stack.settings().items() if k not in stack.recipe_settings()}
    for port in stack.app_ports:
        stack.stop_app(port)
    restored = subprocess.run(
        ["bash", "-c", f"dump={dump}\ncd {ROOT} && bash -c {command}"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert restored.returncode == 0, restored.stdout + restored.stderr
    for port in stack.app_ports:
        stack.start_app(port)


def read(stack: recipe.Stack, path: str, port: int | None, etag: str = ""):
    """``path`` as a phone reads it (through nginx, or straight from one app server), with the
    ETag it holds."""
    return Browser(stack).get(path, port=port, headers={"If-None-Match": etag} if etag else {})


def test_a_restore_brings_back_the_backups_standings_on_both_servers_without_a_stale_page(
    tmp_path_factory, database, tmp_path
):
    with start(tmp_path_factory, database) as stack:
        ways = [*stack.app_ports, None]  # straight to each app server, and through nginx
        # the hall before the backup: a game, and its standings read (kept) on both servers
        save_a_game(stack, database)
        backed_up = standings(read(stack, STANDINGS, None))
        for port in ways:
            assert standings(read(stack, STANDINGS, port)) == backed_up
        etags = [read(stack, STANDINGS, None).header("ETag")]
        rows_etags = [read(stack, ROWS, None).header("ETag")]

        made = stack.backup(tmp_path / "lib")
        assert made.returncode == 0, made.stderr
        dump = Path(made.stdout.strip())
        assert dump.parent == tmp_path / "lib" / "cego-backups"
        # password hashes and sessions: the cego user's alone
        assert dump.stat().st_mode & 0o777 == 0o600
        assert dump.parent.stat().st_mode & 0o777 == 0o700

        # games after the backup, through each server, each read on both servers: pages kept
        # and ETags given of versions the restore takes back
        later = []
        for points in (35, 52, 70):
            for port in stack.app_ports:
                later.append(save_a_game(stack, database, port=port, points=points))
                for reader in ways:
                    etags.append(read(stack, STANDINGS, reader).header("ETag"))
                    rows_etags.append(read(stack, ROWS, reader).header("ETag"))
        entered = standings(read(stack, STANDINGS, None))
        assert entered != backed_up
        # as it should be before the restore: the phone holding the newest page gets 304
        assert read(stack, STANDINGS, None, etags[-1]).status == 304

        restore_as_documented(stack, dump, tmp_path)

        for port in ways:
            assert standings(read(stack, STANDINGS, port)) == backed_up
            # whatever ETag a phone or the projector kept from before the restore (of the
            # backup's moment or of the games taken back): the restored page, never 304
            for etag in etags:
                answer = read(stack, STANDINGS, port, etag)
                assert answer.status == 200, (port, etag)
                assert standings(answer) == backed_up
            for etag in rows_etags:
                assert read(stack, ROWS, port, etag).status == 200, (port, etag)
        assert games_stored(database, later) == Counter()

        # the hall carries on: a game after the restore is on both servers' standings at once
        save_a_game(stack, database, port=stack.app_ports[0])
        for port in ways:
            after = standings(read(stack, STANDINGS, port))
            changed = sorted(after[n] - backed_up[n] for n in after if after[n] != backed_up[n])
            assert changed == [-20, -20, -20, 60]


def test_a_backup_by_hand_keeps_its_dump_private_whatever_the_umask(database, tmp_path):
    folder = tmp_path / "by-hand"
    made = subprocess.run(
        ["bash", "-c", 'umask 022 && exec "$0" "$1"', ROOT / "deploy" / "backup.sh", folder],
        env={**os.environ, "DATABASE_URL": database},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    dump = Path(made.stdout.strip())
    assert dump.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700
    listed = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True)
    assert "TABLE DATA public tournament_hand " in listed.stdout


@pytest.mark.parametrize("which", ["no such database", "an empty database"])
def test_a_failed_backup_ends_with_an_error_and_leaves_no_dump(which, database, tmp_path):
    import psycopg

    server = database_url()
    url = database.rsplit("/", 1)[0] + "/cego_no_such_database"
    if which == "an empty database":
        url = fresh_database(server, f"cego_empty_{os.getpid()}")
    try:
        stack = recipe.Stack(work=tmp_path / "stack", database_url=url)
        made = stack.backup(tmp_path / "lib")
    finally:
        if which == "an empty database":
            with psycopg.connect(server, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "cego_empty_{os.getpid()}"')
    # a non-zero status: systemd marks the unit failed and starts its OnFailure= unit
    assert made.returncode != 0
    assert made.stderr.strip(), "no word on what failed"
    assert list((tmp_path / "lib" / "cego-backups").iterdir()) == []
