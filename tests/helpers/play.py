"""Tables in play: a started table, the actions a user takes on it, and the results and totals its
games gave."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_round,
)
from tournament.models import (
    Entry,
    Event,
    Hand,
    Player,
    Result,
    Seat,
    Table,
)
from tournament.play import confirmations, events, hands, lots
from tournament.register import imports
from tournament.register import services as register_services


def started(players: int = 4) -> Table:
    """A started round of one table with one game, all written without a user."""
    event = make_event(hands_per_round={"4": 2}, table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, players)
    table = make_round(event, seed=3).tables.get()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    return table


def _hand(table: Table) -> Any:
    return table.hands.get(number=1)


def _tied(table: Table) -> list[Entry]:
    # game 1 is a lost Halbe of seat 0: seats 1 to 3 are tied on +20
    return [s.entry for s in table.seats.filter(position__gt=0)]


def _imported(table: Table, user: Any) -> None:
    event = table.round.event
    rows = [["Vorname", "Nachname", "Verein"], ["Eva", "Neu", "CC"], ["Max", "Später", "CC"]]
    preview = imports.read_players(event, rows)
    imports.save_players(event, preview.payload(), user=user, key=preview.key)


# what is done first, without a user, before the action a case is about
PREPARED: dict[str, Callable[[Table], Any]] = {
    "record_totals": lambda t: hands.delete_hand(hand=_hand(t), reason="Blatt verloren"),
    "restore_table": lambda t: hands.void_table(table=t, reason="unleserlich"),
    "submit_table": lambda t: hands.record_hand(table=t, data=cego("eine", 1, 41)),
    "reopen_table": lambda t: confirmations.confirm_table(table=t),
    "reinstate_entry": lambda t: register_services.withdraw_entry(
        entry=t.seats.get(position=1).entry
    ),
    "void_table lapsing a lot": lambda t: lots.decide_by_lot(
        event=t.round.event, entries=_tied(t), seed=5
    ),
}


ON_A_STARTED_TABLE: dict[str, Callable[[Table, Any], Any]] = {
    "record_hand": lambda t, u: hands.record_hand(table=t, data=cego("eine", 1, 41), user=u),
    "edit_hand": lambda t, u: hands.edit_hand(
        hand=_hand(t), data=cego("halbe", 0, 44), reason="verzählt", user=u
    ),
    "delete_hand": lambda t, u: hands.delete_hand(hand=_hand(t), reason="doppelt", user=u),
    "record_totals": lambda t, u: hands.record_totals(table=t, totals=[-60, 20, 20, 20], user=u),
    "void_table": lambda t, u: hands.void_table(table=t, reason="unleserlich", user=u),
    "void_table lapsing a lot": lambda t, u: hands.void_table(table=t, reason="weg", user=u),
    "restore_table": lambda t, u: hands.restore_table(table=t, reason="lesbar", user=u),
    "submit_table": lambda t, u: confirmations.submit_table(table=t, user=u),
    "confirm_table": lambda t, u: confirmations.confirm_table(table=t, user=u),
    "reopen_table": lambda t, u: confirmations.reopen_table(table=t, reason="noch eins", user=u),
    "register_player": lambda t, u: register_services.register_player(
        event=t.round.event, player=Player(first_name="Eva", last_name="Spät"), user=u
    ),
    "save_players": _imported,
    "withdraw_entry": lambda t, u: register_services.withdraw_entry(
        entry=t.seats.get(position=1).entry, user=u
    ),
    "reinstate_entry": lambda t, u: register_services.reinstate_entry(
        entry=t.seats.get(position=1).entry, user=u
    ),
    "decide_by_lot": lambda t, u: lots.decide_by_lot(
        event=t.round.event, entries=_tied(t), user=u, seed=5
    ),
    "change_event_settings": lambda t, u: events.change_event_settings(
        event=t.round.event, values={"venue": "Festhalle"}, user=u
    ),
    "correct_player": lambda t, u: register_services.correct_player(
        player=t.seats.get(position=0).entry.player, values={"club": "CC Neu"}, user=u
    ),
}


def results(hand: Hand) -> list[int]:
    return list(hand.results.order_by("position").values_list("points", flat=True))


def totals_by_seat(table: Table) -> list[int]:
    """Each seat's event total, from the standings query the pages use."""
    totals = {e.pk: e.total for e in Entry.objects.standings(table.round.event)}
    seats = Seat.objects.filter(table=table).order_by("position")
    return [totals[seat.entry_id] for seat in seats]


def totals(table) -> list[int]:
    """Each seat's sum of counted results at a table, in seat order."""
    sums = [0] * table.size
    for result in Result.objects.filter(table=table, counts=True):
        sums[result.position] += result.points
    return sums


def lose_games(table: Table, *numbers: int) -> None:
    """The table's games ``numbers`` as a laptop restored from a copy made before they came in
    has them (issue 45): not there, and no trace of them in the history. Taken back through the
    play module (rescored, the event's latest game looked up again), then their history rows go,
    so that the server does not know their keys as taken back."""
    lost = list(table.hands.filter(number__in=numbers).order_by("-number"))
    for hand in lost:
        hands.delete_hand(hand=hand, reason="restored copy")
    keys = [hand.submission_key for hand in lost]
    Hand.history.filter(table_id=table.pk, submission_key__in=keys).delete()
