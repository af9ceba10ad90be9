"""Cego's rule card: the table, formula, notes and worked example printed for the
players. Reached by the dotted path in ``GAME.rule_card``; it sits on paper's floor."""

from __future__ import annotations

import math

from django.utils.translation import gettext_lazy as _

from scoring import cego
from tournament.core import formatting
from tournament.games.cego import GAME
from tournament.paper.rulecard import Card


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
