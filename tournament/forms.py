"""Forms check and convert input; whether a hand is legal is the engine's decision.

A hand form turns the fields its contract needs into the hand dict of RULES.md and lets
``scoring`` judge it; an ``InvalidHand`` becomes an error on the field it names.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import cego, crazy_solo, hennes_sibbe

from .models import HANDS_MAX, Entry, Event, Game, Player, Round, Season, Table
from .names import NameIndex
from .services import (
    EVENT_FIELDS,
    EVENT_SETTINGS,
    PLAYER_FIELDS,
    check_totals,
    game_fixed_message,
    preview_hand,
    seat_sitting_out,
)
from .validators import single_line

NONE = ""

# The engine counts seats from 0 (RULES.md conventions); people count from 1 and know each other by
# name. ``explain`` turns every seat in an engine message into "5 (Anna Huber)", in one place.
SEAT_PARAMS = frozenset({"declarer", "sitting_out", "announcer"})
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
    for key in SEAT_PARAMS & params.keys():
        params[key] = seat_label(params[key], players)
    return scoring.Text(template, **params).render(gettext)


INT_MAX = 2**31 - 1  # what every database stores in an integer column


def whole_number(text: Any, high: int = INT_MAX) -> int | None:
    """A plain number typed or sent in a URL (ASCII digits only), or None: "²" or "1e9" or a
    hundred digits are not numbers here."""
    text = str(text or "").strip()
    if not re.fullmatch(r"[0-9]{1,18}", text):
        return None
    value = int(text)
    return value if value <= high else None


UPLOAD_MAX_BYTES = 5 * 1024 * 1024
TOTAL_MAX = 1_000_000  # far beyond any round's total, well inside the database's integers


# Rule settings in the director's words; the values themselves come from the engine.
SETTING_LABELS: dict[str, Any] = {
    "total_points": _("Card points in the deck"),
    "win_threshold": _("The declarer wins with at least (card points)"),
    "solo_double": _("A won Solo is doubled"),
    "gegensolo_raises": _("After a Gegensolo, one step higher counts"),
    "bettel": _("Bettel is worth"),
    "piccolo": _("Piccolo is worth"),
    "ulti": _("Ulti is worth"),
    "raeuber": _("Räuber costs each loser"),
    "match_limit": _("A match ends at (defeat points)"),
    "balls_double_next": _("After 60:60 the next deal counts double"),
    "rounding": _("Payout rounded to a multiple of 5"),
    "start_balance": _("Start balance (chips)"),
    "jokers_fit_all": _("Every joker fits every colour"),
    "goat_doubling": _("Three goats in one hand double"),
    "hennes_value": _("Hennes Sibbe counts for the claimant"),
    "penalty_limit": _("A game ends at (penalty cards)"),
}
CHOICE_LABELS: dict[str, Any] = {
    "before_rounding": _("before rounding to tens"),
    "after_rounding": _("after rounding to tens"),
    "all": _("for every contract"),
    "cego_only": _("only for a Cego"),
    "nearest": _("to the nearest"),
    "up": _("upwards"),
    "hand": _("only that hand's jokers"),
    "off": _("never"),
}
CHOICE_LABELS_BY_SETTING: dict[tuple[str, str], Any] = {
    ("goat_doubling", "all"): _("every joker on the table"),
}


def setting_text(key: str, value: Any) -> str:
    """A rule setting's value as the form shows it."""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, str):
        return str(CHOICE_LABELS_BY_SETTING.get((key, value), CHOICE_LABELS.get(value, value)))
    return "" if value is None else str(value)


def rule_fields(game: str) -> dict[str, forms.Field]:
    """One form field per rule setting of a game, named ``<game>__<setting>``."""
    info = scoring.GAMES[game]
    options = getattr(info.module, "SETTING_CHOICES", {})
    fields: dict[str, forms.Field] = {}
    for key, default in info.default_rules().items():
        label = SETTING_LABELS.get(key, key)
        if isinstance(default, bool):
            field: forms.Field = forms.BooleanField(label=label, required=False, initial=default)
        elif key in options:
            field = forms.ChoiceField(
                label=label,
                initial=default,
                choices=[
                    (c, CHOICE_LABELS_BY_SETTING.get((key, c), CHOICE_LABELS.get(c, c)))
                    for c in options[key]
                ],
            )
        else:
            field = forms.IntegerField(label=label, initial=default)
        fields[f"{game}__{key}"] = field
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
    return [
        (str(SETTING_LABELS.get(key, key)), setting_text(key, value))
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
    games_per_round = forms.CharField(
        label=_("Games per round"),
        required=False,
        help_text=_(
            "Empty: the game's default (Cego and Ziege 24, Crazy Solo two deals per player, "
            'Hennes Sibbe until the time is up). "24" for every table, or "4: 24, 5: 25".'
        ),
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
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Part of the address; made from the name when empty.")
        # a season holds one game: its choice names it
        self.fields["season"].label_from_instance = season_label
        self.fields["games_per_round"].initial = hands_text(self.instance.hands_per_round or {})
        for game in scoring.GAMES:
            for name, field in rule_fields(game).items():
                key = name.split("__", 1)[1]
                if self.instance.pk and self.instance.game == game and key in self.instance.rules:
                    field.initial = self.instance.rules[key]
                self.fields[name] = field

    def general_fields(self) -> list[Any]:
        return [f for f in self if "__" not in f.name and f.name not in self.CONFIRMATION]

    def rule_groups(self) -> list[tuple[str, str, list[Any]]]:
        """(game key, game name, bound fields) for the template's per-game fieldsets."""
        return [
            (key, game.name, [f for f in self if f.name.startswith(f"{key}__")])
            for key, game in scoring.GAMES.items()
        ]

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))
        if not slug:
            raise forms.ValidationError(_("Give the event a name."))
        if Event.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("Another event already uses this short name."))
        return slug

    def clean_games_per_round(self) -> dict[str, int]:
        return parse_hands(self.cleaned_data.get("games_per_round", ""))

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
        if not game or game not in scoring.GAMES:
            return data
        defaults = scoring.default_rules(game)
        # only the settings that differ from the defaults are stored
        rules = {
            key: data[f"{game}__{key}"]
            for key in defaults
            if data.get(f"{game}__{key}") is not None and data[f"{game}__{key}"] != defaults[key]
        }
        try:
            scoring.check_rules(game, rules)
        except scoring.InvalidHand as exc:
            name = f"{game}__{exc.field.removeprefix('rules.')}"
            self.add_error(name if name in self.fields else None, explain(exc))
            return data
        self.instance.rules = rules
        self.instance.hands_per_round = data.get("games_per_round") or {}
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
        return [
            (
                str(SETTING_LABELS.get(key, key)),
                setting_text(key, before.get(key)),
                setting_text(key, value),
            )
            for key, value in after.items()
            if before.get(key) != value
        ]

    def settings(self) -> dict[str, Any]:
        """The validated settings, for ``services.change_event_settings``."""
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
        """The validated fields, for ``services.create_season`` (a game not sent is the model's
        default, as the form set it)."""
        return {name: getattr(self.instance, name) for name in self.Meta.fields}


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = list(PLAYER_FIELDS)

    def values(self) -> dict[str, Any]:
        """The validated fields, for ``services.correct_player``."""
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class RegisterForm(forms.Form):
    """Register an existing player, or a new one by name.

    A new name that is probably a known player's (same name, or a close spelling: Maier/Meier,
    Schäuble/Schaeuble) is not created silently: the form shows the known players with club and
    town and asks whether it is the same person (``same_person``: a player's id, or ``new``).
    """

    NEW = "new"

    player = forms.ModelChoiceField(
        queryset=Player.objects.all(), required=False, label=_("Known player")
    )
    first_name = forms.CharField(
        label=_("first name"), max_length=100, required=False, validators=[single_line]
    )
    last_name = forms.CharField(
        label=_("last name"), max_length=100, required=False, validators=[single_line]
    )
    club = forms.CharField(
        label=_("club"), max_length=150, required=False, validators=[single_line]
    )
    town = forms.CharField(
        label=_("town"), max_length=150, required=False, validators=[single_line]
    )
    category = forms.ChoiceField(
        label=_("category"), choices=Player.Category.choices, required=False
    )
    team = forms.CharField(
        label=_("Team of four"),
        max_length=150,
        required=False,
        validators=[single_line],
        help_text=_("For the team ranking: the team's name (created with its first member)."),
    )
    same_person = forms.CharField(required=False, max_length=20)

    def __init__(self, *args: Any, event: Event | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.candidates: list[Player] = []
        # two people of one name are told apart by club and town
        self.fields["player"].label_from_instance = described  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("player"):
            return data
        if self.has_error("first_name") or self.has_error("last_name"):
            return data  # the name field says what is wrong with it
        first, last = (data.get("first_name") or "").strip(), (data.get("last_name") or "").strip()
        if not (first and last):
            raise forms.ValidationError(
                _("Choose a known player, or give the first and last name of a new one.")
            )
        self.candidates = likely_players(first, last, event=self.event)
        answer = data.get("same_person") or ""
        if not self.candidates or answer == self.NEW:
            return data
        chosen = next((p for p in self.candidates if str(p.pk) == answer), None)
        if chosen is None:
            raise forms.ValidationError(
                _(
                    "A player with this name or a very similar one is already known. "
                    "Is it the same person? Choose below."
                ),
                code="duplicate",
            )
        data["player"] = chosen
        return data

    def get_player(self) -> Player:
        """The player chosen, or a new one, not saved: ``services.register_player`` creates it
        with the entry."""
        data = self.cleaned_data
        if data.get("player"):
            return data["player"]
        return Player(
            first_name=data["first_name"].strip(),
            last_name=data["last_name"].strip(),
            club=data.get("club", "").strip(),
            town=data.get("town", "").strip(),
            category=data.get("category", ""),
        )


def described(player: Player) -> str:
    """A player as a list of choices shows them: name, club, town."""
    return " · ".join(x for x in (player.sort_name, player.club, player.town) if x)


def likely_players(first_name: str, last_name: str, *, event: Event | None = None) -> list[Player]:
    """Known players whose name is probably this one, each marked ``registered`` when already
    entered in ``event``. Two queries (every player's name is compared in Python: a few
    thousand short rows)."""
    index = NameIndex(
        (p.first_name, p.last_name, p)
        for p in Player.objects.only("pk", "first_name", "last_name", "club", "town")
    )
    found = index.find(first_name, last_name)
    registered: set[int] = set()
    if event is not None and found:
        registered = set(
            Entry.objects.filter(event=event, player__in=found).values_list("player_id", flat=True)
        )
    for player in found:
        player.registered = player.pk in registered
    return found


class PairForm(forms.Form):
    """Ziege with fixed pairs: two registered players who always sit opposite."""

    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("partner"))
    name = forms.CharField(
        label=_("Pair name"), max_length=150, required=False, validators=[single_line]
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        unpaired = Entry.objects.filter(event=event, pair__isnull=True).select_related("player")
        self.fields["first"].queryset = unpaired
        self.fields["second"].queryset = unpaired


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("swaps with"))

    def __init__(self, *args: Any, entries: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = entries
        self.fields["second"].queryset = entries


class UploadForm(forms.Form):
    file = forms.FileField(label=_("File"), help_text=_("Excel (.xlsx) or CSV"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > UPLOAD_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


REASON_LENGTH = 100  # what the history keeps of a change's reason (simple-history's column)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_LENGTH, validators=[single_line])


# --- hand forms -------------------------------------------------------------------------------


def seat_choices(
    players: list[str], blank: str | None = None, without: int | None = None
) -> list[tuple[str, str]]:
    choices = [(str(i), name) for i, name in enumerate(players) if i != without]
    return [(NONE, blank), *choices] if blank is not None else choices


class SeatChoiceField(forms.ChoiceField):
    """A seat chosen by the player's name. A seat that is at the table but may not be chosen for
    this game (the dealer who sits out) is left out of the choices, and sent anyway it is refused
    with its own reason instead of Django's "not one of the available choices"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unavailable: dict[str, str] = {}

    def validate(self, value: Any) -> None:
        if value in self.unavailable:
            raise forms.ValidationError(self.unavailable[value], code="unavailable")
        super().validate(value)


class HandForm(forms.Form):
    """Base of the per-game hand forms: ``to_hand`` builds the engine's dict from the fields its
    contract needs (other fields are ignored), ``clean`` asks the engine."""

    game: str = ""
    # which engine field belongs to which form field, for errors the engine names
    error_fields: dict[str, str] = {}

    # one key per rendered form: a form sent twice stores one hand (services.record_hand)
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
            self.result = preview_hand(table=self.table, data=hand, number=self.number)
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

    @staticmethod
    def seat(value: str) -> int | None:
        return int(value) if value not in (None, NONE) else None


class CegoHandForm(HandForm):
    game = Game.CEGO
    error_fields = {
        "contract": "contract",
        "declarer": "declarer",
        "declarer_points": "declarer_points",
        "declarer_took_trick": "berg",
        "gegensolo": "gegensolo",
        "declarer_tricks": "declarer_tricks",
        "won": "won",
        "points": "points_0",
        "announcer": "announcer",
        "forfeit": "forfeit",
        "sitting_out": "declarer",
    }
    POINT_GAMES = (*cego.LADDER, "solo")

    contract = forms.ChoiceField(label=_("Contract"), choices=[])
    declarer = SeatChoiceField(label=_("Declarer"), choices=[], required=False)
    declarer_points = forms.IntegerField(label=_("Declarer's card points"), required=False)
    berg = forms.BooleanField(label=_("Berg: declarer took no trick"), required=False)
    gegensolo = forms.BooleanField(label=_("after a Gegensolo"), required=False)
    declarer_tricks = forms.IntegerField(label=_("Declarer's tricks"), required=False)
    won = forms.ChoiceField(
        label=_("Ulti: last trick with the Geiß?"),
        choices=[(NONE, "—"), ("yes", _("yes, won")), ("no", _("no, lost"))],
        required=False,
    )
    announcer = SeatChoiceField(label=_("Räuber announced by"), choices=[], required=False)
    forfeit = forms.ChoiceField(
        label=_("Forfeit"),
        choices=[
            (NONE, _("none")),
            ("declarer", _("by the declarer's side (scored as Berg)")),
            ("opponents", _("by the opponents (maximum win)")),
        ],
        required=False,
    )

    def setup(self) -> None:
        from .templatetags.tournament import contract_name

        self.fields["contract"].choices = [(NONE, "—")] + [
            (key, contract_name("cego", key)) for key in cego.CONTRACTS
        ]
        # RULES.md 2.1: at five seats the dealer sits out the game: he neither declares nor
        # takes part in a Räuber, so he is not offered for either
        self.sitting_out = None if self.every_seat else seat_sitting_out(self.table, self.number)
        out = self.sitting_out
        self.fields["declarer"].choices = seat_choices(self.players, "—", without=out)
        self.fields["announcer"].choices = seat_choices(self.players, _("nobody"), without=out)
        if out is not None and out < len(self.players):
            name = self.players[out]
            # a new dict per form: the field is a shallow copy of the class's field
            self.fields["declarer"].unavailable = {
                str(out): _("%(name)s deals this game and sits out: choose one of the players.")
                % {"name": name}
            }
            self.fields["announcer"].unavailable = {
                str(out): _("%(name)s deals this game and sits out, so cannot announce Räuber.")
                % {"name": name}
            }
        for i, name in enumerate(self.players):
            if i == out:
                continue
            self.fields[f"points_{i}"] = forms.IntegerField(
                label=name, required=False, widget=forms.NumberInput(attrs={"class": "raeuber"})
            )

    @property
    def sitting_out_name(self) -> str:
        """The player who deals and sits out this game (five-seat Cego), for the form's heading."""
        out = self.sitting_out
        return self.players[out] if out is not None and out < len(self.players) else ""

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        contract = d.get("contract")
        if not contract:
            raise scoring.InvalidHand("contract", str(_("choose the contract")))
        hand: dict[str, Any] = {"contract": contract}
        if contract == "raeuber":
            # the dealer who sits out has no field: his card points are 0 (RULES.md 2.5); a
            # number sent for him anyway goes to the engine, which refuses it with its reason
            hand["points"] = [
                (whole_number(self.data.get(f"points_{i}")) or 0)
                if i == self.sitting_out
                else d.get(f"points_{i}")
                for i in range(len(self.players))
            ]
            if any(p is None for p in hand["points"]):
                raise scoring.InvalidHand("points", str(_("enter every player's card points")))
            hand["announcer"] = self.seat(d.get("announcer"))
            return hand
        if self.seat(d.get("declarer")) is None:
            raise scoring.InvalidHand("declarer", str(_("choose the declarer")))
        hand["declarer"] = self.seat(d.get("declarer"))
        if d.get("forfeit"):
            hand["forfeit"] = d["forfeit"]
        if contract in self.POINT_GAMES:
            points = d.get("declarer_points")
            if d.get("berg"):
                # Berg means no card points: points typed as well go to the engine, which
                # refuses anything but 0 with its reason (as it does for a stored hand)
                hand["declarer_took_trick"] = False
                if points:
                    hand["declarer_points"] = points
            elif points is not None:
                hand["declarer_points"] = points
            if d.get("gegensolo") and contract != "solo":
                hand["gegensolo"] = True
        elif contract in ("bettel", "piccolo"):
            if d.get("declarer_tricks") is not None:
                hand["declarer_tricks"] = d["declarer_tricks"]
        elif contract == "ulti" and d.get("won"):
            hand["won"] = d["won"] == "yes"
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "contract": hand.get("contract"),
            "declarer": hand.get("declarer"),
            "declarer_points": hand.get("declarer_points"),
            "berg": hand.get("declarer_took_trick") is False,
            "gegensolo": hand.get("gegensolo", False),
            "declarer_tricks": hand.get("declarer_tricks"),
            "won": {True: "yes", False: "no"}.get(hand.get("won"), NONE),
            "announcer": hand.get("announcer"),
            "forfeit": hand.get("forfeit") or NONE,
        }
        for i, points in enumerate(hand.get("points") or []):
            initial[f"points_{i}"] = points
        return initial


class ZiegeHandForm(HandForm):
    game = Game.ZIEGE
    error_fields = {
        "team_a_points": "team_a_points",
        "team_a_took_trick": "team_a_took_trick",
        "team_b_took_trick": "team_b_took_trick",
    }
    TRICK_CHOICES = [(NONE, _("as the points say")), ("yes", _("yes")), ("no", _("no"))]

    team_a_points = forms.IntegerField(label=_("Card points of team A"))
    team_a_took_trick = forms.ChoiceField(
        label=_("Team A took a trick"), choices=TRICK_CHOICES, required=False
    )
    team_b_took_trick = forms.ChoiceField(
        label=_("Team B took a trick"), choices=TRICK_CHOICES, required=False
    )

    def setup(self) -> None:
        names = self.players
        if len(names) == 4:
            self.fields["team_a_points"].label = _("Card points of %(a)s and %(b)s") % {
                "a": names[0],
                "b": names[2],
            }

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {"team_a_points": d["team_a_points"]}
        for key in ("team_a_took_trick", "team_b_took_trick"):
            if d.get(key):
                hand[key] = d[key] == "yes"
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        initial = {"team_a_points": hand.get("team_a_points")}
        for key in ("team_a_took_trick", "team_b_took_trick"):
            if key in hand:
                initial[key] = "yes" if hand[key] else "no"
        return initial


class CrazySoloHandForm(HandForm):
    game = Game.CRAZY_SOLO
    error_fields = {
        "contract": "contract",
        "bidder": "bidder",
        "partner": "partner",
        "soloist_points": "soloist_points",
        "trump": "trump",
    }

    contract = forms.ChoiceField(label=_("Contract"), choices=[])
    bidder = forms.ChoiceField(label=_("Bidder"), choices=[])
    partner = forms.ChoiceField(label=_("Partner"), choices=[], required=False)
    soloist_points = forms.IntegerField(label=_("Soloists' card points"))
    trump = forms.ChoiceField(
        label=_("Trumps"),
        choices=[
            (NONE, "—"),
            ("kreuz", "Kreuz"),
            ("pik", "Pik"),
            ("karo", "Karo"),
            ("herz", "Herz"),
        ],
        required=False,
    )

    def setup(self) -> None:
        from .templatetags.tournament import contract_name

        self.fields["contract"].choices = [
            (key, contract_name("crazy_solo", key)) for key in crazy_solo.CONTRACTS
        ]
        self.fields["bidder"].choices = seat_choices(self.players)
        self.fields["partner"].choices = seat_choices(self.players, _("none (plays alone)"))

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        hand = {
            "contract": d["contract"],
            "bidder": self.seat(d["bidder"]),
            "soloist_points": d["soloist_points"],
        }
        if d["contract"] not in crazy_solo.ALONE_CONTRACTS:
            hand["partner"] = self.seat(d.get("partner"))
        if d.get("trump"):
            hand["trump"] = d["trump"]
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        return {
            "contract": hand.get("contract"),
            "bidder": hand.get("bidder"),
            "partner": hand.get("partner") if hand.get("partner") is not None else NONE,
            "soloist_points": hand.get("soloist_points"),
            "trump": hand.get("trump") or NONE,
        }


# Hennes Sibbe cards as typed on a sheet (the short form): (word, abbreviation, other spellings)
# per card; a number repeats the card after it ("3 rot", "2b"). The word is what the card buttons
# write and the help next to the fields shows, with the abbreviation.
CARD_SPELLINGS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "rot": ("rot", "r", ()),
    "orange": ("orange", "o", ()),
    "gelb": ("gelb", "ge", ()),
    "gruen": ("grün", "gr", ("gruen",)),
    "blau": ("blau", "bl", ()),
    "lila": ("lila", "l", ()),
    "goat": ("bock", "b", ("geißbock", "geissbock", "goat")),
    "hennes": ("hennes", "h", ()),
    "joker_rgb": ("rgb", "", ("joker_rgb",)),
    "joker_ogl": ("ogl", "", ("joker_ogl",)),
}
CARD_WORDS = {
    word: card
    for card, (main, short, others) in CARD_SPELLINGS.items()
    for word in (main, short, *others)
    if word
}
CARD_REPEAT_MAX = 20  # more of one card than any hand holds
CARD_TOKEN = re.compile(r"(?:([0-9]+)[x×*]?)?([^\W\d_]+)?")


def card_words_help(cards: tuple[str, ...] = hennes_sibbe.CARDS) -> str:
    """The valid words, shown next to the card fields before anyone types: "rot (r), ..."."""
    words = []
    for card in cards:
        main, short, _others = CARD_SPELLINGS[card]
        words.append(f"{main} ({short})" if short else main)
    return ", ".join(words)


def parse_cards(text: str, field: str) -> list[str]:
    """ "rot rot bock", "2 rot b" or "2rot, bock" → ["rot", "rot", "goat"]."""
    cards: list[str] = []
    repeat: int | None = None
    for token in re.split(r"[\s,;]+", (text or "").lower().strip()):
        if not token:
            continue
        match = CARD_TOKEN.fullmatch(token)
        number, word = match.groups() if match else (None, token)
        if number is not None:
            if repeat is not None or not 1 <= int(number) <= CARD_REPEAT_MAX:
                raise scoring.InvalidHand(
                    field,
                    str(_("“%(word)s”: write one number from 1 to 20, then its card, e.g. 3 rot"))
                    % {"word": token},
                )
            repeat = int(number)
        if word is None:
            continue  # "3 rot": the number waits for its card
        if word not in CARD_WORDS:
            raise scoring.InvalidHand(
                field,
                str(_("unknown card “%(word)s”; write %(words)s"))
                % {
                    "word": word,
                    "words": card_words_help(),
                },
            )
        cards += [CARD_WORDS[word]] * (repeat or 1)
        repeat = None
    if repeat is not None:
        raise scoring.InvalidHand(field, str(_("a number must be followed by a card, e.g. 3 rot")))
    return cards


class HennesSibbeHandForm(HandForm):
    game = Game.HENNES_SIBBE
    error_fields = {
        "claimant": "claimant",
        "challenger": "challenger",
        "claim": "claim_count",
        "claim_correct": "claim_correct",
        "reveal": "claim_correct",
    }

    claimant = forms.ChoiceField(label=_("Claim by"), choices=[])
    claim_count = forms.IntegerField(label=_("Claimed number"), min_value=1, max_value=999)
    claim_colour = forms.ChoiceField(
        label=_("Colour"), choices=list(hennes_sibbe.COLOUR_NAMES.items())
    )
    challenger = forms.ChoiceField(label=_("“Lüge!” called by"), choices=[])
    claim_correct = forms.ChoiceField(
        label=_("Counted by the table"),
        choices=[
            (NONE, _("enter the revealed cards below")),
            ("yes", _("the claim was right")),
            ("no", _("the claim was wrong")),
        ],
        required=False,
    )
    drillings = forms.CharField(label=_("Drillings laid out (colours)"), required=False)

    def setup(self) -> None:
        self.fields["claimant"].choices = seat_choices(self.players)
        self.fields["challenger"].choices = seat_choices(self.players)
        # the card fields: typed in the short form, or tapped in with the card buttons (JS)
        cards = {"data-cards": "all", "aria-describedby": "card-words", "autocomplete": "off"}
        for i, name in enumerate(self.players):
            self.fields[f"hand_{i}"] = forms.CharField(
                label=_("%(name)s: hand") % {"name": name},
                required=False,
                widget=forms.TextInput(attrs=cards),
            )
            self.fields[f"penalty_{i}"] = forms.CharField(
                label=_("%(name)s: penalty cards") % {"name": name},
                required=False,
                widget=forms.TextInput(attrs=cards),
            )
        self.fields["drillings"].widget.attrs.update(
            {**cards, "data-cards": "colours", "aria-describedby": "drilling-words"}
        )
        self.fields["drillings"].help_text = _("Colours only: %(words)s") % {
            "words": card_words_help(hennes_sibbe.COLOURS)
        }
        # drillings are listed after the players' cards
        self.order_fields([name for name in self.fields if name != "drillings"] + ["drillings"])

    # shown next to the first card field: the short form, before anyone makes a mistake
    card_words_field = "hand_0"

    def card_words(self) -> str:
        return card_words_help()

    def card_buttons(self) -> list[tuple[str, str, bool]]:
        """(word written, label, is a colour) for the card buttons the script adds to each field."""
        names = {**hennes_sibbe.COLOUR_NAMES, **hennes_sibbe.JOKER_NAMES}
        names |= {"goat": "Bock", "hennes": "Hennes", "joker_rgb": "RGB", "joker_ogl": "OGL"}
        return [
            (CARD_SPELLINGS[c][0], names[c], c in hennes_sibbe.COLOURS) for c in hennes_sibbe.CARDS
        ]

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {
            "claimant": self.seat(d["claimant"]),
            "challenger": self.seat(d["challenger"]),
            "claim": {"count": d["claim_count"], "colour": d["claim_colour"]},
        }
        if d.get("claim_correct"):
            hand["claim_correct"] = d["claim_correct"] == "yes"
            return hand
        n = len(self.players)
        hand["reveal"] = {
            "hands": [parse_cards(d.get(f"hand_{i}") or "", f"hand_{i}") for i in range(n)],
            "penalty_cards": [
                parse_cards(d.get(f"penalty_{i}") or "", f"penalty_{i}") for i in range(n)
            ],
            "drillings": parse_cards(d.get("drillings") or "", "drillings"),
        }
        reveal = hand["reveal"]
        if not any([*reveal["hands"], *reveal["penalty_cards"], reveal["drillings"]]):
            # an empty reveal would count 0 and always call the claim wrong
            raise scoring.InvalidHand(
                "claim_correct",
                str(
                    _(
                        "no cards entered: enter the revealed cards below, "
                        "or choose whether the claim was right"
                    )
                ),
            )
        return hand

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except scoring.InvalidHand as exc:  # a card word typed wrong
            self.add_error(exc.field if exc.field in self.fields else None, explain(exc))
            return self.cleaned_data

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        claim = hand.get("claim") or {}
        initial: dict[str, Any] = {
            "claimant": hand.get("claimant"),
            "challenger": hand.get("challenger"),
            "claim_count": claim.get("count"),
            "claim_colour": claim.get("colour"),
        }
        if "claim_correct" in hand:
            initial["claim_correct"] = "yes" if hand["claim_correct"] else "no"
        reveal = hand.get("reveal") or {}

        def words(cards: list[str]) -> str:  # in the short form the page shows
            return " ".join(CARD_SPELLINGS[c][0] if c in CARD_SPELLINGS else c for c in cards)

        for i, cards in enumerate(reveal.get("hands") or []):
            initial[f"hand_{i}"] = words(cards)
        for i, cards in enumerate(reveal.get("penalty_cards") or []):
            initial[f"penalty_{i}"] = words(cards)
        initial["drillings"] = words(reveal.get("drillings") or [])
        return initial


HAND_FORMS: dict[str, type[HandForm]] = {
    Game.CEGO: CegoHandForm,
    Game.ZIEGE: ZiegeHandForm,
    Game.CRAZY_SOLO: CrazySoloHandForm,
    Game.HENNES_SIBBE: HennesSibbeHandForm,
}


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


class CardCounterForm(forms.Form):
    """Cego's card counter: counts of a pile's cards → card points (scoring.cego.card_points)."""

    king = forms.IntegerField(label=_("Kings"), min_value=0, required=False)
    queen = forms.IntegerField(label=_("Queens"), min_value=0, required=False)
    cavall = forms.IntegerField(label=_("Cavalls"), min_value=0, required=False)
    jack = forms.IntegerField(label=_("Jacks"), min_value=0, required=False)
    trull = forms.IntegerField(label=_("Trull cards"), min_value=0, required=False)
    other = forms.IntegerField(label=_("Other cards"), min_value=0, required=False)
