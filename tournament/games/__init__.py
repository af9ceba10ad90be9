"""The games a tournament can be played in, each a plug-in in this folder.

A game's module (``tournament/games/<game>.py``) holds everything the tournament layer needs to know
about it: its rules engine (the pure ``scoring.<game>``), hand form, table sizes, how a table's
hands are replayed into per-seat results, standings figures, sheet and print extras, and rule card.
The rest of the code asks the registry (``games.get(event.game)``) and never names a game.

A new game is one module here and one line in ``BUILT_IN``; a test registers its own game with
``register`` and takes it out again with ``unregister``.
"""

from __future__ import annotations

import threading
from importlib import import_module

from tournament.games.base import GameType

# the games this installation offers, in the order the forms list them (the first is the default)
BUILT_IN = (
    "tournament.games.cego",
    "tournament.games.ziege",
    "tournament.games.crazy_solo",
    "tournament.games.hennes_sibbe",
)

_registry: dict[str, GameType] = {}
_loaded = False
_loading = threading.Lock()


def load() -> None:
    """Import the built-in games once. Under a lock, and marked loaded only when every game is
    in: the first requests of a threaded server arrive together, and none may find an empty
    registry (the app loads them at start-up too, ``TournamentConfig.ready``)."""
    global _loaded
    if _loaded:
        return
    with _loading:
        if _loaded:
            return
        for path in BUILT_IN:
            game = import_module(path).GAME
            _registry.setdefault(game.key, game)
        _loaded = True


def register(game: GameType) -> GameType:
    """Offer ``game`` (its ``key`` is what ``Event.game`` stores)."""
    load()
    _registry[game.key] = game
    return game


def unregister(key: str) -> None:
    _registry.pop(key, None)


def get(key: str) -> GameType:
    """The game stored as ``key``; KeyError for a game this installation does not offer."""
    load()
    return _registry[key]


def find(key: str) -> GameType | None:
    load()
    return _registry.get(key)


def all_games() -> list[GameType]:
    load()
    return list(_registry.values())


def choices() -> list[tuple[str, str]]:
    """``Event.game`` and ``Season.game`` choices: every registered game (a callable, so that a
    game added later needs no migration)."""
    return [(game.key, game.name) for game in all_games()]


def default() -> str:
    """The game a new event or season starts with: the first one offered."""
    load()
    return next(iter(_registry))


def seat_params() -> frozenset[str]:
    """The parameters of the games' engine messages that name a seat ("seat {declarer} sits out"):
    the forms show them counted from 1 with the player's name."""
    return frozenset().union(*(game.seat_params for game in all_games()))
