"""Ziege's statistics: matches and defeat points on a player's page, balls (60:60) on an
event's page. Reached by the dotted path in ``GAME.statistics``; it sits on results' floor."""

from __future__ import annotations

from typing import Any

from scoring import ziege
from tournament.games.base import GameType
from tournament.results.event_stats import EventGame, EventHand
from tournament.results.player_stats import PlayerGame, Row


class ZiegePlayer(PlayerGame):
    template = "games/ziege/player_stats.html"

    def __init__(self, game: GameType) -> None:
        super().__init__(game)
        self.matches_won = 0
        self.taken = 0
        self.dealt = 0

    def add(self, row: Row) -> None:
        super().add(row)
        self.matches_won += row.matches_won
        self.taken += row.points
        self.dealt += row.inflicted

    @property
    def difference(self) -> int:
        return self.dealt - self.taken


class ZiegeEvent(EventGame):
    template = "games/ziege/event_stats.html"

    def __init__(self, game: GameType, rules: dict[str, Any]) -> None:
        super().__init__(game, rules)
        self.balls = 0
        self.matches = 0

    def add(self, hand: EventHand) -> None:
        super().add(hand)
        # 60:60, "Kugeln": nobody is charged (RULES.md 3)
        self.balls += hand.data.get("team_a_points") == ziege.HALF

    def ended(self, *, matches: int, games: int) -> None:
        self.matches = matches


PLAYER = ZiegePlayer
EVENT = ZiegeEvent
