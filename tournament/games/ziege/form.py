"""Ziege's hand form: the fields a game needs, turned into the hand dict the engine
judges. Reached from above by the dotted path in ``GAME.hand_form``; it sits beside ``play``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.core.fields import NONE
from tournament.play.forms import HandForm


class ZiegeHandForm(HandForm):
    error_fields = {
        "team_a_points": "team_a_points",
        "team_a_took_trick": "team_a_took_trick",
        "team_b_took_trick": "team_b_took_trick",
    }
    TRICK_CHOICES = [(NONE, _("as the points say")), ("yes", _("yes")), ("no", _("no"))]

    team_a_points = forms.IntegerField(label=_("Card points of team A"))
    team_a_took_trick = forms.ChoiceField(
        label=_("Team A took a trick"), choices=TRICK_CHOICES, required=False
    )
    team_b_took_trick = forms.ChoiceField(
        label=_("Team B took a trick"), choices=TRICK_CHOICES, required=False
    )

    def setup(self) -> None:
        names = self.players
        if len(names) == 4:
            self.fields["team_a_points"].label = _("Card points of %(a)s and %(b)s") % {
                "a": names[0],
                "b": names[2],
            }

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {"team_a_points": d["team_a_points"]}
        for key in ("team_a_took_trick", "team_b_took_trick"):
            if d.get(key):
                hand[key] = d[key] == "yes"
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        initial = {"team_a_points": hand.get("team_a_points")}
        for key in ("team_a_took_trick", "team_b_took_trick"):
            if key in hand:
                initial[key] = "yes" if hand[key] else "no"
        return initial
