"""When two written names are probably one person ("One person, one player").

A desk types "Uwe Meier" for the Uwe Maier of last season, a club list writes "Schaeuble" for
"Schäuble". Names are compared by a key: case folded, umlauts spelt out (ä → ae, ß → ss), other
accents dropped, then each word coded with the Kölner Phonetik (``cologne-phonetics``), the
phonetic code made for German names: Maier, Meier, Mayer and Meyer share one code, Mader does not.
Digits and punctuation are no sound: they stay in the key as written, so "Spieler1" and "Spieler2",
or "Gast." and "Gast!", are two people (issue 43); a hyphen only joins words ("Hans-Peter" is
"Hans Peter").
Two players whose first and last names have the same key are shown as a possible duplicate; the
organiser decides.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from typing import TypeVar

import cologne_phonetics
from django.utils.text import slugify

SPELT_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
# for addresses, capitals too: "Übach" → "uebach" (Django's slugify drops the diaeresis: "ubach")
SPELT_OUT_ANY_CASE = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ẞ": "SS"}
)

T = TypeVar("T")


def slug_of(name: str) -> str:
    """A name as part of an address, umlauts spelt out as Germans write them without umlauts:
    "Turnier Gütenbach" → "turnier-guetenbach". Only a new event's address is made from its
    name, so the addresses already given keep working."""
    text = unicodedata.normalize("NFC", name or "").translate(SPELT_OUT_ANY_CASE)
    return slugify(text)


def normalise(text: str) -> str:
    """Lower case, umlauts spelt out, other accents dropped, words of letters only."""
    text = unicodedata.normalize("NFC", text or "").casefold().translate(SPELT_OUT)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z]+", text))


# a word of letters (coded by sound), a run of digits, or one other mark (kept as written); a
# hyphen, like a space, only separates words
NAME_PART = re.compile(r"[^\W\d_]+|\d+|[^\w\s-]|_")


def name_key(first_name: str, last_name: str) -> tuple[str, str]:
    """The key under which spellings of one person's name meet: (first name, last name), each a
    Kölner Phonetik code per word, with the name's digits and punctuation as written."""

    def code(text: str) -> str:
        folded = unicodedata.normalize("NFC", text or "").casefold().translate(SPELT_OUT)
        folded = "".join(
            c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c)
        )
        parts = []
        for part in NAME_PART.findall(folded):
            if part.isalpha():
                words = normalise(part)
                parts += [c for _word, c in cologne_phonetics.encode(words) if c] if words else []
            else:
                parts.append(part)
        return " ".join(parts)

    return code(first_name), code(last_name)


class NameIndex:
    """Many look-ups against one list (a file of players against every known player): keys are
    worked out once, so a check costs a dictionary look-up."""

    def __init__(self, people: Iterable[tuple[str, str, T]]) -> None:
        self._by_key: dict[tuple[str, str], list[T]] = defaultdict(list)
        for first, last, item in people:
            self._by_key[name_key(first, last)].append(item)

    def find(self, first_name: str, last_name: str) -> list[T]:
        key = name_key(first_name, last_name)
        return list(self._by_key.get(key, [])) if all(key) else []
