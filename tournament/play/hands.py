"""Writes of a table's games: entering a game (``record_hand``, the write every table makes all
day), correcting or deleting one, entering a lost sheet's totals, voiding a table's round and
restoring it, and what a table's phone reported with the games it sent. Each is one function, one
transaction: it rescores the table (``scores``), and lapses the confirmations a moved total voids
(``confirmations``) and the draws by lot a changed tie voids (``lots``). The refusals of a game
that say more than a sentence (``StaleEdit``, ``NumberTaken``, ``TakenBack``, ``AlreadySaved``)
are here.

Views, the table link, result imports, the demo generator and the benchmarks all enter games
through these, so the scoring engine sees every hand and the result cache never drifts from the
hands."""

from __future__ import annotations

import functools
import json
import uuid
from operator import attrgetter
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.audit import User, actor, noted
from tournament.core.errors import Refused
from tournament.models import Event, Hand, Result, Round, Table, TablePhone, versions
from tournament.play.confirmations import lapse_confirmations_if_totals_moved, totals_if_confirmed
from tournament.play.locks import check_table_open, locked_table, table_for_a_game
from tournament.play.lots import lapse_stale_lots
from tournament.play.reads import check_totals, dealers, next_game_number, preview_hand, sql_column
from tournament.play.scores import rescore_table, sum_seats
from tournament.play.sheets import dealer_for


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


class TakenBack(Refused):
    """A game sent with the one-time key of a game that was stored and taken back since (deleted
    or replaced by a correction): sending it again must not bring it back. A phone that sent it
    again as a game the server had lost (issue 45) learns so that the server had it."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The game of this form was saved and then taken back; nothing was stored "
                "now. Enter the game in a fresh form if it is still missing."
            )
        )


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


def record_hand(
    *,
    table: Table,
    data: dict[str, Any],
    user: User = None,
    submission_key: uuid.UUID | str | None = None,
    number: int | None = None,
    resent: bool = False,
) -> Hand:
    """Score a hand with the engine and store it as the table's next game.

    ``submission_key`` is the form's one-time key: the same form sent again (a phone retrying after
    a timeout) returns the hand stored the first time instead of storing it twice. ``number`` is
    the game number the hand was entered as (a phone's queue, issue 14): stored only as that
    number, else NumberTaken. ``resent``: a phone sends again a game this server had acknowledged
    and no longer has (a laptop restored from its copy, issue 45); stored so, it is marked
    (``Hand.resent_at``). A game the server still has is returned as it is, unmarked.
    """
    try:
        return _record_hand(
            table=table,
            data=data,
            user=user,
            submission_key=submission_key,
            number=number,
            resent=resent,
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
    resent: bool,
) -> Hand:
    table = table_for_a_game(table)
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
            raise TakenBack
    check_table_open(table, new=True)
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
        resent_at=timezone.now() if resent else None,
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
    table = locked_table(hand.table)
    check_table_open(table, new=False)
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
    confirmed = totals_if_confirmed(table)
    current.data = data
    current.version += 1
    noted(current, user, reason.strip()).save()
    rescore_table(table, from_number=current.number)
    lapse_confirmations_if_totals_moved(table, confirmed, user)
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
    table = locked_table(hand.table)
    check_table_open(table, new=False)
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
    confirmed = totals_if_confirmed(table)
    noted(current, user, reason.strip()).delete()
    rescore_table(table, from_number=current.number)
    note_latest_game(table.round.event)
    lapse_confirmations_if_totals_moved(table, confirmed, user)


@transaction.atomic
def record_totals(*, table: Table, totals: list[int], user: User = None) -> Hand:
    """Enter each player's total of the round directly, when the game-by-game sheet is lost."""
    table = locked_table(table)
    event = table.round.event
    check_table_open(table, new=False)
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
    table = locked_table(table)
    table.voided = True
    table.void_reason = reason.strip()
    noted(table, user, reason.strip()).save()
    Result.objects.filter(table=table).update(counts=False)
    sum_seats(table)
    lapse_stale_lots(event=table.round.event, user=user)
    return table


@transaction.atomic
def restore_table(*, table: Table, reason: str, user: User = None) -> Table:
    table = locked_table(table)
    table.voided = False
    table.void_reason = ""
    noted(table, user, reason.strip() or "restored").save()
    Result.objects.filter(table=table).update(counts=True)
    sum_seats(table)
    lapse_stale_lots(event=table.round.event, user=user)
    return table
