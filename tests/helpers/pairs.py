"""Ziege in fixed pairs: an event of registered pairs and a round they play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.factories import (
    make_entries,
    make_event,
)
from tournament.models import (
    Event,
    Round,
    Table,
    Team,
)
from tournament.play import hands, rounds
from tournament.register import services as register_services


def fixed_pair_event(pairs: int, **kwargs: Any) -> tuple[Event, list[Team]]:
    """A Ziege event of ``pairs`` fixed pairs registered as teams ("Paar 1", "Paar 2", ...), two
    deals a round and matches to 4 defeat points: two deals won make a match."""
    kwargs.setdefault("rules", {"match_limit": 4})
    kwargs.setdefault("hands_per_round", {"4": 2})
    kwargs.setdefault("pairing", Event.Pairing.FIXED)
    event = make_event("ziege", **kwargs)
    entries = make_entries(event, 2 * pairs)
    teams = [
        register_services.create_pair(event=event, name=f"Paar {i}", entries=[a, b])
        for i, (a, b) in enumerate(zip(entries[0::2], entries[1::2], strict=True), start=1)
    ]
    return event, teams


def play_pairs_round(rnd: Round, strength: Sequence[Team]) -> Round:
    """Start the round if needed and play every table: the pair earlier in ``strength`` wins both
    deals (75 card points) and so the match; then close the round."""
    if rnd.status == Round.Status.SEATED:
        rnd = rounds.start_round(round=rnd)
    order = {team.pk: i for i, team in enumerate(strength)}
    for table in rnd.tables.all():
        seats = list(table.seats.select_related("entry").order_by("position"))
        a, b = seats[0].entry.pair_id, seats[1].entry.pair_id
        points = 75 if order[a] < order[b] else 45
        for _ in range(2):
            hands.record_hand(table=table, data={"team_a_points": points})
    return rounds.close_round(round=rnd)


def pair_at(table: Table) -> dict[str, list[str]]:
    """Team A's and team B's players at ``table``, by name."""
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    return {
        "a": [str(seats[0].entry.player), str(seats[2].entry.player)],
        "b": [str(seats[1].entry.player), str(seats[3].entry.player)],
    }
