"""The rule card of an event: what lies on every table (FIELD.md: "the association's printed rules
lie on every table, because local rule variants exist and do not apply on that day").

Every number on the card comes from the engine: contract values and settings from the event's
``full_rules()``, fixed values and constants from the game's ``scoring`` module, and the worked
example and payouts from ``scoring.score``. Nothing here decides a rule; it only writes the rules
down in the reader's language. docs/rules.md is the long form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.module_loading import import_string

from tournament.models import Event


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
    game = event.game_type
    defaults = game.default_rules()
    rules = event.full_rules()
    return [
        Difference(
            label=game.setting_label(key),
            default=game.setting_text(key, default),
            value=game.setting_text(key, rules[key]),
        )
        for key, default in defaults.items()
        if rules[key] != default
    ]


def rule_card(event: Event) -> Card:
    rules = event.full_rules()
    game = event.game_type
    size = game.usual_size(event.target_table_size)
    card = Card(
        event=event,
        game=event.game,
        rules=rules,
        differences=differences(event),
        hands_per_round=event.hands_for(size),
    )
    if game.rule_card:  # the game's own table, formula, notes and example (by dotted path)
        import_string(game.rule_card)(card)
    return card
