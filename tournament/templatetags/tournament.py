"""Formatting for pages, print sheets and exports: small functions, unit-tested on their own."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

import scoring
from scoring import cego, crazy_solo, hennes_sibbe

register = template.Library()

# The games' own words (RULES.md): kept German in both languages, as players say them.
CONTRACT_NAMES: dict[str, dict[str, Any]] = {
    "cego": dict(cego.CONTRACT_NAMES),
    "crazy_solo": dict(crazy_solo.CONTRACT_NAMES),
}


# One minus sign for every signed number on pages, print and projector: the typographic minus
# (U+2212), as wide as the plus and never broken from its digits. Excel keeps real numbers.
MINUS = "\u2212"
# What a voided table shows instead of a result: it counts nothing, which is not the same as 0.
VOID = "\u2014"


@register.filter
def signed(value: Any) -> str:
    """+20, −60, 0: plus or minus as written on the paper sheet."""
    if value is None or value == "":
        return ""
    number = int(value)
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"{MINUS}{-number}"
    return "0"


@register.filter
def amount(value: Any) -> str:
    """150, −30: a holding rather than a change (a Crazy Solo balance), no plus sign."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"{MINUS}{-number}" if number < 0 else str(number)


@register.filter
def total_text(value: Any, game: str) -> str:
    """An entry's standings figure as the standings page shows it: Cego points signed, the other
    games' figures (balance, penalty cards, defeat points) as amounts."""
    return signed(value) if game == "cego" else amount(value)


@register.filter
def result(value: Any, voided: bool = False) -> str:
    """A result cell: "—" where the table is voided, else the signed number."""
    return VOID if voided else signed(value)


def card_points_text(points: Any) -> str:
    """Card points as counted on the table: 5, or 5½ for an odd pile (never 5.499999)."""
    whole, half = divmod(Fraction(points) * 2, 2)
    return f"{int(whole)}½" if half else str(int(whole))


@register.simple_tag
def contract_name(game: str, key: str) -> str:
    return CONTRACT_NAMES.get(game, {}).get(key, key)


def _count(value: Any) -> int:
    return value if isinstance(value, int) else 0


def points_text(points: Any) -> str:
    """Card points as the sheet writes them: "1 point", "34 points" ("Augen" in German)."""
    return ngettext("%(n)s point", "%(n)s points", _count(points)) % {"n": points}


def describe_hand(game: str, hand: dict[str, Any], players: list[str]) -> str:
    """One line for the sheet's contract column: what was played and its inputs."""

    def who(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    if "totals" in hand:
        return str(_("Totals for the round"))
    if game == "cego":
        contract = hand.get("contract", "")
        name = contract_name("cego", contract)
        if contract == "raeuber":
            text = name
            if hand.get("announcer") is not None:
                text += " (" + str(_("announced by %(p)s") % {"p": who(hand["announcer"])}) + ")"
            return text
        parts = [name]
        if hand.get("gegensolo"):
            parts[0] += " " + str(_("after Gegensolo"))
        parts.append(who(hand.get("declarer")))
        if hand.get("forfeit"):
            parts.append(str(_("forfeit")))
        elif hand.get("declarer_took_trick") is False:
            parts.append("Berg")
        elif "declarer_points" in hand:
            parts.append(points_text(hand["declarer_points"]))
        elif "declarer_tricks" in hand:
            tricks = hand["declarer_tricks"]
            parts.append(ngettext("%(n)s trick", "%(n)s tricks", _count(tricks)) % {"n": tricks})
        elif "won" in hand:
            parts.append(str(_("won")) if hand["won"] else str(_("lost")))
        return ", ".join(parts)
    if game == "ziege":
        a = hand.get("team_a_points", 0)
        return f"{a} : {120 - a}"
    if game == "crazy_solo":
        text = contract_name("crazy_solo", hand.get("contract", ""))
        text += ", " + who(hand.get("bidder"))
        if hand.get("partner") is not None:
            text += " + " + who(hand["partner"])
        return text + ", " + points_text(hand.get("soloist_points"))
    if game == "hennes_sibbe":
        claim = hand.get("claim") or {}
        colour = hennes_sibbe.COLOUR_NAMES.get(claim.get("colour"), "?")
        return str(
            pgettext_lazy(
                "hennes sibbe", "%(claimant)s: %(count)s %(colour)s, “Lüge!” %(challenger)s"
            )
            % {
                "claimant": who(hand.get("claimant")),
                "count": claim.get("count"),
                "colour": colour,
                "challenger": who(hand.get("challenger")),
            }
        )
    return ""


@register.simple_tag
def game_name(key: str) -> str:
    game = scoring.GAMES.get(key)
    return game.name if game else key


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None
