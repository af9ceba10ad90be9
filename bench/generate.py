"""Championship-sized data for the benchmarks, built through the real services and engine.

Every hand goes through ``hands.record_hand`` (so the engine scores it and the result cache is
written as in a real event), every round through ``draw_round``. Nothing is inserted raw.

- ``big``: a Cego event of 1,000 players, two Durchgänge of 24 games (12,000 hands);
- ``season``: 14 events of 200 players, one Durchgang of 24 games each (16,800 hands);
- ``bench-248`` and ``bench-500``: the same shape as ``big`` at a quarter and a half of its size,
  to see how cost grows.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable

from django.db import transaction

from tournament.games.cego.simulate import simulate_cego
from tournament.models import Entry, Event, Player, Round, Season
from tournament.play import hands, rounds, sheets
from tournament.register import services as register_services

BIG = "bench-1000"
SEASON = "bench-season"
SIZES = {248: "bench-248", 500: "bench-500", 1000: BIG}


def _players(count: int, prefix: str) -> list[Player]:
    people = [
        Player(first_name=f"Vorname{i}", last_name=f"{prefix}{i:05d}", club=f"Verein {i % 60}")
        for i in range(count)
    ]
    return Player.objects.bulk_create(people)


def _event(slug: str, name: str, players: list[Player], season: Season | None = None) -> Event:
    event = Event.objects.create(
        name=name,
        slug=slug,
        date=datetime.date(2026, 10, 3),
        game="cego",
        season=season,
    )
    # registration as at the desk, one player after the other
    for player in players:
        register_services.register_player(event=event, player=player)
    return event


def play_round(event: Event, rng: random.Random, seed: int, close: bool = True) -> Round:
    rnd = rounds.add_round(event=event)
    rounds.draw_round(round=rnd, seed=seed)
    rounds.start_round(round=rnd)
    for table in rnd.tables.select_related("round__event"):
        for number in range(1, 25):
            sitting_out = sheets.dealer_for(number, table.size) if table.size == 5 else None
            hands.record_hand(table=table, data=simulate_cego(rng, table.size, sitting_out))
    if close:
        rounds.close_round(round=rnd)
    return rnd


def build_event(slug: str, players: int, rounds: int, log: Callable[[str], None]) -> Event:
    rng = random.Random(players)
    start = time.perf_counter()
    with transaction.atomic():
        event = _event(slug, f"Benchmark {players}", _players(players, slug))
    for number in range(1, rounds + 1):
        play_round(event, rng, seed=number)
    hands = rounds * players // 4 * 24
    log(f"built {slug}: {players} players, {hands} hands in {time.perf_counter() - start:.0f} s")
    return event


def build_season(events: int, players: int, log: Callable[[str], None]) -> Season:
    start = time.perf_counter()
    season = Season.objects.create(name="Benchmark-Saison", slug=SEASON)
    people = _players(players, SEASON)
    rng = random.Random(14)
    for n in range(events):
        event = _event(f"{SEASON}-{n + 1}", f"Saison-Turnier {n + 1}", people, season)
        play_round(event, rng, seed=n + 1)
    log(
        f"built {SEASON}: {events} events of {players} players, "
        f"{events * players // 4 * 24} hands in {time.perf_counter() - start:.0f} s"
    )
    return season


def ensure(log: Callable[[str], None]) -> None:
    """Build what is missing (a later run reuses the database)."""
    for players, slug in SIZES.items():
        if not Event.objects.filter(slug=slug).exists():
            build_event(slug, players, rounds=2, log=log)
    if not Season.objects.filter(slug=SEASON).exists():
        build_season(events=14, players=200, log=log)
    log(f"data: {Entry.objects.count()} entries, {Round.objects.count()} rounds")
