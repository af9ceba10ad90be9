"""A game's hands and its engine's messages in the words people use: one line per hand for the
sheet, the history and Excel, and seats counted from 1 with the player's name."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

import scoring
from tournament import games

# The engine counts seats from 0 (RULES.md conventions); people count from 1 and know each other by
# name. ``explain`` turns every seat in an engine message into "5 (Anna Huber)", in one place.
SEAT_RANGE_TEMPLATES = {
    "must be a seat number from 0 to {number}, got {value}": gettext_noop(
        "must be one of the players in seats 1 to {number}, got seat {value}"
    ),
    "must be a seat number from 0 to {number} at a table of {seats}, got {value}": gettext_noop(
        "must be one of the players in seats 1 to {number}, got seat {value}"
    ),
}


def seat_label(seat: Any, players: list[str] | None = None) -> str:
    """A seat as people say it: counted from 1, with the player's name when it is known."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return str(seat)
    if players and 0 <= seat < len(players):
        return f"{seat + 1} ({players[seat]})"
    return str(seat + 1)


def explain(exc: scoring.InvalidHand, players: list[str] | None = None) -> str:
    """The engine's reason in the scorer's language (its templates are in the catalogue), with
    every seat it names counted from 1 and, where the players are known, named."""
    template, params = exc.text.template, dict(exc.text.params)
    if template in SEAT_RANGE_TEMPLATES:
        template = SEAT_RANGE_TEMPLATES[template]
        params["number"] = int(params["number"]) + 1
        shown = str(params["value"])
        if re.fullmatch(r"-?[0-9]{1,30}", shown):
            params["value"] = str(int(shown) + 1)
    for key in games.seat_params() & params.keys():
        params[key] = seat_label(params[key], players)
    return scoring.Text(template, **params).render(gettext)


def describe_hand(game: str, hand: dict[str, Any], players: list[str]) -> str:
    """One line for a hand: what was played and its inputs, in the game's own words."""
    if "totals" in hand:
        return str(_("Totals for the round"))
    found = games.find(game)
    return found.describe(hand, players) if found else ""
