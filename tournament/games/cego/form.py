"""Cego's hand form: the fields a game needs, turned into the hand dict the engine
judges. Reached from above by the dotted path in ``GAME.hand_form``; it sits beside ``play``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import cego
from tournament.core import formatting
from tournament.core.fields import NONE, SeatChoiceField, seat_choices, whole_number
from tournament.play.forms import HandForm
from tournament.play.reads import seat_sitting_out


class CegoHandForm(HandForm):
    error_fields = {
        "contract": "contract",
        "declarer": "declarer",
        "declarer_points": "declarer_points",
        "declarer_took_trick": "berg",
        "gegensolo": "gegensolo",
        "declarer_tricks": "declarer_tricks",
        "won": "won",
        "announcer": "announcer",
        "forfeit": "forfeit",
        "sitting_out": "declarer",
    }
    POINT_GAMES = (*cego.LADDER, "solo")
    # which inputs each contract needs: the hand-form script shows only those
    visibility = {
        "declarer": {"contract": [*cego.LADDER, "solo", *cego.FIXED]},
        "declarer_points": {"contract": list(POINT_GAMES)},
        "berg": {"contract": list(POINT_GAMES)},
        "gegensolo": {"contract": list(cego.LADDER)},
        "forfeit": {"contract": [*cego.LADDER, "solo", *cego.FIXED]},
        "declarer_tricks": {"contract": ["bettel", "piccolo"]},
        "won": {"contract": ["ulti"]},
        "points_*": {"contract": ["raeuber"]},
        "announcer": {"contract": ["raeuber"]},
    }
    # Berg: no card points to type; ticking it clears and disables the points (hand-form script)
    clears = {"berg": "declarer_points"}

    contract = forms.ChoiceField(label=_("Contract"), choices=[])
    declarer = SeatChoiceField(label=_("Declarer"), choices=[], required=False)
    declarer_points = forms.IntegerField(label=_("Declarer's card points"), required=False)
    berg = forms.BooleanField(label=_("Berg: declarer took no trick"), required=False)
    gegensolo = forms.BooleanField(label=_("after a Gegensolo"), required=False)
    declarer_tricks = forms.IntegerField(label=_("Declarer's tricks"), required=False)
    won = forms.ChoiceField(
        label=_("Ulti: last trick with the Geiß?"),
        choices=[(NONE, "—"), ("yes", _("yes, won")), ("no", _("no, lost"))],
        required=False,
    )
    announcer = SeatChoiceField(label=_("Räuber announced by"), choices=[], required=False)
    forfeit = forms.ChoiceField(
        label=_("Forfeit"),
        choices=[
            (NONE, _("none")),
            ("declarer", _("by the declarer's side (scored as Berg)")),
            ("opponents", _("by the opponents (maximum win)")),
        ],
        required=False,
    )

    def setup(self) -> None:
        self.fields["contract"].choices = [(NONE, "—")] + [
            (key, cego.CONTRACT_NAMES[key]) for key in cego.CONTRACTS
        ]
        # RULES.md 2.1: at five seats the dealer sits out the game: he neither declares nor
        # takes part in a Räuber, so he is not offered for either
        self.sitting_out = (
            None if self.every_seat else seat_sitting_out(self.table, self.game_number())
        )
        out = self.sitting_out
        self.fields["declarer"].choices = seat_choices(self.players, "—", without=out)
        self.fields["announcer"].choices = seat_choices(self.players, _("nobody"), without=out)
        if out is not None and out < len(self.players):
            name = self.players[out]
            # a new dict per form: the field is a shallow copy of the class's field
            self.fields["declarer"].unavailable = {
                str(out): _("%(name)s deals this game and sits out: choose one of the players.")
                % {"name": name}
            }
            self.fields["announcer"].unavailable = {
                str(out): _("%(name)s deals this game and sits out, so cannot announce Räuber.")
                % {"name": name}
            }
        for i, name in enumerate(self.players):
            if i == out:
                continue
            self.fields[f"points_{i}"] = forms.IntegerField(
                label=name, required=False, widget=forms.NumberInput(attrs={"class": "raeuber"})
            )

    def field_label(self, engine_field: str) -> str:
        # the Räuber's sum belongs to no one player's field: said above the form, with a name
        if engine_field == "points":
            return str(_("Räuber card points"))
        return super().field_label(engine_field)

    @property
    def sitting_out_name(self) -> str:
        """The player who deals and sits out this game (five-seat Cego), for the form's heading."""
        out = self.sitting_out
        return self.players[out] if out is not None and out < len(self.players) else ""

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        contract = d.get("contract")
        if not contract:
            raise scoring.InvalidHand("contract", str(_("choose the contract")))
        hand: dict[str, Any] = {"contract": contract}
        if contract == "raeuber":
            # the dealer who sits out has no field: his card points are 0 (RULES.md 2.5); a
            # number sent for him anyway goes to the engine, which refuses it with its reason
            hand["points"] = [
                (whole_number(self.data.get(f"points_{i}")) or 0)
                if i == self.sitting_out
                else d.get(f"points_{i}")
                for i in range(len(self.players))
            ]
            missing = [i for i, p in enumerate(hand["points"]) if p is None]
            if missing:  # shown at the first empty field
                raise scoring.InvalidHand(
                    f"points[{missing[0]}]", str(_("enter every player's card points"))
                )
            hand["announcer"] = self.seat(d.get("announcer"))
            return hand
        if self.seat(d.get("declarer")) is None:
            raise scoring.InvalidHand("declarer", str(_("choose the declarer")))
        hand["declarer"] = self.seat(d.get("declarer"))
        if d.get("forfeit"):
            hand["forfeit"] = d["forfeit"]
        if contract in self.POINT_GAMES:
            points = d.get("declarer_points")
            if d.get("berg"):
                # Berg means no card points: points typed as well go to the engine, which
                # refuses anything but 0 with its reason (as it does for a stored hand)
                hand["declarer_took_trick"] = False
                if points:
                    hand["declarer_points"] = points
            elif points is not None:
                hand["declarer_points"] = points
            if d.get("gegensolo") and contract != "solo":
                hand["gegensolo"] = True
        elif contract in ("bettel", "piccolo"):
            if d.get("declarer_tricks") is not None:
                hand["declarer_tricks"] = d["declarer_tricks"]
        elif contract == "ulti" and d.get("won"):
            hand["won"] = d["won"] == "yes"
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "contract": hand.get("contract"),
            "declarer": hand.get("declarer"),
            "declarer_points": hand.get("declarer_points"),
            "berg": hand.get("declarer_took_trick") is False,
            "gegensolo": hand.get("gegensolo", False),
            "declarer_tricks": hand.get("declarer_tricks"),
            "won": {True: "yes", False: "no"}.get(hand.get("won"), NONE),
            "announcer": hand.get("announcer"),
            "forfeit": hand.get("forfeit") or NONE,
        }
        for i, points in enumerate(hand.get("points") or []):
            initial[f"points_{i}"] = points
        return initial


class CardCounterForm(forms.Form):
    """Cego's card counter: counts of a pile's cards → card points (scoring.cego.card_points)."""

    # the hand form's input the counted points go into
    target = "declarer_points"

    king = forms.IntegerField(label=_("Kings"), min_value=0, required=False)
    queen = forms.IntegerField(label=_("Queens"), min_value=0, required=False)
    cavall = forms.IntegerField(label=_("Cavalls"), min_value=0, required=False)
    jack = forms.IntegerField(label=_("Jacks"), min_value=0, required=False)
    trull = forms.IntegerField(label=_("Trull cards"), min_value=0, required=False)
    other = forms.IntegerField(label=_("Other cards"), min_value=0, required=False)

    def card_points(self) -> tuple[str, float]:
        """The counted card points as the sheet writes them and as a number (raises InvalidHand)."""
        counts = {k: v for k, v in self.cleaned_data.items() if v}
        points = cego.card_points(counts)
        return formatting.card_points_text(points), float(points)

    @staticmethod
    def carry_refused(text: str, value: float) -> str:
        """Why the counted points cannot go into the hand form, or "" where they can: RULES.md
        2.6 takes a declarer's card points as a whole number, so a half is said, never rounded."""
        if value == int(value):
            return ""
        return str(
            _(
                "%(points)s cannot go into the form: the rules score a declarer's card points "
                "as a whole number only. Count the pile again."
            )
            % {"points": text}
        )
