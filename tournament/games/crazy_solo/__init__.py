"""Crazy Solo (RULES.md 4): three to twelve players, a soloist (and partner) against the rest,
paid in chips. The standings show each player's chips: the start balance plus every result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import crazy_solo
from tournament.core import formatting
from tournament.games.base import Figure, GameType, SeatResult, SheetExtras


def multiplier(contract: str, rounding: str) -> int:
    """The engine's m of a contract: 5 points over 60 pay exactly 5·m, whatever the rounding."""
    probe = crazy_solo.Hand(contract, 0, None, crazy_solo.HALF + 5)
    return crazy_solo.amount(probe, rounding) // 5


class CrazySolo(GameType):
    key = "crazy_solo"
    name = crazy_solo.NAME
    engine = crazy_solo
    min_seats, max_seats = crazy_solo.MIN_SEATS, crazy_solo.MAX_SEATS
    hand_form = "tournament.games.crazy_solo.form.CrazySoloHandForm"
    rule_card = "tournament.games.crazy_solo.rulecard.rule_card"
    statistics = "tournament.games.crazy_solo.stats"
    simulator = "tournament.games.crazy_solo.simulate.simulate_hand"
    table_size_chosen = True
    contract_names = crazy_solo.CONTRACT_NAMES
    setting_labels = {
        "rounding": _("Payout rounded to a multiple of 5"),
        "start_balance": _("Start balance (chips)"),
    }
    choice_labels = {"nearest": _("to the nearest"), "up": _("upwards")}
    # chips held: an amount, not a change
    total = Figure("total", _("Balance"))
    projector_heading = _("Balance")

    def default_hands(self, size: int) -> int | None:
        """RULES.md 6: best a multiple of the table size, two deals per player."""
        return 2 * size

    def default_hands_text(self) -> str:
        return str(_("two deals per player"))

    def shown_total(self, total: int, rules: dict[str, Any]) -> int:
        """RULES.md 4: the start balance plus every result."""
        return rules["start_balance"] + int(total)

    def describe(self, hand: dict[str, Any], players: list[str]) -> str:
        text = self.contract_name(hand.get("contract", ""))
        text += ", " + formatting.seat_name(players, hand.get("bidder"))
        if hand.get("partner") is not None:
            text += " + " + formatting.seat_name(players, hand["partner"])
        return text + ", " + formatting.points_text(hand.get("soloist_points"))

    def sheet_extras(
        self,
        rules: dict[str, Any],
        hands: Sequence[tuple[dict[str, Any], list[SeatResult]]],
        running: list[int],
        players: list[str],
    ) -> SheetExtras:
        start = rules["start_balance"]
        balances = [formatting.amount(start + r) for r in running]
        return SheetExtras(rows=[(gettext("Chips (balance)"), balances, gettext("chips"))])


GAME = CrazySolo()
