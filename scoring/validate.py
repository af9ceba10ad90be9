"""Input checks for a game's rules module (``from scoring import validate as check``).

Every check raises :class:`InvalidHand` with the name of the offending field and a sentence
that says what is allowed, so that a form can show it next to the field (RULES.md: "it names the
field and the reason"). Nothing is clamped or guessed: a value is accepted as it is, or rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

# No rule setting is anywhere near this; a bound keeps every amount the engine derives printable.
SETTING_MAX = 100_000


def gettext_noop(template: str) -> str:
    """Marks a message for the translators' catalogue (xgettext finds this name); the engine itself
    stays free of Django and speaks English."""
    return template


class Text:
    """A message with its placeholders kept apart, so that a user interface can translate the
    template and then fill it in: ``Text("must be from {low} to {high}", low=0, high=79)``."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def render(self, translate: Callable[[str], str] = str) -> str:
        if not self.params:
            return translate(self.template)
        values = {
            k: v.render(translate) if isinstance(v, Text) else v for k, v in self.params.items()
        }
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.render()


class InvalidHand(ValueError):
    """A hand, a rule setting or a table size that the rules do not allow.

    ``field`` names the key of the hand (or ``rules.<setting>``, ``seats``) that is wrong;
    ``reason`` is the sentence without the field name, in English; ``explain(translate)`` gives it
    in another language from a catalogue of the templates.
    """

    def __init__(self, field: str, template: str, **params: Any) -> None:
        self.field = field
        self.text = Text(template, **params)
        self.reason = str(self.text)
        super().__init__(f"{field}: {self.reason}")

    def explain(self, translate: Callable[[str], str]) -> str:
        return self.text.render(translate)


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
        raise InvalidHand(
            field, gettext_noop("must be a dict of named values, got {value}"), value=show(value)
        )
    for key in value:
        if not isinstance(key, str):
            raise InvalidHand(
                field, gettext_noop("has a key {key} that is not a text name"), key=show(key)
            )
    return value


def keys(
    hand: Mapping[str, Any],
    *,
    allowed: Collection[str],
    required: Collection[str],
    context: Text,
    prefix: str = "",
) -> None:
    """Reject unknown keys first (they usually mean a typo), then missing ones."""
    for key in hand:
        if key not in allowed:
            raise InvalidHand(
                prefix + key,
                gettext_noop("is not used {context}; allowed: {options}"),
                context=context,
                options=", ".join(sorted(allowed)),
            )
    for key in required:
        if key not in hand:
            raise InvalidHand(prefix + key, gettext_noop("is required {context}"), context=context)


def integer(value: Any, field: str, low: int, high: int | None = None) -> int:
    # bool is a subclass of int in Python; True is never a card count or a seat.
    if not isinstance(value, int) or isinstance(value, bool):
        if high is None:
            raise InvalidHand(
                field,
                gettext_noop("must be a whole number of at least {low}, got {value}"),
                low=low,
                value=show(value),
            )
        raise InvalidHand(
            field,
            gettext_noop("must be a whole number from {low} to {high}, got {value}"),
            low=low,
            high=high,
            value=show(value),
        )
    if value < low or (high is not None and value > high):
        if high is None:
            raise InvalidHand(
                field,
                gettext_noop("must be at least {low}, got {value}"),
                low=low,
                value=show(value),
            )
        raise InvalidHand(
            field,
            gettext_noop("must be from {low} to {high}, got {value}"),
            low=low,
            high=high,
            value=show(value),
        )
    return value


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidHand(
            field, gettext_noop("must be true or false, got {value}"), value=show(value)
        )
    return value


def choice(value: Any, field: str, options: Collection[str]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InvalidHand(
            field,
            gettext_noop("must be one of {options}, got {value}"),
            options=", ".join(options),
            value=show(value),
        )
    return value


def seat(value: Any, field: str, seats: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidHand(
            field,
            gettext_noop("must be a seat number from 0 to {number}, got {value}"),
            number=seats - 1,
            value=show(value),
        )
    if not 0 <= value < seats:
        raise InvalidHand(
            field,
            gettext_noop(
                "must be a seat number from 0 to {number} at a table of {seats}, got {value}"
            ),
            number=seats - 1,
            seats=seats,
            value=show(value),
        )
    return value


def sequence(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise InvalidHand(field, gettext_noop("must be a list, got {value}"), value=show(value))
    if length is not None and len(value) != length:
        raise InvalidHand(
            field,
            gettext_noop("must have one entry per seat ({length}), got {count}"),
            length=length,
            count=len(value),
        )
    return list(value)


def table_size(value: Any, low: int, high: int, game: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        if low == high:
            raise InvalidHand(
                "seats",
                gettext_noop("{game} is played by {low} players, got {value}"),
                game=game,
                low=low,
                value=show(value),
            )
        raise InvalidHand(
            "seats",
            gettext_noop("{game} is played by {low} to {high} players, got {value}"),
            game=game,
            low=low,
            high=high,
            value=show(value),
        )
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
                f"rules.{key}",
                gettext_noop("is not a setting of this game; settings: {options}"),
                options=", ".join(defaults),
            )
        merged[key] = checks[key](value, f"rules.{key}")
    return merged
