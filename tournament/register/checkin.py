"""The check-in desk on the morning of the day (issue 29): find a player by two letters of the
name or by the start number, mark them present in one tap, register a walk-in from the same box,
and before the draw decide about those who registered and did not come.

Several laptops and phones check in at once: a check-in is one transaction on the entry's row
(locked), so two desks tapping the same player mark them present once, and a walk-in goes
through ``services.register_players`` under the event's lock, so one person gets one entry and
start numbers stay unique. The fee taken in the same tap is ``money.desk`` (one floor up).

What the desk's page shows and says is decided here too, so that the view only reads the request
and renders: what the box finds (``look_up``), which button each player found gets (``offer``),
and what the desk is told after a check-in (``told_after_check_in``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import User, noted
from tournament.core.errors import Refused
from tournament.core.names import normalise
from tournament.models import Entry, Event, Player, Round
from tournament.register import reads, services
from tournament.register.forms import likely_players

SHOWN = 12  # the most players a search lists: more letters narrow it down


@dataclass(frozen=True)
class Counters:
    registered: int  # active entries: those who are to play
    present: int
    walk_ins: int
    waiting: int

    @property
    def missing(self) -> int:
        return self.registered - self.present


def counters(event: Event) -> Counters:
    """The desk's figures. One query."""
    active = Q(status=Entry.Status.ACTIVE)
    figures = Entry.objects.filter(event=event).aggregate(
        registered=Count("id", filter=active),
        present=Count("id", filter=active & Q(present_at__isnull=False)),
        walk_ins=Count("id", filter=active & Q(source=Entry.Source.WALK_IN)),
        waiting=Count("id", filter=Q(status=Entry.Status.WAITING)),
    )
    return Counters(**figures)


def search(event: Event, text: str) -> list[Entry]:
    """The entries the desk's box finds: a start number finds that entry; two letters or more
    find the players whose first or last name starts with them (case and accents aside), or
    whose full name contains them. Those not yet present first, then by name. One query."""
    text = text.strip()
    entries = Entry.objects.filter(event=event).select_related("player", "event")
    if text.isdigit():
        return list(entries.filter(start_number=int(text)))
    wanted = normalise(text)
    if len(wanted) < 2:
        return []
    found = []
    for entry in entries.order_by("player__last_name", "player__first_name"):
        first, last = normalise(entry.player.first_name), normalise(entry.player.last_name)
        if (
            first.startswith(wanted)
            or last.startswith(wanted)
            or wanted in f"{first} {last}"
            or wanted in f"{last} {first}"
        ):
            found.append(entry)
    found.sort(key=lambda e: e.present_at is not None)
    return found[:SHOWN]


def refused(entry: Entry, reinstating: bool = False) -> str:
    """Why the desk cannot check the entry in (``reinstating``: a withdrawn one back in the
    event too), or ""."""
    if entry.status == Entry.Status.WITHDRAWN and not reinstating:
        return _(
            "%(player)s is withdrawn. If the player has come after all, tap “Back in the "
            "event and check in”."
        ) % {"player": entry.player}
    if entry.event.status == Event.Status.FINISHED:
        return _("The event is finished.")
    return ""


def known_as(entry: Entry) -> list[Player]:
    """The known players an entry registered online under a name the register knows may be
    (``Entry.identity_pending``), for the desk to ask the person: players of a likely name (as
    ``likely_players`` finds them), not known to be another person (``reads.kept_apart``) and
    not entered in this event themselves. Empty once the desk has settled it."""
    if not entry.identity_pending:
        return []
    player = entry.player
    found = [
        p
        for p in likely_players(player.first_name, player.last_name, event=entry.event)
        if p.pk != player.pk and not p.registered
    ]
    apart = reads.kept_apart({player.pk, *(p.pk for p in found)})
    return [p for p in found if not apart(player.pk, p.pk)]


def differences(known: Player, typed: Player) -> list[tuple[str, str, str]]:
    """Where the register and the online form disagree (club, town, category: both written and
    not alike): (what, the register's, as typed). A merge keeps the register's and fills only
    blanks (``services.merge_players``); the desk reads these out to the person."""
    found = []
    for name in ("club", "town", "category"):
        kept, new = getattr(known, name), getattr(typed, name)
        if kept and new and normalise(kept) != normalise(new):
            if name == "category":
                kept, new = known.get_category_display(), typed.get_category_display()
            found.append((str(Player._meta.get_field(name).verbose_name), kept, new))
    return found


def _settle_identity(entry: Entry, known: str | None, user: User) -> Entry:
    """The desk's answer for an entry registered online under a known name: ``known`` is the
    identifier of the known player the person is (the entry moves to that player, blanks filled
    from the form: ``services.merge_players``), or ``NEW`` (another person: recorded, the
    register stops flagging the pair)."""
    candidates = known_as(entry)
    if candidates and not known:
        raise Refused(
            _(
                "%(player)s registered online under a name the register knows. Ask who they "
                "are: choose the known player, or “A different person”, then check in."
            )
            % {"player": entry.player}
        )
    if known and known != NEW:
        chosen = next((p for p in candidates if str(p.uid) == known), None)
        if chosen is None:
            raise Refused(_("That player is not among those offered. Search the name again."))
        services.merge_players(keep=chosen, remove=entry.player, user=user)
        entry = Entry.objects.select_related("player", "event").get(pk=entry.pk)
        reason = f"identity settled at the desk: the known player {chosen.pk}"
    else:
        services.record_distinct(pairs=[(entry.player_id, p.pk) for p in candidates], user=user)
        reason = "identity settled at the desk: a player of their own"
    entry.identity_pending = False
    noted(entry, user, reason).save(update_fields=["identity_pending"])
    return entry


NEW = "new"  # the desk's answer "a different person"


@transaction.atomic
def check_in(
    *, entry: Entry, user: User = None, reinstate: bool = False, known: str | None = None
) -> tuple[Entry, bool]:
    """Mark the player present (a waiting-list player who came is admitted: the director decides
    at the desk). With ``reinstate``, a withdrawn player who came after all (removed as not come
    before the draw, or cancelled) is back in the event and present in the same tap: the desk's
    explicit button for that player, never a side effect of a plain check-in. An entry
    registered online under a known name is checked in with the desk's answer who the person is
    (``known``: ``_settle_identity``). Returns the entry and whether this tap checked them in
    (False: another desk did a moment ago; nothing changes)."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if reason := refused(entry, reinstate):
        raise Refused(reason)
    if entry.identity_pending:
        entry = _settle_identity(entry, known, user)
    reinstated = reinstate and entry.status == Entry.Status.WITHDRAWN
    if entry.present_at is not None and entry.status == Entry.Status.ACTIVE:
        return entry, False
    reason = "checked in"
    if reinstated:
        entry.status = Entry.Status.ACTIVE
        reason = "came after all: back in the event and checked in at the desk"
    elif entry.status == Entry.Status.WAITING:
        entry.status = Entry.Status.ACTIVE
        reason = "checked in from the waiting list"
    entry.present_at = timezone.now()
    noted(entry, user, reason).save(update_fields=["present_at", "status"])
    return entry, True


@transaction.atomic
def undo_check_in(*, entry: Entry, user: User = None) -> Entry:
    """A tap on the wrong player: not present after all (until the player is seated)."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if entry.event.status == Event.Status.FINISHED:
        raise Refused(_("The event is finished."))
    if entry.seats.filter(table__isnull=False).exists():
        raise Refused(
            _("%(player)s has been seated already; withdraw the player on the player list.")
            % {"player": entry.player}
        )
    if entry.present_at is not None:
        entry.present_at = None
        noted(entry, user, "check-in taken back").save(update_fields=["present_at"])
    return entry


@transaction.atomic
def walk_in(*, event: Event, player: Player, user: User = None) -> Entry:
    """A player who registers at the desk on the day: registered and present in one write. Two
    desks registering the same person at the same moment make one entry: under the event's lock
    the second finds the first's entry (the same player, or a walk-in of the same name) and
    checks it in instead."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if player.pk is not None:
        same = Entry.objects.filter(event=event, player=player)
    else:
        same = Entry.objects.filter(
            event=event,
            player__first_name__iexact=player.first_name.strip(),
            player__last_name__iexact=player.last_name.strip(),
            source=Entry.Source.WALK_IN,
        )
    existing = same.first()
    if existing is not None:
        return check_in(entry=existing, user=user)[0]
    return services.register_players(
        event=event,
        players=[player],
        user=user,
        reason="walk-in at the check-in",
        fields={"source": Entry.Source.WALK_IN, "present_at": timezone.now()},
    )[0]


def missing(event: Event) -> list[Entry]:
    """Who is to play and has not checked in, once the desk has checked anybody in (before
    that, check-in is not used and nobody is missing). One or two queries."""
    if not services.checkin_begun(event):
        return []
    return list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, present_at__isnull=True)
        .select_related("player")
        .order_by("player__last_name", "player__first_name")
    )


@transaction.atomic
def withdraw_missing(*, event: Event, user: User = None) -> list[Entry]:
    """The director's decision before a draw: those who registered and did not come are
    withdrawn (they can still be reinstated and checked in if they come later)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.rounds.filter(status=Round.Status.PLAYING).exists():
        raise Refused(_("Close the round being played first."))
    gone = missing(event)
    for entry in gone:
        if entry.seats.filter(round__status=Round.Status.SEATED, table__isnull=False).exists():
            raise Refused(
                _("%(player)s is seated in a drawn round: draw it again after removing them.")
                % {"player": entry.player}
            )
    for entry in gone:
        entry.status = Entry.Status.WITHDRAWN
        noted(entry, user, "did not come to the check-in").save(update_fields=["status"])
    return gone


@transaction.atomic
def reissue_link(*, entry: Entry, user: User = None) -> Entry:
    """A lost personal link: a new one, and the old one stops working at once."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.token = Entry._meta.get_field("token").get_default()
    noted(entry, user, "personal link reissued").save(update_fields=["token"])
    return entry


# --- the desk's page: what it finds, what it offers, what it says --------------------------------


def known_players(event: Event, query: str) -> list[Player]:
    """Players of the register (not in this event) whose names start with the box's words, for
    a name of two letters or more (a start number finds only entries): a walk-in who played
    before is registered as that player, not as a new one. At most ``SHOWN``."""
    if query.isdigit() or len(normalise(query)) < 2:
        return []
    words = normalise(query).split()
    found = []
    for player in Player.objects.exclude(entries__event=event).only(
        "pk", "first_name", "last_name", "club", "town"
    ):
        names = normalise(f"{player.first_name} {player.last_name}").split()
        if all(any(n.startswith(w) for n in names) for w in words):
            found.append(player)
            if len(found) >= SHOWN:
                break
    return found


def walk_in_names(query: str) -> tuple[str, str]:
    """The first and last name the walk-in form starts with, from the box: of two words or more
    the first is the first name and the rest the last name; one word is a last name."""
    first, _space, last = query.partition(" ")
    return (first if last else "", last or first)


# what the desk may do with a found entry (``offer``)
UNDO = "undo"  # checked in: "not here after all"
CHECK_IN = "check_in"  # to play, or on the waiting list (admitted by the check-in)
REINSTATE = "reinstate"  # withdrawn, come after all: back in the event and checked in


def offer(entry: Entry) -> str:
    """The desk's button for a found entry (``UNDO``, ``CHECK_IN``, ``REINSTATE``), or "" for
    none: after the event nobody is brought back or un-checked-in. A check-in the event's state
    refuses is refused with its reason when tapped (``refused``). The entry's event is read."""
    finished = entry.event.status == Event.Status.FINISHED
    if entry.present_at is not None:
        return "" if finished else UNDO
    if entry.is_active or entry.is_waiting:
        return CHECK_IN
    if entry.is_withdrawn and not finished:
        return REINSTATE
    return ""


@dataclass(frozen=True)
class Search:
    """The desk's page for what its box holds: the entries found (``search``), each with the
    players of the register it may be (``known_as``) and the desk's button for it (``offer``);
    for a name that finds nobody in the event, the players of the register it may be
    (``known_players``); and the walk-in form's names (``walk_in_names``)."""

    found: list[Entry]
    known: list[Player]
    first_name: str
    last_name: str


def look_up(event: Event, query: str) -> Search:
    """What the desk's page shows for the box's ``query`` ("" shows nobody)."""
    found = search(event, query) if query else []
    for entry in found:
        entry.known_as = known_as(entry)
        entry.offer = offer(entry)
    known = known_players(event, query) if query and not found else []
    first, last = walk_in_names(query)
    return Search(found=found, known=known, first_name=first, last_name=last)


@dataclass(frozen=True)
class Told:
    """A line the desk is told after a tap, and how it reads (``level``: "success", "info" or
    "warning", as Django's messages name them)."""

    level: str
    text: str


def told_after_check_in(
    entry: Entry, *, typed: Player, was_withdrawn: bool, done: bool
) -> list[Told]:
    """What the desk is told after a tap that checks ``entry`` in (``done``: this tap did it, as
    ``check_in`` says). First, where the desk found the person registered online under a known
    name to be that player (the entry's player is no longer ``typed``, the player as registered
    online): each thing the form said that the register says otherwise (``differences``; the
    register's is kept, the player's page corrects it). Then that the player is back in the
    event (``was_withdrawn``) and from which draw seated, is checked in, or was checked in
    already at another desk (nothing changed)."""
    told = []
    if entry.player.pk != typed.pk:
        told += [
            Told(
                "warning",
                _(
                    "%(player)s: the register says %(what)s “%(kept)s”, the online form said "
                    "“%(new)s”. The register's is kept; correct it on the player's page if the "
                    "player says otherwise."
                )
                % {"player": entry.player, "what": what, "kept": kept, "new": new},
            )
            for what, kept, new in differences(entry.player, typed)
        ]
    if done and was_withdrawn:
        told.append(Told("success", _back_in(entry)))
    elif done:
        told.append(
            Told(
                "success",
                _("%(player)s (%(n)s) is checked in.")
                % {"player": entry.player, "n": entry.start_number},
            )
        )
    else:
        told.append(
            Told(
                "info",
                _("%(player)s was checked in already (at another desk).")
                % {"player": entry.player},
            )
        )
    return told


def _back_in(entry: Entry) -> str:
    """A withdrawn player back in the event: from which draw the player is seated. One query."""
    said = _("%(player)s (%(n)s) is back in the event and checked in.") % {
        "player": entry.player,
        "n": entry.start_number,
    }
    drawn = (
        Round.objects.filter(event_id=entry.event_id)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if drawn is not None and drawn.status == Round.Status.SEATED:
        return (
            said
            + " "
            + _(
                "The seats of round %(n)s are drawn already: draw them again to seat the player "
                "now, or the player is seated from the next round."
            )
            % {"n": drawn.number}
        )
    if drawn is not None:
        return said + " " + _("The player is seated from the next round's draw.")
    return said
