"""Cego, Black Forest tarock (RULES.md 2): the tournament side of ``scoring.cego``.

Tables of four; with the "mixed" table policy also of three and five, where the dealer sits out
each game but pays or receives like an opponent. Every hand is zero-sum and a multiple of ten.
"""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import cego
from tournament.core import formatting
from tournament.core.fields import NONE, SeatChoiceField, seat_choices, whole_number
from tournament.games.base import GameType
from tournament.paper.rulecard import Card
from tournament.play import draw
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


def rule_card(card: Card) -> None:
    rules = card.rules
    checked = cego.check_rules(rules)
    names = cego.CONTRACT_NAMES
    card.heading = _("Contracts")
    card.columns = [_("Contract"), _("Value"), _("After a Gegensolo")]
    for key, w in cego.LADDER.items():
        raised = cego.game_value(cego.Hand(contract=key, seats=4, gegensolo=True), checked)
        card.rows.append({"name": names[key], "value": f"W = {w}", "gegensolo": f"W = {raised}"})
    card.rows.append(
        {
            "name": names["solo"],
            "value": f"W = {cego.SOLO_VALUE}",
            "gegensolo": "",
            "note": _("won: doubled (%(when)s)")
            % {"when": GAME.setting_text("solo_double", rules["solo_double"])},
        }
    )
    fixed_notes = {
        "bettel": _("won without a trick"),
        "piccolo": _("won with exactly one trick"),
        "ulti": _("won when the last trick is taken with the Geiß"),
    }
    for key, note in fixed_notes.items():
        card.rows.append(
            {"name": names[key], "value": str(rules[key]), "gegensolo": "", "note": note}
        )
    # Räuber: what a loser pays each other player, alone and as the announcer, by the engine
    total = rules["total_points"]
    low = total // 5
    points = [total - 3 * low, low, low, low]
    plain = cego.score({"contract": "raeuber", "points": points}, 4, rules)
    announced = cego.score({"contract": "raeuber", "points": points, "announcer": 0}, 4, rules)
    card.rows.append(
        {
            "name": names["raeuber"],
            "value": str(plain[1]),
            "gegensolo": "",
            "note": _(
                "everyone for himself; the most card points lose; an announcer among them "
                "loses alone: %(amount)s to each"
            )
            % {"amount": announced[1]},
        }
    )

    threshold = rules["win_threshold"]
    base, fach, top = cego.GRUNDWERT_BASE, cego.FACH_SIZE, cego.MAX_FACH
    card.formula = [
        _("D = the declarer's card points (no trick taken, Berg: D = 0); won with D ≥ %(t)s")
        % {"t": threshold},
        _("L = card points of the losing side: D when lost, %(total)s − D when won")
        % {"total": total},
        _("G = %(base)s − L (Grundwert)") % {"base": base},
        _("F = G ÷ %(size)s rounded up, at least 1, at most %(top)s (Fach)")
        % {"size": fach, "top": top},
        _("V = %(size)s · F · W rounded up to tens; a won Solo doubled") % {"size": fach},
        _(
            "Declarer +V from each other player when won, −V to each when lost; at five seats "
            "the dealer sitting out pays or receives too."
        ),
    ]
    card.notes = [
        _(
            "Forfeit (revoke, wrong card count): against the declarer's side as a Berg loss, "
            "against the opponents as the highest win."
        ),
    ]

    # the worked example: a Halbe lost a few points short of the win
    d = max(0, threshold - 6)
    hand = {"contract": "halbe", "declarer": 0, "declarer_points": d}
    parsed = cego.parse(hand, 4, checked)
    won, v = cego.point_game_value(parsed, checked)
    w = cego.game_value(parsed, checked)
    lost_side = total - d if won else d
    g = base - lost_side
    f = max(1, math.ceil(g / fach))
    result = cego.score(hand, 4, rules)
    card.example_title = _("Halbe (W = %(w)s), the declarer has %(d)s card points") % {
        "w": w,
        "d": d,
    }
    card.example_steps = [
        (_("D = %(d)s ≥ %(t)s: won") if won else _("D = %(d)s < %(t)s: lost"))
        % {"d": d, "t": threshold},
        _("L = %(l)s, G = %(base)s − %(l)s = %(g)s, F = %(f)s")
        % {"l": lost_side, "base": base, "g": formatting.amount(g), "f": f},
        _("V = %(size)s · %(f)s · %(w)s = %(raw)s → %(v)s")
        % {"size": fach, "f": f, "w": w, "raw": fach * f * w, "v": v},
    ]
    card.example_seats = [_("Declarer"), _("Opponent"), _("Opponent"), _("Opponent")]
    card.example_result = [formatting.signed(x) for x in result]


class Cego(GameType):
    key = "cego"
    name = cego.NAME
    engine = cego
    min_seats, max_seats = cego.MIN_SEATS, cego.MAX_SEATS
    hand_form = CegoHandForm
    card_counter = CardCounterForm
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

    def plan_tables(self, players: int, policy: str, target: int) -> draw.Plan:
        # "notfalls zu dritt", and five with the dealer sitting out (RULES.md 2.1)
        return draw.plan_fours(players, self.name, policy, odd_sizes=True)

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

    def rule_card(self, card: Card) -> None:
        rule_card(card)


GAME = Cego()
