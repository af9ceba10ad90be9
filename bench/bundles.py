"""Event bundles, measured: ``python bench/bundles.py`` (inside .venv; the README's figures).

Builds one Cego event through the real services (144 players, two Durchgänge of 24 games at 36
tables: the largest day of the season) in a throwaway database, then times, as the median of a
few runs: writing its bundle, reading it back (checks and every game scored again), importing it
into a database without the event, and importing it a second time (nothing to change).

    .venv/bin/python bench/bundles.py                          # SQLite file in bench/out/
    .venv/bin/python bench/bundles.py --players 400
    .venv/bin/python bench/bundles.py --database postgres://user:pw@127.0.0.1:5432/scratch_db
    .venv/bin/python bench/bundles.py --players 2000 --save bench/out/2000.cego.json.gz
    .venv/bin/python bench/bundles.py --bundle bench/out/2000.cego.json.gz   # no event built

Last, the director's way through the import page, into a database without the event and its
players (every player new): the upload's preview, and the confirmation that imports.

The database given is emptied first (``flush``): never point it at one you need.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def median_seconds(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build(players: int) -> Any:
    """One Cego event played through the real services: ``players`` players, two rounds."""
    from tournament import demo
    from tournament.models import Event, Player
    from tournament.play import confirmations, rounds
    from tournament.register import services

    event = Event.objects.create(
        name="Bundle bench", slug="bundle-bench", date=datetime.date(2026, 11, 1), game="cego"
    )
    services.register_players(
        event=event,
        players=[
            Player(first_name=f"Vorname{i}", last_name=f"Nachname{i}", club=f"Club {i % 20}")
            for i in range(players)
        ],
    )
    rng = random.Random(1)
    for number in (1, 2):
        rnd = rounds.add_round(event=event)
        rounds.draw_round(round=rnd, seed=number)
        rounds.start_round(round=rnd)
        demo.play_round(rnd, rng, None)
        for table in rnd.tables.all():
            confirmations.confirm_table(table=table)
        rounds.close_round(round=rnd)
    return event


def through_the_page(data: bytes, uid: str) -> tuple[float, float]:
    """The import page's preview and confirmation of ``data``, in seconds, into a database
    without the event and its players."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from tournament.models import Event, Player

    event = Event.objects.get(uid=uid)
    players = list(event.entries.values_list("player_id", flat=True))
    event.delete()
    Player.objects.filter(pk__in=players).delete()
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    user, _created = get_user_model().objects.get_or_create(
        username="bench-director", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(user)
    url = reverse("bundle_import")
    start = time.perf_counter()
    preview = client.post(url, {"file": SimpleUploadedFile("bench.cego.json.gz", data)})
    previewed = time.perf_counter() - start
    token = re.search(rb'name="payload" value="([^"]+)"', preview.content)
    assert preview.status_code == 200 and token, "the preview shows no confirmation"
    start = time.perf_counter()
    done = client.post(url, {"payload": token.group(1).decode(), "action": "import"})
    imported = time.perf_counter() - start
    assert done.status_code == 302, "the import was refused"
    return previewed, imported


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=144, help="a multiple of 4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database", default=f"sqlite:///{ROOT}/bench/out/bundles.sqlite3")
    parser.add_argument("--save", help="keep the bundle in this file (for --bundle)")
    parser.add_argument(
        "--bundle", help="time this bundle file instead of building an event (which takes minutes)"
    )
    args = parser.parse_args()
    (ROOT / "bench" / "out").mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = args.database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.models import Event, Hand
    from tournament.publish.bundles import export, plan, read, write

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    if args.bundle:
        data = Path(args.bundle).read_bytes()
        content = read.read_bundle(data)
        write.apply_import(content)
        event = Event.objects.get(uid=content["event"]["uid"])
    else:
        event = build(args.players)
        data = export.bundle_bytes(event)
    if args.save:
        Path(args.save).write_bytes(data)
    players = event.entries.count()
    games = Hand.objects.filter(table__round__event=event).count()
    print(f"event: {players} players, {games} games; {args.database.split(':')[0]}")
    print(f"bundle: {len(data):,} bytes packed, {len(gzip.decompress(data)):,} unpacked")
    print(f"export: {median_seconds(lambda: export.bundle_bytes(event), args.runs):.2f} s")

    def read_and_plan() -> object:
        return plan.plan_import(read.read_bundle(data))

    print(f"read and score again: {median_seconds(read_and_plan, args.runs):.2f} s")

    imports = []
    for _ in range(args.runs):
        Event.objects.filter(uid=event.uid).delete()  # players stay: found by identifier
        start = time.perf_counter()
        write.apply_import(read.read_bundle(data))
        imports.append(time.perf_counter() - start)
    print(f"import (event new here): {statistics.median(imports):.2f} s")

    def again() -> None:
        assert write.apply_import(read.read_bundle(data)).unchanged

    print(f"import again (nothing to change): {median_seconds(again, args.runs):.2f} s")
    previewed, imported = through_the_page(data, str(event.uid))
    print(f"import page, every player new: preview {previewed:.2f} s, import {imported:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
