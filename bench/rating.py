"""The rating's and the settlement's cost at season scale: ``python bench/rating.py [events]``.

Builds a throwaway test database with a Cego season through the real services: ``events`` days
(default 13) of 144 players drawn from a pool of 200, two closed rounds of 36 tables each, every
table's round handed in as paper totals that follow a hidden strength, at 1 cent a point. Then
prints the median of several runs of: a whole recompute of the ratings, the rating page's look
when nothing changed and when an event's version moved without a closed result changing, a
144-player event settlement and the per-table settlements of one event; first the exact
settlement search by the number of players. No targets: README.md
(Rating and money games) quotes the figures.
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django

django.setup()

from django.test.utils import setup_databases, teardown_databases  # noqa: E402

SHARES = [90, 30, -30, -90]


def median_ms(work: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def build(events: int) -> None:
    from tournament.models import Event, Player
    from tournament.play import hands, rounds
    from tournament.register import services

    rng = random.Random(1)
    pool = [Player.objects.create(first_name=f"V{i}", last_name=f"N{i}") for i in range(200)]
    strength = {p.pk: rng.gauss(0, 1) for p in pool}
    for day in range(events):
        event = Event.objects.create(
            name=f"Turnier {day + 1}",
            slug=f"turnier-{day + 1}",
            date=datetime.date(2026, 11, 1) + datetime.timedelta(days=7 * day),
            game="cego",
            point_value_cents=1,
        )
        for player in rng.sample(pool, 144):
            services.register_player(event=event, player=player)
        for number in range(2):
            rnd = rounds.draw_round(round=rounds.add_round(event=event), seed=day * 10 + number)
            rnd = rounds.start_round(round=rnd)
            for table in rnd.tables.all():
                seats = list(
                    table.seats.order_by("position").values_list("entry__player_id", flat=True)
                )
                order = sorted(range(4), key=lambda i: -(strength[seats[i]] + rng.gauss(0, 1.5)))
                totals = [0] * 4
                for share, i in zip(SHARES, order, strict=True):
                    totals[i] = share
                hands.record_totals(table=table, totals=totals)
            rounds.close_round(round=rnd)


def exact_search() -> None:
    """The exact search's time by the number of players left after pairs: where
    settlement.EXACT_LIMIT stops it."""
    from tournament.money.settlement import zero_sum_groups

    for n in (8, 10, 12, 14, 16, 18):
        rng = random.Random(n)
        values = [rng.randrange(-500, 500) * 10 for _ in range(n - 1)]
        values.append(-sum(values))
        took = median_ms(lambda values=values: zero_sum_groups(values), 3)
        print(f"exact search over {n} players: {took:.0f} ms")


def main() -> None:
    exact_search()
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 13
    old = setup_databases(verbosity=0, interactive=False)
    try:
        from tournament.models import Event
        from tournament.money import settlement
        from tournament.results import rating

        start = time.perf_counter()
        build(events)
        print(f"built {events} events in {time.perf_counter() - start:.0f} s")
        players = rating.compute_ratings(game="cego")
        tables = sum(1 for _ in rating.matches("cego"))
        print(f"whole recompute, {players} players, {tables} tables: ", end="")
        print(f"{median_ms(lambda: rating.compute_ratings(game='cego'), 3):.0f} ms")
        unchanged = median_ms(lambda: rating.current("cego"))
        print(f"rating page's look, nothing changed: {unchanged:.1f} ms")

        def moved() -> None:
            Event.objects.filter(pk=event.pk).update(version=random.getrandbits(40))
            rating.current("cego")

        event = Event.objects.order_by("date").first()
        print(f"rating page's look, a version moved: {median_ms(moved):.1f} ms")
        found = settlement.event_settlement(event)
        print(
            f"event settlement, {len(found.lines)} players, {len(found.transfers)} transfers "
            f"(fewest proven: {found.fewest}): "
            f"{median_ms(lambda: settlement.event_settlement(event)):.1f} ms"
        )
        print(
            "per-table settlements of one event (72 tables): "
            f"{median_ms(lambda: settlement.tables_settlements(event)):.1f} ms"
        )
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
