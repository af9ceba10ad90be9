"""Crazy Solo hands for the demo season and the benchmarks: a seeded, realistic mix; the
simulator knows nothing of scoring (the real services and engine score every hand). Reached by
the dotted path in ``GAME.simulator``."""

from __future__ import annotations

import random
from typing import Any


def simulate_crazy_solo(rng: random.Random, seats: int) -> dict[str, Any]:
    contracts = ["solo", "herz_solo", "alleingang", "alleingang_herz"]
    weights = [50, 25, 15, 10] if seats > 3 else [0, 0, 60, 40]
    contract = rng.choices(contracts, weights=weights)[0]
    bidder = rng.randrange(seats)
    hand: dict[str, Any] = {
        "contract": contract,
        "bidder": bidder,
        "soloist_points": max(0, min(120, round(rng.gauss(66, 18)))),
    }
    if contract in ("solo", "herz_solo"):
        hand["partner"] = rng.choice([s for s in range(seats) if s != bidder] + [None])
    return hand


def simulate_hand(rng: random.Random, size: int, number: int) -> dict[str, Any]:
    return simulate_crazy_solo(rng, size)
