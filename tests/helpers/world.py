"""The world the access and query tests read (built once per module by the ``built_world``
fixture of tests/tournament/conftest.py) and the public pages they open in it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse

from tests.factories import (
    make_round,
)
from tests.helpers.pairs import fixed_pair_event, play_pairs_round
from tournament.models import (
    Event,
    Hand,
    Player,
    Round,
    Season,
    Table,
    Team,
)


@dataclass
class World:
    season: Season
    event: Event
    round: Round
    table: Table
    hand: Hand
    player: Player
    squad: Team


WORLD_REASON = "Zählfehler am Tisch 1"


# url name → (url of it in the world, a text the page must show)
PUBLIC_PAGES: dict[str, Callable[[World], tuple[str, str]]] = {
    "home": lambda w: (reverse("home"), w.event.name),
    "event": lambda w: (reverse("event", args=[w.event.slug]), w.event.name),
    "event_standings": lambda w: (
        reverse("event_standings", args=[w.event.slug]),
        w.player.sort_name,
    ),
    "event_teams": lambda w: (reverse("event_teams", args=[w.event.slug]), w.squad.name),
    # the world plays Cego: a Ziege event in fixed pairs of its own, one round played
    "event_pairs": lambda w: _pair_ranking_page(),
    "event_statistics": lambda w: (reverse("event_statistics", args=[w.event.slug]), w.event.name),
    "player": lambda w: (reverse("player", args=[w.player.uid]), str(w.player)),
    "round_seating": lambda w: (reverse("round_seating", args=[w.event.slug, 1]), str(w.player)),
    "round_results": lambda w: (reverse("round_results", args=[w.event.slug, 1]), str(w.player)),
    "season": lambda w: (reverse("season", args=[w.season.slug]), w.season.name),
    "table": lambda w: (reverse("table", args=[w.table.pk]), str(w.player)),
    "card_points": lambda w: (reverse("card_points", args=[w.event.slug]) + "?cc-king=1", "4.5"),
    "print_standings": lambda w: (
        reverse("print_standings", args=[w.event.slug]),
        w.player.sort_name,
    ),
    "print_seating": lambda w: (reverse("print_seating", args=[w.event.slug, 1]), str(w.player)),
    "print_sheets": lambda w: (reverse("print_sheets", args=[w.event.slug, 1]), str(w.player)),
    "print_season": lambda w: (reverse("print_season", args=[w.season.slug]), w.player.sort_name),
    "rule_card": lambda w: (reverse("rule_card", args=[w.event.slug]), w.event.name),
    "event_xlsx": lambda w: (reverse("event_xlsx", args=[w.event.slug]), w.player.last_name),
    "season_xlsx": lambda w: (reverse("season_xlsx", args=[w.season.slug]), w.player.last_name),
    "projector": lambda w: (reverse("projector", args=[w.event.slug]), str(w.player)),
    "projector_rows": lambda w: (reverse("projector_rows", args=[w.event.slug]), str(w.player)),
    "where_do_i_sit": lambda w: (
        reverse("where_do_i_sit", args=[w.event.slug]) + f"?q={w.player.last_name}",
        str(w.player),
    ),
    "rating": lambda w: (reverse("rating"), "Plackett-Luce"),
    # the privacy notice (issue 46.2): who answers for the players' data
    "privacy": lambda w: (reverse("privacy"), "GDPR"),
    "rating_game": lambda w: (reverse("rating_game", args=["ziege"]), "Plackett-Luce"),
    "table_settlement": lambda w: (reverse("table_settlement", args=[w.table.pk]), w.event.name),
    # who registered: name and club only (issue 29)
    "event_participants": lambda w: (
        reverse("event_participants", args=[w.event.slug]),
        w.player.last_name,
    ),
}


def _pair_ranking_page() -> tuple[str, str]:
    event, teams = fixed_pair_event(2)
    play_pairs_round(make_round(event, seed=1), teams)
    return reverse("event_pairs", args=[event.slug]), teams[0].name
