"""Writes that touch more than one row: each is one function, one transaction.

Views, management commands, the demo generator and the benchmarks all write through these, so the
scoring engine sees every hand and the result cache never drifts from the hands.
"""

from __future__ import annotations

import functools
import json
import random
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Model, Sum
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

import scoring

from . import draw as drawing
from . import versions
from .audit import bulk_attrs
from .models import (
    Confirmation,
    Entry,
    Event,
    EventRole,
    Hand,
    LotDraw,
    Player,
    PlayerAlias,
    Result,
    Round,
    Season,
    Seat,
    Table,
    TablePhone,
    Team,
)
from .querysets import Prepared
from .sheets import dealer_for, read_sheet, read_sheets

User = AbstractBaseUser | AnonymousUser | None

TOTAL_MAX = 1_000_000  # a round's total far beyond any real one, inside the database's integers
# RULES.md 6: side ranking for teams of four
SQUAD_SIZE = 4
# what a correction of a player may change (the player form's fields)
PLAYER_FIELDS = ("first_name", "last_name", "club", "town", "category")


class Refused(Exception):
    """An action that the state of the event does not allow; the message says why and what to do."""


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


def _user(user: User) -> Any:
    return user if user is not None and user.is_authenticated else None


def _noted(instance: Any, user: User, reason: str) -> Any:
    """The history row of the next save or delete names ``user`` (when given) and ``reason``."""
    if _user(user) is not None:
        instance._history_user = user
    instance._change_reason = reason
    return instance


# --- registration -----------------------------------------------------------------------------


@transaction.atomic
def register_players(
    *,
    event: Event,
    players: Sequence[Player],
    user: User = None,
    start_number: int | None = None,
    team: str = "",
    reason: str = "",
) -> list[Entry]:
    """Enter players in an event, in the order given: the one place that decides start numbers,
    the late flag and the refusals (a finished event, a player registered twice, a full team), for
    the registration desk and the player import alike.

    The players are numbered on from ``start_number`` (the next free number when None). A player
    not saved yet (a new name at the desk, a new row of a list) is created with the entry.
    ``team`` names the players' team of four, created with its first member. After the first draw
    the entries are marked late; a late entry is seated from the next round drawn on. The event is
    locked once for the whole list: registrations and imports sent at the same moment take turns,
    so start numbers stay unique. ``user`` and ``reason`` go into the history of every player and
    entry made. A few queries however long the list.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise Refused(_("The event is finished; no more players can be registered."))
    registered = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    seen: set[int] = set()
    for player in players:
        if player.pk in registered or player.pk in seen:
            raise Refused(_("%(player)s is already registered.") % {"player": player})
        if player.pk is not None:
            seen.add(player.pk)
    count = len(players)
    if start_number is None:
        highest = Entry.objects.filter(event=event).aggregate(n=Max("start_number"))["n"]
        start_number = (highest or 0) + 1
    else:
        taken = (
            Entry.objects.filter(
                event=event, start_number__gte=start_number, start_number__lt=start_number + count
            )
            .order_by("start_number")
            .first()
        )
        if taken is not None:
            raise Refused(_("Start number %(n)s is taken.") % {"n": taken.start_number})
    squad = _squad(event, team, joining=count)
    new = [p for p in players if p.pk is None]
    for player in new:
        try:
            # a new player's one unique field is its fresh random identifier: no query per row
            player.full_clean(validate_unique=False)
        except ValidationError as exc:
            raise Refused(f"{player}: {' '.join(exc.messages)}") from exc
    created = iter(
        bulk_create_with_history(
            new,
            Player,
            default_user=_user(user),
            default_change_reason=reason,
            custom_historical_attrs=bulk_attrs(),
        )
    )
    late = event.rounds.exclude(status=Round.Status.DRAFT).exists()
    entries = [
        Entry(
            event=event,
            player=player if player.pk is not None else next(created),
            start_number=start_number + offset,
            late=late,
            squad=squad,
        )
        for offset, player in enumerate(players)
    ]
    versions.changed(event)  # the entries are written in bulk, which sends no signal
    return bulk_create_with_history(
        entries,
        Entry,
        default_user=_user(user),
        default_change_reason=reason,
        custom_historical_attrs=bulk_attrs(),
    )


def _squad(event: Event, name: str, *, joining: int) -> Team | None:
    """The team of four called ``name`` (created with its first member), with room for
    ``joining`` more players; None without a name."""
    name = name.strip()
    if not name:
        return None
    squad, _created = Team.objects.get_or_create(event=event, kind=Team.Kind.SQUAD, name=name)
    members = squad.squad_members.count() if not _created else 0
    if members + joining > SQUAD_SIZE:
        if members >= SQUAD_SIZE:
            raise Refused(_("The team %(team)s already has four players.") % {"team": squad.name})
        raise Refused(
            ngettext(
                "The team %(team)s has room for one more player only.",
                "The team %(team)s has room for %(n)s more players only.",
                SQUAD_SIZE - members,
            )
            % {"team": squad.name, "n": SQUAD_SIZE - members}
        )
    return squad


def register_player(
    *,
    event: Event,
    player: Player,
    user: User = None,
    start_number: int | None = None,
    team: str = "",
) -> Entry:
    """Enter one player in an event (``register_players``, one transaction): a player not saved
    yet is created with the entry, ``team`` is the player's team of four."""
    return register_players(
        event=event, players=[player], user=user, start_number=start_number, team=team
    )[0]


@transaction.atomic
def correct_player(*, player: Player, values: dict[str, Any], user: User = None) -> Player:
    """Correct a player's name, club, town or category (``values``: field → new value), for every
    event the player plays: a player is one person across events. Kept in the player's history."""
    unknown = set(values) - set(PLAYER_FIELDS)
    if unknown:
        raise ValueError(f"not player fields: {sorted(unknown)}")
    current = Player.objects.select_for_update().get(pk=player.pk)
    for name, value in values.items():
        setattr(current, name, value)
    try:
        current.full_clean()
    except ValidationError as exc:
        raise Refused(" ".join(exc.messages)) from exc
    _noted(current, user, "").save()
    return current


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


@transaction.atomic
def withdraw_entry(*, entry: Entry, user: User = None) -> Entry:
    """Withdraw a player: the results so far stay, later draws leave the player out."""
    refused = withdrawal_refused(entry)
    if refused:
        raise Refused(refused)
    entry.status = Entry.Status.WITHDRAWN
    _noted(entry, user, "").save(update_fields=["status"])
    return entry


@transaction.atomic
def reinstate_entry(*, entry: Entry, user: User = None) -> Entry:
    entry.status = Entry.Status.ACTIVE
    _noted(entry, user, "").save(update_fields=["status"])
    return entry


@transaction.atomic
def remove_entry(*, entry: Entry, user: User = None) -> None:
    """Delete an entry registered by mistake. Only before the event's first draw: from then on
    the entry is part of a draw and is withdrawn instead (it then keeps what it played)."""
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    if event.rounds.exclude(status=Round.Status.DRAFT).exists() or entry.seats.exists():
        raise Refused(
            _(
                "%(player)s cannot be removed: the seats of this event have been drawn. "
                "Withdraw the player instead."
            )
            % {"player": entry.player}
        )
    _noted(entry, user, "removed: registered by mistake").delete()


@transaction.atomic
def merge_players(*, keep: Player, remove: Player, user: User = None) -> Player:
    """One person registered as two players: ``remove``'s entries (with their results, so the
    history and season totals) move to ``keep``, blank club, town or category of ``keep`` are
    filled from ``remove``, and ``remove`` is deleted. Refused when both have entries in the same
    event (then they are two people, or one entry must be removed or withdrawn first)."""
    if keep.pk == remove.pk:
        raise Refused(_("Choose two different players to merge."))
    locked = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, remove.pk])
    }
    if len(locked) != 2:
        raise Refused(_("One of the players no longer exists."))
    keep, remove = locked[keep.pk], locked[remove.pk]
    shared = list(
        Event.objects.filter(entries__player=keep)
        .filter(entries__player=remove)
        .values_list("name", flat=True)
    )
    if shared:
        raise Refused(
            _(
                "%(keep)s and %(remove)s both have an entry in %(events)s: two players of one "
                "event cannot be one person. Remove or withdraw one of the entries first."
            )
            % {"keep": keep, "remove": remove, "events": ", ".join(shared)}
        )
    # stored in English like every reason, read in the reader's language (tournament.history)
    who = user.get_username() if _user(user) else "system"
    reason = f"merged: player {remove.pk} ({remove}) into player {keep.pk} ({keep}) by {who}"
    for entry in Entry.objects.filter(player=remove):
        entry.player = keep
        _noted(entry, user, reason).save(update_fields=["player"])
    for name in ("club", "town", "category"):
        if not getattr(keep, name) and getattr(remove, name):
            setattr(keep, name, getattr(remove, name))
    _noted(keep, user, reason).save()
    # the merged player's identifiers stay known: a bundle from another laptop that names
    # ``remove`` (or one of its earlier identifiers) finds ``keep`` (tournament.identity)
    PlayerAlias.objects.filter(player=remove).update(player=keep)
    PlayerAlias.objects.create(uid=remove.uid, player=keep, decided_by=f"{reason}"[:150])
    _noted(remove, user, reason).delete()
    return keep


@transaction.atomic
def create_pair(*, event: Event, name: str, entries: Sequence[Entry], user: User = None) -> Team:
    """Register two players as a fixed Ziege pair: they always sit opposite each other. Each
    entry's history names the pair and ``user``."""
    if len(entries) != 2 or entries[0] == entries[1]:
        raise Refused(_("A Ziege pair is two different players."))
    if any(e.pair_id for e in entries):
        raise Refused(_("One of the players is already in a pair."))
    name = name.strip() or " / ".join(e.player.last_name for e in entries)
    if Team.objects.filter(event=event, kind=Team.Kind.PAIR, name=name).exists():
        raise Refused(_("A pair called %(name)s already exists.") % {"name": name})
    team = Team.objects.create(event=event, name=name, kind=Team.Kind.PAIR)
    for entry in Entry.objects.filter(pk__in=[e.pk for e in entries]):
        entry.pair = team
        _noted(entry, user, "").save(update_fields=["pair"])
    return team


# --- rounds and the draw ----------------------------------------------------------------------


@transaction.atomic
def add_round(*, event: Event) -> Round:
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
    entries = list(Entry.objects.filter(event=event).active().select_related("pair"))
    met, sat_out = _history(rnd)
    pairs = None
    game = event.game_type
    if game.fixed_pairs and event.pairing == Event.Pairing.FIXED:
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
            plan=lambda count: game.plan_tables(count, event.table_policy, event.target_table_size),
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
        default_user=_user(user),
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
        default_user=_user(user),
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
        _noted(event, user, f"draw, seed {seed}").save(update_fields=["status"])
    return rnd


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
    if rnd.event.game_type.fixed_pairs and rnd.event.pairing == Event.Pairing.FIXED:
        raise Refused(_("With fixed pairs, draw the round again instead of swapping players."))
    a_place, b_place = (a.table_id, a.position), (b.table_id, b.position)
    # free both places first: the unique (table, position) constraint holds at every statement
    # (that step is not a change a reader follows, so it writes no history)
    Seat.objects.filter(pk__in=[a.pk, b.pk]).update(table=None, position=None)
    for seat, (table_id, position) in ((a, b_place), (b, a_place)):
        seat.table_id, seat.position = table_id, position
        _noted(seat, user, "").save(update_fields=["table", "position"])
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


def unfinished_tables(rnd: Round) -> list[str]:
    """Numbers of the counting tables whose sheet is not complete: not all their hands (or none),
    or, where the time decides, a game still being played (``sheets.TableSheet.complete``)."""
    tables = rnd.tables.filter(voided=False).select_related("round__event").order_by("number")
    return [str(sheet.table.number) for sheet in read_sheets(tables) if not sheet.complete]


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
        _noted(old, user, reason).delete()


def removal_refused(rnd: Round) -> str | None:
    """Why the round cannot be removed, or None: only the event's last round, and only until it
    starts (it has games then, or may get them at any moment). A query when it has not started."""
    if rnd.status not in (Round.Status.DRAFT, Round.Status.SEATED):
        return _("Round %(n)s has started; it can no longer be removed.") % {"n": rnd.number}
    if Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).exists():
        return _("Only the last round can be removed; remove the later rounds first.")
    return None


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


# --- hands ------------------------------------------------------------------------------------


def engine_hands(event: Event, table: Table, hands: Sequence[Hand]) -> list[dict[str, Any]]:
    """The stored hands as the engine takes them, with what the table knows (who sits out)."""
    game = event.game_type
    return [game.engine_hand(hand.data, table.size, hand.number) for hand in hands]


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


def _one_column(sql: str, *values: Any) -> list[Any]:
    """A column of a read written out in SQL (a model's values are given by their id): the reads
    of every saved game, whose SQL the ORM took longer to build than to run (issue 13)."""
    return [row[0] for row in _rows(sql, *values)]


def _rows(sql: str, *values: Any) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, [getattr(value, "pk", value) for value in values])
        return cursor.fetchall()


def next_game_number(table: Table, hands: Sequence[Hand] | None = None) -> int:
    """The table's first free game number (``hands``: its stored hands, if read already)."""
    taken = (
        {h.number for h in hands}
        if hands is not None
        else set(_one_column(f"SELECT number FROM {HAND} WHERE table_id = %s", table))
    )
    number = 1
    while number in taken:
        number += 1
    return number


def _check_table_open(table: Table, *, new: bool) -> None:
    rnd = table.round
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
        found = GAME_TABLE.first(table.pk)
    else:
        found = TABLE_WITH_EVENT.first(table.pk)
    if found is None:
        raise Table.DoesNotExist(f"table {table.pk}")
    return found


# the round's and the event's rows of a table's round, locked before the table's (PostgreSQL)
LOCK_ROUND_AND_EVENT = (
    f"SELECT 1 FROM {Round._meta.db_table} r JOIN {Event._meta.db_table} e ON e.id = r.event_id "
    "WHERE r.id = %s FOR {mode}"
)
GAME_TABLE = Prepared(
    lambda pk: (
        Table.objects.select_for_update(of=("self",)).select_related("round__event").filter(pk=pk)
    )
)
TABLE_WITH_EVENT = Prepared(lambda pk: Table.objects.select_related("round__event").filter(pk=pk))
# a table's games in order, read under its lock for each saved game
TABLE_HANDS = Prepared(lambda table_id: Hand.objects.filter(table_id=table_id).order_by("number"))


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
    hands = TABLE_HANDS.all(table.pk)
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
    hand = Hand(
        table=table,
        number=number,
        dealer=dealer_for(number, table.size),
        data=data,
        entered_by=_user(user),
        submission_key=key,
    )
    # Without a savepoint of its own (two statements less for every game): the same number
    # written at the same moment elsewhere rolls the whole transaction back, and nothing was
    # written before this
    try:
        _noted(hand, user, "").save(force_insert=True)
    except IntegrityError as exc:
        raise _SameMoment from exc
    rows = rescore_table(
        table, from_number=number, hands=sorted([*hands, hand], key=attrgetter("number")), new=hand
    )
    # the results as stored, for the message that says them (no query to read them back)
    hand.seat_points = [row.points for row in rows if row.hand is hand]
    return hand


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
    return bool(_one_column(sql, table, value))


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
    current.data = data
    current.version += 1
    _noted(current, user, reason.strip()).save()
    rescore_table(table, from_number=current.number)
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
    _noted(current, user, reason.strip()).delete()
    rescore_table(table, from_number=current.number)


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
        entered_by=_user(user),
    )
    _noted(hand, user, "").save(force_insert=True)
    rescore_table(table)
    return hand


@transaction.atomic
def void_table(*, table: Table, reason: str, user: User = None) -> Table:
    """Void a table's round: it counts nothing for its players (Meisterschaft rules)."""
    if not reason.strip():
        raise Refused(_("Give a reason for voiding the table."))
    table = _locked_table(table)
    table.voided = True
    table.void_reason = reason.strip()
    _noted(table, user, reason.strip()).save()
    Result.objects.filter(table=table).update(counts=False)
    sum_seats(table)
    lapse_stale_lots(event=table.round.event, user=user)
    return table


@transaction.atomic
def restore_table(*, table: Table, reason: str, user: User = None) -> Table:
    table = _locked_table(table)
    table.voided = False
    table.void_reason = ""
    _noted(table, user, reason.strip() or "restored").save()
    Result.objects.filter(table=table).update(counts=True)
    sum_seats(table)
    lapse_stale_lots(event=table.round.event, user=user)
    return table


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


def _result_rows(
    event: Event,
    rules: dict[str, Any],
    table: Table,
    hands: Sequence[Hand],
    seats: dict[int, int],
    from_number: int = 1,
) -> list[Result]:
    """The result cache rows of one table's hands (in game order) under ``rules``, unsaved, from
    game ``from_number`` on. Raises InvalidStoredHand for a hand the engine rejects."""
    rows: list[Result] = []

    def add(hand: Hand, position: int, points: int, **extra: int) -> None:
        if hand.number < from_number:
            return
        rows.append(
            Result(
                hand=hand,
                position=position,
                entry_id=seats[position],
                table=table,
                round_id=table.round_id,
                event_id=event.pk,
                points=points,
                counts=not table.voided,
                **extra,
            )
        )

    played = [hand for hand in hands if hand.kind != Hand.Kind.TOTALS]
    for hand in hands:
        if hand.kind == Hand.Kind.TOTALS:
            for position, points in enumerate(hand.data["totals"]):
                add(hand, position, points)
    replayed = event.game_type.replay(engine_hands(event, table, played), table.size, rules)
    for hand in played:
        try:
            seats_results = next(replayed)
        except scoring.InvalidHand as exc:
            raise InvalidStoredHand(table, hand, exc) from exc
        for position, seat in enumerate(seats_results):
            add(
                hand,
                position,
                seat.points,
                inflicted=seat.inflicted,
                matches_won=seat.matches_won,
                games_lost=seat.games_lost,
            )
    return rows


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
    seats = dict(_rows(f"SELECT position, entry_id FROM {seat} WHERE table_id = %s", table))
    rows = _result_rows(event, event.full_rules(), table, hands, seats, from_number)
    # by hand id, not through a join to the hands: a plain indexed DELETE on every database
    # (PostgreSQL planned the joined form badly on freshly filled tables)
    replaced = [h.pk for h in hands if h.number >= from_number and h is not new]
    if replaced:
        Result.objects.filter(hand_id__in=replaced).delete()
    Result.objects.bulk_create(rows)
    sum_seats(table)
    versions.changed(event)  # the result rows are written in bulk, which sends no signal
    if check_lots:
        lapse_stale_lots(event=event)
    return rows


SEAT_SUMS = ("points", "inflicted", "matches_won", "games_lost")


def sum_seats(table: Table) -> None:
    """Write each seat's sums of its counting results (``Seat.points`` ...), whenever the table's
    results or whether they count change: one UPDATE of the table's few seats. Written out in
    SQL: the ORM's form of the same statement (four correlated subqueries) took far longer to
    build than the statement takes to run, inside the write lock of every saved game."""
    seat, result = Seat._meta.db_table, Result._meta.db_table
    sums = ", ".join(
        f"{field} = COALESCE((SELECT SUM(r.{field}) FROM {result} r WHERE r.table_id = "
        f"{seat}.table_id AND r.position = {seat}.position AND r.counts), 0)"
        for field in SEAT_SUMS
    )
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {seat} SET {sums} WHERE table_id = %s", [table.pk])


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
    _noted(table, user, "").save(update_fields=["submitted_at"])
    return table


def _finish_if_everyone_confirmed(table: Table, user: User = None) -> None:
    if table.confirmations.count() >= table.size and table.confirmed_at is None:
        table.confirmed_at = timezone.now()
        _noted(table, user, "").save(update_fields=["confirmed_at"])


def _seated(table: Table, position: int) -> str:
    """The player at a seat, by name (one query)."""
    seat = Seat.objects.filter(table=table, position=position).select_related("entry__player")
    return str(seat.get().entry.player)


@transaction.atomic
def confirm_seat(*, table: Table, position: int, device: str) -> Table:
    """A player at the table agrees with the handed-in sheet, tapping their own name on their
    own phone (``device``). One phone confirms one seat of a table: otherwise one player could
    confirm for all four, and the players' confirmation would mean nothing (issue 11). A player
    without a phone is confirmed by a scorer (``confirm_table``). The link confirms while the
    round is played; after it closes only a scorer does."""
    table = _locked_table(table)
    if not device:
        raise Refused(
            _(
                "This phone cannot be told apart from the others (it keeps no cookies); "
                "ask the scorer to confirm for you."
            )
        )
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if table.round.status != Round.Status.PLAYING:
        raise Refused(
            _("Round %(n)s is closed; ask the scorer to confirm the sheet.")
            % {"n": table.round.number}
        )
    if table.submitted_at is None:
        raise Refused(_("The sheet has not been handed in yet."))
    if not 0 <= position < table.size:
        raise Refused(_("There is no such seat at this table."))
    mine = table.confirmations.filter(device=device).first()
    if mine is not None:
        if mine.position == position:
            return table  # tapped twice
        raise Refused(
            _(
                "This phone has already confirmed for %(player)s. Every player confirms on their "
                "own phone; a player without a phone asks the scorer."
            )
            % {"player": _seated(table, mine.position)}
        )
    if table.confirmations.filter(position=position).exists():
        raise Refused(
            _("%(player)s is confirmed already; if that was not you, tell the scorer.")
            % {"player": _seated(table, position)}
        )
    Confirmation.objects.create(
        table=table, position=position, via=Confirmation.Via.LINK, device=device
    )
    _finish_if_everyone_confirmed(table)
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
        _noted(table, user, "").save(update_fields=["submitted_at"])
    done = set(table.confirmations.values_list("position", flat=True))
    for position in range(table.size):
        if position not in done:
            confirmation = Confirmation(
                table=table, position=position, via=Confirmation.Via.SCORER, user=_user(user)
            )
            _noted(confirmation, user, "").save(force_insert=True)
    _finish_if_everyone_confirmed(table, user)
    return table


@transaction.atomic
def reopen_table(*, table: Table, reason: str, user: User = None) -> Table:
    """Take a handed-in sheet back so that games can be added; the confirmations start again."""
    if not reason.strip():
        raise Refused(_("Give a reason for reopening the sheet."))
    table = _locked_table(table)
    for confirmation in table.confirmations.all():
        _noted(confirmation, user, reason.strip()).delete()
    table.submitted_at = None
    table.confirmed_at = None
    _noted(table, user, reason.strip()).save()
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


def _lapse(draw: LotDraw, user: User = None) -> None:
    # one by one: the entries' history shows the lot going as it showed it drawn
    for entry in Entry.objects.filter(event_id=draw.event_id, start_number__in=draw.entries):
        entry.lot = None
        _noted(entry, user, "").save(update_fields=["lot"])
    draw.lapsed_at = timezone.now()
    draw.save(update_fields=["lapsed_at"])


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
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    order = sorted(entries, key=lambda e: e.start_number)
    random.Random(seed).shuffle(order)
    stored = Entry.objects.in_bulk([e.pk for e in order])
    for lot, entry in enumerate(order, start=1):
        drawn = stored[entry.pk]
        drawn.lot = lot
        _noted(drawn, user, "").save(update_fields=["lot"])
    return LotDraw.objects.create(
        event=event,
        entries=[e.start_number for e in order],
        tie=list(tie),
        tied=sorted(number for number, key in keys.items() if key == tie),
        seed=seed,
        drawn_by=_user(user),
    )


def lapse_stale_lots(*, event: Event, user: User = None) -> list[LotDraw]:
    """A draw by lot splits the tie it was drawn for, and no other (issue 10): once the drawn
    players no longer share the tied figures, or someone else now shares them, the lot stops
    counting and the tie shows again. One query when the event has no live draw, written out in SQL
    (a saved game asks it)."""
    sql = f"SELECT id FROM {LotDraw._meta.db_table} WHERE event_id = %s AND lapsed_at IS NULL"
    if not _one_column(sql, event):
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
)
EVENT_SETTINGS = frozenset({*EVENT_FIELDS, "rules", "hands_per_round"})


@dataclass(frozen=True)
class RuleChangeEffect:
    """What new rule settings do to an event's stored hands."""

    hands: int  # stored hands scored again
    players: int  # players whose standings figures change


def _entry_figures(event: Event) -> dict[int, tuple[int, int, int, int]]:
    """Entry id → its counted sums of every result column (one query)."""
    rows = (
        Result.objects.filter(event=event, counts=True)
        .values("entry_id")
        .annotate(p=Sum("points"), i=Sum("inflicted"), m=Sum("matches_won"), g=Sum("games_lost"))
    )
    return {r["entry_id"]: (r["p"], r["i"], r["m"], r["g"]) for r in rows}


def _changed(before: dict[int, tuple], after: dict[int, tuple]) -> int:
    nothing = (0, 0, 0, 0)
    entries = set(before) | set(after)
    return sum(1 for e in entries if before.get(e, nothing) != after.get(e, nothing))


def _stored_hands(event: Event) -> int:
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
        for row in _result_rows(event, full, table, table_hands, seats.get(table.pk, {})):
            if row.counts:
                sums = after.setdefault(row.entry_id, [0, 0, 0, 0])
                sums[0] += row.points
                sums[1] += row.inflicted
                sums[2] += row.matches_won
                sums[3] += row.games_lost
    return RuleChangeEffect(
        hands=hands_scored,
        players=_changed(_entry_figures(event), {k: tuple(v) for k, v in after.items()}),
    )


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
    rescore = current.full_rules() != old_rules and _stored_hands(current) > 0
    if rescore and not reason.strip():
        raise Refused(_("Give a reason for changing the rule settings of stored games."))
    current._change_reason = reason.strip()
    if _user(user) is not None:
        current._history_user = _user(user)
    current.save()
    if not rescore:
        return RuleChangeEffect(hands=0, players=0)
    before = _entry_figures(current)
    for table in Table.objects.filter(round__event=current).select_related("round__event"):
        rescore_table(table, check_lots=False)
    hands = _stored_hands(current)
    lapse_stale_lots(event=current, user=user)
    return RuleChangeEffect(hands=hands, players=_changed(before, _entry_figures(current)))


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
    _noted(event, user, "").save()
    if _user(user) is not None:
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event


SEASON_FIELDS = frozenset({"name", "slug", "game", "best_of"})


@transaction.atomic
def create_season(*, values: dict[str, Any]) -> Season:
    """Create a season (``values``: field → value). A season keeps no history of its own: what
    counts for it are its events, which do."""
    season = _checked(Season, values, SEASON_FIELDS)
    season.save()
    return season


def game_fixed_message(event: Event) -> str:
    return _(
        "The game cannot be changed after the first draw: the tables and games stored are games "
        "of %(game)s. Create a new event for another game."
    ) % {"game": event.get_game_display()}


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
    _noted(event, user, "finished").save(update_fields=["status"])
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
    _noted(event, user, reason.strip()).save(update_fields=["status"])
    return event
