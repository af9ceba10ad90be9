"""Hennes Sibbe hands for the demo season and the benchmarks: a seeded, realistic mix; the
simulator knows nothing of scoring (the real services and engine score every hand). Reached by
the dotted path in ``GAME.simulator``."""

from __future__ import annotations

import random
from typing import Any


def simulate_hennes_sibbe(rng: random.Random, seats: int) -> dict[str, Any]:
    claimant = rng.randrange(seats)
    return {
        "claimant": claimant,
        "challenger": (claimant + 1) % seats,
        "claim": {
            "count": rng.randint(3, 10),
            "colour": rng.choice(["rot", "gelb", "blau", "lila"]),
        },
        "claim_correct": rng.random() < 0.5,
    }


def simulate_hand(rng: random.Random, size: int, number: int) -> dict[str, Any]:
    return simulate_hennes_sibbe(rng, size)
