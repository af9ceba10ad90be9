"""The result cache and the stored sums: each game's per-seat results rebuilt from the stored hands
with the engine (``rescore_table``; ``rescore_tables`` for a bundle's many tables at once;
``recompute_scores`` after a rule fix), and the seats' and entries' sums the standings rank
(``sum_seats``, ``sum_entries``). Raw hand input is the truth: all of this is rebuilt from it."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.db import connection, transaction

from tournament.models import Entry, Event, Hand, Result, Seat, Table, versions
from tournament.models.events import SEAT_SUMS
from tournament.play.lots import lapse_stale_lots
from tournament.play.reads import dealers, result_rows, result_values, sql_rows


def rescore_table(
    table: Table,
    from_number: int = 1,
    *,
    check_lots: bool = True,
    hands: Sequence[Hand] | None = None,
    new: Hand | None = None,
) -> list[Result]:
    """Rebuild the result cache of one table from its hands, from game ``from_number`` on.

    Ziege's doubled deals and match ends and Hennes Sibbe's lost games depend on the order of the
    hands, so a change to one hand can change every later one: those are scored again too. Earlier
    hands are followed through the engine for that state but their stored results stay. A draw by
    lot whose tie the new results change lapses (``lapse_stale_lots``). ``hands``: the table's
    hands in game order as they are stored now, if the caller has read them already; ``new``, a
    hand stored just now in this transaction, which has no results to replace yet. Returns the
    result rows written, by game and seat.
    """
    event = table.round.event
    if hands is None:
        hands = list(Hand.objects.filter(table=table).order_by("number"))
    seat = Seat._meta.db_table
    seats = dict(sql_rows(f"SELECT position, entry_id FROM {seat} WHERE table_id = %s", table))
    rows = result_rows(event, event.full_rules(), table, hands, seats, from_number)
    # by hand id, not through a join to the hands: a plain indexed DELETE on every database
    # (PostgreSQL planned the joined form badly on freshly filled tables)
    replaced = [h.pk for h in hands if h.number >= from_number and h is not new]
    if replaced:
        Result.objects.filter(hand_id__in=replaced).delete()
    Result.objects.bulk_create(rows)
    if event.game_type.dealer_follows_results:
        _follow_dealers(event, table, hands, from_number)
    sum_seats(table)
    versions.changed(event)  # the result rows are written in bulk, which sends no signal
    if check_lots:
        lapse_stale_lots(event=event)
    return rows


def _follow_dealers(event: Event, table: Table, hands: Sequence[Hand], from_number: int) -> None:
    """Where the deal follows the hand before (Hennes Sibbe), a hand changed or deleted changes
    who dealt the next: the stored dealers from ``from_number`` on are written again where they
    differ (one UPDATE each, none when nothing moved)."""
    found, _last = dealers(event, table, hands)
    for hand in hands:
        moved = hand.number in found and hand.dealer != found[hand.number]
        if hand.number >= from_number and moved:
            hand.dealer = found[hand.number]
            Hand.objects.filter(pk=hand.pk).update(dealer=hand.dealer)


# the result cache's columns in the order ``rescore_tables`` inserts them
RESULT_COLUMNS = (
    "hand_id",
    "position",
    "entry_id",
    "table_id",
    "round_id",
    "event_id",
    "points",
    "inflicted",
    "matches_won",
    "games_lost",
    "counts",
)


def rescore_tables(
    *,
    event: Event,
    hands: Mapping[Table, Sequence[Hand]],
    fresh: Collection[Table] = (),
    scored: Mapping[Hand, Sequence[Sequence[int]]] | None = None,
) -> int:
    """``rescore_table`` for many tables of ``event`` at once, for a write that stored their
    hands in bulk (a bundle's import): the tables' hands are given in game order; ``fresh``
    tables were created in this transaction and have no results to replace. One query reads the
    seats, one deletes the results replaced, one statement inserts the new rows, one writes every
    seat's sums, whatever the number of tables. Draws by lot are the caller's to
    check. Returns the result rows written. ``scored``: hands this transaction has scored already
    with this installation's engine and rules, each seat's (points, inflicted, matches won, games
    lost) (an import scores every game of the bundle before it writes, ``check_results``); a
    table whose every hand is there is not scored a second time.

    The rows go in as plain values (``executemany``): the ORM's bulk insert took most of a large
    import's time assembling its SQL value by value (some 100,000 rows for 2,000 players)."""
    if not hands:
        return 0
    ids = [table.pk for table in hands]
    marks = ", ".join(["%s"] * len(ids))
    seat, result = Seat._meta.db_table, Result._meta.db_table
    seats: dict[int, dict[int, int]] = {}
    for table_id, position, entry_id in sql_rows(
        f"SELECT table_id, position, entry_id FROM {seat} WHERE table_id IN ({marks})", *ids
    ):
        seats.setdefault(table_id, {})[position] = entry_id
    rules = event.full_rules()
    rows = []
    for table, table_hands in hands.items():
        at = seats.get(table.pk, {})
        counts = not table.voided
        if scored is not None and all(hand in scored for hand in table_hands):
            values = [
                (hand, position, *figures)
                for hand in table_hands
                for position, figures in enumerate(scored[hand])
            ]
        else:
            values = result_values(event, rules, table, table_hands)
        rows += [
            (hand.pk, position, at[position], table.pk, table.round_id, event.pk, *figures, counts)
            for hand, position, *figures in values
        ]
    fresh_ids = {table.pk for table in fresh}
    replaced = [pk for pk in ids if pk not in fresh_ids]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if replaced:
            cursor.execute(
                f"DELETE FROM {result} WHERE table_id IN ({', '.join(['%s'] * len(replaced))})",
                replaced,
            )
        columns = ", ".join(quote(c) for c in RESULT_COLUMNS)
        values = ", ".join(["%s"] * len(RESULT_COLUMNS))
        cursor.executemany(f"INSERT INTO {result} ({columns}) VALUES ({values})", rows)
        # every result of these tables is in ``rows``: the seats' sums are added up here
        # (``sum_seats`` asks the database, seat by seat, for a table whose rows it has not)
        sums: dict[tuple[int, int], list[int]] = {}
        for table_id, seats_of in seats.items():
            for position in seats_of:
                sums[(table_id, position)] = [0] * len(SEAT_SUMS)
        for row in rows:
            if row[-1]:  # counts
                total = sums.setdefault((row[3], row[1]), [0] * len(SEAT_SUMS))
                for i, figure in enumerate(row[6:10]):
                    total[i] += figure
        columns = ", ".join(f"{field} = %s" for field in SEAT_SUMS)
        cursor.executemany(
            f"UPDATE {seat} SET {columns} WHERE table_id = %s AND position = %s",
            [[*total, table_id, position] for (table_id, position), total in sums.items()],
        )
    sum_entries(f"SELECT entry_id FROM {seat} WHERE table_id IN ({marks})", ids)
    versions.changed(event)  # the rows are written in bulk, which sends no signal
    return len(rows)


def sum_seats(table: Table) -> None:
    """Write each seat's sums of its counting results (``Seat.points`` ...), and its entry's sums
    over its seats (``Entry.sum_points`` ...), whenever the table's results or whether they count
    change: one UPDATE of the table's few seats, one of their entries. Written out in SQL: the
    ORM's form of the same statement (four correlated subqueries) took far longer to build than
    the statement takes to run, inside the write lock of every saved game."""
    seat, result = Seat._meta.db_table, Result._meta.db_table
    sums = ", ".join(
        f"{field} = COALESCE((SELECT SUM(r.{field}) FROM {result} r WHERE r.table_id = "
        f"{seat}.table_id AND r.position = {seat}.position AND r.counts), 0)"
        for field in SEAT_SUMS
    )
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {seat} SET {sums} WHERE table_id = %s", [table.pk])
    sum_entries(f"SELECT entry_id FROM {seat} WHERE table_id = %s", [table.pk])


def sum_entries(entries: str, params: Sequence[Any]) -> None:
    """Write the sums of the entries the SQL ``entries`` selects (their ids) from their seats at a
    table: the totals the standings rank, kept by every write that changes a seat's sums."""
    entry, seat = Entry._meta.db_table, Seat._meta.db_table
    sums = ", ".join(
        f"sum_{field} = COALESCE((SELECT SUM(s.{field}) FROM {seat} s WHERE s.entry_id = "
        f"{entry}.id AND s.table_id IS NOT NULL), 0)"
        for field in SEAT_SUMS
    )
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {entry} SET {sums} WHERE id IN ({entries})", list(params))


def recompute_scores(*, event: Event | None = None) -> int:
    """Rebuild every result from the stored hands (after a rule fix); returns the tables done."""
    tables = Table.objects.select_related("round__event")
    if event is not None:
        tables = tables.filter(round__event=event)
    done = 0
    events: dict[int, Event] = {}
    for table in tables:
        with transaction.atomic():
            rescore_table(table, check_lots=False)
        events[table.round.event_id] = table.round.event
        done += 1
    for each in events.values():
        with transaction.atomic():
            lapse_stale_lots(event=each)
    return done
