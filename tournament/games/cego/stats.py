"""Cego's statistics: contracts declared and won, the best and worst hand (a player's page, an
event's page). Reached by the dotted path in ``GAME.statistics``; it sits on results' floor."""

from __future__ import annotations

import statistics
from typing import Any

from django.utils.translation import gettext as _

from scoring import cego
from tournament.games.base import GameType
from tournament.results.charts import Chart, contract_chart
from tournament.results.counting import ContractLine, NotableHand, contract_lines, declared
from tournament.results.event_stats import EventGame, EventHand
from tournament.results.player_stats import PlayerGame, Row

# Cego's point games: scored from the declarer's card points (RULES.md 2.4)
POINT_GAMES = frozenset((*cego.LADDER, "solo"))


class CegoPlayer(PlayerGame):
    template = "games/cego/player_stats.html"

    def __init__(self, game: GameType) -> None:
        super().__init__(game)
        self.lines = contract_lines(
            {key: name for key, name in cego.CONTRACT_NAMES.items() if key != "raeuber"}
        )
        self.solo = 0
        self.raeuber = 0
        self.raeuber_lost = 0
        self.best: NotableHand | None = None
        self.worst: NotableHand | None = None

    def add(self, row: Row) -> None:
        data = row.data
        contract = data.get("contract")
        if contract == "raeuber":
            # RULES.md 2.5: the dealer sitting out at five takes no part in a Räuber
            if row.position == self.game.sitting_out(row.size, row.number):
                return
            self.raeuber += 1
            self.raeuber_lost += row.points < 0
        elif data.get("declarer") == row.position and contract in self.lines:
            line = self.lines[contract]
            line.played += 1
            line.won += row.points > 0
            line.total += row.points
            self.solo += contract == "solo"
        super().add(row)
        # the first of equal hands is the one named (rows come in the order they were played)
        if self.best is None or row.points > self.best.points:
            self.best = NotableHand(row.points, self.game.contract_name(contract), row.place)
        if self.worst is None or row.points < self.worst.points:
            self.worst = NotableHand(row.points, self.game.contract_name(contract), row.place)

    @property
    def contracts(self) -> list[ContractLine]:
        return declared(self.lines)

    @property
    def declared(self) -> int:
        return sum(line.played for line in self.lines.values())

    @property
    def chart(self) -> Chart | None:
        lines = self.contracts
        return contract_chart(lines, _("Contract declared"), self.game) if lines else None


class CegoEvent(EventGame):
    template = "games/cego/event_stats.html"
    seat_key = "declarer"

    def __init__(self, game: GameType, rules: dict[str, Any]) -> None:
        super().__init__(game, rules)
        self.lines = contract_lines(cego.CONTRACT_NAMES)
        self.lines["raeuber"].declared = False
        self.won_points: list[int] = []
        self.lost_points: list[int] = []
        self.berg = 0

    def add(self, hand: EventHand) -> None:
        super().add(hand)
        data = hand.data
        contract = data.get("contract")
        line = self.lines.get(contract)
        if line is None:
            return
        line.played += 1
        if contract == "raeuber":
            return  # everyone for himself: nobody declared it, nobody won it
        result = hand.seat_result
        won = result > 0
        line.won += won
        line.total += result
        if contract in POINT_GAMES and not data.get("forfeit"):
            # Berg: the declarer took no trick, so no card points (RULES.md 2.4)
            took = data.get("declarer_took_trick", True)
            points = data.get("declarer_points", 0) if took else 0
            self.berg += not took
            (self.won_points if won else self.lost_points).append(points)

    @property
    def contracts(self) -> list[ContractLine]:
        return declared(self.lines)

    @property
    def average_won(self) -> float | None:
        return statistics.fmean(self.won_points) if self.won_points else None

    @property
    def average_lost(self) -> float | None:
        return statistics.fmean(self.lost_points) if self.lost_points else None

    @property
    def chart(self) -> Chart | None:
        lines = self.contracts
        return contract_chart(lines, _("Contract"), self.game) if lines else None


PLAYER = CegoPlayer
EVENT = CegoEvent
