"""What every game plug-in says about itself, with the defaults most games share.

A game subclasses :class:`GameType` and overrides what differs: the pure rules come from its
``scoring`` module (``engine``), the tournament behaviour from the attributes and methods below.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import reduce
from types import ModuleType
from typing import Any

from django.db.models import F
from django.utils.translation import gettext_lazy as _

from tournament.core import formatting


@dataclass(frozen=True)
class Figure:
    """A standings figure: a sum over an entry's counting results (``of``: weighted result fields,
    e.g. dealt-out minus taken defeat points), with its heading and how it reads."""

    name: str
    heading: Any
    of: tuple[tuple[int, str], ...] = ((1, "points"),)
    signed: bool = False
    # shown on wider screens and on paper, not on a phone (the figures it is made of)
    detail: bool = False

    def expression(self, prefix: str = "results__") -> Any:
        terms = [
            F(prefix + name) if weight == 1 else F(prefix + name) * weight
            for weight, name in self.of
        ]
        return reduce(operator.add, terms)

    def text(self, value: Any) -> str:
        """The figure as pages, print and projector write it: signed where it is a change (Cego
        points), as an amount where it is a count or a holding."""
        return formatting.signed(value) if self.signed else formatting.amount(value)

    def of_sums(self, sums: dict[str, int]) -> int:
        """The figure from summed result fields (the season adds events up in Python)."""
        return sum(weight * sums[name] for weight, name in self.of)


@dataclass
class SeatResult:
    """One seat's share of one hand, as the result cache stores it."""

    points: int
    inflicted: int = 0
    matches_won: int = 0
    games_lost: int = 0


@dataclass
class SheetExtras:
    """What a game adds to a table's sheet beyond the hands and running totals: footer rows
    (heading, one text per seat, a short label for the phone), panels (a small table with a
    title, e.g. Ziege's matches), notes, and whether the round may end now (Hennes Sibbe: only
    between two games)."""

    rows: list[tuple[str, list[str], str]] = field(default_factory=list)
    panels: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    between_games: bool = True
    games_finished: int | None = None


TOTAL = Figure("total", _("Total"), signed=True)


class GameType:
    """A game as the tournament layer knows it. Subclasses set the class attributes."""

    key: str = ""
    name: str = ""
    engine: ModuleType
    min_seats: int = 4
    max_seats: int = 4
    # the game's modules above its core, by dotted path (the floors below never import them):
    # the hand form (a ``play.forms.HandForm``), the rule card's ``rule_card(card)``, the
    # statistics collectors' module and the demo's hand simulator
    hand_form: str = ""
    rule_card: str = ""
    statistics: str = ""
    simulator: str = ""

    # fours may become threes and fives under the "mixed" table policy (Cego)
    odd_table_sizes: bool = False
    # the director chooses the table size (Crazy Solo, Hennes Sibbe); else tables are of four
    table_size_chosen: bool = False
    # partners can be registered as fixed pairs who always sit opposite (Ziege)
    fixed_pairs: bool = False
    # every hand adds up to zero, so a round's totals do too (and may be negative)
    zero_sum: bool = True
    # a hand's result depends on the hands before it at the table (Ziege's doubled deal)
    scores_on_earlier_hands: bool = False
    # who deals a hand follows from the hand before it (Hennes Sibbe: the penalty card's taker
    # deals next), not from the hand's number: ``dealer`` is given that hand's results
    dealer_follows_results: bool = False
    # why a table's round cannot be entered as totals ("" where it can)
    totals_refused: Any = ""

    # parameters of the engine's messages that name a seat (shown counted from 1, with the name)
    seat_params: frozenset[str] = frozenset()

    # the rule settings as the event form and the rule card name them
    setting_labels: dict[str, Any] = {}
    choice_labels: dict[str, Any] = {}

    # standings: the entry's total, further figures, and the order that ranks them (RULES.md 6)
    total: Figure = TOTAL
    total_column: bool = True
    figures: tuple[Figure, ...] = ()
    ranking: tuple[tuple[str, str], ...] = (("total", "desc"),)
    # the one figure that is a player's result of an event: what the standings rank by first
    # (RULES.md 6). The personal page, the player page, the projector, the season (each event's
    # column and their sum, by the season's page, print, workbook and published site) show it
    # and no other number as "the result": Cego's points, Ziege's matches won, Crazy Solo's
    # balance, Hennes Sibbe's penalty cards
    result: str = "total"
    # a round's figure: the standings' round columns, the round's results by table and the
    # workbook's round sheets (its heading there); signed where it is a change of points
    round_figure: Figure = Figure("round", _("Result"), signed=True)
    # a seat's figure of one game (the workbook's sheet of games, as the phone's sheet writes it)
    hand_figure: Figure = Figure("hand", _("Result"), signed=True)
    projector_heading: Any = _("Points")

    # a game at a table as the sheet's form heading calls it ("Game 3"; a Hennes Sibbe challenge)
    hand_heading: Any = _("Game %(number)s")

    # the table link's part of the game's own (a template: Ziege's pairs and matches), or ""
    phone_template: str = ""

    # print: a column of seat groups (Ziege's pairs) and its heading
    seat_group_heading: Any = ""
    # a helper form on the scorer's sheet (Cego's card counter) by dotted path, or ""
    card_counter: str = ""

    def __str__(self) -> str:
        return self.name

    # --- rules ---------------------------------------------------------------------------------

    def default_rules(self) -> dict[str, Any]:
        return self.engine.default_rules()

    def check_rules(self, rules: Any) -> Any:
        """Raises scoring.InvalidHand naming a wrong setting."""
        return self.engine.check_rules(rules)

    def setting_choices(self) -> dict[str, tuple[str, ...]]:
        return getattr(self.engine, "SETTING_CHOICES", {})

    def setting_label(self, key: str) -> str:
        return str(self.setting_labels.get(key, key))

    def setting_text(self, key: str, value: Any) -> str:
        """A setting's value in the director's words, as the event form shows it."""
        if isinstance(value, bool):
            return str(_("yes") if value else _("no"))
        if isinstance(value, str):
            label = self.choice_labels.get((key, value), self.choice_labels.get(value, value))
            return str(label)
        return "" if value is None else str(value)

    def score(self, hand: Any, seats: int, rules: dict[str, Any] | None = None) -> list[int]:
        return self.engine.score(hand, seats, rules)

    # --- tables and rounds ---------------------------------------------------------------------

    def default_hands(self, size: int) -> int | None:
        """Hands a table of ``size`` plays in a round by default (None: until the time is up)."""
        return 24

    def default_hands_text(self) -> str:
        """The default number of hands a round has, in words for the event form."""
        hands = self.default_hands(self.min_seats if self.table_size_chosen else 4)
        return str(hands) if hands is not None else str(_("until the time is up"))

    def sizes_text(self) -> str:
        if self.min_seats == self.max_seats:
            return str(_("%(game)s at %(n)s") % {"game": self.name, "n": self.min_seats})
        return f"{self.name} {self.min_seats}–{self.max_seats}"

    def usual_size(self, target: int) -> int:
        """The table size the rule card describes."""
        return (
            target
            if self.table_size_chosen
            else self.min_seats
            if self.min_seats == self.max_seats
            else 4
        )

    # --- hands ---------------------------------------------------------------------------------

    def engine_hand(self, data: dict[str, Any], size: int, number: int) -> dict[str, Any]:
        """The stored hand plus what the table knows (e.g. who sits out), as the engine takes it."""
        return dict(data)

    def dealer(self, size: int, number: int, before: Sequence[int] | None = None) -> int | None:
        """The seat that deals hand ``number`` at a table of ``size``: the deal passes round the
        table, hand 1 dealt by seat 0. ``before``: each seat's result of the hand before, for a
        game whose deal follows it (None: no hand before, or not known yet)."""
        return (number - 1) % size

    def sitting_out(self, size: int, number: int) -> int | None:
        """The seat that sits out hand ``number`` at a table of ``size``, if any."""
        return None

    def replay(
        self, hands: Sequence[dict[str, Any]], size: int, rules: dict[str, Any]
    ) -> Iterator[list[SeatResult]]:
        """Each hand's per-seat results, in hand order (raises scoring.InvalidHand at the hand the
        engine refuses). Games whose hands depend on the earlier ones override this."""
        for hand in hands:
            yield [SeatResult(points) for points in self.score(hand, size, rules)]

    def totals_step(self, rules: dict[str, Any]) -> int:
        """Every total of a round is a multiple of this."""
        return 1

    # --- words and numbers ---------------------------------------------------------------------

    contract_names: dict[str, str] = {}

    def contract_name(self, key: str) -> str:
        return self.contract_names.get(key, key)

    def hand_result(self, value: Any) -> str:
        """A seat's result of one game or its sum, as the phone's sheet writes it (``hand_figure``):
        a change of points, with its sign; a count without a plus (Ziege's defeat points taken,
        Hennes Sibbe's penalty cards)."""
        return self.hand_figure.text(value)

    def hand_title(self, number: Any) -> str:
        """The heading of the form for game ``number`` (the phone's queue passes a placeholder)."""
        return str(self.hand_heading) % {"number": number}

    def describe(self, hand: dict[str, Any], players: list[str]) -> str:
        """One line for the sheet's game column, the history and Excel."""
        return ""

    def shown_total(self, total: int, rules: dict[str, Any]) -> int:
        """An entry's standings figure from the sum of its results."""
        return int(total)

    @property
    def projector_figure(self) -> str:
        """The one figure the projector shows: the result."""
        return self.result

    def result_figure(self) -> Figure:
        """The figure that is a player's result of an event (``result``)."""
        return self.figure(self.result)

    def shown(self, figure: Figure, value: Any, rules: dict[str, Any]) -> int:
        """A standings figure's value as every page, print and workbook shows it (the total as
        the game shows it: Crazy Solo's chips held)."""
        return self.shown_total(value, rules) if figure.name == "total" else int(value)

    def figure(self, name: str) -> Figure:
        if name == "total":
            return self.total
        return next(f for f in self.figures if f.name == name)

    def deciding(self) -> list[Figure]:
        """The figures that decide a place, most important first."""
        return [self.figure(name) for name, _order in self.ranking]

    def columns(self) -> list[Figure]:
        """The standings' figure columns, read left to right as the ranking reads them: the
        figures a phone shows that decide a place come in ranking order (Hennes Sibbe's penalty
        cards before its games lost); the sums shown only on wider screens stay where the game
        puts them (Ziege's defeat points dealt out and taken, before their difference)."""
        shown = [*self.figures, *([self.total] if self.total_column else [])]
        ranked = iter(f for f in self.deciding() if f in shown and not f.detail)
        return [
            next(ranked) if figure in self.deciding() and not figure.detail else figure
            for figure in shown
        ]

    # --- sheets and print ----------------------------------------------------------------------

    def sheet_extras(
        self,
        rules: dict[str, Any],
        hands: Sequence[tuple[dict[str, Any], list[SeatResult]]],
        running: list[int],
        players: list[str],
    ) -> SheetExtras:
        """Rows, panels and notes a table's sheet shows beyond its hands (``hands``: each played
        hand's data and stored per-seat results)."""
        return SheetExtras()

    def seat_group(self, position: int) -> str:
        return ""

    def dealing_order(self) -> str:
        """Who deals, as the printed table sheet says it above the hands."""
        return str(_("Dealing order: seat 1 deals game 1, then the deal passes on in seat order."))

    def sheet_notes(self, size: int) -> list[str]:
        """Lines printed above the hands of a table sheet."""
        return []

    def print_tally(self, rules: dict[str, Any]) -> list[str]:
        """Cells of a tally row printed for each player under the hands (empty: none)."""
        return []
