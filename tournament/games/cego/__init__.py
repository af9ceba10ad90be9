"""Cego, Black Forest tarock (RULES.md 2): the tournament side of ``scoring.cego``.

Tables of four; with the "mixed" table policy also of three and five, where the dealer sits out
each game but pays or receives like an opponent. Every hand is zero-sum and a multiple of ten.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import cego
from tournament.core import formatting
from tournament.games.base import GameType


class Cego(GameType):
    key = "cego"
    name = cego.NAME
    engine = cego
    min_seats, max_seats = cego.MIN_SEATS, cego.MAX_SEATS
    # "notfalls zu dritt", and five with the dealer sitting out (RULES.md 2.1)
    odd_table_sizes = True
    hand_form = "tournament.games.cego.form.CegoHandForm"
    rule_card = "tournament.games.cego.rulecard.rule_card"
    statistics = "tournament.games.cego.stats"
    simulator = "tournament.games.cego.simulate.simulate_hand"
    card_counter = "tournament.games.cego.form.CardCounterForm"
    contract_names = cego.CONTRACT_NAMES
    seat_params = frozenset({"declarer", "sitting_out", "announcer"})
    setting_labels = {
        "total_points": _("Card points in the deck"),
        "win_threshold": _("The declarer wins with at least (card points)"),
        "solo_double": _("A won Solo is doubled"),
        "gegensolo_raises": _("After a Gegensolo, one step higher counts"),
        "bettel": _("Bettel is worth"),
        "piccolo": _("Piccolo is worth"),
        "ulti": _("Ulti is worth"),
        "raeuber": _("Räuber costs each loser"),
    }
    choice_labels = {
        "before_rounding": _("before rounding to tens"),
        "after_rounding": _("after rounding to tens"),
        "all": _("for every contract"),
        "cego_only": _("only for a Cego"),
    }

    def engine_hand(self, data: dict[str, Any], size: int, number: int) -> dict[str, Any]:
        hand = dict(data)
        sitting_out = self.sitting_out(size, number)
        if sitting_out is not None and hand.get("contract"):
            hand["sitting_out"] = sitting_out
        return hand

    def sitting_out(self, size: int, number: int) -> int | None:
        """RULES.md 2.1: at five seats the dealer of each game sits it out."""
        return (number - 1) % size if size == 5 else None

    def totals_step(self, rules: dict[str, Any]) -> int:
        return cego.amount_step(rules)

    def describe(self, hand: dict[str, Any], players: list[str]) -> str:
        contract = hand.get("contract", "")
        name = self.contract_name(contract)
        if contract == "raeuber":
            text = name
            if hand.get("announcer") is not None:
                announcer = formatting.seat_name(players, hand["announcer"])
                text += " (" + gettext("announced by %(p)s") % {"p": announcer} + ")"
            return text
        parts = [name]
        if hand.get("gegensolo"):
            parts[0] += " " + gettext("after Gegensolo")
        parts.append(formatting.seat_name(players, hand.get("declarer")))
        if hand.get("forfeit"):
            parts.append(gettext("forfeit"))
        elif hand.get("declarer_took_trick") is False:
            parts.append("Berg")
        elif "declarer_points" in hand:
            parts.append(formatting.points_text(hand["declarer_points"]))
        elif "declarer_tricks" in hand:
            parts.append(formatting.tricks_text(hand["declarer_tricks"]))
        elif "won" in hand:
            parts.append(gettext("won") if hand["won"] else gettext("lost"))
        return ", ".join(parts)

    def sheet_notes(self, size: int) -> list[str]:
        if size == 5:
            return [
                gettext(
                    "At five players the dealer sits out the game but pays or receives like an "
                    "opponent."
                )
            ]
        return []


GAME = Cego()
