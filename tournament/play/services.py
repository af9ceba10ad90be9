"""Writes of play: events, rounds and their draw, hands, sheets and confirmations, lots. Each is one
function, one transaction.

Views, management commands, the demo generator and the benchmarks all write through these, so the
scoring engine sees every hand and the result cache never drifts from the hands."""

from __future__ import annotations

import functools
import json
import random
import uuid
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from operator import attrgetter
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from tournament.core.audit import User, actor, bulk_attrs, noted
from tournament.core.errors import Refused
from tournament.models import (
    Confirmation,
    Entry,
    Event,
    EventRole,
    Hand,
    LotDraw,
    Result,
    Round,
    Season,
    Seat,
    Table,
    TablePhone,
    Team,
    versions,
)
from tournament.models.events import SEAT_SUMS
from tournament.play import draw as drawing
from tournament.play.reads import (
    EVENT_SETTINGS,
    SEASON_FIELDS,
    RuleChangeEffect,
    changed_entries,
    check_totals,
    dealers,
    entry_figures,
    game_fixed_message,
    next_game_number,
    preview_hand,
    removal_refused,
    result_rows,
    result_values,
    sql_column,
    sql_rows,
    stored_hand_count,
    unfinished_tables,
)
from tournament.play.sheets import dealer_for, read_sheet

# --- rounds and the draw ----------------------------------------------------------------------


class StaleEdit(Refused):
    """An edit made on a version of the hand that someone else has changed since."""

    def __init__(self, current: Hand) -> None:
        self.current = current
        super().__init__(
            _(
                "This game was changed by someone else in the meantime (now version %(v)s); "
                "check the current entry below and make your change again."
            )
            % {"v": current.version}
        )


class NumberTaken(Refused):
    """A game sent as game N (by a phone that entered it offline) when the sheet's next game is
    another number: someone else entered game N meanwhile, or games the phone counted are not on
    the sheet. ``stored`` is the sheet's game N, if there is one."""

    def __init__(self, number: int, next_number: int, stored: Hand | None) -> None:
        self.number, self.next_number, self.stored = number, next_number, stored
        if stored is not None:
            text = _(
                "Game %(n)s is on the sheet already, entered elsewhere (by another phone or the "
                "scorer) before this phone sent it; this game was not stored."
            )
        else:
            text = _(
                "This phone sent game %(n)s, but the sheet has %(have)s games; this game was not "
                "stored."
            )
        super().__init__(text % {"n": number, "have": next_number - 1})


class AlreadySaved(Refused):
    """A hand form sent again with its one-time key but other values: the first send is stored,
    the new values are not (issue 11: the answer must never claim values that were not saved)."""

    def __init__(self, stored: Hand) -> None:
        self.hand = stored
        super().__init__(
            _(
                "This form was already saved as game %(n)s with other values; the values sent "
                "now were not stored."
            )
            % {"n": stored.number}
        )


@transaction.atomic
def add_round(*, event: Event) -> Round:
    if event.status == Event.Status.FINISHED:
        # a round added to a finished event would change its final standings and prizes
        raise Refused(
            _("The event is finished: reopen it with a reason (prize table) to add a round.")
        )
    highest = event.rounds.aggregate(n=Max("number"))["n"] or 0
    if highest and event.rounds.filter(number=highest).exclude(status=Round.Status.CLOSED).exists():
        raise Refused(_("Close round %(n)s before adding the next one.") % {"n": highest})
    return Round.objects.create(event=event, number=highest + 1)


def _history(rnd: Round) -> tuple[Counter[frozenset[int]], Counter[int]]:
    """Who met whom, and who sat out how often, in the event's earlier rounds."""
    earlier = Seat.objects.filter(round__event_id=rnd.event_id, round__number__lt=rnd.number)
    tables: dict[int, list[int]] = {}
    sat_out: Counter[int] = Counter()
    for table_id, entry_id in earlier.values_list("table_id", "entry_id"):
        if table_id is None:
            sat_out[entry_id] += 1
        else:
            tables.setdefault(table_id, []).append(entry_id)
    return drawing.meetings(tables.values()), sat_out


@transaction.atomic
def draw_round(*, round: Round, seed: int | None = None, user: User = None) -> Round:
    """Draw the seats of a round (again, while no hand is played). Random but reproducible: the seed
    is stored, and drawing with the same seed gives the same tables."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    event = rnd.event
    if rnd.status not in (Round.Status.DRAFT, Round.Status.SEATED):
        raise Refused(
            _("Round %(n)s has started; its seats can no longer be drawn.") % {"n": rnd.number}
        )
    previous = event.rounds.filter(number__lt=rnd.number).exclude(status=Round.Status.CLOSED)
    if previous.exists():
        raise Refused(_("Close the earlier rounds before drawing round %(n)s.") % {"n": rnd.number})
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    entries = list(Entry.objects.filter(event=event).active().select_related("pair", "player"))
    # once the desk checks players in, only those present are seated: the director first
    # removes who did not come, or waits for them (issue 29; the draw page names them)
    if any(e.present_at is not None for e in entries):
        absent = sorted(str(e.player) for e in entries if e.present_at is None)
        if absent:
            raise Refused(
                ngettext(
                    "%(n)s registered player has not checked in: %(names)s. Remove them "
                    "before the draw, or wait until they check in.",
                    "%(n)s registered players have not checked in: %(names)s. Remove them "
                    "before the draw, or wait until they check in.",
                    len(absent),
                )
                % {"n": len(absent), "names": ", ".join(absent)}
            )
    met, sat_out = _history(rnd)
    pairs = None
    game = event.game_type
    if event.in_fixed_pairs:
        by_pair: dict[int, list[int]] = {}
        unpaired = []
        for entry in entries:
            if entry.pair_id:
                by_pair.setdefault(entry.pair_id, []).append(entry.pk)
            else:
                unpaired.append(str(entry.player))
        incomplete = [ids for ids in by_pair.values() if len(ids) != 2]
        if unpaired or incomplete:
            raise Refused(
                _("With fixed pairs every active player needs a partner. Without one: %(names)s")
                % {"names": ", ".join(unpaired) or _("a pair with a withdrawn player")}
            )
        pairs = [(a, b) for a, b in by_pair.values()]
    try:
        result = drawing.draw(
            players=[e.pk for e in entries],
            plan=lambda count: drawing.plan_tables(
                game, count, event.table_policy, event.target_table_size
            ),
            basis={
                "game": event.game,
                "policy": event.table_policy,
                "target": event.target_table_size,
            },
            game_name=game.name,
            policy=event.table_policy,
            met=met,
            sat_out=sat_out,
            seed=seed,
            pairs=pairs,
        )
    except drawing.DrawError as exc:
        raise Refused(str(exc)) from exc

    _delete_seating(rnd, user, f"draw, seed {seed}")
    tables = bulk_create_with_history(
        [
            Table(round=rnd, number=i + 1, size=len(players))
            for i, players in enumerate(result.tables)
        ],
        Table,
        default_user=actor(user),
        default_change_reason=f"draw, seed {seed}",
        custom_historical_attrs=bulk_attrs(),
    )
    seats = [
        Seat(round=rnd, table=table, position=pos, entry_id=entry_id)
        for table, players in zip(tables, result.tables, strict=True)
        for pos, entry_id in enumerate(players)
    ]
    seats += [Seat(round=rnd, entry_id=entry_id) for entry_id in result.sit_out]
    bulk_create_with_history(
        seats,
        Seat,
        default_user=actor(user),
        default_change_reason=f"draw, seed {seed}",
        custom_historical_attrs=bulk_attrs(),
    )
    rnd.seed = seed
    rnd.repeat_meetings = result.repeats
    rnd.draw_basis = result.basis
    rnd.status = Round.Status.SEATED
    rnd.save(update_fields=["seed", "repeat_meetings", "draw_basis", "status"])
    if event.status == Event.Status.REGISTRATION:
        event.status = Event.Status.RUNNING
        noted(event, user, f"draw, seed {seed}").save(update_fields=["status"])
    return rnd


@transaction.atomic
def swap_pairs(*, round: Round, first: Team, second: Team, user: User = None) -> Round:
    """Fixed Ziege pairs: one pair takes the other's places before play starts (a pair that sits
    out takes the other's table, the other sits out); partners stay opposite each other."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if rnd.status != Round.Status.SEATED:
        raise Refused(_("Seats can only be swapped after the draw and before the round starts."))
    if first.pk == second.pk:
        raise Refused(_("Choose two different pairs to swap."))
    seats = {
        pair.pk: list(
            Seat.objects.filter(round=rnd, entry__pair=pair, entry__event=rnd.event).order_by(
                "position", "pk"
            )
        )
        for pair in (first, second)
    }
    if any(len(seated) != 2 for seated in seats.values()):
        raise Refused(_("Both pairs must be part of this round's draw."))
    a, b = seats[first.pk], seats[second.pk]
    places = [(s.table_id, s.position) for s in a], [(s.table_id, s.position) for s in b]
    Seat.objects.filter(pk__in=[s.pk for s in a + b]).update(table=None, position=None)
    for moved, (table_id, position) in [
        *zip(a, places[1], strict=True),
        *zip(b, places[0], strict=True),
    ]:
        moved.table_id, moved.position = table_id, position
        noted(moved, user, "").save(update_fields=["table", "position"])
    met, _sat_out = _history(rnd)
    rnd.repeat_meetings = drawing.count_pair_repeats(_seated_tables(rnd), met)
    rnd.save(update_fields=["repeat_meetings"])
    return rnd


def _seated_tables(rnd: Round) -> list[list[int]]:
    """The round's tables as lists of entry ids in seat order."""
    tables: dict[int, list[int]] = {}
    for table_id, entry_id in (
        Seat.objects.filter(round=rnd, table__isnull=False)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    ):
        tables.setdefault(table_id, []).append(entry_id)
    return list(tables.values())


@transaction.atomic
def swap_seats(*, round: Round, first: Entry, second: Entry, user: User = None) -> Round:
    """Swap two players' seats (or a seated player and one who sits out) before play starts; both
    seats' history names ``user``."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.SEATED:
        raise Refused(_("Seats can only be swapped after the draw and before the round starts."))
    if first == second:
        raise Refused(_("Choose two different players to swap."))
    try:
        a = Seat.objects.get(round=rnd, entry=first)
        b = Seat.objects.get(round=rnd, entry=second)
    except Seat.DoesNotExist as exc:
        raise Refused(_("Both players must be part of this round's draw.")) from exc
    if rnd.event.in_fixed_pairs:
        raise Refused(
            _(
                "With fixed pairs a partner is not swapped alone: swap the whole pair with "
                "another pair, or draw the round again."
            )
        )
    a_place, b_place = (a.table_id, a.position), (b.table_id, b.position)
    # free both places first: the unique (table, position) constraint holds at every statement
    # (that step is not a change a reader follows, so it writes no history)
    Seat.objects.filter(pk__in=[a.pk, b.pk]).update(table=None, position=None)
    for seat, (table_id, position) in ((a, b_place), (b, a_place)):
        seat.table_id, seat.position = table_id, position
        noted(seat, user, "").save(update_fields=["table", "position"])
    met, _sat_out = _history(rnd)
    tables: dict[int, list[int]] = {}
    for table_id, entry_id in Seat.objects.filter(round=rnd, table__isnull=False).values_list(
        "table_id", "entry_id"
    ):
        tables.setdefault(table_id, []).append(entry_id)
    rnd.repeat_meetings = drawing.count_repeats(tables.values(), met)
    rnd.save(update_fields=["repeat_meetings"])
    return rnd


@transaction.atomic
def start_round(*, round: Round) -> Round:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.SEATED:
        raise Refused(_("Draw the seats before the round starts."))
    rnd.status = Round.Status.PLAYING
    rnd.save(update_fields=["status"])
    return rnd


@transaction.atomic
def close_round(*, round: Round) -> Round:
    """Close a round when every table has played its hands (or is voided)."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if rnd.status != Round.Status.PLAYING:
        raise Refused(_("Only a round that is being played can be closed."))
    unfinished = unfinished_tables(rnd)
    if unfinished:
        raise Refused(
            ngettext(
                "Table %(tables)s has not entered all its games yet.",
                "Tables %(tables)s have not entered all their games yet.",
                len(unfinished),
            )
            % {"tables": ", ".join(unfinished)}
        )
    rnd.status = Round.Status.CLOSED
    rnd.save(update_fields=["status"])
    return rnd


def _delete_seating(rnd: Round, user: User, reason: str) -> None:
    """A round's seats and tables deleted one by one, not through a queryset: each keeps its
    history row with the user and the reason (only before play, so there are few)."""
    for old in [*Seat.objects.filter(round=rnd), *Table.objects.filter(round=rnd)]:
        noted(old, user, reason).delete()


@transaction.atomic
def remove_round(*, round: Round, user: User = None) -> Event:
    """Remove the event's last round while it has not started (``removal_refused``): a round
    added by mistake, or one more than the day has time for (an event is finished only when
    every round is closed). Its seats, if drawn, go with it, each keeping its history row with
    the user and the reason, as a new draw does."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if (refusal := removal_refused(rnd)) is not None:
        raise Refused(refusal)
    _delete_seating(rnd, user, f"round {rnd.number} removed")
    rnd.delete()
    return rnd.event


def _check_table_open(table: Table, *, new: bool) -> None:
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


def _locked_table(table: Table) -> Table:
    """The table, its round and its event, locked for the rest of the transaction: a change of a
    table's games, its confirmation, its void. Every lock on a table's rows is taken in one
    order, the round's and the event's rows first, then the table's (as a new game takes them,
    ``_table_for_a_game``, and a rule change or a round's close); taken the other way round, a
    service holding its table and waiting for the round, and a game holding the round and
    waiting for that table, would wait for each other for ever (PostgreSQL would end one of them
    with an error)."""
    return _table_locked(table, "UPDATE")


def _table_for_a_game(table: Table) -> Table:
    """The table locked for a new game, its round and its event held against a change.

    On PostgreSQL the round's and the event's rows are held with ``FOR KEY SHARE``, which other
    games share: the games of two tables are stored at the same moment, while a change of the
    event's rules, the round's close or a service on a table (``FOR UPDATE`` of the round's or
    the event's row, ``_locked_table``) waits for them and they for it. Taken before the table's
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
    found = tables.select_related("round__event").filter(pk=table.pk).first()
    if found is None:
        raise Table.DoesNotExist(f"table {table.pk}")
    return found


# the round's and the event's rows of a table's round, locked before the table's (PostgreSQL)
LOCK_ROUND_AND_EVENT = (
    f"SELECT 1 FROM {Round._meta.db_table} r JOIN {Event._meta.db_table} e ON e.id = r.event_id "
    "WHERE r.id = %s FOR {mode}"
)


def record_hand(
    *,
    table: Table,
    data: dict[str, Any],
    user: User = None,
    submission_key: uuid.UUID | str | None = None,
    number: int | None = None,
) -> Hand:
    """Score a hand with the engine and store it as the table's next game.

    ``submission_key`` is the form's one-time key: the same form sent again (a phone retrying after
    a timeout) returns the hand stored the first time instead of storing it twice. ``number`` is
    the game number the hand was entered as (a phone's queue, issue 14): stored only as that
    number, else NumberTaken.
    """
    try:
        return _record_hand(
            table=table, data=data, user=user, submission_key=submission_key, number=number
        )
    except _SameMoment as exc:
        raise Refused(
            _("Another game was saved at this table at the same moment; try again.")
        ) from exc


class _SameMoment(Exception):
    """The game's number was taken by a write the table's lock did not hold back."""


@transaction.atomic
@versions.at_the_end()
def _record_hand(
    *,
    table: Table,
    data: dict[str, Any],
    user: User,
    submission_key: uuid.UUID | str | None,
    number: int | None,
) -> Hand:
    table = _table_for_a_game(table)
    event = table.round.event
    key = _submission_key(submission_key)
    # the table's hands, read once under the lock: the form's key, the next number and the replay
    # are all answered from them (each was a query of its own, inside the write lock of every
    # saved game)
    hands = list(Hand.objects.filter(table_id=table.pk).order_by("number"))
    if key is not None:
        earlier = next((h for h in hands if h.submission_key == key), None)
        if earlier is not None:
            if earlier.data != _as_stored(data):
                raise AlreadySaved(earlier)
            return earlier
        if _taken_back(table, key):
            # the form's game was stored and taken back since: sending the page again (the
            # browser's back button, a retry) must not bring it back
            raise Refused(
                _(
                    "The game of this form was saved and then taken back; nothing was stored "
                    "now. Enter the game in a fresh form if it is still missing."
                )
            )
    _check_table_open(table, new=True)
    if table.submitted_at is not None:
        raise Refused(
            _("This table has handed in its sheet; a scorer can reopen it to add a game.")
        )
    if any(h.kind == Hand.Kind.TOTALS for h in hands):
        raise Refused(_("This table's totals were entered directly; delete them to enter games."))
    next_number = next_game_number(table, hands)
    if number is not None and number != next_number:
        taken = next((h for h in hands if h.number == number), None)
        raise NumberTaken(number, next_number, taken)
    number = next_number
    wanted = event.hands_for(table.size)
    if wanted is not None and number > wanted:
        raise Refused(
            ngettext(
                "This table has played the round's one game.",
                "This table has played all %(n)s games of the round.",
                wanted,
            )
            % {"n": wanted}
        )
    # raises InvalidHand before any write
    preview_hand(table=table, data=data, number=number, hands=hands)
    game = event.game_type
    if game.dealer_follows_results:
        dealer = game.dealer(table.size, number, dealers(event, table, hands)[1])
    else:
        dealer = dealer_for(number, table.size)
    hand = Hand(
        table=table,
        number=number,
        dealer=dealer,
        data=data,
        entered_by=actor(user),
        submission_key=key,
    )
    # Without a savepoint of its own (two statements less for every game): the same number
    # written at the same moment elsewhere rolls the whole transaction back, and nothing was
    # written before this
    try:
        noted(hand, user, "").save(force_insert=True)
    except IntegrityError as exc:
        raise _SameMoment from exc
    rows = rescore_table(
        table, from_number=number, hands=sorted([*hands, hand], key=attrgetter("number")), new=hand
    )
    # the results as stored, for the message that says them (no query to read them back)
    hand.seat_points = [row.points for row in rows if row.hand is hand]
    note_latest_game(event, hand.entered_at)
    return hand


def note_latest_game(event: Event, when: Any = None) -> None:
    """Store when the event's latest game arrived (the projector's "last result"): ``when`` a
    game was just stored, else read from the event's games (after a game was deleted)."""
    if when is None:
        when = Hand.objects.filter(table__round__event=event).aggregate(Max("entered_at"))[
            "entered_at__max"
        ]
    Event.objects.filter(pk=event.pk).update(last_result_at=when)


@functools.cache
def _hand_history() -> type[Model]:
    """The games' history model (``Hand.history`` builds a manager class on every access)."""
    return Hand.history.model


def _taken_back(table: Table, key: uuid.UUID) -> bool:
    """Whether a game of the table was stored with the form's key and then taken back (deleted
    or replaced by a correction): its key is in the games' history."""
    history = _hand_history()
    value = history._meta.get_field("submission_key").get_db_prep_value(key, connection)
    table_name = history._meta.db_table
    sql = f"SELECT 1 FROM {table_name} WHERE table_id = %s AND submission_key = %s"
    return bool(sql_column(sql, table, value))


def note_phone(*, table: Table, waiting: int, refused: int, refusal: str = "") -> None:
    """Keep what a table's phone reported with a game it sent (tournament.models.TablePhone)."""
    TablePhone.objects.update_or_create(
        table=table,
        defaults={
            "waiting": waiting,
            "refused": refused,
            "seen_at": timezone.now(),
            **({"refusal": refusal[:300]} if refusal else {}),
        },
    )


def _as_stored(data: dict[str, Any]) -> Any:
    """The hand as the JSON field gives it back (tuples become lists), for comparing a resend."""
    return json.loads(json.dumps(data))


def _submission_key(value: uuid.UUID | str | None) -> uuid.UUID | None:
    if value in (None, ""):
        return None
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        return None  # a mangled key only loses the protection against a second send


def _check_may_change(table: Table, by_scorer: bool) -> None:
    """After a table hands in its sheet, only a scorer changes its games (RULES: the players'
    confirmation is what makes a sheet final); the players change them only while the round is
    played."""
    if by_scorer:
        return
    if table.submitted_at is not None:
        raise Refused(_("The sheet has been handed in; only a scorer can change it now."))
    if table.round.status != Round.Status.PLAYING:
        raise Refused(
            _("Round %(n)s is closed; only a scorer can change its games now.")
            % {"n": table.round.number}
        )


@transaction.atomic
def edit_hand(
    *,
    hand: Hand,
    data: dict[str, Any],
    reason: str,
    user: User = None,
    version: int | None = None,
    by_scorer: bool = True,
) -> Hand:
    """Change a stored hand; a reason is required and kept in the hand's history."""
    if not reason.strip():
        raise Refused(_("Give a reason for the change."))
    table = _locked_table(hand.table)
    _check_table_open(table, new=False)
    _check_may_change(table, by_scorer)
    current = Hand.objects.select_for_update().get(pk=hand.pk)
    if version is not None and current.version != version:
        if current.data == _as_stored(data):
            return current  # the same correction sent again (a retry): it is stored already
        raise StaleEdit(current)
    if current.kind == Hand.Kind.TOTALS:
        check_totals(table.round.event, table, data.get("totals"))
    else:
        preview_hand(table=table, data=data, number=current.number)
    confirmed = _totals_if_confirmed(table)
    current.data = data
    current.version += 1
    noted(current, user, reason.strip()).save()
    rescore_table(table, from_number=current.number)
    _lapse_confirmations_if_totals_moved(table, confirmed, user)
    return current


@transaction.atomic
def delete_hand(
    *,
    hand: Hand,
    reason: str,
    user: User = None,
    by_scorer: bool = True,
    last_only: bool = False,
) -> None:
    """Delete a game with a reason. ``last_only`` is the table link's "take back the last game":
    it names the game it takes back and is refused if another game was saved after it since the
    page was shown (issue 11: a phone must not delete a game it has not seen)."""
    if not reason.strip():
        raise Refused(_("Give a reason for deleting the game."))
    table = _locked_table(hand.table)
    _check_table_open(table, new=False)
    _check_may_change(table, by_scorer)
    current = Hand.objects.filter(pk=hand.pk, table=table).first()
    if current is None:
        raise Refused(
            _("Game %(n)s is no longer on the sheet; nothing was taken back.") % {"n": hand.number}
        )
    if last_only:
        later = table.hands.filter(number__gt=current.number).order_by("-number").first()
        if later is not None:
            raise Refused(
                _(
                    "Game %(n)s is no longer the last game: game %(later)s was saved since. "
                    "Nothing was taken back; check the sheet."
                )
                % {"n": current.number, "later": later.number}
            )
    confirmed = _totals_if_confirmed(table)
    noted(current, user, reason.strip()).delete()
    rescore_table(table, from_number=current.number)
    note_latest_game(table.round.event)
    _lapse_confirmations_if_totals_moved(table, confirmed, user)


@transaction.atomic
def record_totals(*, table: Table, totals: list[int], user: User = None) -> Hand:
    """Enter each player's total of the round directly, when the game-by-game sheet is lost."""
    table = _locked_table(table)
    event = table.round.event
    _check_table_open(table, new=False)
    if table.hands.exists():
        raise Refused(
            _("This table already has games entered; the totals can only replace an empty sheet.")
        )
    if event.game_type.totals_refused:
        raise Refused(str(event.game_type.totals_refused))
    check_totals(event, table, totals)
    hand = Hand(
        table=table,
        number=1,
        kind=Hand.Kind.TOTALS,
        data={"totals": totals},
        entered_by=actor(user),
    )
    noted(hand, user, "").save(force_insert=True)
    rescore_table(table)
    note_latest_game(event, hand.entered_at)
    return hand


@transaction.atomic
def void_table(*, table: Table, reason: str, user: User = None) -> Table:
    """Void a table's round: it counts nothing for its players (Meisterschaft rules)."""
    if not reason.strip():
        raise Refused(_("Give a reason for voiding the table."))
    table = _locked_table(table)
    table.voided = True
    table.void_reason = reason.strip()
    noted(table, user, reason.strip()).save()
    Result.objects.filter(table=table).update(counts=False)
    sum_seats(table)
    lapse_stale_lots(event=table.round.event, user=user)
    return table


@transaction.atomic
def restore_table(*, table: Table, reason: str, user: User = None) -> Table:
    table = _locked_table(table)
    table.voided = False
    table.void_reason = ""
    noted(table, user, reason.strip() or "restored").save()
    Result.objects.filter(table=table).update(counts=True)
    sum_seats(table)
    lapse_stale_lots(event=table.round.event, user=user)
    return table


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


# --- handing in and confirming a table's sheet -------------------------------------------------


@transaction.atomic
def submit_table(*, table: Table, user: User = None) -> Table:
    """The table hands in its round: the players then confirm it, each from the table link. From
    the link there is no user: the history names the table link (``audit``)."""
    table = _locked_table(table)
    _check_table_open(table, new=False)
    if table.submitted_at is not None:
        return table
    sheet = read_sheet(table)
    if not sheet.complete:
        if sheet.wanted is None and sheet.hands_played:
            # the time decides the round's length, but a game under way ends first
            raise Refused(
                _(
                    "A game is still being played at this table: hand in the sheet when it has "
                    "ended."
                )
            )
        raise Refused(
            _("The sheet is not complete: %(games)s of %(wanted)s games entered.")
            % {"games": sheet.hands_played, "wanted": sheet.wanted or "?"}
        )
    table.submitted_at = timezone.now()
    noted(table, user, "").save(update_fields=["submitted_at"])
    return table


def _finish_if_everyone_confirmed(table: Table, user: User = None) -> None:
    if table.confirmations.count() >= table.size and table.confirmed_at is None:
        table.confirmed_at = timezone.now()
        table.confirmation_lapsed_at = None
        noted(table, user, "").save(update_fields=["confirmed_at", "confirmation_lapsed_at"])


# the reason kept with confirmations that a correction of the totals made lapse (stored in
# English as every machine reason, said in the reader's words by ``history.reason_text``)
TOTALS_CHANGED = "totals changed after confirmation"


def _seat_totals(table: Table) -> list[tuple[int, ...]]:
    """Each seat's sums, by seat (one query)."""
    return list(Seat.objects.filter(table_id=table.pk).order_by("position").values_list(*SEAT_SUMS))


def _totals_if_confirmed(table: Table) -> list[tuple[int, ...]] | None:
    """The seats' totals before a correction of a sheet that someone has confirmed (what they
    agreed to), else None (one or two queries)."""
    if table.confirmed_at is None and not table.confirmations.exists():
        return None
    return _seat_totals(table)


def _lapse_confirmations_if_totals_moved(
    table: Table, confirmed: list[tuple[int, ...]] | None, user: User
) -> None:
    """A correction that moves a total of a confirmed sheet (a game changed, added or deleted)
    makes its confirmations lapse: the players agreed to other totals. Each confirmation's
    history row keeps it, with the reason; the sheet is provisional again and says "changed after
    confirmation: confirm again" until everyone has confirmed anew. A correction that leaves
    every total as it was keeps them."""
    if confirmed is None or _seat_totals(table) == confirmed:
        return
    for confirmation in table.confirmations.all():
        noted(confirmation, user, TOTALS_CHANGED).delete()
    table.confirmed_at = None
    table.confirmation_lapsed_at = timezone.now()
    noted(table, user, TOTALS_CHANGED).save(
        update_fields=["confirmed_at", "confirmation_lapsed_at"]
    )


def _seated(table: Table, position: int) -> str:
    """The player at a seat, by name (one query)."""
    seat = Seat.objects.filter(table=table, position=position).select_related("entry__player")
    return str(seat.get().entry.player)


def _refuse_unless_confirmable(table: Table) -> None:
    """What a player's own confirmation on their personal link needs: a table that counts, in a
    round being played, whose sheet is handed in."""
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if table.round.status != Round.Status.PLAYING:
        raise Refused(
            _("Round %(n)s is closed; ask the scorer to confirm the sheet.")
            % {"n": table.round.number}
        )
    if table.submitted_at is None:
        raise Refused(_("The sheet has not been handed in yet."))


@transaction.atomic
def confirm_as_player(*, entry: Entry) -> Table:
    """A player confirms their own seat of the handed-in sheet through their personal link
    (issue 29): tied to the person, whichever phone opens the link, so a player whose phone died
    confirms on a borrowed one, and one phone confirms for a neighbour who has none by opening
    the neighbour's link. The table link confirms no seat: its token is the table's, and whoever
    holds it could confirm for everybody at the table (issue 43). While the round is played, the
    sheet handed in, once per seat; a player without their link confirms with a scorer
    (``confirm_on_word``)."""
    seat = (
        Seat.objects.filter(entry=entry, table__isnull=False)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("table", "round")
        .order_by("-round__number")
        .first()
    )
    if seat is None:
        raise Refused(_("You have no seat at a table yet."))
    table = _locked_table(seat.table)
    _refuse_unless_confirmable(table)
    if table.confirmed_at is not None:
        return table
    if table.confirmations.filter(position=seat.position).exists():
        return table  # tapped twice, or on two phones: confirmed once
    Confirmation.objects.create(
        table=table, position=seat.position, via=Confirmation.Via.PLAYER, device=""
    )
    _finish_if_everyone_confirmed(table)
    return table


# the reason kept with a confirmation a scorer made for one player (stored in English as every
# machine reason, said in the reader's words by ``history.reason_text``)
ON_THE_PLAYERS_WORD = "on the player's word"


@transaction.atomic
def confirm_on_word(*, table: Table, position: int, user: User = None) -> Table:
    """A scorer confirms one player's seat of the handed-in sheet on the player's word (a player
    without a phone, or without their personal link): the confirmation and its history row name
    the scorer, so the history shows who vouched for it. Also after the round has closed, as the
    scorer's confirmation of the whole sheet (``confirm_table``)."""
    table = _locked_table(table)
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if table.submitted_at is None:
        raise Refused(_("The sheet has not been handed in yet."))
    if not 0 <= position < table.size:
        raise Refused(_("There is no such seat at this table."))
    if table.confirmations.filter(position=position).exists():
        raise Refused(
            _("%(player)s has confirmed already; nothing was changed.")
            % {"player": _seated(table, position)}
        )
    confirmation = Confirmation(
        table=table, position=position, via=Confirmation.Via.SCORER, user=actor(user)
    )
    noted(confirmation, user, ON_THE_PLAYERS_WORD).save(force_insert=True)
    _finish_if_everyone_confirmed(table, user)
    return table


@transaction.atomic
def confirm_table(*, table: Table, user: User = None) -> Table:
    """A scorer confirms the whole sheet (e.g. the paper list was signed by everyone)."""
    table = _locked_table(table)
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if not table.hands.exists():
        raise Refused(_("There is nothing to confirm: no games entered."))
    if table.submitted_at is None:
        table.submitted_at = timezone.now()
        noted(table, user, "").save(update_fields=["submitted_at"])
    done = set(table.confirmations.values_list("position", flat=True))
    for position in range(table.size):
        if position not in done:
            confirmation = Confirmation(
                table=table, position=position, via=Confirmation.Via.SCORER, user=actor(user)
            )
            noted(confirmation, user, "").save(force_insert=True)
    _finish_if_everyone_confirmed(table, user)
    return table


@transaction.atomic
def reopen_table(*, table: Table, reason: str, user: User = None) -> Table:
    """Take a handed-in sheet back so that games can be added; the confirmations start again."""
    if not reason.strip():
        raise Refused(_("Give a reason for reopening the sheet."))
    table = _locked_table(table)
    confirmations = list(table.confirmations.all())
    for confirmation in confirmations:
        noted(confirmation, user, reason.strip()).delete()
    if confirmations:
        # reopened to change the sheet the players agreed to: handed in again, it says that it
        # was changed after their confirmation
        table.confirmation_lapsed_at = timezone.now()
    table.submitted_at = None
    table.confirmed_at = None
    noted(table, user, reason.strip()).save()
    return table


# --- standings actions ------------------------------------------------------------------------


def _tie_keys(event: Event) -> dict[int, tuple[int, ...]]:
    """Start number → the figures that decide the entry's place (RULES.md 6), from the standings
    query (one query)."""
    fields = [name for name, _order in event.game_type.ranking]
    return {
        entry.start_number: tuple(int(getattr(entry, name)) for name in fields)
        for entry in Entry.objects.standings(event)
    }


def _better(event: Event, key: tuple[int, ...], than: tuple[int, ...]) -> bool:
    """Whether standings figures ``key`` rank ahead of ``than`` (RULES.md 6: each figure in the
    game's ranking order, highest or lowest first)."""
    for (_name, order), mine, theirs in zip(event.game_type.ranking, key, than, strict=True):
        if mine != theirs:
            return mine > theirs if order == "desc" else mine < theirs
    return False


def _lapse(draw: LotDraw, user: User = None) -> None:
    # one by one: the entries' history shows the lot going as it showed it drawn
    for entry in Entry.objects.filter(event_id=draw.event_id, start_number__in=draw.entries):
        entry.lot = None
        noted(entry, user, LOT_LAPSED).save(update_fields=["lot"])
    draw.lapsed_at = timezone.now()
    draw.save(update_fields=["lapsed_at"])


# the reasons a draw by lot keeps in the entries' history, in English as every machine reason
# (``history.reason_text`` says them in the reader's words)
LOT_DRAWN = "draw by lot for place {place} between {tied} tied players, seed {seed}"
# a lot between fixed pairs is drawn between the pairs, not their players (issue 43.9)
LOT_DRAWN_PAIRS = "draw by lot for place {place} between {tied} tied pairs, seed {seed}"
LOT_LAPSED = "lot lapsed: the tie changed"


@transaction.atomic
def decide_by_lot(
    *, event: Event, entries: Sequence[Entry], user: User = None, seed: int | None = None
) -> LotDraw:
    """Order tied entries by lot (e.g. a tie for first place) and record who drew it.

    The draw splits this tie only: it keeps the tied figures and everyone who has them, and lapses
    when a correction changes either (``lapse_stale_lots``). A new draw on the same tie, or for one
    of the same players, replaces the earlier one."""
    if len(entries) < 2 or len({e.pk for e in entries}) < len(entries):
        raise Refused(_("Choose at least two tied players for a draw by lot."))
    # the event's row first, as every change of the event: the tie is read while no game of the
    # event is being stored, and no game crosses the draw (``_table_for_a_game``)
    event = Event.objects.select_for_update().get(pk=event.pk)
    keys = _tie_keys(event)
    ties = {keys.get(e.start_number) for e in entries}
    if len(ties) != 1 or None in ties:
        raise Refused(_("Only players tied on the same result can be separated by lot."))
    tie = ties.pop()
    assert tie is not None
    numbers = {e.start_number for e in entries}
    for earlier in LotDraw.objects.filter(event=event, lapsed_at__isnull=True):
        if tuple(earlier.tie) == tie or numbers & set(earlier.entries):
            _lapse(earlier, user)
    # a fixed Ziege pair is one unit: its partners share one lot, never drawn against each other
    units: dict[Any, list[Entry]] = {}
    fixed = event.in_fixed_pairs
    for entry in sorted(entries, key=lambda e: e.start_number):
        units.setdefault(
            ("pair", entry.pair_id) if fixed and entry.pair_id else entry.pk, []
        ).append(entry)
    if len(units) < 2:
        raise Refused(_("Partners of a fixed pair share their place: there is nothing to draw."))
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    drawn_units = list(units.values())
    random.Random(seed).shuffle(drawn_units)
    order = [entry for unit in drawn_units for entry in unit]
    stored = Entry.objects.in_bulk([e.pk for e in order])
    # the place the tie shares before the draw: the best the drawn entries can get
    place = 1 + sum(1 for key in keys.values() if _better(event, key, tie))
    if any(len(unit) > 1 for unit in drawn_units):
        reason = LOT_DRAWN_PAIRS.format(place=place, tied=len(drawn_units), seed=seed)
    else:
        reason = LOT_DRAWN.format(place=place, tied=len(order), seed=seed)
    for lot, unit in enumerate(drawn_units, start=1):
        for entry in unit:
            drawn = stored[entry.pk]
            drawn.lot = lot
            noted(drawn, user, reason).save(update_fields=["lot"])
    return LotDraw.objects.create(
        event=event,
        entries=[e.start_number for e in order],
        tie=list(tie),
        tied=sorted(number for number, key in keys.items() if key == tie),
        seed=seed,
        drawn_by=actor(user),
    )


def lapse_stale_lots(*, event: Event, user: User = None) -> list[LotDraw]:
    """A draw by lot splits the tie it was drawn for, and no other (issue 10): once the drawn
    players no longer share the tied figures, or someone else now shares them, the lot stops
    counting and the tie shows again. One query when the event has no live draw, written out in SQL
    (a saved game asks it)."""
    sql = f"SELECT id FROM {LotDraw._meta.db_table} WHERE event_id = %s AND lapsed_at IS NULL"
    if not sql_column(sql, event):
        return []
    # locked: two tables' games stored at the same moment (``_table_for_a_game``) lapse a draw
    # once, the second looks at it after the first's commit
    live = [
        d
        for d in LotDraw.objects.select_for_update().filter(event=event, lapsed_at__isnull=True)
        if d.tie
    ]
    if not live:
        return []
    keys = _tie_keys(event)
    stale = []
    for draw in live:
        tie = tuple(draw.tie)
        now_tied = sorted(number for number, key in keys.items() if key == tie)
        if now_tied != sorted(draw.tied):
            _lapse(draw, user)
            stale.append(draw)
    return stale


@transaction.atomic
def change_event_settings(
    *, event: Event, values: dict[str, Any], user: User = None, reason: str = ""
) -> RuleChangeEffect:
    """Change an event's settings (``values``: field → new value).

    New rule settings rescore every stored game at once, in this transaction, so the standings
    never show a mix of old and new rules; a reason is then required and kept with the user in the
    event's history. A setting that makes a stored game invalid is refused naming the game. The
    game itself is fixed once seats are drawn (the tables and hands are that game's).
    """
    unknown = set(values) - EVENT_SETTINGS
    if unknown:
        raise ValueError(f"not event settings: {sorted(unknown)}")
    current = Event.objects.select_for_update().get(pk=event.pk)
    old_rules = current.full_rules()
    if values.get("game", current.game) != current.game and (
        current.rounds.exclude(status=Round.Status.DRAFT).exists()
    ):
        raise Refused(game_fixed_message(current))
    for name, value in values.items():
        setattr(current, name, value)
    try:
        current.full_clean()
    except ValidationError as exc:
        raise Refused(" ".join(exc.messages)) from exc
    rescore = current.full_rules() != old_rules and stored_hand_count(current) > 0
    if rescore and not reason.strip():
        raise Refused(_("Give a reason for changing the rule settings of stored games."))
    current._change_reason = reason.strip()
    if actor(user) is not None:
        current._history_user = actor(user)
    current.save()
    if not rescore:
        return RuleChangeEffect(hands=0, players=0)
    before = entry_figures(current)
    for table in Table.objects.filter(round__event=current).select_related("round__event"):
        rescore_table(table, check_lots=False)
    hands = stored_hand_count(current)
    lapse_stale_lots(event=current, user=user)
    return RuleChangeEffect(hands=hands, players=changed_entries(before, entry_figures(current)))


def _checked(model: type[Any], values: dict[str, Any], allowed: frozenset[str]) -> Any:
    """A new, unsaved ``model`` from ``values``, checked like its form checks it (Refused says
    what is wrong); a field outside ``allowed`` is a programming error."""
    unknown = set(values) - allowed
    if unknown:
        raise ValueError(f"not {model.__name__} fields: {sorted(unknown)}")
    instance = model(**values)
    try:
        instance.full_clean()
    except ValidationError as exc:
        raise Refused(" ".join(exc.messages)) from exc
    return instance


@transaction.atomic
def create_event(*, values: dict[str, Any], user: User = None) -> Event:
    """Create an event with its settings (``values``: field → value, as for
    ``change_event_settings``). The user who creates it becomes its organiser, so that an
    organiser who is not a director may run it; the event's history names them."""
    event = _checked(Event, values, EVENT_SETTINGS)
    noted(event, user, "").save()
    if actor(user) is not None:
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event


@transaction.atomic
def create_season(*, values: dict[str, Any]) -> Season:
    """Create a season (``values``: field → value). A season keeps no history of its own: what
    counts for it are its events, which do."""
    season = _checked(Season, values, SEASON_FIELDS)
    season.save()
    return season


# --- the end of the event (issue 17) -----------------------------------------------------------


@transaction.atomic
def finish_event(*, event: Event, user: User = None) -> Event:
    """Finish an event once every round is closed: the standings are final and the prizes are
    handed out (``tournament.money``)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise Refused(_("The event is finished already."))
    rounds = list(event.rounds.values_list("number", "status"))
    if not rounds:
        raise Refused(_("The event has no round yet."))
    still_open = [str(number) for number, status in rounds if status != Round.Status.CLOSED]
    if still_open:
        raise Refused(
            ngettext(
                "Round %(rounds)s is not closed yet.",
                "Rounds %(rounds)s are not closed yet.",
                len(still_open),
            )
            % {"rounds": ", ".join(still_open)}
        )
    event.status = Event.Status.FINISHED
    noted(event, user, "finished").save(update_fields=["status"])
    return event


@transaction.atomic
def reopen_event(*, event: Event, reason: str, user: User = None) -> Event:
    """Take a finished event back (a correction after the prize-giving list was read)."""
    if not reason.strip():
        raise Refused(_("Give a reason for reopening the event."))
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.FINISHED:
        raise Refused(_("Only a finished event can be reopened."))
    event.status = Event.Status.RUNNING
    noted(event, user, reason.strip()).save(update_fields=["status"])
    return event
