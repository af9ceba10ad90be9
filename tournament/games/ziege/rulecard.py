"""Ziege's rule card: the table, formula, notes and worked example printed for the
players. Reached by the dotted path in ``GAME.rule_card``; it sits on paper's floor."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import ziege
from tournament.core import formatting
from tournament.paper.rulecard import Card


def rule_card(card: Card) -> None:
    rules = card.rules

    def charged(points: int, took_trick: bool) -> int:
        hand = {"team_a_points": points, "team_a_took_trick": took_trick}
        return ziege.score(hand, 4, rules)[0]

    card.heading = _("Defeat points")
    card.columns = [_("The losing team has"), _("Defeat points")]
    # the engine's defeat points for every score of the losing team, grouped into ranges
    ranges: list[tuple[int, int, int]] = []
    for points in range(ziege.HALF):
        value = charged(points, True)
        if ranges and ranges[-1][2] == value:
            ranges[-1] = (ranges[-1][0], points, value)
        else:
            ranges.append((points, points, value))
    for low, high, value in reversed(ranges):
        card.rows.append(
            {
                "name": _("%(low)s to %(high)s card points") % {"low": low, "high": high},
                "value": str(value),
            }
        )
    card.rows.append({"name": _("no trick taken"), "value": str(charged(0, False))})
    card.rows.append(
        {
            "name": _("%(half)s:%(half)s (Kugeln)") % {"half": ziege.HALF},
            "value": str(charged(ziege.HALF, True)),
        }
    )
    card.formula = [
        _("%(total)s card points per deal; the team under %(half)s is charged defeat points.")
        % {"total": ziege.TOTAL_POINTS, "half": ziege.HALF},
        _("Team A: seats 1 and 3, team B: seats 2 and 4 (partners sit opposite)."),
        _("A match ends when a team reaches %(limit)s defeat points: that team is the Ziege.")
        % {"limit": rules["match_limit"]},
    ]
    if rules["balls_double_next"]:
        card.formula.append(_("After 60:60 the next deal counts double."))
    card.notes = [
        _(
            "Standings: matches won, then defeat points inflicted minus conceded, "
            "then fewer conceded."
        )
    ]
    hand = {"team_a_points": 25}
    result = ziege.score(hand, 4, rules)
    card.example_title = _("Team A has %(a)s card points, team B %(b)s") % {
        "a": 25,
        "b": ziege.TOTAL_POINTS - 25,
    }
    card.example_steps = [_("Team A is under %(half)s and took a trick.") % {"half": ziege.HALF}]
    card.example_seats = [_("Seat %(n)s") % {"n": n + 1} for n in range(4)]
    card.example_result = [formatting.amount(x) for x in result]
