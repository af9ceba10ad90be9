"""The locks a write of a table's games, its sheet or its void takes, in the one order every such
write takes them (the round's and the event's rows first, then the table's), and the check that a
table still takes a change (``check_table_open``). Shared by ``hands`` and ``confirmations``, and
below both."""

from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext as _

from tournament.core.errors import Refused
from tournament.models import Event, Round, Table


def check_table_open(table: Table, *, new: bool) -> None:
    """Refuse a change of the table's games or sheet unless its event and round take one: the
    event not finished, the round started (and for a ``new`` game not closed either), the table
    not voided."""
    rnd = table.round
    if rnd.event.status == Event.Status.FINISHED:
        # the standings and prizes are final: a correction reopens the event first (handbook,
        # "Ein Spiel korrigieren"), else a changed sheet would lose its confirmations and mark
        # a finished event provisional again (issue 43.9)
        raise Refused(
            _("The event is finished: reopen it with a reason (prize table) to correct a result.")
        )
    if rnd.status in (Round.Status.DRAFT, Round.Status.SEATED):
        raise Refused(_("Round %(n)s has not started yet.") % {"n": rnd.number})
    if new and rnd.status == Round.Status.CLOSED:
        raise Refused(
            _("Round %(n)s is closed; correct an existing game instead.") % {"n": rnd.number}
        )
    if table.voided:
        raise Refused(_("This table's round is voided; restore it before entering games."))


def locked_table(table: Table) -> Table:
    """The table, its round and its event, locked for the rest of the transaction: a change of a
    table's games, its confirmation, its void. Every lock on a table's rows is taken in one
    order, the round's and the event's rows first, then the table's (as a new game takes them,
    ``table_for_a_game``, and a rule change or a round's close); taken the other way round, a
    service holding its table and waiting for the round, and a game holding the round and
    waiting for that table, would wait for each other for ever (PostgreSQL would end one of them
    with an error)."""
    return _table_locked(table, "UPDATE")


def table_for_a_game(table: Table) -> Table:
    """The table locked for a new game, its round and its event held against a change.

    On PostgreSQL the round's and the event's rows are held with ``FOR KEY SHARE``, which other
    games share: the games of two tables are stored at the same moment, while a change of the
    event's rules, the round's close or a service on a table (``FOR UPDATE`` of the round's or
    the event's row, ``locked_table``) waits for them and they for it. Taken before the table's
    row, in the order of those. Games of one event meet at the end of their transactions, where
    the event's and its season's versions change (``versions.at_the_end``), and at the event's
    live draws by lot, if it has any. With the event's row locked for the whole game, games of
    other tables waited for each other under the HTTP figure's load (issue 13). A service
    waiting for the round's or the event's row goes on once no game of the event is being stored,
    which is soon: a game is stored quickly, a few times a second. SQLite's writers take turns for
    the whole transaction anyway (``tournament.sqlite``)."""
    return _table_locked(table, "KEY SHARE")


def _table_locked(table: Table, round_and_event: str) -> Table:
    """The table with its round and event, read after the round's and the event's rows are
    locked in the mode given (``UPDATE`` or ``KEY SHARE``) and then the table's row ``FOR UPDATE``
    (PostgreSQL; SQLite's writers take turns for the whole transaction)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(LOCK_ROUND_AND_EVENT.format(mode=round_and_event), [table.round_id])
        tables = Table.objects.select_for_update(of=("self",))
    else:
        tables = Table.objects.all()
    # ``get`` asks for no order: ``first`` would sort by the table's ordering, which runs
    # through the round's and the event's, for the one row its key finds
    try:
        return tables.select_related("round__event").get(pk=table.pk)
    except Table.DoesNotExist:
        raise Table.DoesNotExist(f"table {table.pk}") from None


# the round's and the event's rows of a table's round, locked before the table's (PostgreSQL)
LOCK_ROUND_AND_EVENT = (
    f"SELECT 1 FROM {Round._meta.db_table} r JOIN {Event._meta.db_table} e ON e.id = r.event_id "
    "WHERE r.id = %s FOR {mode}"
)
