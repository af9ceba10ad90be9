"""Template filters and tags: thin wrappers around ``core.formatting`` and the game plug-ins,
so that a number reads the same on pages, print sheets, the projector and in Excel."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from tournament import games
from tournament.core import formatting

register = template.Library()


@register.filter
def shown_name(entry: Any, sort: str = "") -> str:
    """An entry's player as public pages name them (``core.shown``): the name with the
    consent, else the initials and the start number; ``"sort"``: last name first."""
    return entry.player.public_name(entry.start_number, sort=sort == "sort")


@register.filter
def signed(value: Any) -> str:
    """+20, −60, 0: plus or minus as written on the paper sheet."""
    return formatting.signed(value)


@register.filter
def amount(value: Any) -> str:
    """150, −30: a holding rather than a change, no plus sign."""
    return formatting.amount(value)


@register.filter
def euros(value: Any) -> str:
    """Whole cents as money: 1.234,50 € (German), €1,234.50 (English)."""
    return formatting.euros(value)


@register.filter
def result(value: Any, voided: bool = False) -> str:
    """A result cell: "—" where the table is voided, else the signed number."""
    return formatting.result(value, voided)


@register.filter
def figure_text(value: Any, figure: Any) -> str:
    """A standings figure of a game (``games.base.Figure``), signed or as an amount."""
    return figure.text(value)


@register.filter
def hand_result(value: Any, game: Any) -> str:
    """A seat's result of a game as its plug-in writes it (``GameType.hand_result``): +20 for a
    change of points, 2 for Ziege's defeat points taken."""
    return game.hand_result(value)


@register.simple_tag
def game_name(key: str) -> str:
    game = games.find(key)
    return game.name if game else key


@register.filter
def show_when(form: Any, name: str) -> str:
    """The hand form's rule for when the field ``name`` is needed, as JSON for the hand-form
    script ("" when it always is)."""
    rule = form.show_when(name) if hasattr(form, "show_when") else None
    return json.dumps(rule) if rule else ""


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def withdrawn_mark(entry: Any, style: str = "tag") -> str:
    """What follows a withdrawn player's name on every list: a tag on screen, "(withdrawn)" on
    paper (``style`` "print"); nothing for a player still playing."""
    if entry is None or entry.is_active:
        return ""
    if style == "print":
        return format_html(" ({})", _("withdrawn"))
    return format_html(' <span class="tag">{}</span>', _("withdrawn"))
