"""Online registration before the day (issue 29): an event opens it on its public page, players
register themselves, a full event keeps a waiting list in order, a cancellation moves the first
one up (``services.move_up``).

Registration runs where the event lives: on the association's server before the day (the
event then travels to the hall's laptop in its bundle, players and entries with their personal
links), or on the hall's laptop itself. Each write is one transaction with the event row locked,
so two players sending the last place at once get one place and one waiting-list place.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament.core import collation
from tournament.core.audit import User, noted
from tournament.core.errors import Refused
from tournament.core.names import normalise
from tournament.models import Consent, Entry, Event, Player, RegistrationAttempt, Round
from tournament.register import services
from tournament.register.forms import likely_players

# abuse: how many registration forms one address may send in ``WINDOW`` (a club's secretary
# registering the club's players from one computer stays well below)
LIMIT = 30
WINDOW = timedelta(minutes=10)


class TooMany(Refused):
    """An address that sent more registration forms than ``LIMIT`` in ``WINDOW``."""


@dataclass(frozen=True)
class Places:
    registered: int  # active entries
    waiting: int
    capacity: int | None

    @property
    def left(self) -> int | None:
        return None if self.capacity is None else max(self.capacity - self.registered, 0)

    @property
    def full(self) -> bool:
        return self.capacity is not None and self.registered >= self.capacity


def places(event: Event) -> Places:
    """How many are registered and waiting, and the event's places. One query."""
    counts = dict(
        Entry.objects.filter(event=event, status__in=[Entry.Status.ACTIVE, Entry.Status.WAITING])
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    return Places(
        registered=counts.get(Entry.Status.ACTIVE, 0),
        waiting=counts.get(Entry.Status.WAITING, 0),
        capacity=event.capacity,
    )


def closed_reason(event: Event, now: datetime | None = None) -> str:
    """Why the event's online registration takes no one now, in words, or "" while it does."""
    now = now or timezone.now()
    if not event.registration_open:
        if event.sent_to_hall_at is not None and event.status != Event.Status.FINISHED:
            # its bundle went to the hall's laptop: a registration here would not reach it
            return _(
                "Online registration is closed: the event has gone to the hall. Register at the "
                "desk on the day."
            )
        return _("Online registration is not open for this event.")
    if event.status == Event.Status.FINISHED:
        return _("The event is finished.")
    if event.registration_closes and now >= event.registration_closes:
        return _("Online registration closed on %(when)s.") % {
            # in the reader's way of writing a date (German 05.12.2026 18:00, English 05/12/2026)
            "when": formats.date_format(
                timezone.localtime(event.registration_closes), "SHORT_DATETIME_FORMAT"
            )
        }
    if event.rounds.exclude(status=Round.Status.DRAFT).exists():
        return _("The first round has been drawn: registration is closed. Ask at the desk.")
    return ""


def address_key(address: str) -> str:
    """What is kept of a visitor's address for the limit: a digest, not the address."""
    return hashlib.sha256(f"registration:{address}".encode()).hexdigest()[:32]


def forget_attempts(since: datetime | None = None) -> int:
    """Delete the kept digests of the forms sent before ``since`` (by default: before the limit's
    window), which the limit no longer counts; how many."""
    since = since or timezone.now() - WINDOW
    deleted, _kinds = RegistrationAttempt.objects.filter(at__lt=since).delete()
    return deleted


def note_attempt(address: str, event: Event) -> None:
    """Count a registration form for ``event`` sent from ``address``; refuse beyond ``LIMIT`` per
    ``WINDOW``. Kept in the database (one table every app server shares), a row per form, old
    rows pruned. The event's row is locked while counting: forms sent at the same moment are
    counted one after the other, so a burst gets ``LIMIT`` through, not one more per server."""
    key = address_key(address)
    since = timezone.now() - WINDOW
    with transaction.atomic():
        Event.objects.select_for_update().only("pk").get(pk=event.pk)
        forget_attempts(since)
        sent = RegistrationAttempt.objects.filter(address=key, at__gte=since).count()
        if sent >= LIMIT:
            raise TooMany(
                _(
                    "Too many registrations were sent from this connection in the last "
                    "%(minutes)s minutes. Wait a few minutes, or ask the organiser to register "
                    "the players."
                )
                % {"minutes": int(WINDOW.total_seconds() // 60)}
            )
        RegistrationAttempt.objects.create(address=key)


@transaction.atomic
def register_online(
    *,
    event: Event,
    player: Player,
    submission_key: uuid.UUID | None,
    consent: Consent | None = None,
    user: User = None,
) -> Entry:
    """Register ``player`` (as typed, not saved) online: a place while there is one, else the
    waiting list (in order of registration), else refused. The same form sent twice (its one-time
    key) gives the entry the first send made. ``consent`` (as ticked, not saved) is recorded for
    the new player.

    The registration is always a player of its own: typing a known player's name, club and town
    proves nothing (the public lists show them). Where the register knows players of this name,
    the entry waits for the desk (``identity_pending``), which sees the person and settles who
    it is (``checkin.settle_identity``): one person, one player, and nobody takes another's
    place, link or seat from the public form."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if submission_key is not None:
        done = Entry.objects.filter(event=event, submission_key=submission_key).first()
        if done is not None:
            return done
    if reason := closed_reason(event):
        raise Refused(reason)
    if _registered_as(event, player):
        raise Refused(
            _(
                "%(player)s is already registered for this event. Lost the confirmation? "
                "The organiser gives you your personal link again."
            )
            % {"player": player}
        )
    now = places(event)
    if now.full and not event.waiting_list:
        raise Refused(_("All %(n)s places are taken.") % {"n": event.capacity})
    status = Entry.Status.WAITING if now.full else Entry.Status.ACTIVE
    [entry] = services.register_players(
        event=event,
        players=[player],
        user=user,
        reason="online registration",
        fields={
            "source": Entry.Source.ONLINE,
            "status": status,
            "submission_key": submission_key,
            "registered_at": timezone.now(),
            "identity_pending": bool(likely_players(player.first_name, player.last_name)),
        },
    )
    services.record_entry_consent(
        entry=entry, consent=consent, user=user, reason="online registration"
    )
    return entry


def _registered_as(event: Event, player: Player) -> bool:
    """Has this event an online entry typed exactly so (name, club and town, case and accents
    aside)? The same person's second registration, not a second person."""
    typed = _typed(player)
    same_name = Entry.objects.filter(
        event=event,
        source=Entry.Source.ONLINE,
        player__last_name__iexact=player.last_name.strip(),
    ).select_related("player")
    return any(_typed(entry.player) == typed for entry in same_name)


def _typed(player: Player) -> tuple[str, ...]:
    return tuple(normalise(getattr(player, f)) for f in ("first_name", "last_name", "club", "town"))


def waiting_place(entry: Entry) -> int | None:
    """The entry's place on the waiting list (1 = next to move up), or None."""
    if entry.status != Entry.Status.WAITING:
        return None
    ahead = Entry.objects.filter(event_id=entry.event_id, status=Entry.Status.WAITING).filter(
        Q(registered_at__lt=entry.registered_at)
        | Q(registered_at=entry.registered_at, start_number__lt=entry.start_number)
    )
    return ahead.count() + 1


def cancel_refused(entry: Entry) -> str:
    """Why the player cannot cancel through the personal link, or ""."""
    if entry.status == Entry.Status.WITHDRAWN:
        return _("This registration is cancelled already.")
    if entry.event.status == Event.Status.FINISHED or (
        entry.event.rounds.exclude(status=Round.Status.DRAFT).exists()
    ):
        return _("The seats have been drawn: tell the director if you cannot play.")
    if entry.present_at is not None:
        return _("You have checked in: tell the director if you cannot play.")
    return ""


@transaction.atomic
def cancel(*, entry: Entry, user: User = None) -> list[Entry]:
    """A player cancels their registration before the draw (their personal link) or the organiser
    does for them: the entry is withdrawn, the first on the waiting list moves up. Returns who
    moved up."""
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    entry = Entry.objects.select_related("player", "event").get(pk=entry.pk)
    if reason := cancel_refused(entry):
        raise Refused(reason)
    was_active = entry.status == Entry.Status.ACTIVE
    entry.status = Entry.Status.WITHDRAWN
    noted(entry, user, "registration cancelled").save(update_fields=["status"])
    return services.move_up(event=event, user=user) if was_active else []


def public_list(event: Event) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The registered players and the waiting list as the public sees them: name and club only,
    as far as each player's consent reaches (``core.shown``), the registered ones by name, the
    waiting list in its order. One query."""
    rows = list(
        Entry.objects.filter(event=event, status__in=[Entry.Status.ACTIVE, Entry.Status.WAITING])
        .order_by("registered_at", "start_number")
        .select_related("player")
        .only(
            "status",
            "start_number",
            "player__first_name",
            "player__last_name",
            "player__club",
            "player__public_lists",
            "player__public_season",
        )
    )
    registered = collation.by_name([e for e in rows if e.is_active], lambda e: e.player)
    waiting = [e for e in rows if e.status == Entry.Status.WAITING]
    return (
        [(e.player.public_name(e.start_number), e.player.public_club) for e in registered],
        [(e.player.public_name(e.start_number), e.player.public_club) for e in waiting],
    )
