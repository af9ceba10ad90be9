"""Ziege hands for the demo season and the benchmarks: a seeded, realistic mix; the
simulator knows nothing of scoring (the real services and engine score every hand). Reached by
the dotted path in ``GAME.simulator``."""

from __future__ import annotations

import random
from typing import Any


def simulate_ziege(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.04:
        return {"team_a_points": 60}
    if roll < 0.08:
        return {"team_a_points": rng.choice([0, 120])}
    return {"team_a_points": max(1, min(119, round(rng.gauss(60, 22))))}


def simulate_hand(rng: random.Random, size: int, number: int) -> dict[str, Any]:
    return simulate_ziege(rng)
