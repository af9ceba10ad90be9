"""Hennes Sibbe (RULES.md 5): a bluffing game of claims and "Lüge!", scored in penalty cards.

A game ends when a player reaches the penalty limit; the standings rank by fewest penalty cards,
then fewest games lost. A round has no fixed number of challenges: it ends between two games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import hennes_sibbe
from tournament.core import formatting
from tournament.core.fields import NONE, seat_choices
from tournament.games.base import Figure, GameType, SeatResult, SheetExtras
from tournament.paper.rulecard import Card
from tournament.play.forms import HandForm

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
    error_fields = {
        "claimant": "claimant",
        "challenger": "challenger",
        "claim": "claim_count",
        "claim_correct": "claim_correct",
        "reveal": "claim_correct",
    }
    # the revealed cards only where the table did not just say whether the claim was right
    visibility = {
        "hand_*": {"claim_correct": [NONE]},
        "penalty_*": {"claim_correct": [NONE]},
        "drillings": {"claim_correct": [NONE]},
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


def rule_card(card: Card) -> None:
    rules = card.rules
    colours = hennes_sibbe.COLOUR_NAMES
    card.heading = _("Jokers (goats)")
    card.values_are_numbers = False
    card.columns = [_("Joker"), _("Fits")]
    for joker in hennes_sibbe.JOKERS:
        fits = [colours[c] for c in hennes_sibbe.COLOURS if hennes_sibbe.fits(joker, c, rules)]
        card.rows.append(
            {
                "name": hennes_sibbe.JOKER_NAMES[joker],
                "value": ", ".join(fits) if len(fits) < len(colours) else _("every colour"),
            }
        )
    doubling = rules["goat_doubling"]
    card.formula = [
        _("Colours, highest first: %(order)s.")
        % {"order": " > ".join(colours[c] for c in hennes_sibbe.COLOURS)},
        _(
            "A raise names more cards, or as many of a higher colour; "
            "or the next player calls Lüge!"
        ),
        _(
            "Counted on all hands: each card of the colour 1 (2 for a player who holds a penalty "
            "card of that colour), each penalty card of the colour 1, each fitting joker 1, "
            "Hennes Sibbe %(hennes)s for the claimant, each Drilling %(drilling)s."
        )
        % {"hennes": rules["hennes_value"], "drilling": hennes_sibbe.DRILLING_VALUE},
        _("Three or more jokers in one hand: jokers double (%(how)s).")
        % {"how": GAME.setting_text("goat_doubling", doubling)},
        _("Whoever was wrong takes a penalty card; a game ends at %(limit)s penalty cards.")
        % {"limit": rules["penalty_limit"]},
    ]
    card.notes = [_("Standings: fewest penalty cards, then fewest games lost.")]
    hand = {
        "claimant": 0,
        "challenger": 3,
        "claim": {"count": 10, "colour": "rot"},
        "reveal": {
            "hands": [
                ["rot", "hennes", "blau"],
                ["rot", "goat"],
                ["gelb", "rot"],
                ["lila", "joker_rgb"],
            ],
            "penalty_cards": [[], [], [], []],
            "drillings": [],
        },
    }
    parsed = hennes_sibbe.parse(hand, 4)
    count = hennes_sibbe.count_claim(parsed, parsed.reveal, hennes_sibbe.check_rules(rules))
    result = hennes_sibbe.score(hand, 4, rules)
    claimed = hand["claim"]["count"]
    card.example_title = _(
        "Seat 1 claims %(n)s Rot, seat 4 calls Lüge. On the hands: 3 Rot, Hennes Sibbe "
        "(seat 1), a Geißbock, a Joker Rot-Gelb-Blau."
    ) % {"n": claimed}
    card.example_steps = [
        (
            _("Count %(count)s ≥ %(n)s: the claim was right, seat 4 takes a penalty card.")
            if count >= claimed
            else _("Count %(count)s < %(n)s: the claim was wrong, seat 1 takes a penalty card.")
        )
        % {"count": count, "n": claimed}
    ]
    card.example_seats = [_("Seat %(n)s") % {"n": n + 1} for n in range(4)]
    card.example_result = [formatting.amount(x) for x in result]


class HennesSibbe(GameType):
    key = "hennes_sibbe"
    name = hennes_sibbe.NAME
    engine = hennes_sibbe
    min_seats, max_seats = hennes_sibbe.MIN_SEATS, hennes_sibbe.MAX_SEATS
    hand_form = HennesSibbeHandForm
    table_size_chosen = True
    zero_sum = False
    setting_labels = {
        "jokers_fit_all": _("Every joker fits every colour"),
        "goat_doubling": _("Three goats in one hand double"),
        "hennes_value": _("Hennes Sibbe counts for the claimant"),
        "penalty_limit": _("A game ends at (penalty cards)"),
    }
    choice_labels = {
        "hand": _("only that hand's jokers"),
        "off": _("never"),
        ("goat_doubling", "all"): _("every joker on the table"),
    }
    total = Figure("total", _("Penalty cards"))
    figures = (Figure("games_lost", _("Games lost"), of=((1, "games_lost"),)),)
    ranking = (("total", "asc"), ("games_lost", "asc"))
    projector_heading = _("Penalty cards")

    def default_hands(self, size: int) -> int | None:
        """RULES.md 6: Hennes Sibbe plays until the time is up."""
        return None

    def replay(
        self, hands: Sequence[dict[str, Any]], size: int, rules: dict[str, Any]
    ) -> Iterator[list[SeatResult]]:
        penalties = [0] * size
        for hand in hands:
            result = self.score(hand, size, rules)
            lost = [0] * size
            for position, points in enumerate(result):
                penalties[position] += points
                if penalties[position] >= rules["penalty_limit"]:
                    lost[position] = 1
            if any(lost):
                penalties = [0] * size  # a new game starts
            yield [
                SeatResult(points, games_lost=lost[position])
                for position, points in enumerate(result)
            ]

    def describe(self, hand: dict[str, Any], players: list[str]) -> str:
        claim = hand.get("claim") or {}
        colour = hennes_sibbe.COLOUR_NAMES.get(claim.get("colour"), "?")
        return pgettext(
            "hennes sibbe", "%(claimant)s: %(count)s %(colour)s, “Lüge!” %(challenger)s"
        ) % {
            "claimant": formatting.seat_name(players, hand.get("claimant")),
            "count": claim.get("count"),
            "colour": colour,
            "challenger": formatting.seat_name(players, hand.get("challenger")),
        }

    def sheet_extras(
        self,
        rules: dict[str, Any],
        hands: Sequence[tuple[dict[str, Any], list[SeatResult]]],
        running: list[int],
        players: list[str],
    ) -> SheetExtras:
        """Penalty cards each seat holds in the game now being played (they reset when one seat
        reaches the limit); a round ends only between two games."""
        limit = rules["penalty_limit"]
        current = [0] * len(players)
        finished = 0
        for _data, results in hands:
            for position, result in enumerate(results):
                current[position] += result.points
            if any(result.games_lost for result in results):
                current = [0] * len(players)
                finished += 1
        heading = gettext("Penalty cards in this game (limit %(limit)s)") % {"limit": limit}
        return SheetExtras(
            rows=[(heading, [f"{value} / {limit}" for value in current], "")],
            between_games=not any(current),
            games_finished=finished,
        )

    def print_tally(self, rules: dict[str, Any]) -> list[str]:
        limit = rules["penalty_limit"]
        boxes = " ".join(["☐"] * limit)
        return [
            gettext("Penalty cards: %(boxes)s (a game ends at %(limit)s)")
            % {"boxes": boxes, "limit": limit},
            gettext("Games lost: ______"),
        ]

    def rule_card(self, card: Card) -> None:
        rule_card(card)


GAME = HennesSibbe()
