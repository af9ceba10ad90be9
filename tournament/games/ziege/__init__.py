"""Ziege (RULES.md 3): two teams of two, partners opposite; defeat points, matches to a limit.

The standings rank by matches won, then the defeat points a player's team dealt out minus those it
took, then fewer taken. A deal after 60:60 may count double, so a table's deals are scored in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import ziege
from tournament.games.base import Figure, GameType, SeatResult, SheetExtras

TEAMS = ("a", "b")


class Ziege(GameType):
    key = "ziege"
    name = ziege.NAME
    engine = ziege
    min_seats = max_seats = ziege.SEATS
    hand_form = "tournament.games.ziege.form.ZiegeHandForm"
    rule_card = "tournament.games.ziege.rulecard.rule_card"
    statistics = "tournament.games.ziege.stats"
    simulator = "tournament.games.ziege.simulate.simulate_hand"
    fixed_pairs = True
    scores_on_earlier_hands = True
    zero_sum = False
    totals_refused = _(
        "Ziege needs the deals: match wins cannot be taken from totals. Enter the deals."
    )
    setting_labels = {
        "match_limit": _("A match ends at (defeat points)"),
        "balls_double_next": _("After 60:60 the next deal counts double"),
    }

    # the sum of a seat's results is the defeat points its team took. The headings say who got
    # them, so that no sign has to be guessed: "dealt out" is good for a player, "taken" bad, and
    # the difference is dealt out minus taken (+ good, − bad)
    total = Figure("total", _("Defeat points"))
    total_column = False
    figures = (
        Figure("matches", _("Matches won"), of=((1, "matches_won"),)),
        Figure("inflicted", _("Defeat points dealt out"), of=((1, "inflicted"),), detail=True),
        Figure("conceded", _("Defeat points taken"), detail=True),
        Figure(
            "difference",
            _("Difference (dealt out − taken)"),
            of=((1, "inflicted"), (-1, "points")),
            signed=True,
        ),
    )
    ranking = (("matches", "desc"), ("difference", "desc"), ("conceded", "asc"))
    # a player's result of an event is what ranks first: the matches won (never the defeat
    # points taken, which only break ties, and never with a plus)
    result = "matches"
    # a round's column: the difference, so that it reads the right way round with its sign
    round_figure = Figure(
        "round",
        _("Difference (dealt out − taken)"),
        of=((1, "inflicted"), (-1, "points")),
        signed=True,
    )
    # a seat's figure of one deal: the defeat points its team took, a count
    hand_figure = Figure("hand", _("Defeat points taken"))
    projector_heading = _("Matches won")
    seat_group_heading = _("Pair")
    # the phone names pair A and pair B and shows the matches (templates/games/ziege/)
    phone_template = "games/ziege/link_pairs.html"

    def replay(
        self, hands: Sequence[dict[str, Any]], size: int, rules: dict[str, Any]
    ) -> Iterator[list[SeatResult]]:
        deals: list[tuple[dict[str, Any], list[int]]] = []
        for data in hands:
            hand = dict(data)
            # RULES.md 3: after a 60:60 the next deal counts double (the engine's match layer)
            hand["doubled"] = ziege.play_matches(deals, rules).next_doubled if deals else False
            result = self.score(hand, 4, rules)
            deals.append((hand, result))
            # a deal that reaches the limit ends the match it belongs to; the next deal opens a
            # new one, so the current match has a Ziege only if this deal made it
            winner = ziege.play_matches(deals, rules).current.winner
            yield [
                SeatResult(
                    result[position],
                    inflicted=result[(position + 1) % 4],
                    matches_won=1 if winner == TEAMS[position % 2] else 0,
                )
                for position in range(4)
            ]

    def describe(self, hand: dict[str, Any], players: list[str]) -> str:
        a = hand.get("team_a_points", 0)
        return f"{a} : {ziege.TOTAL_POINTS - a}" if isinstance(a, int) else "?"

    def seat_group(self, position: int) -> str:
        return TEAMS[position % 2].upper()

    def sheet_extras(
        self,
        rules: dict[str, Any],
        hands: Sequence[tuple[dict[str, Any], list[SeatResult]]],
        running: list[int],
        players: list[str],
    ) -> SheetExtras:
        extras = SheetExtras()
        if len(players) == 4:
            extras.notes.append(
                gettext("Team A: %(a1)s & %(a2)s · Team B: %(b1)s & %(b2)s")
                % {"a1": players[0], "a2": players[2], "b1": players[1], "b2": players[3]}
            )
        state = ziege.play_matches(
            [(data, [r.points for r in results]) for data, results in hands], rules
        )
        outcome = {
            "a": gettext("Team A is the Ziege"),
            "b": gettext("Team B is the Ziege"),
            None: gettext("running"),
        }
        extras.panels.append(
            {
                "title": gettext("Matches"),
                "columns": [
                    (gettext("Match"), False),
                    (gettext("Team A"), True),
                    (gettext("Team B"), True),
                    (gettext("Result"), False),
                ],
                "rows": [
                    [str(m.number), str(m.defeat["a"]), str(m.defeat["b"]), outcome[m.ziege]]
                    for m in state.matches
                ],
                "note": gettext("The next deal counts double (after 60:60).")
                if state.next_doubled
                else "",
            }
        )
        return extras


GAME = Ziege()
