"""Settlement for money games (issue 17): balances in money and who pays whom.

An event played for money sets what one point or chip is worth (``Event.point_value_cents``). A
player's balance is the sum of their counting results (at one table for one round, or over the
whole event; a voided table counts nothing) and their money is that sum times the value, in whole
cents: exact, never a float. Crazy Solo's start balance of 150 chips is the same for everyone and
is not money: only what a player won or lost is paid. Only zero-sum games (Cego, Crazy Solo) can
be played for money per point: what the winners win, the losers lose (``Event.clean``).

Fewest transfers
    Every player who is owed money is paid and every player who owes pays, in as few transfers as
    possible. With n players whose balances are not zero, n - 1 transfers always suffice; each
    group of players whose balances add up to zero among themselves can settle on its own and
    saves one transfer, so the fewest transfers are n minus the most such groups a partition of
    the players can have. Finding that partition is NP-hard in general (it contains subset sum),
    so :func:`fewest_transfers`

    1. settles every pair with exactly opposite balances first (there is always a fewest
       settlement that does: such a pair is a group of its own or can be split off one);
    2. finds the best partition of the rest exactly, by a search over the subsets of players
       (time 2^n · n), when at most :data:`EXACT_LIMIT` players are left: a table of up to 12
       always is;
    3. above that (a large event's whole field), settles greedily: the largest debt pays the
       largest claim, so every transfer settles at least one player in full: at most n - 1
       transfers, not always the fewest.

    Within a group, the same greedy step gives exactly size - 1 transfers, which is the fewest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Sum

from tournament.core import collation
from tournament.models import Entry, Event, Result, Seat, Table
from tournament.play.sheets import seat_name

# the most players (after pairs are settled) the exact search takes while still answering at
# once; its time quadruples with every two more (``python bench/rating.py``, figures in
# docs/performance.md); a field beyond that is settled greedily
EXACT_LIMIT = 16


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``cents`` (indices into the balances settled)."""

    payer: int
    payee: int
    cents: int


def fewest_transfers(balances: Sequence[int]) -> tuple[list[Transfer], bool]:
    """Transfers that settle ``balances`` (whole cents, adding up to zero; + is owed money), and
    whether their number is proven the fewest. Deterministic: the same balances in the same
    order give the same transfers."""
    if sum(balances) != 0:
        raise ValueError(f"balances must add up to zero, they add up to {sum(balances)}")
    transfers: list[Transfer] = []
    open_ = [i for i, b in enumerate(balances) if b]
    # 1. exactly opposite pairs, largest first, lowest index first
    by_amount: dict[int, list[int]] = {}
    for i in open_:
        by_amount.setdefault(balances[i], []).append(i)
    paired: set[int] = set()
    for i in sorted(open_, key=lambda i: (-abs(balances[i]), i)):
        if i in paired or balances[i] >= 0:
            continue
        partners = [j for j in by_amount.get(-balances[i], []) if j not in paired]
        if partners:
            j = partners[0]
            paired |= {i, j}
            transfers.append(Transfer(i, j, -balances[i]))
    rest = [i for i in open_ if i not in paired]
    if len(rest) <= EXACT_LIMIT:
        for group in zero_sum_groups([balances[i] for i in rest]):
            transfers += _settle([rest[k] for k in group], balances)
        return transfers, True
    return transfers + _settle(rest, balances), False


def zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """A partition of ``values`` (indices) into the most groups that each add up to zero.

    ``best[mask]``: the most zero-sum groups the players in ``mask`` can be split into, where a
    last group that does not add up to zero is allowed; it grows by one exactly at the masks that
    add up to zero. Removing one player at a time and marking where the running sum hits zero
    then spells out the groups."""
    n = len(values)
    if n == 0:
        return []
    size = 1 << n
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
        best[mask] = most + (total[mask] == 0)
    # walk back from everyone: drop a player whose removal keeps the count reachable
    order: list[int] = []
    mask = size - 1
    while mask:
        gain = total[mask] == 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] + gain == best[mask]:
                order.append(bit.bit_length() - 1)
                mask ^= bit
                break
    # ``order`` removes players from the full set; read backwards it adds them, and every
    # point where the running sum is zero closes a group
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for k in reversed(order):
        current.append(k)
        running += values[k]
        if running == 0:
            groups.append(sorted(current))
            current = []
    if current:  # cannot happen for balances adding up to zero
        groups.append(sorted(current))
    return groups


def _settle(members: Sequence[int], balances: Sequence[int]) -> list[Transfer]:
    """Greedy: the largest debt pays the largest claim until all are settled (ties: lower index
    first). Each transfer settles at least one of the two in full."""
    left = {i: balances[i] for i in members if balances[i]}
    transfers = []
    while left:
        payer = min((i for i in left if left[i] < 0), key=lambda i: (left[i], i))
        payee = max((i for i in left if left[i] > 0), key=lambda i: (left[i], -i))
        cents = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, cents))
        for i, change in ((payer, cents), (payee, -cents)):
            left[i] += change
            if not left[i]:
                del left[i]
    return transfers


# --- the database side --------------------------------------------------------------------------


@dataclass
class Line:
    """One player's balance: ``points`` (or chips) won or lost, ``cents`` in money; ``name``:
    the player as the page names them."""

    player: Any
    points: int
    cents: int
    name: str = ""


@dataclass
class Settlement:
    lines: list[Line] = field(default_factory=list)
    # (payer's line, payee's line, cents)
    transfers: list[tuple[Line, Line, int]] = field(default_factory=list)
    fewest: bool = True
    table: Table | None = None

    @property
    def total_paid(self) -> int:
        return sum(cents for _payer, _payee, cents in self.transfers)


def settle(lines: list[Line]) -> Settlement:
    """The fewest transfers for ``lines``, listed by the payer's name (German order), so that a
    player finds their own line on a long list."""
    transfers, fewest = fewest_transfers([line.cents for line in lines])
    listed = collation.by_name(
        [(lines[t.payer], lines[t.payee], t.cents) for t in transfers], lambda t: t[0].player
    )
    return Settlement(lines=lines, transfers=listed, fewest=fewest)


def is_money_game(event: Event) -> bool:
    return bool(event.point_value_cents) and event.game_type.zero_sum


def table_settlement(table: Table, *, public: bool = False) -> Settlement:
    """The table's round in money, seats in order (two queries). ``public``: the players named
    as far as their consent reaches, as the table's public sheet names them."""
    value = table.round.event.point_value_cents
    points = dict(
        Result.objects.filter(table=table, counts=True)
        .values("position")
        .annotate(sum=Sum("points"))
        .values_list("position", "sum")
    )
    seats = Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    lines = [
        Line(
            seat.entry.player,
            points.get(seat.position, 0),
            points.get(seat.position, 0) * value,
            seat_name(seat, public=public),
        )
        for seat in seats
    ]
    found = settle(lines)
    found.table = table
    return found


def event_settlement(event: Event) -> Settlement:
    """The whole event in money, per player, best first (one query)."""
    value = event.point_value_cents
    entries = (
        Entry.objects.filter(event=event)
        .played()
        .select_related("player")
        .annotate(points=Sum("seats__points"))  # each seat's counting results, summed
        .order_by("player__last_name", "player__first_name", "start_number")
    )
    lines = [Line(e.player, e.points or 0, (e.points or 0) * value, str(e.player)) for e in entries]
    lines.sort(key=lambda line: -line.points)
    return settle(lines)


def tables_settlements(event: Event) -> list[tuple[Any, list[Settlement]]]:
    """Every round's tables in money, for settling at the table after each round (three
    queries): [(round, [settlement per table])]."""
    value = event.point_value_cents
    sums: dict[tuple[int, int], int] = {
        (row["table_id"], row["position"]): row["sum"]
        for row in Result.objects.filter(event=event, counts=True)
        .values("table_id", "position")
        .annotate(sum=Sum("points"))
    }
    seats = (
        Seat.objects.filter(round__event=event, table__isnull=False)
        .select_related("entry__player", "table", "round")
        .order_by("round__number", "table__number", "position")
    )
    rounds: list[tuple[Any, list[Settlement]]] = []
    lines_of: dict[int, list[Line]] = {}
    tables: dict[int, Table] = {}
    for seat in seats:
        if not rounds or rounds[-1][0].pk != seat.round_id:
            rounds.append((seat.round, []))
        if seat.table_id not in lines_of:
            lines_of[seat.table_id] = []
            tables[seat.table_id] = seat.table
            rounds[-1][1].append(seat.table_id)  # type: ignore[arg-type]
        points = sums.get((seat.table_id, seat.position), 0)
        lines_of[seat.table_id].append(
            Line(seat.entry.player, points, points * value, str(seat.entry.player))
        )
    result = []
    for rnd, table_ids in rounds:
        settled = []
        for table_id in table_ids:
            found = settle(lines_of[table_id])  # type: ignore[index]
            found.table = tables[table_id]  # type: ignore[index]
            settled.append(found)
        result.append((rnd, settled))
    return result
