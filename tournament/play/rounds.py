"""Writes of a round: adding it, drawing its seats (again, while no game is played), swapping two
players' seats or two fixed pairs before play starts, starting, closing and removing it. Each is
one function, one transaction; who sits where is decided by the draw's pure logic (``draw``)."""

from __future__ import annotations

import random
from collections import Counter

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from tournament.core.audit import User, actor, bulk_attrs, noted
from tournament.core.errors import Refused
from tournament.models import Entry, Event, Round, Seat, Table, Team, versions
from tournament.play import draw as drawing
from tournament.play.reads import removal_refused, unfinished_tables


@transaction.atomic
@versions.at_the_end()
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
@versions.at_the_end()
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
@versions.at_the_end()
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
@versions.at_the_end()
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
@versions.at_the_end()
def start_round(*, round: Round) -> Round:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.SEATED:
        raise Refused(_("Draw the seats before the round starts."))
    rnd.status = Round.Status.PLAYING
    rnd.save(update_fields=["status"])
    return rnd


@transaction.atomic
@versions.at_the_end()
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
@versions.at_the_end()
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
