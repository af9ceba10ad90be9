"""Ziege: two teams of partners sitting opposite, defeat points for the losing team (RULES.md 3).

Team A is seats 0 and 2, team B seats 1 and 3. A deal holds 120 card points; the team with fewer
than 60 is charged 2, 4 or 6 defeat points. A match (Partie) ends when a team's defeat points
reach the match limit; :func:`play_matches` follows a sequence of deals through the matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import validate as check
from .validate import InvalidHand, Text, gettext_noop

NAME = "Ziege"
SEATS = 4
TOTAL_POINTS = 120
HALF = TOTAL_POINTS // 2  # 60:60 is "Kugeln": nobody is charged
TEAMS: dict[str, tuple[int, int]] = {"a": (0, 2), "b": (1, 3)}

SETTING_CHOICES: dict[str, tuple[str, ...]] = {}

DEFAULT_RULES: dict[str, Any] = {"match_limit": 12, "balls_double_next": False}

KEYS = {"team_a_points", "team_a_took_trick", "team_b_took_trick", "doubled"}


@dataclass(frozen=True)
class Hand:
    team_a_points: int
    team_a_took_trick: bool
    team_b_took_trick: bool
    doubled: bool


def default_rules() -> dict[str, Any]:
    return dict(DEFAULT_RULES)


def check_rules(given: Any) -> dict[str, Any]:
    return check.settings(
        given,
        DEFAULT_RULES,
        {
            "match_limit": lambda v, f: check.integer(v, f, 1, check.SETTING_MAX),
            "balls_double_next": check.boolean,
        },
    )


def parse(hand: Any) -> Hand:
    check.mapping(hand, "hand")
    check.keys(
        hand,
        allowed=KEYS,
        required={"team_a_points"},
        context=Text(gettext_noop("in a Ziege deal")),
    )
    a = check.integer(hand["team_a_points"], "team_a_points", 0, TOTAL_POINTS)
    b = TOTAL_POINTS - a
    a_trick = check.boolean(hand.get("team_a_took_trick", a > 0), "team_a_took_trick")
    b_trick = check.boolean(hand.get("team_b_took_trick", b > 0), "team_b_took_trick")
    if a > 0 and not a_trick:
        raise InvalidHand(
            "team_a_took_trick", gettext_noop("must be true: team A has {a} card points"), a=a
        )
    if b > 0 and not b_trick:
        raise InvalidHand(
            "team_b_took_trick", gettext_noop("must be true: team B has {b} card points"), b=b
        )
    if not (a_trick or b_trick):
        raise InvalidHand(
            "team_a_took_trick", gettext_noop("one of the teams must have taken a trick")
        )
    doubled = check.boolean(hand.get("doubled", False), "doubled")
    return Hand(a, a_trick, b_trick, doubled)


def defeat_points(points: int, took_trick: bool) -> int:
    """Defeat points of a team with fewer than 60 card points."""
    if points >= 31:
        return 2
    if took_trick:
        return 4
    return 6


def score(hand: Any, seats: int, rules: Any = None) -> list[int]:
    check.table_size(seats, SEATS, SEATS, NAME)
    check_rules(rules)
    deal = parse(hand)
    result = [0] * SEATS
    if deal.team_a_points == HALF:
        return result
    if deal.team_a_points < HALF:
        loser, points, took_trick = "a", deal.team_a_points, deal.team_a_took_trick
    else:
        loser, points, took_trick = "b", TOTAL_POINTS - deal.team_a_points, deal.team_b_took_trick
    charged = defeat_points(points, took_trick) * (2 if deal.doubled else 1)
    for s in TEAMS[loser]:
        result[s] = charged
    return result


# --- the match layer --------------------------------------------------------------------------


@dataclass
class Match:
    """One Partie: defeat points per team until one reaches the limit (that team is the Ziege)."""

    number: int
    defeat: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    hands: int = 0
    ziege: str | None = None  # "a" or "b" once the match is over

    @property
    def winner(self) -> str | None:
        if self.ziege is None:
            return None
        return "b" if self.ziege == "a" else "a"


@dataclass
class MatchState:
    matches: list[Match]
    next_doubled: bool  # the next deal counts double (balls_double_next after a 60:60)

    @property
    def current(self) -> Match:
        return self.matches[-1]

    def won(self, team: str) -> int:
        return sum(1 for m in self.matches if m.winner == team)


def play_matches(results: Iterable[tuple[Any, list[int]]], rules: Any = None) -> MatchState:
    """Follow deals in order through the matches.

    ``results`` are pairs of (hand dict, scored result). A match ends at the deal that brings a team
    to the match limit; the next deal starts a new match. With ``balls_double_next`` the deal
    after a 60:60 must be (and is reported as) doubled.
    """
    settings = check_rules(rules)
    state = MatchState(matches=[Match(number=1)], next_doubled=False)
    for hand, result in results:
        match = state.current
        if match.ziege is not None:
            match = Match(number=match.number + 1)
            state.matches.append(match)
        match.hands += 1
        match.defeat["a"] += result[0]
        match.defeat["b"] += result[1]
        for team in ("a", "b"):
            if match.defeat[team] >= settings["match_limit"]:
                match.ziege = team
        state.next_doubled = settings["balls_double_next"] and hand.get("team_a_points") == HALF
    return state
