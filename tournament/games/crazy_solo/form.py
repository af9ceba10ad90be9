"""Crazy Solo's hand form: the fields a game needs, turned into the hand dict the engine
judges. Reached from above by the dotted path in ``GAME.hand_form``; it sits beside ``play``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import crazy_solo
from tournament.core.fields import NONE, seat_choices
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
