"""Exact scoring for the four games (RULES.md is the binding specification).

Pure Python, no Django: plain dicts in, one integer per seat out::

    scoring.score("cego", {"contract": "halbe", "declarer": 0, "declarer_points": 34}, seats=4)
    # -> [-60, 20, 20, 20]

Every input the rules do not allow raises :class:`InvalidHand`, whose ``field`` names the key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from . import cego, crazy_solo, hennes_sibbe, ziege
from .validate import InvalidHand, Text, gettext_noop, show

__all__ = ["GAMES", "Game", "InvalidHand", "Text", "check_rules", "default_rules", "score"]


@dataclass(frozen=True)
class Game:
    key: str
    name: str
    min_seats: int
    max_seats: int
    module: ModuleType

    @property
    def score(self) -> Callable[..., list[int]]:
        return self.module.score

    def default_rules(self) -> dict[str, Any]:
        return self.module.default_rules()


GAMES: dict[str, Game] = {
    "cego": Game("cego", cego.NAME, cego.MIN_SEATS, cego.MAX_SEATS, cego),
    "ziege": Game("ziege", ziege.NAME, ziege.SEATS, ziege.SEATS, ziege),
    "crazy_solo": Game(
        "crazy_solo", crazy_solo.NAME, crazy_solo.MIN_SEATS, crazy_solo.MAX_SEATS, crazy_solo
    ),
    "hennes_sibbe": Game(
        "hennes_sibbe",
        hennes_sibbe.NAME,
        hennes_sibbe.MIN_SEATS,
        hennes_sibbe.MAX_SEATS,
        hennes_sibbe,
    ),
}


def _game(game: Any) -> Game:
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidHand(
            "game",
            gettext_noop("must be one of {options}, got {game}"),
            options=", ".join(GAMES),
            game=show(game),
        )
    return GAMES[game]


def default_rules(game: str) -> dict[str, Any]:
    """The rule settings of a game with their defaults (a fresh dict each call)."""
    return _game(game).default_rules()


def score(game: str, hand: Any, seats: int, rules: dict[str, Any] | None = None) -> list[int]:
    """The change to each seat's tally for one hand, in seat order."""
    return _game(game).score(hand, seats, rules)


def check_rules(game: str, rules: Any) -> dict[str, Any]:
    """An event's rule settings merged over the defaults; InvalidHand names a wrong setting."""
    checked = _game(game).module.check_rules(rules)
    return dict(vars(checked)) if not isinstance(checked, dict) else checked
