"""Every entry's stored totals (``Entry.sum_points``, ``sum_inflicted``, ``sum_matches_won``,
``sum_games_lost``) equal the sums of its counting results after every kind of change, in any
order, in Cego, Ziege and Hennes Sibbe; and the standings show those sums."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from tests.factories import cego, challenge, make_event, make_round
from tournament.core.errors import Refused
from tournament.models import Entry, Event, Hand, Player, Result, Seat, Table
from tournament.play import events, hands, rounds, scores
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db

T = TypeVar("T")
FIELDS = ("points", "inflicted", "matches_won", "games_lost")
GAMES_PER_ROUND = 3
ROUNDS_MAX = 3
# withdrawals stop here, so that every later round can still be drawn
ACTIVE_MIN = 6
SEEDS = st.integers(1, 10_000)


# --- the games: their events, hands, totals and rule edits ------------------------------------


@dataclasses.dataclass(frozen=True)
class Game:
    key: str
    players: tuple[int, int]
    settings: dict[str, Any]
    # a valid hand for a table of ``size`` as game ``number``
    hand: Callable[[int, int], SearchStrategy[dict[str, Any]]]
    # valid round totals for a table of ``size``; None: the game refuses totals
    totals: Callable[[int], SearchStrategy[list[int]]] | None
    # rule settings a director may change to, rescoring the stored games
    rules: SearchStrategy[dict[str, Any]]
    # a fixed hand for the plain standings test
    fixed_hand: Callable[[int, int], dict[str, Any]]

    def __str__(self) -> str:
        return self.key


def cego_hand(size: int, number: int) -> SearchStrategy[dict[str, Any]]:
    sitting_out = (number - 1) % size if size == 5 else None  # at five the dealer sits out
    declarer = st.sampled_from([seat for seat in range(size) if seat != sitting_out])
    point_game = st.builds(
        cego,
        st.sampled_from(["cego", "halbe", "eine", "leere", "solo"]),
        declarer,
        st.integers(0, 79),
    )
    bettel = st.builds(
        lambda seat, tricks: {"contract": "bettel", "declarer": seat, "declarer_tricks": tricks},
        declarer,
        st.integers(0, 2),
    )
    return st.one_of(point_game, bettel)


def cego_totals(size: int) -> SearchStrategy[list[int]]:
    """Multiples of ten adding up to zero."""
    return st.lists(st.integers(-20, 20), min_size=size - 1, max_size=size - 1).map(
        lambda tens: [10 * t for t in tens] + [-10 * sum(tens)]
    )


def ziege_hand(size: int, number: int) -> SearchStrategy[dict[str, Any]]:
    # the limits of the defeat points (0, 30/31, 59/60/61, 90/89, 120) more often than the rest
    points = st.one_of(st.sampled_from([0, 30, 31, 59, 60, 61, 89, 90, 120]), st.integers(0, 120))
    return points.map(lambda a: {"team_a_points": a})


def hennes_sibbe_hand(size: int, number: int) -> SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda claimant, step, correct: {
            "claimant": claimant,
            "challenger": (claimant + step) % size,
            "claim": {"count": 5, "colour": "gelb"},
            "claim_correct": correct,
        },
        st.integers(0, size - 1),
        st.integers(1, size - 1),
        st.booleans(),
    )


CEGO = Game(
    key="cego",
    players=(8, 10),  # tables of three, four and five
    settings={"table_policy": Event.TablePolicy.MIXED},
    hand=cego_hand,
    totals=cego_totals,
    rules=st.fixed_dictionaries(
        {"win_threshold": st.sampled_from([35, 40, 45]), "bettel": st.sampled_from([30, 50])}
    ),
    fixed_hand=lambda size, number: cego("halbe", number % size, 47 if number % 2 else 34),
)
ZIEGE = Game(
    key="ziege",
    players=(8, 9),  # a ninth player sits out
    settings={"table_policy": Event.TablePolicy.SIT_OUT},
    hand=ziege_hand,
    totals=None,
    rules=st.fixed_dictionaries(
        {"match_limit": st.sampled_from([6, 12, 18]), "balls_double_next": st.booleans()}
    ),
    fixed_hand=lambda size, number: {"team_a_points": (120, 0, 20, 60, 90)[number % 5]},
)
HENNES_SIBBE = Game(
    key="hennes_sibbe",
    players=(6, 8),
    settings={"table_policy": Event.TablePolicy.MIXED, "target_table_size": 4},
    hand=hennes_sibbe_hand,
    totals=lambda size: st.lists(st.integers(0, 6), min_size=size, max_size=size),
    rules=st.fixed_dictionaries({"penalty_limit": st.sampled_from([2, 3, 4])}),
    fixed_hand=lambda size, number: challenge(number % size, size),
)
GAMES = [CEGO, ZIEGE, HENNES_SIBBE]


def enter_players(event: Event, count: int) -> None:
    """``count`` new players entered in one registration (``make_entries`` registers one by one,
    which is most of an example's time)."""
    players = [
        Player(first_name=f"Vorname{n}", last_name=f"Nachname{n}", club="CC Test")
        for n in range(1, count + 1)
    ]
    register_services.register_players(event=event, players=players)


# --- the sums, counted from the result rows ---------------------------------------------------


def counting_results(event: Event) -> tuple[Counter[tuple[int, str]], Counter[tuple[Any, ...]]]:
    """The event's counting results added up here from the result rows (not from the seats'
    sums): by entry, (entry id, field) → sum, and by seat, (table id, position, field) → sum."""
    by_entry: Counter[tuple[int, str]] = Counter()
    by_seat: Counter[tuple[Any, ...]] = Counter()
    # in no order (a sum needs none): the result rows' own order joins four tables, which
    # PostgreSQL, with no statistics on a test's fresh rows, planned into minutes for one example
    rows = Result.objects.filter(entry__event=event, counts=True).order_by()
    for entry_id, table_id, position, *figures in rows.values_list(
        "entry_id", "table_id", "position", *FIELDS
    ):
        for field, figure in zip(FIELDS, figures, strict=True):
            by_entry[(entry_id, field)] += figure
            by_seat[(table_id, position, field)] += figure
    return by_entry, by_seat


def counted_sums(event: Event) -> dict[int, dict[str, int]]:
    """Each entry's sums of its counting results: entry id → field → sum."""
    by_entry, _by_seat = counting_results(event)
    return {
        pk: {field: by_entry[(pk, field)] for field in FIELDS}
        for pk in Entry.objects.filter(event=event).values_list("pk", flat=True)
    }


def assert_totals_match(event: Event, log: list[str]) -> None:
    """Every entry's stored totals are the sums of its counting results, and so is every seat's
    at its table and position; ``log``, the changes so far, is said on a mismatch."""
    by_entry, by_seat = counting_results(event)
    wrong = {}
    for start_number, pk, *stored in Entry.objects.filter(event=event).values_list(
        "start_number", "pk", *(f"sum_{field}" for field in FIELDS)
    ):
        expected = [by_entry[(pk, field)] for field in FIELDS]
        if stored != expected:
            wrong[start_number] = {"stored": stored, "counted": expected}
    steps = "\n  ".join(log)
    assert not wrong, (
        f"entries (by start number) whose stored {FIELDS} differ from their counting results "
        f"after:\n  {steps}\n{wrong}"
    )
    wrong_seats = {}
    for table_id, position, *stored in Seat.objects.filter(
        round__event=event, table__isnull=False
    ).values_list("table_id", "position", *FIELDS):
        expected = [by_seat[(table_id, position, field)] for field in FIELDS]
        if stored != expected:
            wrong_seats[(table_id, position)] = {"stored": stored, "counted": expected}
    assert not wrong_seats, (
        f"seats whose sums differ from their results after:\n  {steps}\n{wrong_seats}"
    )


# --- an event played through a sequence of changes --------------------------------------------


class Play:
    """One event of ``game``, changed through the services one change at a time, with the check
    after each; ``draw`` chooses what each change is (hypothesis's ``data.draw``)."""

    def __init__(self, game: Game, draw: Callable[[SearchStrategy[Any]], Any]) -> None:
        self.game, self.draw = game, draw
        self.log: list[str] = []
        self.event = make_event(game.key, hands_per_round={"*": GAMES_PER_ROUND}, **game.settings)
        enter_players(self.event, draw(st.integers(*game.players)))
        self.round = make_round(self.event, seed=draw(SEEDS))
        self.changed(f"round 1 drawn for {self.event.entries.count()} players")

    def changed(self, what: str) -> None:
        self.log.append(what)
        assert_totals_match(self.event, self.log)

    def pick(self, rows: list[T]) -> T | None:
        return self.draw(st.sampled_from(rows)) if rows else None

    @staticmethod
    def where(table: Table) -> str:
        return f"round {table.round.number} table {table.number} ({table.size} seats)"

    @staticmethod
    def next_number(table: Table) -> int | None:
        """The number of the table's next game, or None if it takes no game now (voided, its
        totals entered, or all its games played)."""
        hands = list(table.hands.values_list("number", "kind"))
        if table.voided or len(hands) >= GAMES_PER_ROUND:
            return None
        if any(kind == Hand.Kind.TOTALS for _number, kind in hands):
            return None
        return min(set(range(1, GAMES_PER_ROUND + 1)) - {number for number, _kind in hands})

    def tables(self, **conditions: Any) -> list[Table]:
        return list(
            Table.objects.filter(round__event=self.event, **conditions)
            .select_related("round")
            .order_by("round__number", "number")
        )

    def hands(self) -> list[Hand]:
        return list(
            Hand.objects.filter(table__round__event=self.event, table__voided=False)
            .select_related("table__round")
            .order_by("table__round__number", "table__number", "number")
        )

    def save(self, table: Table, number: int) -> None:
        data = self.draw(self.game.hand(table.size, number))
        hands.record_hand(table=table, data=data)
        self.changed(f"{self.where(table)}: game {number} saved {data}")

    # the kinds of change; each returns whether it found something to change

    def save_a_game(self) -> bool:
        tables = self.tables(round=self.round)
        choice = self.pick([(t, n) for t in tables if (n := self.next_number(t)) is not None])
        if choice is None:
            return False
        self.save(*choice)
        return True

    def correct_a_game(self) -> bool:
        hand = self.pick(self.hands())
        if hand is None:
            return False
        table = hand.table
        if hand.kind == Hand.Kind.TOTALS:
            assert self.game.totals is not None
            data: dict[str, Any] = {"totals": self.draw(self.game.totals(table.size))}
        else:
            data = self.draw(self.game.hand(table.size, hand.number))
        hands.edit_hand(hand=hand, data=data, reason="miscounted")
        self.changed(f"{self.where(table)}: game {hand.number} corrected to {data}")
        return True

    def delete_a_game(self) -> bool:
        hand = self.pick(self.hands())
        if hand is None:
            return False
        hands.delete_hand(hand=hand, reason="entered twice")
        self.changed(f"{self.where(hand.table)}: game {hand.number} deleted")
        return True

    def void_a_table(self) -> bool:
        table = self.pick(self.tables(voided=False))
        if table is None:
            return False
        hands.void_table(table=table, reason="sheet lost")
        self.changed(f"{self.where(table)} voided")
        return True

    def restore_a_table(self) -> bool:
        table = self.pick(self.tables(voided=True))
        if table is None:
            return False
        hands.restore_table(table=table, reason="sheet found")
        self.changed(f"{self.where(table)} restored")
        return True

    def enter_totals(self) -> bool:
        table = self.pick([t for t in self.tables(voided=False) if not t.hands.exists()])
        if table is None:
            return False
        if self.game.totals is None:
            with pytest.raises(Refused):
                hands.record_totals(table=table, totals=[0] * table.size)
            self.changed(f"{self.where(table)}: totals refused")
            return True
        totals = self.draw(self.game.totals(table.size))
        hands.record_totals(table=table, totals=totals)
        self.changed(f"{self.where(table)}: totals {totals} entered")
        return True

    def edit_the_rules(self) -> bool:
        now = self.event.full_rules()
        # other rules than now, so that the stored games are scored again
        rules = self.draw(self.game.rules.filter(lambda new: {**now, **new} != now))
        events.change_event_settings(
            event=self.event, values={"rules": rules}, reason="house rules"
        )
        self.event.refresh_from_db()
        self.changed(f"rules set to {rules}")
        return True

    def withdraw_a_player(self) -> bool:
        active = Entry.objects.filter(event=self.event, status=Entry.Status.ACTIVE)
        if active.count() <= ACTIVE_MIN:
            return False
        played = active.filter(seats__table__isnull=False).distinct().order_by("start_number")
        entry = self.pick(list(played))
        if entry is None:
            return False
        sums = Entry.objects.filter(pk=entry.pk).values_list(*(f"sum_{f}" for f in FIELDS))
        kept = sums.get()
        register_services.withdraw_entry(entry=entry, reason="went home")
        self.changed(f"player {entry.start_number} withdrawn")
        assert sums.get() == kept, f"player {entry.start_number}'s totals moved on withdrawal"
        return True

    def recompute(self) -> bool:
        scores.recompute_scores(event=self.event)
        self.changed("scores recomputed")
        return True

    def play_the_next_round(self) -> bool:
        """Play the round's missing games, close it, draw and start the next round."""
        if self.round.number >= ROUNDS_MAX:
            return False
        for table in self.tables(round=self.round):
            while (number := self.next_number(table)) is not None:
                self.save(table, number)
        rounds.close_round(round=self.round)
        self.changed(f"round {self.round.number} closed")
        self.round = make_round(self.event, seed=self.draw(SEEDS))
        self.changed(f"round {self.round.number} drawn and started")
        return True


CHANGES: dict[str, Callable[[Play], bool]] = {
    "a game saved": Play.save_a_game,
    "a game corrected": Play.correct_a_game,
    "a game deleted": Play.delete_a_game,
    "a table voided": Play.void_a_table,
    "a voided table restored": Play.restore_a_table,
    "totals entered": Play.enter_totals,
    "the rules edited": Play.edit_the_rules,
    "a player withdrawn": Play.withdraw_a_player,
    "the scores recomputed": Play.recompute,
    "the next round played": Play.play_the_next_round,
}
# each change at least once in every sequence, in any order, with a few more of any kind
SEQUENCES = st.lists(st.sampled_from(list(CHANGES)), max_size=6).flatmap(
    lambda extra: st.permutations([*CHANGES, *extra])
)


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_every_entry_total_equals_its_counting_results_after_each_kind_of_change(game: Game):
    made: Counter[str] = Counter()

    # no shrinking: each example writes to the database, and the check after every change names
    # the change that broke a total, with every change before it
    @settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
    @given(data=st.data())
    def play_through(data: st.DataObject) -> None:
        play = Play(game, data.draw)
        for change in data.draw(SEQUENCES, label="changes"):
            if CHANGES[change](play):
                made[change] += 1

    play_through()
    # the examples made each kind of change at least once (a kind that found nothing to change
    # in every example would have gone untested)
    assert set(made) == set(CHANGES), f"never made: {set(CHANGES) - set(made)}"


# --- the standings --------------------------------------------------------------------------

# what each game's standings show, from an entry's summed results
STANDINGS_FIGURES: dict[str, Callable[[dict[str, int]], dict[str, int]]] = {
    "cego": lambda s: {"total": s["points"]},
    "ziege": lambda s: {
        "total": s["points"],
        "matches": s["matches_won"],
        "inflicted": s["inflicted"],
        "conceded": s["points"],
        "difference": s["inflicted"] - s["points"],
    },
    "hennes_sibbe": lambda s: {"total": s["points"], "games_lost": s["games_lost"]},
}


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_standings_total_of_every_entry_is_the_sum_of_its_counting_results(game: Game):
    """Two rounds of nine players (some sitting out or at odd tables), a voided table and a
    player withdrawn after the first round."""
    event = make_event(game.key, hands_per_round={"*": GAMES_PER_ROUND}, **game.settings)
    enter_players(event, 9)
    first = make_round(event, seed=1)
    tables = list(first.tables.order_by("number"))
    for table in tables:
        for number in range(1, GAMES_PER_ROUND + 1):
            hands.record_hand(table=table, data=game.fixed_hand(table.size, number))
    hands.void_table(table=tables[-1], reason="sheet lost")
    rounds.close_round(round=first)
    leaver = tables[0].seats.order_by("position").first().entry
    register_services.withdraw_entry(entry=leaver, reason="went home")
    second = make_round(event, seed=2)
    for table in second.tables.order_by("number"):
        hands.record_hand(table=table, data=game.fixed_hand(table.size, 1))

    counted = counted_sums(event)
    rows = list(Entry.objects.standings(event))
    names = list(STANDINGS_FIGURES[game.key](counted[rows[0].pk]))
    shown = {row.pk: {name: getattr(row, name) for name in names} for row in rows}
    expected = {row.pk: STANDINGS_FIGURES[game.key](counted[row.pk]) for row in rows}
    assert shown == expected
    seated = Seat.objects.filter(round__event=event, table__isnull=False)
    assert set(shown) == set(seated.values_list("entry_id", flat=True))
    assert leaver.pk in shown
    assert any(figures["total"] for figures in shown.values())  # the games counted
