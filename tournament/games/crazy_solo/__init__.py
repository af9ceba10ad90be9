"""Crazy Solo (RULES.md 4): three to twelve players, a soloist (and partner) against the rest,
paid in chips. The standings show each player's chips: the start balance plus every result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import crazy_solo
from tournament.core import formatting
from tournament.core.fields import NONE, seat_choices
from tournament.games.base import Figure, GameType, SeatResult, SheetExtras
from tournament.paper.rulecard import Card
from tournament.play.forms import HandForm


class CrazySoloHandForm(HandForm):
    error_fields = {
        "contract": "contract",
        "bidder": "bidder",
        "partner": "partner",
        "soloist_points": "soloist_points",
        "trump": "trump",
    }
    # a partner only where the contract has one
    visibility = {
        "partner": {
            "contract": [c for c in crazy_solo.CONTRACTS if c not in crazy_solo.ALONE_CONTRACTS]
        }
    }

    contract = forms.ChoiceField(label=_("Contract"), choices=[])
    bidder = forms.ChoiceField(label=_("Bidder"), choices=[])
    partner = forms.ChoiceField(label=_("Partner"), choices=[], required=False)
    soloist_points = forms.IntegerField(label=_("Soloists' card points"))
    trump = forms.ChoiceField(
        label=_("Trumps"),
        choices=[
            (NONE, "—"),
            ("kreuz", "Kreuz"),
            ("pik", "Pik"),
            ("karo", "Karo"),
            ("herz", "Herz"),
        ],
        required=False,
    )

    def setup(self) -> None:
        self.fields["contract"].choices = [
            (key, crazy_solo.CONTRACT_NAMES[key]) for key in crazy_solo.CONTRACTS
        ]
        self.fields["bidder"].choices = seat_choices(self.players)
        self.fields["partner"].choices = seat_choices(self.players, _("none (plays alone)"))

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        hand = {
            "contract": d["contract"],
            "bidder": self.seat(d["bidder"]),
            "soloist_points": d["soloist_points"],
        }
        if d["contract"] not in crazy_solo.ALONE_CONTRACTS:
            hand["partner"] = self.seat(d.get("partner"))
        if d.get("trump"):
            hand["trump"] = d["trump"]
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        return {
            "contract": hand.get("contract"),
            "bidder": hand.get("bidder"),
            "partner": hand.get("partner") if hand.get("partner") is not None else NONE,
            "soloist_points": hand.get("soloist_points"),
            "trump": hand.get("trump") or NONE,
        }


def _multiplier(contract: str, rounding: str) -> int:
    """The engine's m of a contract: 5 points over 60 pay exactly 5·m, whatever the rounding."""
    probe = crazy_solo.Hand(contract, 0, None, crazy_solo.HALF + 5)
    return crazy_solo.amount(probe, rounding) // 5


def rule_card(card: Card) -> None:
    rules = card.rules
    rounding = rules["rounding"]
    card.heading = _("Contracts")
    card.columns = [_("Contract"), _("Multiplier"), _("Plays")]
    for key in crazy_solo.CONTRACTS:
        m = _multiplier(key, rounding)
        alone = key in crazy_solo.ALONE_CONTRACTS
        card.rows.append(
            {
                "name": crazy_solo.CONTRACT_NAMES[key],
                "value": f"m = {m}",
                "note": _("alone against all") if alone else _("with the holder of the named card"),
            }
        )
    card.formula = [
        _("S = the soloists' card points (of %(total)s); at %(half)s nothing is paid")
        % {"total": crazy_solo.TOTAL_POINTS, "half": crazy_solo.HALF},
        _("A = |S − %(half)s| · m, rounded %(how)s to a multiple of 5")
        % {"half": crazy_solo.HALF, "how": GAME.setting_text("rounding", rounding)},
        _(
            "Every other player (the Gang) pays A when the soloists have more than %(half)s, "
            "and receives A when they have less; with a partner the bidder takes the larger half."
        )
        % {"half": crazy_solo.HALF},
        _("Everyone starts with %(start)s chips.") % {"start": rules["start_balance"]},
    ]
    card.notes = [_("With three players only Alleingang and Alleingang mit Herz are played.")]
    seats = card.event.target_table_size
    points = 74
    if seats >= 4:
        partner = seats // 2
        hand = {"contract": "solo", "bidder": 0, "partner": partner, "soloist_points": points}
        card.example_title = _(
            "Solo at a table of %(n)s, bidder seat 1 with seat %(p)s as partner, %(s)s card points"
        ) % {"n": seats, "p": partner + 1, "s": points}
    else:
        hand = {"contract": "alleingang", "bidder": 0, "soloist_points": points}
        card.example_title = _(
            "Alleingang at a table of %(n)s, bidder seat 1, %(s)s card points"
        ) % {"n": seats, "s": points}
    parsed = crazy_solo.parse(hand, seats)
    a = crazy_solo.amount(parsed, rounding)
    m = _multiplier(hand["contract"], rounding)
    card.example_steps = [
        _("A = |%(s)s − %(half)s| · %(m)s = %(raw)s → %(a)s")
        % {
            "s": points,
            "half": crazy_solo.HALF,
            "m": m,
            "raw": abs(points - crazy_solo.HALF) * m,
            "a": a,
        }
    ]
    result = crazy_solo.score(hand, seats, rules)
    card.example_seats = [_("Seat %(n)s") % {"n": n + 1} for n in range(seats)]
    card.example_result = [formatting.signed(x) for x in result]


class CrazySolo(GameType):
    key = "crazy_solo"
    name = crazy_solo.NAME
    engine = crazy_solo
    min_seats, max_seats = crazy_solo.MIN_SEATS, crazy_solo.MAX_SEATS
    hand_form = CrazySoloHandForm
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

    def rule_card(self, card: Card) -> None:
        rule_card(card)


GAME = CrazySolo()
