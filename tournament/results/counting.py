"""What both statistics pages count with (a player's page, ``player_stats``; an event's,
``event_stats``): which hands are games, the result fields summed per entry, where a hand was
played, a notable hand, a contract's line of games declared and won, and each game's own
collectors.

What counts: only results that count (``Result.counts``: a voided table's round counts nothing).
A table in the paper fallback has one *totals* hand per round: it counts for points, ranks and the
spread of a table's results, but it is no game, so it counts for no game statistic (hands played,
contracts, best hand).

What each game's numbers mean lives in its plug-in package (``games/<game>/stats.py``: a
``PLAYER`` and an ``EVENT`` collector, subclasses of ``player_stats.PlayerGame`` and
``event_stats.EventGame``), named by the plug-in's ``statistics`` path; a game without one shows
the hands played only.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.utils.translation import gettext as _

from tournament.games.base import GameType
from tournament.models import Hand

# a game, as against a paper table's totals for a round
HAND = Hand.Kind.HAND
# the result fields an entry's statistics add up (its seats' sums, as the standings do)
FIELDS = ("points", "inflicted", "matches_won", "games_lost")


@dataclass(frozen=True)
class Place:
    """Where a hand was played: event, round, table and game number."""

    event: str
    round: int
    table: int
    number: int

    def __str__(self) -> str:
        return _("%(event)s, round %(round)s, table %(table)s, game %(number)s") % {
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "number": self.number,
        }


@dataclass
class NotableHand:
    """A best or worst hand: its result for the player, what was played, and where."""

    points: int
    what: str
    place: Place
    player: str = ""


@dataclass
class ContractLine:
    """One contract: how often it was declared and won, and the declarer's results."""

    key: str
    name: str
    played: int = 0
    won: int = 0
    total: int = 0
    # False for a game nobody declares (Räuber): it has no declarer's result
    declared: bool = True

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def average(self) -> float | None:
        return self.total / self.played if self.played and self.declared else None


def contract_lines(names: dict[str, str]) -> dict[str, ContractLine]:
    """An empty line per contract, keyed and ordered as ``names`` (key → the contract's name)."""
    return {key: ContractLine(key, name) for key, name in names.items()}


def declared(lines: dict[str, ContractLine]) -> list[ContractLine]:
    """The contracts declared at least once, in the game's order."""
    return [line for line in lines.values() if line.played]


def collector(game: GameType, name: str) -> Any:
    """The game's own collector class (``PLAYER`` or ``EVENT`` in the module its plug-in names
    as ``statistics``), or None: a game without one shows the hands played only."""
    if not game.statistics:
        return None
    return getattr(import_module(game.statistics), name, None)
