"""Text that reaches a page, a printout or a workbook is checked once, where it comes in.

Names, clubs, towns, venues, event, season and team names and reasons are single lines of ordinary
characters. A control character (NUL, a vertical tab, an escape sequence, a line break) has no
place in them: PostgreSQL refuses NUL, openpyxl refuses most of the others, and a line break breaks
every list. The model fields carry the validator, so forms, the admin (``full_clean``) and the
imports all refuse such text with the same message, naming the character.

Nor do the invisible marks that turn the direction of writing (issue 43): a right-to-left override
makes "Anna\u202eleirbaG" read as another name on every page that shows it. A German, Turkish or
Arabic name is written without them; they are refused with a message of their own.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# C0 and C1 control characters and DEL, the Unicode line and paragraph separators, and the two
# non-characters XML cannot carry
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")
# the bidirectional formatting characters: embeddings and overrides (U+202A-U+202E), isolates
# (U+2066-U+2069), the left-to-right and right-to-left marks and the Arabic letter mark
DIRECTION_MARKS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
# what a spreadsheet cell holds for a line break or a tab: a space, in a single-line name
LINE_BREAKS = re.compile("[\t\n\r\x0b\x0c\u2028\u2029]+")


# what a single line refuses, and how it says so
REFUSED = (
    (
        CONTROL,
        "control_character",
        _(
            "Remove the control character %(char)s (position %(position)s): only one line "
            "of ordinary text is allowed here."
        ),
    ),
    (
        DIRECTION_MARKS,
        "direction_mark",
        _(
            "Remove the invisible direction mark %(char)s (position %(position)s): it turns "
            "the text round on the screen, so a name could read as another's."
        ),
    ),
)


def character_name(char: str) -> str:
    """U+000B, with the character's Unicode name where it has one."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def single_line(value: str) -> None:
    """Refuse a control character or a direction mark (the first one found is named)."""
    for pattern, code, message in REFUSED:
        found = pattern.search(str(value))
        if found:
            raise ValidationError(
                message,
                code=code,
                params={"char": character_name(found.group()), "position": found.start() + 1},
            )


def one_line(value: str) -> str:
    """A spreadsheet cell as a single line: tabs and line breaks inside become one space, spaces
    at the ends go. Any other control character is left for ``single_line`` to refuse."""
    return re.sub(" {2,}", " ", LINE_BREAKS.sub(" ", value)).strip()
