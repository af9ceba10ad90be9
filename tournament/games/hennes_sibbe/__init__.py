"""Hennes Sibbe (RULES.md 5): a bluffing game of claims and "Lüge!", scored in penalty cards.

A game ends when a player reaches the penalty limit; the standings rank by fewest penalty cards,
then fewest games lost. A round has no fixed number of challenges: it ends between two games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import hennes_sibbe
from tournament.core import formatting
from tournament.games.base import Figure, GameType, SeatResult, SheetExtras

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
# the colours as the reader's language names them (the page, the sheet's game column, the rule
# card); the short form typed for the cards keeps the engine's words ("rot", "gelb": RULES.md 5)
COLOUR_LABELS = {
    "rot": pgettext_lazy("hennes sibbe colour", "Red"),
    "orange": pgettext_lazy("hennes sibbe colour", "Orange"),
    "gelb": pgettext_lazy("hennes sibbe colour", "Yellow"),
    "gruen": pgettext_lazy("hennes sibbe colour", "Green"),
    "blau": pgettext_lazy("hennes sibbe colour", "Blue"),
    "lila": pgettext_lazy("hennes sibbe colour", "Purple"),
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


def parse_cards(text: str, field: str, allowed: tuple[str, ...] = hennes_sibbe.CARDS) -> list[str]:
    """ "rot rot bock", "2 rot b" or "2rot, bock" → ["rot", "rot", "goat"]. A card the field does
    not take (a joker among the Drillings' colours) is refused in the words typed, never in the
    engine's ("goat")."""
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
        if CARD_WORDS[word] not in allowed:
            raise scoring.InvalidHand(
                field,
                str(_("“%(word)s” does not belong here; write %(words)s"))
                % {"word": word, "words": card_words_help(allowed)},
            )
        cards += [CARD_WORDS[word]] * (repeat or 1)
        repeat = None
    if repeat is not None:
        raise scoring.InvalidHand(field, str(_("a number must be followed by a card, e.g. 3 rot")))
    return cards


class HennesSibbe(GameType):
    key = "hennes_sibbe"
    name = hennes_sibbe.NAME
    engine = hennes_sibbe
    min_seats, max_seats = hennes_sibbe.MIN_SEATS, hennes_sibbe.MAX_SEATS
    hand_form = "tournament.games.hennes_sibbe.form.HennesSibbeHandForm"
    rule_card = "tournament.games.hennes_sibbe.rulecard.rule_card"
    statistics = "tournament.games.hennes_sibbe.stats"
    simulator = "tournament.games.hennes_sibbe.simulate.simulate_hand"
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
    # penalty cards taken in a round or a challenge: a count, never with a plus
    round_figure = Figure("round", _("Penalty cards"))
    hand_figure = Figure("hand", _("Penalty cards"))
    projector_heading = _("Penalty cards")
    # a game ends at the penalty limit after many challenges: a challenge is not called a game
    hand_heading = _("Challenge %(number)s")
    # RULES.md 5.1: whoever takes the penalty card shuffles, deals and starts the next claim
    dealer_follows_results = True

    def default_hands(self, size: int) -> int | None:
        """RULES.md 6: Hennes Sibbe plays until the time is up."""
        return None

    def dealer(self, size: int, number: int, before: Sequence[int] | None = None) -> int | None:
        """RULES.md 5.1 ("Spieler D bekommt eine Strafkarte, ... mischt, verteilt und beginnt die
        neue Ansage"): the seat that took the penalty card of the challenge before deals; the
        first challenge is dealt as in every game. None while the challenge before is not known."""
        if number == 1:
            return super().dealer(size, number)
        if before is None:
            return None
        return next((seat for seat, points in enumerate(before) if points > 0), None)

    def dealing_order(self) -> str:
        return gettext(
            "Dealing order: seat 1 deals the first challenge; whoever takes a penalty card "
            "deals the next."
        )

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
        colour = COLOUR_LABELS.get(claim.get("colour"), "?")
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
        current = self.penalty_cards_held([results for _data, results in hands], len(players))
        finished = sum(any(result.games_lost for result in results) for _data, results in hands)
        heading = gettext("Penalty cards in this game (limit %(limit)s)") % {"limit": limit}
        return SheetExtras(
            rows=[(heading, [f"{value} / {limit}" for value in current], "")],
            between_games=not any(current),
            games_finished=finished,
        )

    def penalty_cards_held(self, hands: Sequence[Sequence[SeatResult]], size: int) -> list[int]:
        """How many penalty cards each seat holds after ``hands`` (each hand's stored per-seat
        results, in game order): a seat's cards go back when any seat reaches the limit."""
        held = [0] * size
        for results in hands:
            for position, result in enumerate(results[:size]):
                held[position] += result.points
            if any(result.games_lost for result in results):
                held = [0] * size  # the game ended: the next one starts with no penalty cards
        return held

    def print_tally(self, rules: dict[str, Any]) -> list[str]:
        limit = rules["penalty_limit"]
        boxes = " ".join(["☐"] * limit)
        return [
            gettext("Penalty cards: %(boxes)s (a game ends at %(limit)s)")
            % {"boxes": boxes, "limit": limit},
            gettext("Games lost: ______"),
        ]


GAME = HennesSibbe()
