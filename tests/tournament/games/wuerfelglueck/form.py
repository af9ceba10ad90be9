"""Würfelglück's hand form: who won the hand, and with how many points."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.core.fields import seat_choices
from tournament.play.forms import HandForm


class DiceHandForm(HandForm):
    error_fields = {"winner": "winner", "points": "points"}

    winner = forms.ChoiceField(label="Gewinner", choices=[])
    points = forms.IntegerField(label="Augen")

    def setup(self) -> None:
        self.fields["winner"].choices = seat_choices(self.players)

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        return {"winner": self.seat(d["winner"]), "points": d["points"]}

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        return {"winner": hand.get("winner"), "points": hand.get("points")}
