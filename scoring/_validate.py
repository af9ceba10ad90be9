"""Input checks shared by the game modules.

Every check raises :class:`InvalidHand` with the name of the offending field and a sentence
that says what is allowed, so that a form can show it next to the field (RULES.md: "it names the
field and the reason"). Nothing is clamped or guessed: a value is accepted as it is, or rejected.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

# No rule setting is anywhere near this; a bound keeps every amount the engine derives printable.
SETTING_MAX = 100_000


class InvalidHand(ValueError):
    """A hand, a rule setting or a table size that the rules do not allow.

    ``field`` names the key of the hand (or ``rules.<setting>``, ``seats``) that is wrong;
    ``reason`` is the sentence without the field name.
    """

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


def show(value: Any) -> str:
    """A value for a message, cut short: a pasted page of text or a number with thousands of
    digits (which Python refuses to print) must not break the message itself."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return "a number with more than 30 digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return "a value that cannot be shown"
    return text if len(text) <= 40 else text[:37] + "..."


def mapping(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidHand(field, f"must be a dict of named values, got {show(value)}")
    for key in value:
        if not isinstance(key, str):
            raise InvalidHand(field, f"has a key {show(key)} that is not a text name")
    return value


def keys(
    hand: Mapping[str, Any],
    *,
    allowed: Collection[str],
    required: Collection[str],
    context: str,
    prefix: str = "",
) -> None:
    """Reject unknown keys first (they usually mean a typo), then missing ones."""
    for key in hand:
        if key not in allowed:
            raise InvalidHand(
                prefix + key,
                f"is not used {context}; allowed: {', '.join(sorted(allowed))}",
            )
    for key in required:
        if key not in hand:
            raise InvalidHand(prefix + key, f"is required {context}")


def integer(value: Any, field: str, low: int, high: int | None = None) -> int:
    # bool is a subclass of int in Python; True is never a card count or a seat.
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidHand(field, f"must be a whole number{_range(low, high)}, got {show(value)}")
    if value < low or (high is not None and value > high):
        raise InvalidHand(field, f"must be{_range(low, high)}, got {show(value)}")
    return value


def _range(low: int, high: int | None) -> str:
    return f" from {low} to {high}" if high is not None else f" of at least {low}"


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidHand(field, f"must be true or false, got {show(value)}")
    return value


def choice(value: Any, field: str, options: Collection[str]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InvalidHand(field, f"must be one of {', '.join(options)}, got {show(value)}")
    return value


def seat(value: Any, field: str, seats: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidHand(field, f"must be a seat number from 0 to {seats - 1}, got {show(value)}")
    if not 0 <= value < seats:
        raise InvalidHand(
            field,
            f"must be a seat number from 0 to {seats - 1} at a table of {seats}, got {show(value)}",
        )
    return value


def sequence(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise InvalidHand(field, f"must be a list, got {show(value)}")
    if length is not None and len(value) != length:
        raise InvalidHand(field, f"must have one entry per seat ({length}), got {len(value)}")
    return list(value)


def table_size(value: Any, low: int, high: int, game: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        raise InvalidHand("seats", f"{game} is played by {allowed} players, got {show(value)}")
    return value


def settings(
    given: Any,
    defaults: Mapping[str, Any],
    checks: Mapping[str, Any],
) -> dict[str, Any]:
    """Merge an event's rule settings over the defaults; unknown settings are rejected.

    ``checks`` maps each setting to a function ``(value, field) -> value`` that raises InvalidHand.
    """
    if given is None:
        return dict(defaults)
    mapping(given, "rules")
    merged = dict(defaults)
    for key, value in given.items():
        if key not in defaults:
            raise InvalidHand(
                f"rules.{key}", f"is not a setting of this game; settings: {', '.join(defaults)}"
            )
        merged[key] = checks[key](value, f"rules.{key}")
    return merged
