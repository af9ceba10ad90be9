"""Forms check and convert input; whether a hand is legal is the engine's decision.

A hand form turns the fields its contract needs into the hand dict of RULES.md and lets
``scoring`` judge it; an ``InvalidHand`` becomes an error on the field it names.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import cego, crazy_solo, hennes_sibbe

from .models import Entry, Event, Game, Player, Season, Table
from .services import check_totals, preview_hand

NONE = ""


def explain(exc: scoring.InvalidHand) -> str:
    """The engine's reason in the scorer's language (its templates are in the catalogue)."""
    return exc.explain(gettext)


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


def parse_hands(text: str) -> dict[str, int]:
    """ "24" (every table size) or "4: 24, 5: 25" (per table size) → {"*": 24} or {"4": 24, ...}."""
    text = (text or "").strip()
    if not text:
        return {}
    if whole_number(text) is not None:
        return {"*": whole_number(text)}
    result: dict[str, int] = {}
    for part in text.split(","):
        size, sep, hands = part.partition(":")
        if not sep or whole_number(size) is None or whole_number(hands, 10_000) is None:
            raise forms.ValidationError(
                _(
                    'Write one number for every table size ("24") or sizes with their games '
                    '("4: 24, 5: 25").'
                )
            )
        if int(hands) < 1:
            raise forms.ValidationError(_("A round has at least one game."))
        result[size.strip()] = int(hands)
    return result


def hands_text(value: dict[str, int]) -> str:
    if not value:
        return ""
    if set(value) == {"*"}:
        return str(value["*"])
    return ", ".join(f"{size}: {hands}" for size, hands in sorted(value.items()))


class EventForm(forms.ModelForm):
    games_per_round = forms.CharField(
        label=_("Games per round"),
        required=False,
        help_text=_(
            "Empty: the game's default (Cego and Ziege 24, Crazy Solo two deals per player, "
            'Hennes Sibbe until the time is up). "24" for every table, or "4: 24, 5: 25".'
        ),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "slug",
            "season",
            "date",
            "venue",
            "game",
            "table_policy",
            "target_table_size",
            "rounds_planned",
            "pairing",
            "public_url",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Part of the address; made from the name when empty.")
        self.fields["games_per_round"].initial = hands_text(self.instance.hands_per_round or {})
        for game in scoring.GAMES:
            for name, field in rule_fields(game).items():
                key = name.split("__", 1)[1]
                if self.instance.pk and self.instance.game == game and key in self.instance.rules:
                    field.initial = self.instance.rules[key]
                self.fields[name] = field

    def general_fields(self) -> list[Any]:
        return [f for f in self if "__" not in f.name]

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


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "slug", "best_of"]


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "club", "town", "category"]


class RegisterForm(forms.Form):
    """Register an existing player, or a new one by name."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.all(), required=False, label=_("Known player")
    )
    first_name = forms.CharField(label=_("first name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("last name"), max_length=100, required=False)
    club = forms.CharField(label=_("club"), max_length=150, required=False)
    town = forms.CharField(label=_("town"), max_length=150, required=False)
    category = forms.ChoiceField(
        label=_("category"), choices=Player.Category.choices, required=False
    )
    team = forms.CharField(
        label=_("Team of four"),
        max_length=150,
        required=False,
        help_text=_("For the team ranking: the team's name (created with its first member)."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("player") and not (data.get("first_name") and data.get("last_name")):
            raise forms.ValidationError(
                _("Choose a known player, or give the first and last name of a new one.")
            )
        return data

    def get_player(self) -> Player:
        data = self.cleaned_data
        if data.get("player"):
            return data["player"]
        player, _created = Player.objects.get_or_create(
            first_name=data["first_name"].strip(),
            last_name=data["last_name"].strip(),
            club=data.get("club", "").strip(),
            defaults={"town": data.get("town", "").strip(), "category": data.get("category", "")},
        )
        return player


class PairForm(forms.Form):
    """Ziege with fixed pairs: two registered players who always sit opposite."""

    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("partner"))
    name = forms.CharField(label=_("Pair name"), max_length=150, required=False)

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


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300)


# --- hand forms -------------------------------------------------------------------------------


def seat_choices(players: list[str], blank: str | None = None) -> list[tuple[str, str]]:
    choices = [(str(i), name) for i, name in enumerate(players)]
    return [(NONE, blank), *choices] if blank is not None else choices


class HandForm(forms.Form):
    """Base of the per-game hand forms: ``to_hand`` builds the engine's dict from the fields its
    contract needs (other fields are ignored), ``clean`` asks the engine."""

    game: str = ""
    # which engine field belongs to which form field, for errors the engine names
    error_fields: dict[str, str] = {}

    # one key per rendered form: a form sent twice stores one hand (services.record_hand)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False, initial=uuid.uuid4)

    def __init__(
        self, *args: Any, table: Table, players: list[str], number: int | None = None, **kwargs: Any
    ) -> None:
        self.table = table
        self.players = players
        self.number = number
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
                self.add_error(field, explain(exc))
            else:
                self.add_error(None, f"{exc.field}: {explain(exc)}")
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
    declarer = forms.ChoiceField(label=_("Declarer"), choices=[], required=False)
    declarer_points = forms.IntegerField(label=_("Declarer's card points"), required=False)
    berg = forms.BooleanField(label=_("Berg: declarer took no trick"), required=False)
    gegensolo = forms.BooleanField(label=_("after a Gegensolo"), required=False)
    declarer_tricks = forms.IntegerField(label=_("Declarer's tricks"), required=False)
    won = forms.ChoiceField(
        label=_("Ulti: last trick with the Geiß?"),
        choices=[(NONE, "—"), ("yes", _("yes, won")), ("no", _("no, lost"))],
        required=False,
    )
    announcer = forms.ChoiceField(label=_("Räuber announced by"), choices=[], required=False)
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
        self.fields["declarer"].choices = seat_choices(self.players, "—")
        self.fields["announcer"].choices = seat_choices(self.players, _("nobody"))
        for i, name in enumerate(self.players):
            self.fields[f"points_{i}"] = forms.IntegerField(
                label=name, required=False, widget=forms.NumberInput(attrs={"class": "raeuber"})
            )

    def to_hand(self, d: dict[str, Any]) -> dict[str, Any]:
        contract = d.get("contract")
        if not contract:
            raise scoring.InvalidHand("contract", str(_("choose the contract")))
        hand: dict[str, Any] = {"contract": contract}
        if contract == "raeuber":
            hand["points"] = [d.get(f"points_{i}") for i in range(len(self.players))]
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
            if d.get("berg"):
                hand["declarer_took_trick"] = False
            elif d.get("declarer_points") is not None:
                hand["declarer_points"] = d["declarer_points"]
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


# Hennes Sibbe cards as typed on a sheet: German colour names, and short names for the jokers.
CARD_WORDS = {
    **{c: c for c in hennes_sibbe.CARDS},
    "grün": "gruen",
    "bock": "goat",
    "geißbock": "goat",
    "geissbock": "goat",
    "rgb": "joker_rgb",
    "ogl": "joker_ogl",
}


def parse_cards(text: str, field: str) -> list[str]:
    cards = []
    for word in text.replace(",", " ").lower().split():
        if word not in CARD_WORDS:
            raise scoring.InvalidHand(
                field,
                str(
                    _(
                        "unknown card “%(word)s”; write colours "
                        "(rot, orange, gelb, grün, blau, lila) "
                        "or jokers (bock, hennes, rgb, ogl)"
                    )
                )
                % {"word": word},
            )
        cards.append(CARD_WORDS[word])
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
        for i, name in enumerate(self.players):
            self.fields[f"hand_{i}"] = forms.CharField(
                label=_("%(name)s: hand") % {"name": name}, required=False
            )
            self.fields[f"penalty_{i}"] = forms.CharField(
                label=_("%(name)s: penalty cards") % {"name": name}, required=False
            )

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
        for i, cards in enumerate(reveal.get("hands") or []):
            initial[f"hand_{i}"] = " ".join(cards)
        for i, cards in enumerate(reveal.get("penalty_cards") or []):
            initial[f"penalty_{i}"] = " ".join(cards)
        initial["drillings"] = " ".join(reveal.get("drillings") or [])
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
            self.add_error(None, explain(exc))
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
