"""Seating draws: plans, meetings, sit-outs."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence

from tournament import games
from tournament.models import (
    Entry,
    Event,
    Round,
    Seat,
)
from tournament.play import draw, hands, rounds

EXACT = Event.TablePolicy.EXACT


MIXED = Event.TablePolicy.MIXED


SIT_OUT = Event.TablePolicy.SIT_OUT


def fewest_repeats_for_two_tables_of_four(players: Sequence[int], met: set[frozenset[int]]) -> int:
    """Brute force over every split of eight players into two tables of four."""
    first, *others = players
    best = math.inf
    for rest in itertools.combinations(others, 3):
        table = [first, *rest]
        other = [p for p in players if p not in table]
        best = min(best, repeats([table, other], met))
    return int(best)


def mentions(text: str, number: int) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def met_before(rnd: Round) -> set[frozenset[int]]:
    """Pairs who shared a table in the event's rounds before ``rnd``."""
    earlier = Round.objects.filter(event_id=rnd.event_id, number__lt=rnd.number)
    return set().union(*(pairs_at(tables_of(r)) for r in earlier))


def next_round(event: Event, seed: int) -> Round:
    rnd = rounds.add_round(event=event)
    return rounds.draw_round(round=rnd, seed=seed)


def pairs_at(tables: Iterable[Sequence[int]]) -> set[frozenset[int]]:
    """Every two players who share a table (computed here, independently of the draw module)."""
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


def place(rnd: Round, entry: Entry) -> tuple[int | None, int | None]:
    seat = Seat.objects.select_related("table").get(round=rnd, entry=entry)
    return (seat.table.number if seat.table else None, seat.position)


def plan_of(n: int, game: str, policy: str, target: int = 4) -> draw.Plan:
    """The game's table plan for ``n`` players (its plug-in decides, the draw module helps)."""
    return draw.plan_tables(games.get(game), n, policy, target)


def play_and_close(rnd: Round) -> Round:
    """Start the round if needed, fill every table's sheet and close it, as the tables would."""
    if rnd.status == Round.Status.SEATED:
        rnd = rounds.start_round(round=rnd)
    event = rnd.event
    for table in rnd.tables.all():
        if event.game == "ziege":
            for _ in range(event.hands_for(table.size)):
                hands.record_hand(table=table, data={"team_a_points": 75})
        else:
            hands.record_totals(table=table, totals=[0] * table.size)
    return rounds.close_round(round=rnd)


def repeats(tables: Iterable[Sequence[int]], met: set[frozenset[int]]) -> int:
    return len(pairs_at(tables) & met)


def seating(rnd: Round) -> list[tuple[int, int, int]]:
    """(table number, position, entry id) of every seated player, in table order."""
    return list(
        Seat.objects.filter(round=rnd, table__isnull=False)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "entry_id")
    )


def sitting_out(rnd: Round) -> set[int]:
    return set(
        Seat.objects.filter(round=rnd, table__isnull=True).values_list("entry_id", flat=True)
    )


def tables_of(rnd: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, _position, entry_id in seating(rnd):
        tables.setdefault(number, []).append(entry_id)
    return list(tables.values())
