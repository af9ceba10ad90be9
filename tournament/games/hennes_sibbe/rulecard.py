"""Hennes Sibbe's rule card: the table, formula, notes and worked example printed for the
players. Reached by the dotted path in ``GAME.rule_card``; it sits on paper's floor."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import hennes_sibbe
from tournament.core import formatting
from tournament.games.hennes_sibbe import COLOUR_LABELS, GAME
from tournament.paper.rulecard import Card


def rule_card(card: Card) -> None:
    rules = card.rules
    colours = {key: str(label) for key, label in COLOUR_LABELS.items()}
    card.heading = _("Jokers (goats)")
    card.values_are_numbers = False
    card.columns = [_("Joker"), _("Fits")]
    for joker in hennes_sibbe.JOKERS:
        fits = [colours[c] for c in hennes_sibbe.COLOURS if hennes_sibbe.fits(joker, c, rules)]
        card.rows.append(
            {
                "name": hennes_sibbe.JOKER_NAMES[joker],
                "value": ", ".join(fits) if len(fits) < len(colours) else _("every colour"),
            }
        )
    doubling = rules["goat_doubling"]
    card.formula = [
        _("Colours, highest first: %(order)s.")
        % {"order": " > ".join(colours[c] for c in hennes_sibbe.COLOURS)},
        _(
            "A raise names more cards, or as many of a higher colour; "
            "or the next player calls Lüge!"
        ),
        _(
            "Counted on all hands: each card of the colour 1 (2 for a player who holds a penalty "
            "card of that colour), each penalty card of the colour 1, each fitting joker 1, "
            "Hennes Sibbe %(hennes)s for the claimant, each Drilling %(drilling)s."
        )
        % {"hennes": rules["hennes_value"], "drilling": hennes_sibbe.DRILLING_VALUE},
        _("Three or more jokers in one hand: jokers double (%(how)s).")
        % {"how": GAME.setting_text("goat_doubling", doubling)},
        _("Whoever was wrong takes a penalty card; a game ends at %(limit)s penalty cards.")
        % {"limit": rules["penalty_limit"]},
    ]
    card.notes = [_("Standings: fewest penalty cards, then fewest games lost.")]
    hand = {
        "claimant": 0,
        "challenger": 3,
        "claim": {"count": 10, "colour": "rot"},
        "reveal": {
            "hands": [
                ["rot", "hennes", "blau"],
                ["rot", "goat"],
                ["gelb", "rot"],
                ["lila", "joker_rgb"],
            ],
            "penalty_cards": [[], [], [], []],
            "drillings": [],
        },
    }
    parsed = hennes_sibbe.parse(hand, 4)
    count = hennes_sibbe.count_claim(parsed, parsed.reveal, hennes_sibbe.check_rules(rules))
    result = hennes_sibbe.score(hand, 4, rules)
    claimed = hand["claim"]["count"]
    card.example_title = _(
        "Seat 1 claims %(n)s Rot, seat 4 calls Lüge. On the hands: 3 Rot, Hennes Sibbe "
        "(seat 1), a Geißbock, a Joker Rot-Gelb-Blau."
    ) % {"n": claimed}
    card.example_steps = [
        (
            _("Count %(count)s ≥ %(n)s: the claim was right, seat 4 takes a penalty card.")
            if count >= claimed
            else _("Count %(count)s < %(n)s: the claim was wrong, seat 1 takes a penalty card.")
        )
        % {"count": count, "n": claimed}
    ]
    card.example_seats = [_("Seat %(n)s") % {"n": n + 1} for n in range(4)]
    card.example_result = [formatting.amount(x) for x in result]
