"""Würfelglück, a game made up for the tests: the proof that a game is one package.

Each hand one seat wins and takes the hand's points from every other player (zero-sum), at tables
of three to six. Its core (this module) is the pure rules and the plug-in's description; its hand
form and its (empty) statistics are modules of this package, named by dotted path below, as a
real game's are. Nothing outside this package names it: the test registers ``GAME`` and takes it
out again.
"""

from __future__ import annotations

from typing import Any

from scoring import validate as check
from tournament.games.base import GameType

KEY = "wuerfelglueck"


class Engine:
    """The pure rules: {"winner": seat, "points": n} → the winner +n from each other seat."""

    SETTING_CHOICES: dict[str, tuple[str, ...]] = {}

    @staticmethod
    def default_rules() -> dict[str, Any]:
        return {"most_points": 50}

    @staticmethod
    def check_rules(given: Any) -> dict[str, Any]:
        rules = {**Engine.default_rules(), **(given or {})}
        check.integer(rules["most_points"], "most_points", 1, 1000)
        return rules

    @staticmethod
    def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
        rules = Engine.check_rules(rules)
        hand = check.mapping(hand, "hand")
        winner = check.seat(hand.get("winner"), "winner", seats)
        points = check.integer(hand.get("points"), "points", 1, rules["most_points"])
        return [points * (seats - 1) if seat == winner else -points for seat in range(seats)]


class Wuerfelglueck(GameType):
    key = KEY
    name = "Würfelglück"
    engine = Engine  # type: ignore[assignment]
    min_seats, max_seats = 3, 6
    hand_form = "tests.tournament.games.wuerfelglueck.form.DiceHandForm"
    statistics = "tests.tournament.games.wuerfelglueck.stats"
    table_size_chosen = True
    setting_labels = {"most_points": "Höchstens Augen pro Spiel"}

    def default_hands(self, size: int) -> int | None:
        return 3

    def describe(self, hand: dict[str, Any], players: list[str]) -> str:
        return f"{players[hand['winner']]} würfelt {hand['points']}"


GAME = Wuerfelglueck()
