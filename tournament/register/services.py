"""Writes of registration: players registered, corrected and merged, entries withdrawn,
reinstated and removed, fixed pairs. Each is one function, one transaction."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from tournament.core.audit import User, actor, bulk_attrs, noted
from tournament.core.errors import Refused
from tournament.models import (
    Consent,
    DistinctPlayers,
    Entry,
    Event,
    Player,
    PlayerAlias,
    PrizeAssignment,
    Round,
    Team,
    versions,
)
from tournament.models.base import new_token
from tournament.models.events import BundleUpload
from tournament.register.reads import never_played, withdrawal_refused

# RULES.md 6: side ranking for teams of four
SQUAD_SIZE = 4
# what a correction of a player may change (the player form's fields)
PLAYER_FIELDS = ("first_name", "last_name", "club", "town", "category")


# --- registration -----------------------------------------------------------------------------


@transaction.atomic
@versions.at_the_end()
def register_players(
    *,
    event: Event,
    players: Sequence[Player],
    user: User = None,
    start_number: int | None = None,
    team: str = "",
    reason: str = "",
    fields: dict[str, Any] | None = None,
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
    entry made. ``fields`` are set on every entry made (how it came, its status, its check-in:
    ``register.online``, ``register.checkin``). A few queries however long the list.
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
            default_user=actor(user),
            default_change_reason=reason,
            custom_historical_attrs=bulk_attrs(),
        )
    )
    late = event.rounds.exclude(status=Round.Status.DRAFT).exists()
    fields = fields or {}
    entries = [
        Entry(
            event=event,
            player=player if player.pk is not None else next(created),
            start_number=start_number + offset,
            late=late,
            squad=squad,
            **fields,
        )
        for offset, player in enumerate(players)
    ]
    versions.changed(event)  # the entries are written in bulk, which sends no signal
    return bulk_create_with_history(
        entries,
        Entry,
        default_user=actor(user),
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
    noted(current, user, "").save()
    return current


def record_consents(*, consents: Sequence[Consent], user: User = None, reason: str = "") -> None:
    """Record consents as given (each of a saved player), and let each player's latest consent
    say how far the public pages show the player (``Player.public_*``); the events those players
    play change their version, so that no cached page shows them as before. A consent whose
    identifier is recorded already (a bundle brought again) is left out. A few queries however
    many consents, none for none."""
    if consents:
        with transaction.atomic():
            _record_consents(consents, user, reason)


def record_entry_consent(
    *, entry: Entry, consent: Consent | None, user: User = None, reason: str
) -> None:
    """The consent given with a registration (online, at the desk), as the entry's player's;
    None: none was given, nothing is recorded."""
    if consent is not None:
        consent.player = entry.player
        record_consents(consents=[consent], user=user, reason=reason)


def _record_consents(consents: Sequence[Consent], user: User, reason: str) -> None:
    known = set(
        Consent.objects.filter(uid__in=[c.uid for c in consents]).values_list("uid", flat=True)
    )
    fresh = [c for c in consents if c.uid not in known]
    if not fresh:
        return
    for consent in fresh:
        consent.full_clean(exclude=["player", "uid"], validate_unique=False)
    bulk_create_with_history(
        fresh,
        Consent,
        default_user=actor(user),
        default_change_reason=reason,
        custom_historical_attrs=bulk_attrs(),
    )
    _follow_latest_consents({c.player_id for c in fresh})


def _follow_latest_consents(players: set[int]) -> None:
    """Each of ``players`` shown on the public pages as far as their latest consent reaches
    (``Player.public_lists``, ``town_shown``, ``public_season``), and the events whose pages
    name them changed."""
    latest: dict[int, tuple[bool, bool, bool]] = {}
    for player_id, *reach in (
        Consent.objects.filter(player__in=players)
        .order_by("given_at", "pk")
        .values_list("player_id", "lists", "town", "season_site")
    ):
        latest[player_id] = tuple(reach)  # type: ignore[assignment]
    by_reach: dict[tuple[bool, bool, bool], list[int]] = {}
    for player_id, reach in latest.items():
        by_reach.setdefault(reach, []).append(player_id)
    for (lists, town, season_site), ids in by_reach.items():
        Player.objects.filter(pk__in=ids).update(
            public_lists=lists, town_shown=town, public_season=season_site
        )
    # an update sends no signal: the events whose pages name these players change here
    for event_id in (
        Entry.objects.filter(player__in=players)
        .order_by()
        .values_list("event_id", flat=True)
        .distinct()
    ):
        versions.changed(event_id)


def checkin_begun(event: Event) -> bool:
    """Whether the desk has checked in a player of the event: from then on the draw seats only
    the players checked in (``play.rounds.draw_round``)."""
    return Entry.objects.filter(event=event, present_at__isnull=False).exists()


def move_up(*, event: Event, user: User = None) -> list[Entry]:
    """Fill the places freed (a cancellation, a withdrawal, more places) from the waiting list,
    first come first; called inside the write that freed them, the event row locked. Not once the
    desk has begun checking players in: then the desk admits a waiting player who is there."""
    if checkin_begun(event) or event.rounds.exclude(status=Round.Status.DRAFT).exists():
        return []
    waiting = Entry.objects.filter(event=event, status=Entry.Status.WAITING).order_by(
        "registered_at", "start_number"
    )
    if event.capacity is not None:
        taken = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).count()
        waiting = waiting[: max(event.capacity - taken, 0)]
    moved = list(waiting.select_related("player"))
    for entry in moved:
        entry.status = Entry.Status.ACTIVE
        noted(entry, user, "moved up from the waiting list").save(update_fields=["status"])
    return moved


@transaction.atomic
@versions.at_the_end()
def withdraw_entry(*, entry: Entry, user: User = None, reason: str = "") -> Entry:
    """Withdraw a player: the results so far stay, later draws leave the player out. Before the
    first draw the place goes to the first on the waiting list."""
    refused = withdrawal_refused(entry)
    if refused:
        raise Refused(refused)
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    was_active = entry.status == Entry.Status.ACTIVE
    entry.status = Entry.Status.WITHDRAWN
    noted(entry, user, reason).save(update_fields=["status"])
    if was_active:
        move_up(event=event, user=user)
    return entry


@transaction.atomic
@versions.at_the_end()
def reinstate_entry(*, entry: Entry, user: User = None) -> Entry:
    entry.status = Entry.Status.ACTIVE
    noted(entry, user, "").save(update_fields=["status"])
    return entry


@transaction.atomic
@versions.at_the_end()
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
    was_active = entry.status == Entry.Status.ACTIVE
    noted(entry, user, "removed: registered by mistake").delete()
    if was_active:
        move_up(event=event, user=user)


@transaction.atomic
def merge_players(*, keep: Player, remove: Player, user: User = None) -> Player:
    """One person registered as two players: ``remove``'s entries (with their results, so the
    history and season totals) move to ``keep``, blank club, town or category of ``keep`` are
    filled from ``remove``, and ``remove`` is deleted. Refused when both have entries in the same
    event, a withdrawn one too (then they are two people, or the entry made by mistake must be
    removed first, which is possible until the event's first draw)."""
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
                "event cannot be one person, and a withdrawn entry counts too. If one person was "
                "registered twice by mistake, remove that entry on the event's player list "
                "(possible until the event's first draw), then merge."
            )
            % {"keep": keep, "remove": remove, "events": ", ".join(shared)}
        )
    # stored in English like every reason, read in the reader's language (results.history)
    who = user.get_username() if actor(user) else "system"
    reason = f"merged: player {remove.pk} ({remove}) into player {keep.pk} ({keep}) by {who}"
    for entry in Entry.objects.filter(player=remove):
        entry.player = keep
        noted(entry, user, reason).save(update_fields=["player"])
    for name in ("club", "town", "category"):
        if not getattr(keep, name) and getattr(remove, name):
            setattr(keep, name, getattr(remove, name))
    noted(keep, user, reason).save()
    # the merged player's identifiers stay known: a bundle from another laptop that names
    # ``remove`` (or one of its earlier identifiers) finds ``keep`` (tournament.register.identity)
    PlayerAlias.objects.filter(player=remove).update(player=keep)
    PlayerAlias.objects.create(uid=remove.uid, player=keep, decided_by=f"{reason}"[:150])
    # the consents either of them gave are the person's: the latest counts (the online form's,
    # when the desk joins a registration to the known player)
    for consent in Consent.objects.filter(player=remove):
        consent.player = keep
        noted(consent, user, reason).save(update_fields=["player"])
    noted(remove, user, reason).delete()
    _follow_latest_consents({keep.pk})
    keep.refresh_from_db()
    return keep


@transaction.atomic
def record_distinct(*, pairs: Sequence[tuple[int, int]], user: User = None) -> int:
    """Record pairs of players (ids) as two people: a director said "another person" for them.
    The register no longer flags them as probably the same person. A pair recorded before stays
    as it was. Returns the pairs newly recorded."""
    ordered = {(min(a, b), max(a, b)) for a, b in pairs if a != b}
    if not ordered:
        return 0
    known = set(
        DistinctPlayers.objects.filter(
            first_id__in={a for a, _b in ordered}, second_id__in={b for _a, b in ordered}
        ).values_list("first_id", "second_id")
    )
    who = user.get_username() if actor(user) else ""
    new = [
        DistinctPlayers(first_id=a, second_id=b, decided_by=who[:150])
        for a, b in sorted(ordered - known)
    ]
    DistinctPlayers.objects.bulk_create(new)
    return len(new)


@transaction.atomic
@versions.at_the_end()
def create_pair(*, event: Event, name: str, entries: Sequence[Entry], user: User = None) -> Team:
    """Register two players as a fixed Ziege pair: they always sit opposite each other. Each
    entry's history names the pair and ``user``. A pair given no name is numbered ("Paar 3"):
    its name is shown on the public pages as it is, and the partners' names beside it only as
    far as their consent reaches (issue 46), so a name made of their last names would name
    them beyond it."""
    if len(entries) != 2 or entries[0] == entries[1]:
        raise Refused(_("A Ziege pair is two different players."))
    if any(e.pair_id for e in entries):
        raise Refused(_("One of the players is already in a pair."))
    name = name.strip() or _next_pair_name(event)
    if Team.objects.filter(event=event, kind=Team.Kind.PAIR, name=name).exists():
        raise Refused(_("A pair called %(name)s already exists.") % {"name": name})
    team = Team.objects.create(event=event, name=name, kind=Team.Kind.PAIR)
    for entry in Entry.objects.filter(pk__in=[e.pk for e in entries]):
        entry.pair = team
        noted(entry, user, "").save(update_fields=["pair"])
    return team


def _next_pair_name(event: Event) -> str:
    """The first "Paar N" the event's pairs do not bear yet, N counted on from their number."""
    taken = set(
        Team.objects.filter(event=event, kind=Team.Kind.PAIR).values_list("name", flat=True)
    )
    number = len(taken) + 1
    while (name := _("Pair %(number)s") % {"number": number}) in taken:
        number += 1
    return name


# the neutral label an anonymised player keeps in the register (issue 46.4): the player's row
# stays, so that the results, ranks and everybody's standings stay as they were
ANONYMOUS_FIRST = "Anonym"
# the history row of an anonymisation: these words, then the director's reason
ANONYMISED_BECAUSE = "anonymised: "


def anonymous_label(player: Player) -> dict[str, str]:
    """What an anonymised player's name, club and town become: "Anonym 12", the player's number
    here, no club, no town."""
    return {"first_name": ANONYMOUS_FIRST, "last_name": str(player.pk), "club": "", "town": ""}


@transaction.atomic
def anonymise_player(*, player: Player, reason: str, user: User = None) -> Player:
    """A player anonymised on request (issue 46.4): name, club and town replaced by a neutral
    label ("Anonym 12", the player's number here) in the register, in every earlier version of
    the player's history (of the players merged into this one too: the same person), in the
    reasons of the merges that name the player, in the prize-giving lists kept of finished
    events and in the Django admin's list of its changes; the event bundles uploaded for an
    import are dropped; the personal links issued stop (new secrets); the reason is kept in the
    history. The player's entries, results and category stay, so every ranking stays as it was;
    the next publication and bundle carry the label, and the page cache is emptied. The
    player's consents stay: they are the record of what was agreed."""
    if not reason.strip():
        raise Refused(_("Give the reason for the anonymisation (the player's request)."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    label = anonymous_label(player)
    new_name = f"{label['first_name']} {label['last_name']}"
    old = {"name": f"{player.first_name} {player.last_name}", "sort_name": player.sort_name}
    # the players merged into this one were the same person: their history is the player's too
    merged = PlayerAlias.objects.filter(player=player).values("uid")
    history = Player.history.filter(Q(id=player.pk) | Q(uid__in=merged))
    names = _names_in(history) | {old["name"], old["sort_name"]}
    last_names = set(history.values_list("last_name", flat=True)) | {player.last_name}
    for name, value in label.items():
        setattr(player, name, value)
    # the earlier versions first, then the version saying why, which keeps the reason
    history.update(**label)
    noted(player, user, f"{ANONYMISED_BECAUSE}{reason.strip()}").save()
    entries = list(Entry.objects.filter(player=player))
    for entry in entries:  # the token is no part of the history: no history row
        Entry.objects.filter(pk=entry.pk).update(token=new_token())
    # the player's rows as they were (the players merged into this one included: their entries
    # and consents moved here, an entry removed before is in the history only)
    player_ids = set(history.values_list("id", flat=True))
    entry_ids = set(Entry.history.filter(player_id__in=player_ids).values_list("id", flat=True))
    consents = Consent.objects.filter(player=player).values("pk")
    aliases = PlayerAlias.objects.filter(player=player)
    _scrub_reasons(
        names,
        new_name,
        [
            (history, "history_change_reason"),
            (Entry.history.filter(id__in=entry_ids), "history_change_reason"),
            (Consent.history.filter(id__in=consents), "history_change_reason"),
            (aliases, "decided_by"),
            # the admin's list of recent actions names what was changed there
            (_admin_log(Player, player_ids), "object_repr"),
            (_admin_log(Entry, entry_ids), "object_repr"),
            (_admin_log(PlayerAlias, set(aliases.values_list("pk", flat=True))), "object_repr"),
        ],
    )
    _scrub_prize_lists({e.pk for e in entries}, old, new_name)
    _scrub_pair_names(player, last_names, new_name)
    # the bundles uploaded on the import page are kept for the preview's confirmation, and until
    # the next upload after that: any of them may carry the old name; a preview waiting for its
    # confirmation asks for its file again
    BundleUpload.objects.all().delete()
    # the cached pages of the versions before hold the old name until they expire (an hour):
    # none of them is read again, and none is kept either
    transaction.on_commit(cache.clear)
    return player


# the reason the history keeps for a player forgotten because they never played (issue 46.5)
NEVER_PLAYED = "registered, never played; the event is finished"


def forget_never_played(*, user: User = None) -> list[Player]:
    """The players who registered and never played, every event of theirs finished
    (``reads.never_played``), anonymised as on request (``anonymise_player``), each in its own
    transaction: no event needs their name, club and town any more (issue 46.5, retention). The
    players anonymised, with their new names."""
    return [
        anonymise_player(player=player, reason=NEVER_PLAYED, user=user)
        for player in never_played()
        if not is_anonymised(player)
    ]


def is_anonymised(player: Player) -> bool:
    """Whether the player bears the label already (``anonymous_label``)."""
    label = anonymous_label(player)
    return (player.first_name, player.last_name) == (label["first_name"], label["last_name"])


def _admin_log(model: type, pks: set[int]) -> QuerySet[LogEntry]:
    """The Django admin's records of its changes to these rows of ``model``."""
    return LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(model),
        object_id__in=[str(pk) for pk in pks],
    )


def _scrub_pair_names(player: Player, last_names: set[str], label: str) -> None:
    """A Ziege pair's name may be made of the partners' last names ("Maier / Huber", as pairs
    given no name once were): the label instead of each of the player's last names, as a whole
    word. The pairs keep no history."""
    words = sorted((n for n in last_names if n.strip()), key=len, reverse=True)
    if not words:
        return
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)")
    for team in Team.objects.filter(kind=Team.Kind.PAIR, pair_members__player=player):
        renamed = pattern.sub(label, team.name)
        if renamed != team.name:
            Team.objects.filter(pk=team.pk).update(name=renamed)


def _names_in(history: QuerySet) -> set[str]:
    """Every name a player's history rows hold, as a reason writes it ("Anna Maier") and as a
    list sorts it ("Maier, Anna")."""
    names = set()
    for first, last in history.values_list("first_name", "last_name").distinct():
        names |= {f"{first} {last}".strip(), f"{last}, {first}".strip(", ")}
    return {name for name in names if name}


def _scrub_reasons(names: set[str], label: str, columns: list[tuple[QuerySet, str]]) -> None:
    """A merge's reason names both players ("merged: player 9 (Anna Maier) into player 5 (Anna
    Meier)"), in the history of the player, of the entries and consents that moved, and in the
    identifier the merge left (``PlayerAlias.decided_by``): the label instead of each name, the
    longest first (the whole of "Anna Maiers" before "Anna Maier" could match a part of it)."""
    spelled = sorted(names, key=len, reverse=True)
    for rows, column in columns:
        for pk, text in rows.exclude(**{column: None}).values_list("pk", column):
            scrubbed = text
            for name in spelled:
                scrubbed = scrubbed.replace(name, label)
            if scrubbed != text:
                rows.filter(pk=pk).update(**{column: scrubbed})


def _scrub_prize_lists(entry_ids: set[int], old: dict[str, str], label: str) -> None:
    """The prize-giving lists kept of finished events (``PrizeAssignment``, and its history)
    name the player as they were: the label instead. A line names the player by entry, or (a
    player passed over, in a list kept before it kept their entry) by the name as the list
    writes it, last name first; a team's line names its members in the club's place."""
    names = {old["name"], old["sort_name"]}

    def scrubbed(awards: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
        changed = False
        for award in awards:
            for line in [*award.get("winners", []), *award.get("passed", [])]:
                if line.get("entry") in entry_ids or line.get("name") in names:
                    line["name"], changed = label, True
                    if "club" in line:
                        line["club"] = ""
                elif old["name"] in line.get("club", ""):
                    line["club"], changed = line["club"].replace(old["name"], label), True
        return awards, changed

    events = Entry.objects.filter(pk__in=entry_ids).values("event_id")
    for row in PrizeAssignment.objects.filter(event__in=events):
        awards, changed = scrubbed(row.awards)
        if changed:
            PrizeAssignment.objects.filter(pk=row.pk).update(awards=awards)
    for row in PrizeAssignment.history.filter(event_id__in=events):
        awards, changed = scrubbed(row.awards)
        if changed:
            PrizeAssignment.history.filter(pk=row.pk).update(awards=awards)
