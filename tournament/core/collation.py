"""Names in the order German readers expect: Schäuble before Schwörer, Müller among the Mu...

Databases sort by code point or by a collation that differs between SQLite and PostgreSQL (and
between PostgreSQL installations), so names are ordered by the Unicode Collation Algorithm here
(``pyuca``, the default table is right for German: umlauts sort with their base letter, case only
breaks ties): lists in Python by ``name_key``, the standings in the database by the same key
stored as digits (``stored_name_key``, ``Player.name_key``). The same order on every database and
every page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from typing import Any, TypeVar

from pyuca import Collator

T = TypeVar("T")


@cache
def _collator() -> Collator:
    # reads the Unicode collation table once per process (about a third of a second)
    return Collator()


@lru_cache(maxsize=50_000)
def collation_key(text: str) -> tuple[int, ...]:
    # a season's few thousand names are computed once per process, then looked up
    return _collator().sort_key(text or "")


def name_key(last_name: str, first_name: str = "") -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sort key for a person: last name, then first name."""
    return (collation_key(last_name), collation_key(first_name))


def player_key(player: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return name_key(player.last_name, player.first_name)


def by_name(items: Iterable[T], player: Callable[[T], Any]) -> list[T]:
    """``items`` sorted by the name of the player ``player(item)`` returns."""
    return sorted(items, key=lambda item: player_key(player(item)))


def stored_name_key(last_name: str, first_name: str = "") -> str:
    """``name_key`` as text that sorts the same way on every database (``Player.name_key``): each
    weight of the collation key written as five digits, one more than its value, and the first
    name after "00000". Digits compare alike in every collation (PostgreSQL's locale, SQLite's
    BINARY), and the separator sorts before any weight, so a last name that is the beginning of
    another sorts first, as the tuples do."""
    last, first = name_key(last_name, first_name)
    return "".join(f"{w + 1:05d}" for w in last) + "00000" + "".join(f"{w + 1:05d}" for w in first)
