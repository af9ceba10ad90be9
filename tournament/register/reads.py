"""Reads of registration: where an entry sits in a round, whether it may be withdrawn now,
which players of one name are known to be two people, who registered and never played, and the
consents a player gave."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from tournament.models import Consent, DistinctPlayers, Entry, Event, Player, Round, Seat


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


@dataclass(frozen=True)
class Apart:
    """Players known to be two people, whatever their names: a director said "another person"
    (``DistinctPlayers``), or both have an entry in an event already drawn (an entry there can no
    longer be removed, so a merge is refused for good: two players of one event are two people)."""

    decided: frozenset[frozenset[int]]
    drawn_events: dict[int, frozenset[int]]

    def __call__(self, a: int, b: int) -> bool:
        if frozenset((a, b)) in self.decided:
            return True
        return bool(self.drawn_events.get(a, frozenset()) & self.drawn_events.get(b, frozenset()))


def kept_apart(players: Collection[int]) -> Apart:
    """Which of ``players`` (ids) are known to be two people (``Apart``). Two queries."""
    if not players:
        return Apart(frozenset(), {})
    ids = list(players)
    decided = frozenset(
        frozenset(pair)
        for pair in DistinctPlayers.objects.filter(
            Q(first_id__in=ids) | Q(second_id__in=ids)
        ).values_list("first_id", "second_id")
    )
    drawn: dict[int, set[int]] = defaultdict(set)
    for player_id, event_id in (
        Entry.objects.filter(player_id__in=ids)
        .filter(
            event__rounds__status__in=[s for s in Round.Status.values if s != Round.Status.DRAFT]
        )
        .values_list("player_id", "event_id")
        .distinct()
    ):
        drawn[player_id].add(event_id)
    return Apart(decided, {pk: frozenset(events) for pk, events in drawn.items()})


def never_played() -> QuerySet[Player]:
    """Players who registered and never played (issue 46.5): each of their entries is in a
    finished event and never sat at a table (cancelled, left on the waiting list, did not
    come). No event needs their name, club and town any more. One query."""
    entries = Entry.objects.filter(player=OuterRef("pk"))
    return (
        Player.objects.filter(Exists(entries))
        .exclude(Exists(entries.played()))
        .exclude(Exists(entries.exclude(event__status=Event.Status.FINISHED)))
        .order_by("pk")
    )


def consents_of(player: Player) -> QuerySet[Consent]:
    """The player's consents, the one that counts first (the latest given), each with the note
    it was recorded with (``note``: the reason its history's first row keeps). One query."""
    recorded = Consent.history.filter(id=OuterRef("pk"), history_type="+").order_by("history_id")
    return (
        Consent.objects.filter(player=player)
        .annotate(note=Subquery(recorded.values("history_change_reason")[:1]))
        .order_by("-given_at", "-pk")
    )
