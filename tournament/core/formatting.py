"""How numbers and hands read on pages, print sheets, the projector and in Excel.

Templates (through thin template tags), forms, exports, views and the game plug-ins import these,
so a number reads the same everywhere.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# One minus sign for every signed number on pages, print and projector: the typographic minus
# (U+2212), as wide as the plus and never broken from its digits. Excel keeps real numbers.
MINUS = "\u2212"
# What a voided table shows instead of a result: it counts nothing, which is not the same as 0.
VOID = "\u2014"


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


def amount(value: Any) -> str:
    """150, −30: a holding rather than a change (a chip balance), no plus sign."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"{MINUS}{-number}" if number < 0 else str(number)


def result(value: Any, voided: bool = False) -> str:
    """A result cell: "—" where the table is voided, else the signed number."""
    return VOID if voided else signed(value)


def euros(cents: Any) -> str:
    """Money, stored as whole cents (never a float): "1.234,50 €" in German, "€1,234.50" in
    English, the typographic minus before a negative amount."""
    if cents is None or cents == "":
        return ""
    number = int(cents)
    text = number_format(Decimal(abs(number)) / 100, decimal_pos=2, force_grouping=True)
    # never broken from its digits
    money = (_("%(amount)s €") % {"amount": text}).replace(" ", "\u00a0")
    return f"{MINUS}{money}" if number < 0 else money


def card_points_text(points: Any) -> str:
    """Card points as counted on the table: 5, or 5½ for an odd pile (never 5.499999)."""
    whole, half = divmod(Fraction(points) * 2, 2)
    return f"{int(whole)}½" if half else str(int(whole))


def _count(value: Any) -> int:
    return value if isinstance(value, int) else 0


def points_text(points: Any) -> str:
    """Card points as the sheet writes them: "1 point", "34 points" ("Augen" in German)."""
    return ngettext("%(n)s point", "%(n)s points", _count(points)) % {"n": points}


def tricks_text(tricks: Any) -> str:
    return ngettext("%(n)s trick", "%(n)s tricks", _count(tricks)) % {"n": tricks}


def seat_name(players: list[str], seat: Any) -> str:
    """The player at ``seat``, or "?" for a seat the table does not have."""
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"


def told_apart(names: list[tuple[str, str]]) -> list[str]:
    """Short names for a phone's narrow sheet columns that still tell a table's players apart:
    the first name and as much of the last name as the others at the table need ("Anna H.",
    "Egon Ma.", "Egon Mü."), the whole name where nothing shorter does. ``names``: (first name,
    last name) per seat."""
    shown = []
    for i, (first, last) in enumerate(names):
        others = [f"{f} {la}" for j, (f, la) in enumerate(names) if j != i]
        label = f"{first} {last}".strip()
        for k in range(1, len(last)):
            prefix = f"{first} {last[:k]}"
            if not any(other.startswith(prefix) for other in others):
                label = f"{prefix}.".strip()
                break
        shown.append(label)
    return shown
