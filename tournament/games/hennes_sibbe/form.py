"""Hennes Sibbe's hand form: the fields a game needs, turned into the hand dict the engine
judges. Reached from above by the dotted path in ``GAME.hand_form``; it sits beside ``play``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import scoring
from scoring import hennes_sibbe
from tournament.core.fields import NONE, seat_choices
from tournament.games.hennes_sibbe import (
    CARD_SPELLINGS,
    COLOUR_LABELS,
    GAME,
    card_words_help,
    parse_cards,
)
from tournament.play.forms import HandForm
from tournament.play.reads import earlier_results


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
    claim_colour = forms.ChoiceField(label=_("Colour"), choices=list(COLOUR_LABELS.items()))
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
        # no seat preselected: the first seat would be the claimant's, who never calls on himself
        self.fields["challenger"].choices = seat_choices(self.players, "—")
        # the card fields: typed in the short form, or tapped in with the card buttons (JS)
        cards = {"data-cards": "all", "aria-describedby": "card-words", "autocomplete": "off"}
        asked = self.penalty_seats()
        for i, name in enumerate(self.players):
            self.fields[f"hand_{i}"] = forms.CharField(
                label=_("%(name)s: hand") % {"name": name},
                required=False,
                widget=forms.TextInput(attrs=cards),
            )
            if i in asked:
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

    def penalty_seats(self) -> set[int]:
        """The seats asked for their penalty cards: those holding some in this game (issue 43: a
        field for every player made the phone's form eight fields longer than any challenge
        needs). Every seat in a whole round's template (an import), and a seat whose field was
        sent or stored anyway, so that the form says what is wrong with it there."""
        n = len(self.players)
        if self.every_seat:
            return set(range(n))
        given = {
            i
            for i in range(n)
            if str(self.data.get(f"penalty_{i}") or self.initial.get(f"penalty_{i}") or "").strip()
        }
        return {i for i, held in enumerate(self.held()) if held} | given

    def held(self) -> list[int]:
        """The penalty cards each seat holds before this game (read once per form: one query)."""
        if not hasattr(self, "_held"):
            self._held = GAME.penalty_cards_held(
                earlier_results(self.table, self.game_number()), len(self.players)
            )
        return self._held

    # shown next to the first card field: the short form, before anyone makes a mistake
    card_words_field = "hand_0"

    def card_words(self) -> str:
        return card_words_help()

    def card_buttons(self) -> list[tuple[str, str, bool]]:
        """(word written, label, is a colour) for the card buttons the script adds to each field."""
        names = {**COLOUR_LABELS, **hennes_sibbe.JOKER_NAMES}
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
                parse_cards(d.get(f"penalty_{i}") or "", f"penalty_{i}")
                if f"penalty_{i}" in self.fields
                else []
                for i in range(n)
            ],
            "drillings": parse_cards(d.get("drillings") or "", "drillings", hennes_sibbe.COLOURS),
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
        data = super().clean()
        reveal = getattr(self, "hand", {}).get("reveal")
        # a whole round's template (an import) has no earlier challenges to count from
        if self.errors or not reveal or self.every_seat:
            return data
        held = self.held()
        for i, cards in enumerate(reveal["penalty_cards"]):
            if len(cards) > held[i]:
                self.add_error(f"penalty_{i}", self.too_many_penalty_cards(i, held[i], cards))
        if self.errors:
            del self.hand
            self.result = None
        return data

    def too_many_penalty_cards(self, seat: int, held: int, cards: list[str]) -> str:
        """Why the penalty cards typed for a seat cannot be: it holds fewer in this game."""
        if not held:
            return str(
                _("%(name)s holds no penalty card in this game: leave the field empty")
                % {"name": self.players[seat]}
            )
        return ngettext(
            "%(name)s holds %(held)s penalty card in this game, not %(typed)s",
            "%(name)s holds %(held)s penalty cards in this game, not %(typed)s",
            held,
        ) % {"name": self.players[seat], "held": held, "typed": len(cards)}

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
