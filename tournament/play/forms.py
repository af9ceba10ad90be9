"""Forms of play: an event and its rules, a season, a hand (``HandForm``, which each game's form
extends), a round's totals, a swap of seats.

Forms check and convert input; whether a hand is legal is the engine's decision: a hand form
turns the fields its contract needs into the hand dict of RULES.md and lets ``scoring`` judge it."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

import scoring
from tournament import games
from tournament.core.fields import INT_MAX, NONE, whole_number
from tournament.core.names import slug_of
from tournament.games.base import GameType
from tournament.games.words import explain
from tournament.models import Entry, Event, Round, Season, Table, Team
from tournament.models.base import HANDS_MAX
from tournament.play.reads import (
    EVENT_FIELDS,
    EVENT_SETTINGS,
    TOTAL_MAX,
    check_totals,
    game_fixed_message,
    next_game_number,
    preview_hand,
)


def rule_fields(key: str) -> dict[str, forms.Field]:
    """One form field per rule setting of a game, named ``<game>__<setting>``."""
    game = games.get(key)
    options = game.setting_choices()
    fields: dict[str, forms.Field] = {}
    for name, default in game.default_rules().items():
        label = game.setting_label(name)
        if isinstance(default, bool):
            field: forms.Field = forms.BooleanField(label=label, required=False, initial=default)
        elif name in options:
            field = forms.ChoiceField(
                label=label,
                initial=default,
                choices=[(c, game.setting_text(name, c)) for c in options[name]],
            )
        else:
            field = forms.IntegerField(label=label, initial=default)
        fields[f"{key}__{name}"] = field
    return fields


def _games(text: str) -> int:
    """One number of games per round: 1 to HANDS_MAX (issue 11: 0 gave a server error, 99,999 was
    taken although the per-size form stopped at 10,000)."""
    value = whole_number(text, INT_MAX)
    if value is None:
        raise forms.ValidationError(
            _(
                'Write one number for every table size ("24") or sizes with their games '
                '("4: 24, 5: 25").'
            )
        )
    if value < 1:
        raise forms.ValidationError(_("A round has at least one game."))
    if value > HANDS_MAX:
        raise forms.ValidationError(
            _("A round has at most %(max)s games.")
            % {"max": number_format(HANDS_MAX, force_grouping=True)}
        )
    return value


def rule_settings(event: Event) -> list[tuple[str, str]]:
    """The event's rule settings as the event page shows them: (label, value) in the reader's
    language, with the same labels and value words as the event form."""
    game = event.game_type
    return [
        (game.setting_label(key), game.setting_text(key, value))
        for key, value in event.full_rules().items()
    ]


def parse_hands(text: str) -> dict[str, int]:
    """ "24" (every table size) or "4: 24, 5: 25" (per table size) → {"*": 24} or {"4": 24, ...}."""
    text = (text or "").strip()
    if not text:
        return {}
    if ":" not in text and "," not in text:
        return {"*": _games(text)}
    result: dict[str, int] = {}
    for part in text.split(","):
        size, sep, hands = part.partition(":")
        if not sep or whole_number(size) is None:
            raise forms.ValidationError(
                _(
                    'Write one number for every table size ("24") or sizes with their games '
                    '("4: 24, 5: 25").'
                )
            )
        result[size.strip()] = _games(hands)
    return result


def hands_text(value: dict[str, int]) -> str:
    if not value:
        return ""
    if set(value) == {"*"}:
        return str(value["*"])
    return ", ".join(f"{size}: {hands}" for size, hands in sorted(value.items()))


def season_label(season: Season) -> str:
    return f"{season.name} ({season.get_game_display()})"


class EventForm(forms.ModelForm):
    hands_per_round = forms.CharField(
        label=_("Games per round"),
        required=False,
    )
    # asked only when new rule settings rescore stored games (the confirmation step)
    reason = forms.CharField(
        label=_("Reason for the change"),
        max_length=300,
        required=False,
        help_text=_("Kept in the event's history with your name."),
    )
    confirm_rules = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)
    CONFIRMATION = ("reason", "confirm_rules")

    class Meta:
        model = Event
        fields = list(EVENT_FIELDS)
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "registration_closes": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Part of the address; made from the name when empty.")
        # a season holds one game: its choice names it
        self.fields["season"].label_from_instance = season_label
        self.fields["hands_per_round"].initial = hands_text(self.instance.hands_per_round or {})
        # what each game offered does by default, from the games themselves
        offered = games.all_games()
        self.fields["hands_per_round"].help_text = _(
            'Empty: the game\'s default (%(defaults)s). "24" for every table, or "4: 24, 5: 25".'
        ) % {"defaults": "; ".join(f"{g.name} {g.default_hands_text()}" for g in offered)}
        self.fields["target_table_size"].help_text = _(
            "Only for games played at tables of different sizes: %(sizes)s."
        ) % {"sizes": ", ".join(g.sizes_text() for g in offered if g.table_size_chosen)}
        for game in games.all_games():
            for name, field in rule_fields(game.key).items():
                key = name.split("__", 1)[1]
                if (
                    self.instance.pk
                    and self.instance.game == game.key
                    and key in self.instance.rules
                ):
                    field.initial = self.instance.rules[key]
                self.fields[name] = field

    def general_fields(self) -> list[Any]:
        return [f for f in self if "__" not in f.name and f.name not in self.CONFIRMATION]

    def rule_groups(self) -> list[tuple[str, str, list[Any]]]:
        """(game key, game name, bound fields) for the template's per-game fieldsets."""
        return [
            (game.key, game.name, [f for f in self if f.name.startswith(f"{game.key}__")])
            for game in games.all_games()
        ]

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slug_of(self.cleaned_data.get("name", ""))
        if not slug:
            raise forms.ValidationError(_("Give the event a name."))
        if Event.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("Another event already uses this short name."))
        return slug

    def clean_hands_per_round(self) -> dict[str, int]:
        return parse_hands(self.cleaned_data.get("hands_per_round", ""))

    def clean_game(self) -> str:
        game = self.cleaned_data["game"]
        event = self.instance
        # the instance still holds the stored values here (the form sets them after cleaning)
        if (
            event.pk
            and game != event.game
            and event.rounds.exclude(status=Round.Status.DRAFT).exists()
        ):
            raise forms.ValidationError(game_fixed_message(event))
        return game

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = data.get("game")
        if not game or games.find(game) is None:
            return data
        defaults = games.get(game).default_rules()
        # only the settings that differ from the defaults are stored
        rules = {
            key: data[f"{game}__{key}"]
            for key in defaults
            if data.get(f"{game}__{key}") is not None and data[f"{game}__{key}"] != defaults[key]
        }
        try:
            games.get(game).check_rules(rules)
        except scoring.InvalidHand as exc:
            name = f"{game}__{exc.field.removeprefix('rules.')}"
            self.add_error(name if name in self.fields else None, explain(exc))
            return data
        self.instance.rules = rules
        self.instance.hands_per_round = data.get("hands_per_round") or {}
        return data

    def rules_token(self) -> str:
        """The new rule settings as the confirmation button carries them: a confirmation counts
        for the settings it was shown for, not for others changed afterwards."""
        return json.dumps(self.instance.rules, sort_keys=True)

    def confirmed(self) -> bool:
        """Whether the organiser confirmed rescoring for exactly these settings, with a reason."""
        if self.cleaned_data.get("confirm_rules") != self.rules_token():
            return False
        if not self.cleaned_data.get("reason", "").strip():
            self.add_error(
                "reason", _("Give a reason for the change: it is kept in the event's history.")
            )
            return False
        return True

    def rule_changes(self, before: dict[str, Any]) -> list[tuple[str, str, str]]:
        """(setting, old value, new value) of every rule setting the form changes, in the
        director's words, for the confirmation step."""
        after = self.instance.full_rules()
        game = self.instance.game_type
        return [
            (
                game.setting_label(key),
                game.setting_text(key, before.get(key)),
                game.setting_text(key, value),
            )
            for key, value in after.items()
            if before.get(key) != value
        ]

    def settings(self) -> dict[str, Any]:
        """The validated settings, for ``play.events.change_event_settings``."""
        return {name: getattr(self.instance, name) for name in EVENT_SETTINGS}


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "slug", "game", "best_of"]
        help_texts = {
            "game": _("A season adds up the events of one game; its events must be of this game.")
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # not sent (an older form, a script): the model's default, the championship's Cego
        self.fields["game"].required = False

    def values(self) -> dict[str, Any]:
        """The validated fields, for ``play.events.create_season`` (a game not sent is the model's
        default, as the form set it)."""
        return {name: getattr(self.instance, name) for name in self.Meta.fields}


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("swaps with"))

    def __init__(self, *args: Any, entries: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = entries
        self.fields["second"].queryset = entries


class PairSwapForm(forms.Form):
    """Fixed Ziege pairs move whole: one pair takes another's places (partners stay opposite)."""

    first = forms.ModelChoiceField(queryset=Team.objects.none(), label=_("Pair"))
    second = forms.ModelChoiceField(queryset=Team.objects.none(), label=_("swaps places with"))

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, prefix="pairs", **kwargs)
        pairs = Team.objects.filter(
            event_id=round.event_id,
            kind=Team.Kind.PAIR,
            pair_members__seats__round=round,
        ).distinct()
        self.fields["first"].queryset = pairs
        self.fields["second"].queryset = pairs


class HandForm(forms.Form):
    """Base of the per-game hand forms: ``to_hand`` builds the engine's dict from the fields its
    contract needs (other fields are ignored), ``clean`` asks the engine."""

    # which engine field belongs to which form field, for errors the engine names
    error_fields: dict[str, str] = {}
    # when a field is needed, for the hand-form script: {field: {other field: [values]}}; a name
    # ending in "*" stands for every field it begins (one per player)
    visibility: dict[str, dict[str, list[str]]] = {}
    # a checkbox that clears and disables another input when ticked: {checkbox: input}
    clears: dict[str, str] = {}

    # one key per rendered form: a form sent twice stores one hand (play.hands.record_hand)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False, initial=uuid.uuid4)

    def __init__(
        self,
        *args: Any,
        table: Table,
        players: list[str],
        number: int | None = None,
        every_seat: bool = False,
        **kwargs: Any,
    ) -> None:
        self.table = table
        self.players = players
        self.number = number
        # every seat's fields, whoever deals: for a template of a whole round (imports)
        self.every_seat = every_seat
        self.result: list[int] | None = None
        super().__init__(*args, **kwargs)
        self.setup()

    def game_number(self) -> int:
        """The game this form enters: the number it was given, else the table's next game (read
        once per form: the form's set-up and its check both need it)."""
        if self.number is None:
            self.number = next_game_number(self.table)
        return self.number

    def setup(self) -> None:  # pragma: no cover - overridden
        pass

    def to_hand(self, data: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            hand = self.to_hand(data)
            self.result = preview_hand(table=self.table, data=hand, number=self.game_number())
        except scoring.InvalidHand as exc:
            field = self.field_for(exc.field)
            if field in self.fields:
                self.add_error(field, explain(exc, self.players))
            else:
                self.add_error(None, f"{self.field_label(exc.field)}: {explain(exc, self.players)}")
            return data
        self.hand = hand
        return data

    def field_for(self, engine_field: str) -> str | None:
        """The form field that shows an engine error: ``points[2]`` → ``points_2``, etc."""
        match = re.fullmatch(r"(?:reveal\.)?(\w+)\[(\d+)\](?:.*)", engine_field)
        if match:
            name, index = match.groups()
            indexed = {"points": "points", "hands": "hand", "penalty_cards": "penalty"}
            if name in indexed:
                return f"{indexed[name]}_{index}"
        if engine_field in self.fields:
            return engine_field
        return self.error_fields.get(engine_field.split("[")[0].split(".")[0])

    def field_label(self, engine_field: str) -> str:
        """An engine field without a form field of its own, as the scorer knows it: a seat's
        entry ("points[2]") by the player's name, never by a seat number counted from 0."""
        match = re.fullmatch(r"(?:\w+\.)?\w+\[(\d+)\].*", engine_field)
        if match and int(match.group(1)) < len(self.players):
            return self.players[int(match.group(1))]
        return engine_field

    def show_when(self, name: str) -> dict[str, list[str]] | None:
        """The rule for when the field ``name`` is needed (None: always)."""
        if name in self.visibility:
            return self.visibility[name]
        for pattern, rule in self.visibility.items():
            if pattern.endswith("*") and name.startswith(pattern[:-1]):
                return rule
        return None

    @staticmethod
    def seat(value: str) -> int | None:
        return int(value) if value not in (None, NONE) else None


class TotalsForm(forms.Form):
    """The paper fallback: each player's total for the round."""

    def __init__(self, *args: Any, table: Table, players: list[str], **kwargs: Any) -> None:
        self.table = table
        self.players = players
        super().__init__(*args, **kwargs)
        for i, name in enumerate(players):
            self.fields[f"total_{i}"] = forms.IntegerField(
                label=name, min_value=-TOTAL_MAX, max_value=TOTAL_MAX
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        totals = [data[f"total_{i}"] for i in range(self.table.size)]
        try:
            check_totals(self.table.round.event, self.table, totals)
        except scoring.InvalidHand as exc:
            # "totals[2]" is the third player's field
            field = re.sub(r"^totals\[(\d+)\]$", r"total_\1", exc.field)
            self.add_error(field if field in self.fields else None, explain(exc, self.players))
        self.totals = totals
        return data


def hand_form_class(game: GameType) -> type[HandForm]:
    """The game's hand form, named by dotted path in its plug-in (``GameType.hand_form``)."""
    return import_string(game.hand_form)


def card_counter_class(game: GameType) -> type[forms.Form] | None:
    """The game's helper form on the scorer's sheet (Cego's card counter), or None."""
    return import_string(game.card_counter) if game.card_counter else None
