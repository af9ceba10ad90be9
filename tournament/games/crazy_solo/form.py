"""Crazy Solo's hand form: the fields a game needs, turned into the hand dict the engine
judges. Reached from above by the dotted path in ``GAME.hand_form``; it sits beside ``play``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

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
    # a partner only where the contract has one; trumps named only where they are not hearts
    # (RULES.md 4: hearts are trumps in the two Herz contracts, and allowed nowhere else)
    visibility = {
        "partner": {
            "contract": [c for c in crazy_solo.CONTRACTS if c not in crazy_solo.ALONE_CONTRACTS]
        },
        "trump": {
            "contract": [c for c in crazy_solo.CONTRACTS if c not in crazy_solo.HEARTS_CONTRACTS]
        },
    }
    # the suits by their names in the reader's language (Kreuz, Pik, Karo in German); the
    # values are the engine's keys
    NAMED_TRUMPS = {
        "kreuz": pgettext_lazy("card suit", "Clubs"),
        "pik": pgettext_lazy("card suit", "Spades"),
        "karo": pgettext_lazy("card suit", "Diamonds"),
    }

    contract = forms.ChoiceField(label=_("Contract"), choices=[])
    bidder = forms.ChoiceField(label=_("Bidder"), choices=[])
    partner = forms.ChoiceField(label=_("Partner"), choices=[], required=False)
    soloist_points = forms.IntegerField(label=_("Soloists' card points"))
    trump = forms.ChoiceField(
        label=_("Trumps"),
        choices=[(NONE, "—"), *NAMED_TRUMPS.items()],
        required=False,
        help_text=_("May stay empty: the trumps change no payout."),
    )

    def setup(self) -> None:
        # RULES.md 4: with three players only the two Alleingang contracts exist, so nobody
        # has a partner
        three = len(self.players) == 3
        self.fields["contract"].choices = [
            (key, crazy_solo.CONTRACT_NAMES[key])
            for key in crazy_solo.CONTRACTS
            if not three or key in crazy_solo.ALONE_CONTRACTS
        ]
        self.fields["bidder"].choices = seat_choices(self.players)
        if three:
            del self.fields["partner"]
        else:
            self.fields["partner"].choices = seat_choices(self.players, _("none (plays alone)"))

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        contract = d["contract"]
        hand = {
            "contract": contract,
            "bidder": self.seat(d["bidder"]),
            "soloist_points": d["soloist_points"],
        }
        if contract not in crazy_solo.ALONE_CONTRACTS:
            hand["partner"] = self.seat(d.get("partner"))
        if contract not in crazy_solo.HEARTS_CONTRACTS and d.get("trump"):
            # the trumps the bidder named, kept for the sheet where given: they change no payout
            # (RULES.md 4: ``trump`` is optional), so a deal is never refused for want of them
            # (a Herz contract's are hearts)
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
