"""The seating draw: table sizes for a player count, and a random, reproducible seating that keeps
players who already met apart as far as possible.

Pure Python on plain ids, so it can be tested and measured without the database; the service
``draw_round`` feeds it and writes its result.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.choices import TablePolicy
from tournament.games.base import GameType

# the usual table (RULES.md 6); games played at other sizes plan with ``plan_around``
FOUR = 4


class DrawError(Exception):
    """The players cannot be seated under the event's table policy; the message says what to do."""


@dataclass(frozen=True)
class Plan:
    sizes: list[int]
    sit_out: int
    explanation: str


@dataclass
class Draw:
    tables: list[list[int]]
    sit_out: list[int]
    repeats: int
    # what the table sizes were planned from; ``explain`` turns it into a sentence in the
    # reader's language (a stored sentence would stay in the language of whoever drew)
    basis: dict[str, Any]
    seed: int


# the most players an explanation plans tables for: far above any event, and the plan is a list
# of that many tables' sizes (a basis made up by hand must not make a page compute millions)
EXPLAINED_MAX = 10_000


def basis_fits(basis: Any, players: int = EXPLAINED_MAX) -> bool:
    """Whether ``basis`` is of the shape ``draw`` stores (a player count of at most ``players``,
    and the policy and table size it planned with, or fixed pairs), so that ``explain`` can read
    it: a round's basis may come from an event bundle."""
    if not isinstance(basis, dict):
        return False
    count = basis.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= players:
        return False
    if "pairs" in basis:
        return basis["pairs"] is True and set(basis) == {"count", "pairs"}
    target = basis.get("target")
    return (
        set(basis) <= {"count", "game", "policy", "target"}
        and isinstance(basis.get("game", ""), str)
        and basis.get("policy") in TablePolicy.values
        and isinstance(target, int)
        and not isinstance(target, bool)
        and 3 <= target <= 12
    )


def explain(basis: Any, game: Any) -> str:
    """Why the tables of a draw have the sizes they have, in the active language (``game``: the
    event's game plug-in, which planned them); "" for a basis ``draw`` did not write."""
    if not basis_fits(basis):
        return ""
    if basis.get("pairs"):
        text = ngettext(
            "%(n)s fixed pairs: %(tables)s table of two pairs.",
            "%(n)s fixed pairs: %(tables)s tables of two pairs.",
            basis["count"] // 2,
        ) % {
            "n": basis["count"],
            "tables": basis["count"] // 2,
        }
        if basis["count"] % 2:
            text += " " + _("One pair sits out this round (whoever sat out least so far).")
        return text
    try:
        return plan_tables(game, basis["count"], basis["policy"], basis["target"]).explanation
    except DrawError:  # a count the draw would have refused: nothing to explain
        return ""


def plan_fours(n: int, name: str, policy: str, odd_sizes: bool = False) -> Plan:
    """Tables of four for ``n`` players of the game ``name``; ``odd_sizes``: the game also plays
    at three and five, which the "mixed" policy uses where four do not divide."""
    full, rest = divmod(n, FOUR)
    if rest == 0 and full > 0:
        return Plan(
            [FOUR] * full,
            0,
            ngettext(
                "%(n)s players fill %(tables)s table of four.",
                "%(n)s players fill %(tables)s tables of four.",
                full,
            )
            % {"n": n, "tables": full},
        )
    mixed = policy == TablePolicy.MIXED and odd_sizes
    if mixed and n >= 3:
        # Use as few odd-sized tables as possible; with two left over, two tables of five keep more
        # players at full four-handed play than two of three, where there are enough players.
        if rest == 1:
            sizes = [FOUR] * (full - 1) + [5]
        elif rest == 2:
            sizes = [FOUR] * (full - 2) + [5, 5] if full >= 2 else [3, 3]
        else:
            sizes = [FOUR] * full + [3]
        fives, threes = sizes.count(5), sizes.count(3)
        parts = []
        if sizes.count(FOUR):
            parts.append(
                ngettext("%(count)s table of four", "%(count)s tables of four", sizes.count(FOUR))
                % {"count": sizes.count(FOUR)}
            )
        if fives:
            parts.append(
                ngettext("%(count)s table of five", "%(count)s tables of five", fives)
                % {"count": fives}
            )
        if threes:
            parts.append(
                ngettext("%(count)s table of three", "%(count)s tables of three", threes)
                % {"count": threes}
            )
        return Plan(
            sizes,
            0,
            _(
                "%(n)s players do not divide into tables of four (%(rest)s left over), so the "
                "event's policy allows other sizes: %(parts)s."
            )
            % {"n": n, "rest": rest, "parts": ", ".join(parts)},
        )
    if policy in (TablePolicy.SIT_OUT, TablePolicy.MIXED) and full > 0:
        return Plan(
            [FOUR] * full,
            rest,
            ngettext(
                "%(n)s players: %(tables)s tables of four, %(rest)s player sits out this round "
                "(whoever sat out least so far).",
                "%(n)s players: %(tables)s tables of four, %(rest)s players sit out this round "
                "(whoever sat out least so far).",
                rest,
            )
            % {"n": n, "tables": full, "rest": rest},
        )
    missing = FOUR - rest
    if full == 0:
        raise DrawError(
            ngettext(
                "%(game)s needs four players at a table; %(n)s player is registered: "
                "register %(missing)s more.",
                "%(game)s needs four players at a table; %(n)s players are registered: "
                "register %(missing)s more.",
                n,
            )
            % {"game": name, "n": n, "missing": missing}
        )
    raise DrawError(
        _(
            "%(n)s players do not fill tables of four: register %(missing)s more, or withdraw "
            "%(rest)s, or change the table policy so that extra players sit out."
        )
        % {"n": n, "missing": missing, "rest": rest}
    )


def plan_around(n: int, name: str, low: int, high: int, target: int) -> Plan:
    """Tables of ``low`` to ``high`` players, as near ``target`` and as even as possible."""
    if n < low:
        raise DrawError(
            ngettext(
                "%(game)s needs at least %(low)s players; %(n)s is registered.",
                "%(game)s needs at least %(low)s players; %(n)s are registered.",
                n,
            )
            % {"game": name, "low": low, "n": n}
        )
    target = min(max(target, low), high)
    fewest, most = math.ceil(n / high), n // low
    tables = min(max(round(n / target), fewest, 1), most)
    base, extra = divmod(n, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    return Plan(
        sizes,
        0,
        ngettext(
            "%(n)s players at tables of about %(target)s (allowed %(low)s to %(high)s): "
            "%(tables)s table of %(sizes)s.",
            "%(n)s players at tables of about %(target)s (allowed %(low)s to %(high)s): "
            "%(tables)s tables of %(sizes)s, as even as possible.",
            tables,
        )
        % {
            "n": n,
            "target": target,
            "low": low,
            "high": high,
            "tables": tables,
            "sizes": ", ".join(str(s) for s in sizes),
        },
    )


def pick_sit_outs(
    players: Sequence[int], count: int, sat_out: Mapping[int, int], rng: random.Random
) -> list[int]:
    """A fair rotation: those who sat out least so far, drawn by lot among equals."""
    if count == 0:
        return []
    order = sorted(players, key=lambda p: (sat_out.get(p, 0), rng.random()))
    return sorted(order[:count])


def meetings(tables: Iterable[Sequence[int]]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[frozenset((a, b))] += 1
    return met


def count_repeats(tables: Iterable[Sequence[int]], met: Mapping[frozenset[int], int]) -> int:
    """Pairs at the same table who already met in an earlier round."""
    return sum(1 for pair in meetings(tables) if met.get(pair, 0) > 0)


def count_pair_repeats(tables: Iterable[Sequence[int]], met: Mapping[frozenset[int], int]) -> int:
    """Tables of two fixed pairs (partners at 0 and 2, 1 and 3) where the two pairs already met:
    one repeat per table, however many of the four players met before. Partners always sit
    together and are no repeat."""
    return sum(
        1
        for table in tables
        if len(table) == FOUR
        and any(met.get(frozenset((a, b)), 0) for a in table[0::2] for b in table[1::2])
    )


def seat_players(
    players: Sequence[int],
    sizes: Sequence[int],
    met: Mapping[frozenset[int], int],
    rng: random.Random,
    max_steps: int = 20_000,
    patience: int = 1_000,
) -> list[list[int]]:
    """Random tables of the given sizes, then swaps between tables that reduce repeat meetings.

    A swap is kept when it lowers the number of pairs who already met, or (now and then) when it
    keeps it equal, to get out of plateaus. Deterministic for a given rng state.
    """
    order = list(players)
    rng.shuffle(order)
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    if not met:
        return tables

    partners: dict[int, set[int]] = {p: set() for p in order}
    for pair, times in met.items():
        if times:
            a, b = tuple(pair)
            if a in partners and b in partners:
                partners[a].add(b)
                partners[b].add(a)
    where = {p: t for t, table in enumerate(tables) for p in table}

    def clashes(p: int, table: int, without: int | None = None) -> int:
        return sum(1 for q in tables[table] if q != p and q != without and q in partners[p])

    candidates_per_step = min(len(order), 400)
    # clashes counted from both sides: twice the pairs who already met
    cost = sum(clashes(p, where[p]) for p in order)
    best_cost, since_best = cost, 0
    for _step in range(max_steps):
        if since_best > patience:  # repeats that cannot be avoided: stop searching
            break
        conflicted = [p for p in order if clashes(p, where[p])]
        if not conflicted:
            break
        p = conflicted[rng.randrange(len(conflicted))]
        tp = where[p]
        before_p = clashes(p, tp)
        best_delta, best_q = 1, None
        pool = (
            order if len(order) <= candidates_per_step else rng.sample(order, candidates_per_step)
        )
        for q in pool:
            tq = where[q]
            if tq == tp:
                continue
            delta = (clashes(p, tq, without=q) + clashes(q, tp, without=p)) - (
                before_p + clashes(q, tq)
            )
            if delta < best_delta:
                best_delta, best_q = delta, q
        since_best += 1
        if best_q is None or (best_delta == 0 and rng.random() < 0.5):
            continue
        cost += 2 * best_delta
        if cost < best_cost:
            best_cost, since_best = cost, 0
        tq = where[best_q]
        tables[tp][tables[tp].index(p)] = best_q
        tables[tq][tables[tq].index(best_q)] = p
        where[p], where[best_q] = tq, tp
    for table in tables:
        rng.shuffle(table)
    return tables


def draw(
    *,
    players: Sequence[int],
    plan: Callable[[int], Plan],
    basis: dict[str, Any],
    game_name: str,
    policy: str,
    met: Mapping[frozenset[int], int],
    sat_out: Mapping[int, int],
    seed: int,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> Draw:
    """Seat ``players`` (entry ids) for one round: ``plan`` gives the table sizes for a player
    count (the game's plug-in), ``basis`` is stored with the count to explain them later.
    ``pairs``: fixed partners, seated opposite each other (positions 0 and 2, 1 and 3)."""
    rng = random.Random(seed)
    if pairs is not None:
        return _draw_pairs(pairs, met, sat_out, rng, seed, policy, game_name)
    ordered = sorted(players)
    planned = plan(len(ordered))
    sitting_out = pick_sit_outs(ordered, planned.sit_out, sat_out, rng)
    playing = [p for p in ordered if p not in set(sitting_out)]
    tables = seat_players(playing, planned.sizes, met, rng)
    basis = {**basis, "count": len(ordered)}
    return Draw(tables, sitting_out, count_repeats(tables, met), basis, seed)


def _draw_pairs(
    pairs: Sequence[tuple[int, int]],
    met: Mapping[frozenset[int], int],
    sat_out: Mapping[int, int],
    rng: random.Random,
    seed: int,
    policy: str,
    game_name: str,
) -> Draw:
    units = sorted(tuple(sorted(pair)) for pair in pairs)
    index = dict(enumerate(units))
    count = len(units)
    tables_of_two, rest = divmod(count, 2)
    if tables_of_two == 0:
        raise DrawError(
            _("%(game)s needs at least two pairs; %(n)s registered.")
            % {"game": game_name, "n": count}
        )
    if rest and policy == TablePolicy.EXACT:
        raise DrawError(
            _(
                "%(n)s pairs do not fill tables of two pairs: register one more pair, or change "
                "the table policy so that a pair sits out."
            )
            % {"n": count}
        )
    # a pair has met another pair if any of their players met
    unit_met: Counter[frozenset[int]] = Counter()
    for i in index:
        for j in index:
            if i < j and any(met.get(frozenset((a, b)), 0) for a in index[i] for b in index[j]):
                unit_met[frozenset((i, j))] += 1
    unit_sat = {i: min(sat_out.get(p, 0) for p in index[i]) for i in index}
    out_units = pick_sit_outs(list(index), rest, unit_sat, rng)
    playing = [i for i in index if i not in out_units]
    unit_tables = seat_players(playing, [2] * tables_of_two, unit_met, rng)
    tables = []
    for first, second in unit_tables:
        (a1, a2), (b1, b2) = index[first], index[second]
        tables.append([a1, b1, a2, b2])  # partners opposite: team A at 0 and 2, team B at 1 and 3
    sitting_out = sorted(p for i in out_units for p in index[i])
    basis = {"count": count, "pairs": True}
    return Draw(tables, sitting_out, count_pair_repeats(tables, met), basis, seed)


def plan_tables(game: GameType, players: int, policy: str, target: int) -> Plan:
    """The tables of a round of ``game`` for ``players`` players under the event's table policy:
    fours (with three and five where the game allows odd sizes and the policy mixes), or tables
    around the director's chosen size."""
    if not game.table_size_chosen:
        return plan_fours(players, game.name, policy, odd_sizes=game.odd_table_sizes)
    return plan_around(players, game.name, game.min_seats, game.max_seats, target)
