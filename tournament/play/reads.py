"""Reads of play that forms and pages use (never a write): a hand previewed before it is saved, the
next game number, a round's totals checked, who sits out, what a rule change would change, and
the per-seat results a table's hands replay into."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Sum
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

import scoring
from tournament.core.errors import Refused
from tournament.games.base import SeatResult
from tournament.models import Entry, Event, Hand, Player, Result, Round, Seat, Table
from tournament.play.sheets import read_sheets

TOTAL_MAX = 1_000_000  # a round's total far beyond any real one, inside the database's integers


def unfinished_tables(rnd: Round) -> list[str]:
    """Numbers of the counting tables whose sheet is not complete: not all their hands (or none),
    or, where the time decides, a game still being played (``sheets.TableSheet.complete``)."""
    tables = rnd.tables.filter(voided=False).select_related("round__event").order_by("number")
    return [str(sheet.table.number) for sheet in read_sheets(tables) if not sheet.complete]


def unconfirmed_tables(event: Event) -> list[Table]:
    """The event's counting tables with games whose sheet is not confirmed: the tables whose
    players the standings mark with * (``models.provisional_entries``), by round and number. One
    query, with their rounds."""
    return list(
        Table.objects.filter(round__event=event, voided=False, confirmed_at__isnull=True)
        .filter(Exists(Hand.objects.filter(table=OuterRef("pk"))))
        .select_related("round")
        .order_by("round__number", "number")
    )


def sheets_named(tables: Sequence[Table]) -> str:
    """Tables named by round, as the director finds them: "round 1: tables 2, 3; round 2:
    table 1" (``unconfirmed_tables``)."""
    by_round: dict[int, list[str]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(str(table.number))
    return "; ".join(
        ngettext("round %(r)s: table %(tables)s", "round %(r)s: tables %(tables)s", len(numbers))
        % {"r": number, "tables": ", ".join(numbers)}
        for number, numbers in by_round.items()
    )


def removal_refused(rnd: Round) -> str | None:
    """Why the round cannot be removed, or None: only the event's last round, and only until it
    starts (it has games then, or may get them at any moment). A query when it has not started."""
    if rnd.status not in (Round.Status.DRAFT, Round.Status.SEATED):
        return _("Round %(n)s has started; it can no longer be removed.") % {"n": rnd.number}
    if Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).exists():
        return _("Only the last round can be removed; remove the later rounds first.")
    return None


# --- hands ------------------------------------------------------------------------------------


def engine_hands(event: Event, table: Table, hands: Sequence[Hand]) -> list[dict[str, Any]]:
    """The stored hands as the engine takes them, with what the table knows (who sits out)."""
    game = event.game_type
    return [game.engine_hand(hand.data, table.size, hand.number) for hand in hands]


def dealers(
    event: Event, table: Table, hands: Sequence[Hand]
) -> tuple[dict[int, int | None], list[int] | None]:
    """Who dealt each of ``hands`` (the table's hands in game order, by number) where the deal
    follows the hand before (``GameType.dealer_follows_results``: Hennes Sibbe), and the last
    hand's results, which decide who deals the next. The hands are replayed through the engine,
    no query."""
    game = event.game_type
    played = [hand for hand in hands if hand.kind == Hand.Kind.HAND]
    found: dict[int, int | None] = {}
    before: list[int] | None = None
    replayed = game.replay(engine_hands(event, table, played), table.size, event.full_rules())
    for hand, results in zip(played, replayed, strict=True):
        found[hand.number] = game.dealer(table.size, hand.number, before)
        before = [seat.points for seat in results]
    return found, before


def seat_sitting_out(table: Table, number: int | None = None) -> int | None:
    """The seat that sits out hand ``number`` (the next hand when None), if the game has one
    (Cego's dealer at a five-seat table). Without a number it costs a query."""
    game = table.round.event.game_type
    return game.sitting_out(table.size, number if number is not None else next_game_number(table))


def preview_hand(
    *,
    table: Table,
    data: dict[str, Any],
    number: int | None = None,
    hands: Sequence[Hand] | None = None,
) -> list[int]:
    """The results a hand would give, without saving it (raises InvalidHand). The hands before
    it are replayed too where the game needs them (Ziege's doubled deal); ``hands``, the table's
    stored hands in game order, saves reading them again."""
    event = table.round.event
    game = event.game_type
    if number is None:
        number = next_game_number(table)
    previous: list[Hand] = []
    if game.scores_on_earlier_hands:
        if hands is None:
            hands = Hand.objects.filter(table=table, number__lt=number).order_by("number")
        previous = [h for h in hands if h.number < number and h.kind == Hand.Kind.HAND]
    hands = [*engine_hands(event, table, previous), game.engine_hand(data, table.size, number)]
    *_before, last = game.replay(hands, table.size, event.full_rules())
    return [seat.points for seat in last]


HAND = Hand._meta.db_table


def earlier_results(table: Table, number: int) -> list[list[SeatResult]]:
    """The stored per-seat results of the table's games before game ``number``, in game order
    (a round's paper totals are no game); one query."""
    hands: dict[int, list[SeatResult]] = {}
    for hand_number, position, points, inflicted, matches_won, games_lost in (
        Result.objects.filter(table=table, hand__number__lt=number, hand__kind=Hand.Kind.HAND)
        .order_by("hand__number", "position")
        .values_list("hand__number", "position", "points", "inflicted", "matches_won", "games_lost")
    ):
        seats = hands.setdefault(hand_number, [SeatResult(0) for _ in range(table.size)])
        if position < table.size:
            seats[position] = SeatResult(points, inflicted, matches_won, games_lost)
    return list(hands.values())


def sql_column(sql: str, *values: Any) -> list[Any]:
    """A column of a read written out in SQL (a model's values are given by their id): the reads
    of every saved game, whose SQL the ORM took longer to build than to run (issue 13)."""
    return [row[0] for row in sql_rows(sql, *values)]


def sql_rows(sql: str, *values: Any) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, [getattr(value, "pk", value) for value in values])
        return cursor.fetchall()


def next_game_number(table: Table, hands: Sequence[Hand] | None = None) -> int:
    """The table's first free game number (``hands``: its stored hands, if read already)."""
    taken = (
        {h.number for h in hands}
        if hands is not None
        else set(sql_column(f"SELECT number FROM {HAND} WHERE table_id = %s", table))
    )
    number = 1
    while number in taken:
        number += 1
    return number


def check_totals(event: Event, table: Table, totals: Any) -> list[int]:
    """The paper fallback: one whole number per seat, adding up to zero in a zero-sum game; Cego
    totals are sums of amounts written in tens, so they are multiples of ten too."""
    if not isinstance(totals, list) or len(totals) != table.size:
        raise scoring.InvalidHand("totals", _("give one total per player"))
    game = event.game_type
    step = game.totals_step(event.full_rules())
    for i, value in enumerate(totals):
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > TOTAL_MAX:
            raise scoring.InvalidHand(
                f"totals[{i}]", _("must be a whole number from -1000000 to 1000000")
            )
        if not game.zero_sum and value < 0:
            raise scoring.InvalidHand(f"totals[{i}]", _("cannot be negative in this game"))
        if value % step:
            raise scoring.InvalidHand(
                f"totals[{i}]",
                _(
                    "must be a multiple of %(step)s, as every %(game)s game's result is; "
                    "got %(value)s"
                )
                % {"step": step, "game": game.name, "value": value},
            )
    if game.zero_sum and sum(totals) != 0:
        raise scoring.InvalidHand(
            "totals",
            _("must add up to zero (every point won is lost by someone), they add up to %(sum)s")
            % {"sum": sum(totals)},
        )
    return totals


# --- event settings ---------------------------------------------------------------------------

# what the event form may change, in the form's order (the status follows the rounds); the rule
# settings and the games per round come from the form's own fields
EVENT_FIELDS = (
    "name",
    "slug",
    "season",
    "date",
    "venue",
    "game",
    "table_policy",
    "target_table_size",
    "rounds_planned",
    "pairing",
    "public_url",
    "point_value_cents",
    "registration_open",
    "registration_closes",
    "capacity",
    "waiting_list",
)
EVENT_SETTINGS = frozenset({*EVENT_FIELDS, "rules", "hands_per_round"})


@dataclass(frozen=True)
class RuleChangeEffect:
    """What new rule settings do to an event's stored hands."""

    hands: int  # stored hands scored again
    players: int  # players whose standings figures change


def entry_figures(event: Event) -> dict[int, tuple[int, int, int, int]]:
    """Entry id → its counted sums of every result column (one query)."""
    rows = (
        Result.objects.filter(event=event, counts=True)
        .values("entry_id")
        .annotate(p=Sum("points"), i=Sum("inflicted"), m=Sum("matches_won"), g=Sum("games_lost"))
    )
    return {r["entry_id"]: (r["p"], r["i"], r["m"], r["g"]) for r in rows}


def changed_entries(before: dict[int, tuple], after: dict[int, tuple]) -> int:
    nothing = (0, 0, 0, 0)
    entries = set(before) | set(after)
    return sum(1 for e in entries if before.get(e, nothing) != after.get(e, nothing))


def stored_hand_count(event: Event) -> int:
    return Hand.objects.filter(table__round__event=event, kind=Hand.Kind.HAND).count()


def rule_change_effect(*, event: Event, rules: dict[str, Any]) -> RuleChangeEffect:
    """What ``rules`` (the event's stored settings, not yet saved) would do to the stored games,
    without writing anything. Raises InvalidStoredHand naming the first game they make invalid.
    Four queries whatever the size of the event."""
    full = {**event.game_type.default_rules(), **rules}
    tables = list(Table.objects.filter(round__event=event).select_related("round"))
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(table__round__event=event).order_by("table_id", "number"):
        hands.setdefault(hand.table_id, []).append(hand)
    seats: dict[int, dict[int, int]] = {}
    for table_id, position, entry_id in Seat.objects.filter(
        round__event=event, table__isnull=False
    ).values_list("table_id", "position", "entry_id"):
        seats.setdefault(table_id, {})[position] = entry_id
    after: dict[int, list[int]] = {}
    hands_scored = 0
    for table in tables:
        table_hands = hands.get(table.pk, [])
        hands_scored += sum(1 for h in table_hands if h.kind == Hand.Kind.HAND)
        for row in result_rows(event, full, table, table_hands, seats.get(table.pk, {})):
            if row.counts:
                sums = after.setdefault(row.entry_id, [0, 0, 0, 0])
                sums[0] += row.points
                sums[1] += row.inflicted
                sums[2] += row.matches_won
                sums[3] += row.games_lost
    return RuleChangeEffect(
        hands=hands_scored,
        players=changed_entries(entry_figures(event), {k: tuple(v) for k, v in after.items()}),
    )


SEASON_FIELDS = frozenset({"name", "slug", "game", "best_of"})


def game_fixed_message(event: Event) -> str:
    return _(
        "The game cannot be changed after the first draw: the tables and games stored are games "
        "of %(game)s. Create a new event for another game."
    ) % {"game": event.get_game_display()}


class InvalidStoredHand(Refused):
    """A stored game the engine rejects, e.g. under new rule settings: named so that it can be
    found and corrected."""

    def __init__(self, table: Table, hand: Hand, exc: scoring.InvalidHand) -> None:
        self.hand = hand
        super().__init__(
            _(
                "Game %(game)s at table %(table)s of round %(round)s is not valid under these "
                "rule settings: %(reason)s"
            )
            % {
                "game": hand.number,
                "table": table.number,
                "round": table.round.number,
                "reason": f"{exc.field}: {exc.explain(gettext)}",
            }
        )


def result_values(
    event: Event,
    rules: dict[str, Any],
    table: Table,
    hands: Sequence[Hand],
    from_number: int = 1,
) -> list[tuple[Hand, int, int, int, int, int]]:
    """The figures of the result cache rows of one table's hands (in game order) under
    ``rules``, from game ``from_number`` on: (hand, position, points, inflicted, matches won,
    games lost) for each hand and seat. Raises InvalidStoredHand for a hand the engine rejects."""
    rows: list[tuple[Hand, int, int, int, int, int]] = []
    played = [hand for hand in hands if hand.kind != Hand.Kind.TOTALS]
    for hand in hands:
        if hand.kind == Hand.Kind.TOTALS and hand.number >= from_number:
            for position, points in enumerate(hand.data["totals"]):
                rows.append((hand, position, points, 0, 0, 0))
    replayed = event.game_type.replay(engine_hands(event, table, played), table.size, rules)
    for hand in played:
        try:
            seats_results = next(replayed)
        except scoring.InvalidHand as exc:
            raise InvalidStoredHand(table, hand, exc) from exc
        if hand.number < from_number:
            continue
        for position, seat in enumerate(seats_results):
            rows.append(
                (hand, position, seat.points, seat.inflicted, seat.matches_won, seat.games_lost)
            )
    return rows


def result_rows(
    event: Event,
    rules: dict[str, Any],
    table: Table,
    hands: Sequence[Hand],
    seats: dict[int, int],
    from_number: int = 1,
) -> list[Result]:
    """The result cache rows of one table's hands (in game order) under ``rules``, unsaved, from
    game ``from_number`` on (``result_values``). Raises InvalidStoredHand for a hand the engine
    rejects."""
    return [
        Result(
            hand=hand,
            position=position,
            entry_id=seats[position],
            table=table,
            round_id=table.round_id,
            event_id=event.pk,
            points=points,
            inflicted=inflicted,
            matches_won=matches_won,
            games_lost=games_lost,
            counts=not table.voided,
        )
        for hand, position, points, inflicted, matches_won, games_lost in result_values(
            event, rules, table, hands, from_number
        )
    ]


# --- a table as its players' phones read it ------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    """A seat of a table as its phones show it: the position, whose entry, the player's name."""

    position: int
    entry_id: int
    name: str


@dataclass(frozen=True)
class TableState:
    """A table's seats and what its sheet is made of, read in one query. ``version`` changes
    whenever the sheet shown for the table may change: a game saved, corrected, taken back or
    scored again (each writes new result rows, and a saved or corrected game its ``updated_at``),
    a seat's sums (a voided or restored table), a player's name, an entry withdrawn, a seat
    swapped. The event's rules are not in it: a page keys the sheet by them too."""

    seats: tuple[SeatLine, ...]
    version: tuple[Any, ...]


ENTRY, PLAYER, RESULT, SEAT = (
    Entry._meta.db_table,
    Player._meta.db_table,
    Result._meta.db_table,
    Seat._meta.db_table,
)
# the games' and the results' figures are subqueries without a reference to the seat row: each
# is evaluated once, from the indexes on (table, updated_at) and on the results' table
TABLE_STATE = (
    f"SELECT (SELECT COUNT(*) FROM {HAND} WHERE table_id = %s), "
    f"(SELECT MAX(updated_at) FROM {HAND} WHERE table_id = %s), "
    f"(SELECT COUNT(*) FROM {RESULT} WHERE table_id = %s), "
    f"(SELECT MAX(id) FROM {RESULT} WHERE table_id = %s), "
    f"s.position, s.entry_id, s.points, s.inflicted, s.matches_won, s.games_lost, e.status, "
    f"p.first_name, p.last_name "
    f"FROM {SEAT} s JOIN {ENTRY} e ON e.id = s.entry_id JOIN {PLAYER} p ON p.id = e.player_id "
    f"WHERE s.table_id = %s ORDER BY s.position"
)


def table_state(table: Table) -> TableState:
    """The table's seats in seat order and the version of its sheet (one query; with the table's
    own row, which the caller has read: handed in, confirmed, voided)."""
    rows = sql_rows(TABLE_STATE, table, table, table, table, table)
    seats = tuple(SeatLine(row[4], row[5], f"{row[11]} {row[12]}") for row in rows)
    figures = rows[0][:4] if rows else ()
    version = (
        figures,
        tuple(row[4:] for row in rows),
        table.size,
        table.voided,
        table.submitted_at,
        table.confirmed_at,
        table.confirmation_lapsed_at,
    )
    return TableState(seats, version)
