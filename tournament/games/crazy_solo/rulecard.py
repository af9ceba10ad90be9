"""Crazy Solo's rule card: the table, formula, notes and worked example printed for the
players. Reached by the dotted path in ``GAME.rule_card``; it sits on paper's floor."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import crazy_solo
from tournament.core import formatting
from tournament.games.crazy_solo import GAME, multiplier
from tournament.paper.rulecard import Card


def rule_card(card: Card) -> None:
    rules = card.rules
    rounding = rules["rounding"]
    card.heading = _("Contracts")
    card.columns = [_("Contract"), _("Multiplier"), _("Plays")]
    for key in crazy_solo.CONTRACTS:
        m = multiplier(key, rounding)
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
    m = multiplier(hand["contract"], rounding)
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
