"""Crazy Solo's statistics: the contracts played and won. Reached by the dotted path in
``GAME.statistics``; it sits on results' floor."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring import crazy_solo
from tournament.games.base import GameType
from tournament.results.charts import Chart, contract_chart
from tournament.results.counting import ContractLine, contract_lines, declared
from tournament.results.event_stats import EventGame, EventHand
from tournament.results.player_stats import PlayerGame, Row


class CrazySoloPlayer(PlayerGame):
    template = "games/crazy_solo/player_stats.html"

    def __init__(self, game: GameType) -> None:
        super().__init__(game)
        self.chips = 0
        self.lines = contract_lines(crazy_solo.CONTRACT_NAMES)
        self.partner = 0
        self.partner_won = 0

    def add(self, row: Row) -> None:
        super().add(row)
        self.chips += row.points
        data = row.data
        if data.get("bidder") == row.position and data.get("contract") in self.lines:
            line = self.lines[data["contract"]]
            line.played += 1
            line.won += row.points > 0
            line.total += row.points
        elif data.get("partner") == row.position:
            self.partner += 1
            self.partner_won += row.points > 0

    @property
    def contracts(self) -> list[ContractLine]:
        return declared(self.lines)

    @property
    def average(self) -> float | None:
        return self.chips / self.hands if self.hands else None


class CrazySoloEvent(EventGame):
    template = "games/crazy_solo/event_stats.html"
    seat_key = "bidder"

    def __init__(self, game: GameType, rules: dict[str, Any]) -> None:
        super().__init__(game, rules)
        self.lines = contract_lines(crazy_solo.CONTRACT_NAMES)

    def add(self, hand: EventHand) -> None:
        super().add(hand)
        data = hand.data
        line = self.lines.get(data.get("contract"))
        if line is None:
            return
        result = hand.seat_result
        line.played += 1
        line.won += result > 0
        line.total += result

    @property
    def contracts(self) -> list[ContractLine]:
        return declared(self.lines)

    @property
    def chart(self) -> Chart | None:
        lines = self.contracts
        return contract_chart(lines, _("Contract"), self.game) if lines else None


PLAYER = CrazySoloPlayer
EVENT = CrazySoloEvent
