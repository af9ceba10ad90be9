"""Reads of registration: where an entry sits in a round, and whether it may be withdrawn now."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.models import Entry, Round, Seat


def seat_at_a_table(entry: Entry, *statuses: str) -> Seat | None:
    """The entry's seat at a table (not sitting out) of a round in one of ``statuses``, with its
    round and table, or None (one query)."""
    return (
        entry.seats.filter(round__status__in=statuses, table__isnull=False)
        .select_related("round", "table")
        .first()
    )


def withdrawal_refused(entry: Entry) -> str | None:
    """Why the player cannot be withdrawn now, or None: not while seated at a table of a round
    that has not started (its table would be one short). The players page and the admin ask."""
    seated = seat_at_a_table(entry, Round.Status.SEATED)
    if seated is None:
        return None
    return _(
        "%(player)s is seated in round %(round)s, which has not started: draw that round "
        "again after the withdrawal, or swap in another player first."
    ) % {"player": entry.player, "round": seated.round.number}


def seat_in_play(entry: Entry) -> Seat | None:
    """The entry's seat at a table of a round being played, or None (one query). A withdrawal
    leaves that table as it is: the player keeps the seat, the table's games (entered and still
    to come) count for every seat alike, and its sheet is confirmed for every seat."""
    return seat_at_a_table(entry, Round.Status.PLAYING)
