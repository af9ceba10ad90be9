"""The games a tournament can be played in: a registry of plug-ins, one package per game.

A game is a package in this folder (``tournament/games/<game>/``), beside its pure rules in
``scoring/<game>.py``. The package's ``__init__.py`` is the game's core (L1): ``GAME``, a
``base.GameType`` saying what the tournament layer needs to know about the game (its engine, table
sizes, how a table's hands are replayed into per-seat results, standings figures, sheet and print
extras); it imports no form, draw, rule card or model. The game's other modules sit on the floors
of what they use, and the core names each by dotted path, so no floor below imports them:
``form.py`` its hand form (L3), ``stats.py`` its statistics collectors (L4), ``simulate.py`` the
demo's hands (L5), ``rulecard.py`` its rule card (L6); ``templates/games/<game>/`` holds its parts
of the statistics pages and of the table link's page. Beside the packages, ``base`` is what every
game says about itself and ``words`` writes hands and the engine's messages in the players' words.

The rest of the code asks the registry (``games.get(event.game)``) and never names a game. A new
game is its ``scoring`` module, one package here and one line in ``BUILT_IN``; a test registers
its own game with ``register`` and takes it out again with ``unregister`` (the made-up fifth game
in ``tests/tournament/games/wuerfelglueck/``).
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
