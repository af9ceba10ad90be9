"""The rule card of an event: what lies on every table (FIELD.md: "the association's printed rules
lie on every table, because local rule variants exist and do not apply on that day").

Every number on the card comes from the engine: contract values and settings from the event's
``full_rules()``, fixed values and constants from the game's ``scoring`` module, and the worked
example and payouts from ``scoring.score``. Nothing here decides a rule; it only writes the rules
down in the reader's language. docs/rules.md is the long form.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import scoring
from scoring import cego, crazy_solo, hennes_sibbe, ziege

from .forms import CHOICE_LABELS, CHOICE_LABELS_BY_SETTING, SETTING_LABELS
from .models import Event

MINUS = "\u2212"


def signed(value: int) -> str:
    """+20, −60, 0: as written on the paper sheet."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def number(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def setting_text(key: str, value: Any) -> str:
    """A setting's value in the director's words (as on the event form)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        return str(CHOICE_LABELS_BY_SETTING.get((key, value), CHOICE_LABELS.get(value, value)))
    return str(value)


@dataclass
class Difference:
    label: str
    default: str
    value: str


@dataclass
class Card:
    """What the template shows; ``rows`` and ``steps`` are in the game's own shape."""

    event: Event
    game: str
    rules: dict[str, Any]
    differences: list[Difference]
    hands_per_round: int | None
    heading: str = ""
    values_are_numbers: bool = True
    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    formula: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    example_title: str = ""
    example_steps: list[str] = field(default_factory=list)
    example_result: list[str] = field(default_factory=list)
    example_seats: list[str] = field(default_factory=list)


def differences(event: Event) -> list[Difference]:
    """Each rule setting of this event that is not the game's default, with both values."""
    defaults = scoring.default_rules(event.game)
    rules = event.full_rules()
    return [
        Difference(
            label=str(SETTING_LABELS.get(key, key)),
            default=setting_text(key, default),
            value=setting_text(key, rules[key]),
        )
        for key, default in defaults.items()
        if rules[key] != default
    ]


def rule_card(event: Event) -> Card:
    rules = event.full_rules()
    size = 4 if event.game in ("cego", "ziege") else event.target_table_size
    card = Card(
        event=event,
        game=event.game,
        rules=rules,
        differences=differences(event),
        hands_per_round=event.hands_for(size),
    )
    BUILDERS[event.game](card)
    return card


# --- Cego -------------------------------------------------------------------------------------


def _cego(card: Card) -> None:
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
            % {"when": setting_text("solo_double", rules["solo_double"])},
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
    plain = scoring.score("cego", {"contract": "raeuber", "points": points}, 4, rules)
    announced = scoring.score(
        "cego", {"contract": "raeuber", "points": points, "announcer": 0}, 4, rules
    )
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
    result = scoring.score("cego", hand, 4, rules)
    card.example_title = _("Halbe (W = %(w)s), the declarer has %(d)s card points") % {
        "w": w,
        "d": d,
    }
    card.example_steps = [
        (_("D = %(d)s ≥ %(t)s: won") if won else _("D = %(d)s < %(t)s: lost"))
        % {"d": d, "t": threshold},
        _("L = %(l)s, G = %(base)s − %(l)s = %(g)s, F = %(f)s")
        % {"l": lost_side, "base": base, "g": number(g), "f": f},
        _("V = %(size)s · %(f)s · %(w)s = %(raw)s → %(v)s")
        % {"size": fach, "f": f, "w": w, "raw": fach * f * w, "v": v},
    ]
    card.example_seats = [_("Declarer"), _("Opponent"), _("Opponent"), _("Opponent")]
    card.example_result = [signed(x) for x in result]


# --- Ziege ------------------------------------------------------------------------------------


def _ziege(card: Card) -> None:
    rules = card.rules

    def charged(points: int, took_trick: bool) -> int:
        hand = {"team_a_points": points, "team_a_took_trick": took_trick}
        return scoring.score("ziege", hand, 4, rules)[0]

    card.heading = _("Defeat points")
    card.columns = [_("The losing team has"), _("Defeat points")]
    # the engine's defeat points for every score of the losing team, grouped into ranges
    ranges: list[tuple[int, int, int]] = []
    for points in range(ziege.HALF):
        value = charged(points, True)
        if ranges and ranges[-1][2] == value:
            ranges[-1] = (ranges[-1][0], points, value)
        else:
            ranges.append((points, points, value))
    for low, high, value in reversed(ranges):
        card.rows.append(
            {
                "name": _("%(low)s to %(high)s card points") % {"low": low, "high": high},
                "value": str(value),
            }
        )
    card.rows.append({"name": _("no trick taken"), "value": str(charged(0, False))})
    card.rows.append(
        {
            "name": _("%(half)s:%(half)s (Kugeln)") % {"half": ziege.HALF},
            "value": str(charged(ziege.HALF, True)),
        }
    )
    card.formula = [
        _("%(total)s card points per deal; the team under %(half)s is charged defeat points.")
        % {"total": ziege.TOTAL_POINTS, "half": ziege.HALF},
        _("Team A: seats 1 and 3, team B: seats 2 and 4 (partners sit opposite)."),
        _("A match ends when a team reaches %(limit)s defeat points: that team is the Ziege.")
        % {"limit": rules["match_limit"]},
    ]
    if rules["balls_double_next"]:
        card.formula.append(_("After 60:60 the next deal counts double."))
    card.notes = [
        _(
            "Standings: matches won, then defeat points inflicted minus conceded, "
            "then fewer conceded."
        )
    ]
    hand = {"team_a_points": 25}
    result = scoring.score("ziege", hand, 4, rules)
    card.example_title = _("Team A has %(a)s card points, team B %(b)s") % {
        "a": 25,
        "b": ziege.TOTAL_POINTS - 25,
    }
    card.example_steps = [_("Team A is under %(half)s and took a trick.") % {"half": ziege.HALF}]
    card.example_seats = [_("Seat %(n)s") % {"n": n + 1} for n in range(4)]
    card.example_result = [number(x) for x in result]


# --- Crazy Solo -------------------------------------------------------------------------------


def _multiplier(contract: str, rounding: str) -> int:
    """The engine's m of a contract: 5 points over 60 pay exactly 5·m, whatever the rounding."""
    probe = crazy_solo.Hand(contract, 0, None, crazy_solo.HALF + 5)
    return crazy_solo.amount(probe, rounding) // 5


def _crazy_solo(card: Card) -> None:
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
        % {"half": crazy_solo.HALF, "how": setting_text("rounding", rounding)},
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
    result = scoring.score("crazy_solo", hand, seats, rules)
    card.example_seats = [_("Seat %(n)s") % {"n": n + 1} for n in range(seats)]
    card.example_result = [signed(x) for x in result]


# --- Hennes Sibbe -----------------------------------------------------------------------------


def _hennes_sibbe(card: Card) -> None:
    rules = card.rules
    colours = hennes_sibbe.COLOUR_NAMES
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
        % {"how": setting_text("goat_doubling", doubling)},
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
    result = scoring.score("hennes_sibbe", hand, 4, rules)
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
    card.example_result = [number(x) for x in result]


BUILDERS = {
    "cego": _cego,
    "ziege": _ziege,
    "crazy_solo": _crazy_solo,
    "hennes_sibbe": _hennes_sibbe,
}
