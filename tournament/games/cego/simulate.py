"""Cego hands for the demo season and the benchmarks: a seeded, realistic mix; the
simulator knows nothing of scoring (the real services and engine score every hand). Reached by
the dotted path in ``GAME.simulator``."""

from __future__ import annotations

import random
from typing import Any

from tournament.games.cego import GAME

# Share of contracts in a Cego tournament (roughly what the paper lists of a Meisterschaft show).
CEGO_MIX: list[tuple[str, int]] = [
    ("cego", 34),
    ("halbe", 20),
    ("eine", 11),
    ("leere", 7),
    ("zwei_leere", 4),
    ("zwei_verschiedene", 2),
    ("geiss", 1),
    ("solo", 9),
    ("bettel", 4),
    ("piccolo", 3),
    ("ulti", 2),
    ("raeuber", 3),
]


def _pick(rng: random.Random, mix: list[tuple[str, int]]) -> str:
    return rng.choices([k for k, _w in mix], weights=[w for _k, w in mix])[0]


def simulate_cego(rng: random.Random, seats: int, sitting_out: int | None) -> dict[str, Any]:
    active = [s for s in range(seats) if s != sitting_out]
    contract = _pick(rng, CEGO_MIX)
    if contract == "raeuber":
        cuts = sorted(rng.sample(range(1, 79), len(active) - 1))
        shares = [b - a for a, b in zip([0, *cuts], [*cuts, 79], strict=True)]
        points = [0] * seats
        for seat, share in zip(active, shares, strict=True):
            points[seat] = share
        hand: dict[str, Any] = {"contract": "raeuber", "points": points}
        if rng.random() < 0.3:
            hand["announcer"] = rng.choice(active)
        return hand
    hand = {"contract": contract, "declarer": rng.choice(active)}
    if contract in ("bettel", "piccolo"):
        target = 0 if contract == "bettel" else 1
        hand["declarer_tricks"] = target if rng.random() < 0.6 else rng.choice([0, 1, 2, 3])
    elif contract == "ulti":
        hand["won"] = rng.random() < 0.5
    else:
        if rng.random() < 0.03:
            hand["declarer_took_trick"] = False
        else:
            # a bid is made with a good hand: the declarer wins a bit more often than not
            hand["declarer_points"] = max(2, min(79, round(rng.gauss(43, 9))))
        if contract != "solo" and rng.random() < 0.05:
            hand["gegensolo"] = True
    return hand


def simulate_hand(rng: random.Random, size: int, number: int) -> dict[str, Any]:
    return simulate_cego(rng, size, GAME.sitting_out(size, number))
