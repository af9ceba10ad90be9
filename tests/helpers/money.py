"""An event played to given totals, and its prizes."""

from __future__ import annotations

from tests.factories import (
    make_entries,
    make_event,
    make_round,
)
from tournament.models import (
    Entry,
    Event,
    Prize,
)
from tournament.play import confirmations, events, hands, rounds


def played(*tables: list[int], finish: bool = True) -> tuple[Event, list[Entry]]:
    """An event of one round whose tables end on the given totals; the entries are returned in
    the order of the totals (table by table, seat by seat)."""
    event = make_event(hands_per_round={"*": 1}, rounds_planned=1)
    make_entries(event, 4 * len(tables))
    rnd = make_round(event)
    entries = []
    for table, totals in zip(rnd.tables.order_by("number"), tables, strict=True):
        hands.record_totals(table=table, totals=list(totals))
        # the players signed the paper sheet: the scorer confirms it for them
        confirmations.confirm_table(table=table)
        entries += [s.entry for s in table.seats.select_related("entry").order_by("position")]
    rounds.close_round(round=rnd)
    if finish:
        events.finish_event(event=event)
    return Event.objects.get(pk=event.pk), entries


def prize(event, place=1, cents=0, goods="", ranking=Prize.Ranking.OVERALL, sponsor="") -> Prize:
    return Prize.objects.create(
        event=event, ranking=ranking, place=place, amount_cents=cents, goods=goods, sponsor=sponsor
    )
