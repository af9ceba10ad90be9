"""Hennes Sibbe's statistics: games lost, penalty cards, challenges. Reached by the dotted path in
``GAME.statistics``; it sits on results' floor."""

from __future__ import annotations

from typing import Any

from tournament.games.base import GameType
from tournament.results.event_stats import EventGame, EventHand
from tournament.results.player_stats import PlayerGame, Row


class HennesSibbePlayer(PlayerGame):
    template = "games/hennes_sibbe/player_stats.html"

    def __init__(self, game: GameType) -> None:
        super().__init__(game)
        self.claims = 0
        self.claims_wrong = 0
        self.calls = 0
        self.calls_wrong = 0
        self.penalty_cards = 0
        self.games_lost = 0

    def add(self, row: Row) -> None:
        data = row.data
        # a player at the table who neither claimed nor called took no part in the challenge
        if row.position not in (data.get("claimant"), data.get("challenger")):
            return
        super().add(row)
        if data.get("claimant") == row.position:
            self.claims += 1
            self.claims_wrong += row.points > 0
        else:
            self.calls += 1
            self.calls_wrong += row.points > 0
        self.penalty_cards += row.points
        self.games_lost += row.games_lost

    @property
    def challenges_lost(self) -> int:
        return self.claims_wrong + self.calls_wrong


class HennesSibbeEvent(EventGame):
    template = "games/hennes_sibbe/event_stats.html"
    seat_key = "claimant"

    def __init__(self, game: GameType, rules: dict[str, Any]) -> None:
        super().__init__(game, rules)
        self.claims_right = 0
        self.games = 0

    def add(self, hand: EventHand) -> None:
        super().add(hand)
        # whoever was wrong takes the penalty card (RULES.md 5.1)
        self.claims_right += hand.seat_result == 0

    def ended(self, *, matches: int, games: int) -> None:
        self.games = games

    @property
    def claims_wrong(self) -> int:
        return self.hands - self.claims_right


PLAYER = HennesSibbePlayer
EVENT = HennesSibbeEvent
