"""Everything the installation holds about one player, for the player's request for it
(DSGVO Art. 15, issue 46.3): the register's row, the identifiers of other installations, the
consents, each entry with its personal link, seats, games, results, fee and its payment,
confirmations of the player's seat, prize-giving lines naming the player, ratings, the players
recorded as another person, and every history row of the player, their entries, consents and
fees. The director reads it as a page and downloads it as JSON (``views.register``).

Plain data (dicts, lists, strings, numbers, times), as the bundles are: the page and the file
are written from the same dict. A fixed number of queries however many events the player
played.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model, Q
from django.utils import timezone

from tournament.models import (
    Confirmation,
    Consent,
    DistinctPlayers,
    Entry,
    EntryFee,
    Hand,
    Player,
    PrizeAssignment,
    Rating,
    Result,
    Seat,
)

# the history's own columns, shown with every history row
HISTORY_COLUMNS = ("history_date", "history_type", "history_change_reason", "history_actor")


def _row(instance: Model, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(instance, name) for name in names}


def _history(model: type[Model], condition: Q, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The history rows of ``model`` that ``condition`` finds, oldest first."""
    rows = model.history.filter(condition).order_by("history_date", "history_id")  # type: ignore[attr-defined]
    return [_row(row, HISTORY_COLUMNS + names) for row in rows]


PLAYER = ("uid", "first_name", "last_name", "club", "town", "category")
PLAYER_REACH = ("public_lists", "public_season", "town_shown")
CONSENT = ("uid", "lists", "season_site", "town", "by_guardian", "wording", "via", "given_at")
ENTRY = (
    "start_number",
    "status",
    "late",
    "source",
    "registered_at",
    "present_at",
    "identity_pending",
    "lot",
)
FEE = ("status", "paid_cents", "changed_at")


def _fee(fee: EntryFee | None) -> dict[str, Any] | None:
    if fee is None:
        return None
    return {**_row(fee, FEE), "category": fee.category.name if fee.category else None}


def player_data(player: Player) -> dict[str, Any]:
    """Everything held about ``player`` (see the module), as plain data."""
    entries = list(
        Entry.objects.filter(player=player)
        .select_related("event", "squad", "pair")
        .order_by("event__date", "event_id")
    )
    entry_ids = [e.pk for e in entries]
    seats: dict[int, list[dict[str, Any]]] = {}
    positions: dict[int, int] = {}  # table → the player's seat at it
    for seat in (
        Seat.objects.filter(entry__in=entry_ids)
        .select_related("round", "table")
        .order_by("round__number")
    ):
        seats.setdefault(seat.entry_id, []).append(
            {
                "round": seat.round.number,
                "table": seat.table.number if seat.table else None,
                "seat": seat.position + 1 if seat.table else None,
                "points": seat.points,
            }
        )
        if seat.table_id is not None:
            positions[seat.table_id] = seat.position
    results = {
        r.hand_id: r
        for r in Result.objects.filter(entry__in=entry_ids).only(
            "hand_id", "points", "inflicted", "matches_won", "games_lost", "counts"
        )
    }
    games: dict[int, list[dict[str, Any]]] = {}
    for hand in (
        Hand.objects.filter(table__in=positions)
        .select_related("table__round")
        .order_by("table__round__number", "number")
    ):
        mine = results.get(hand.pk)
        games.setdefault(hand.table.round.event_id, []).append(
            {
                "round": hand.table.round.number,
                "table": hand.table.number,
                "game": hand.number,
                "kind": hand.kind,
                "data": hand.data,
                "entered_at": hand.entered_at,
                "my_seat": positions[hand.table_id] + 1,
                "my_result": None
                if mine is None
                else {
                    "points": mine.points,
                    "inflicted": mine.inflicted,
                    "matches_won": mine.matches_won,
                    "games_lost": mine.games_lost,
                    "counts": mine.counts,
                },
            }
        )
    fees = {
        f.entry_id: f
        for f in EntryFee.objects.filter(entry__in=entry_ids).select_related("category")
    }
    confirmations: dict[int, list[dict[str, Any]]] = {}
    for c in Confirmation.objects.filter(table__in=positions).select_related("table__round"):
        if c.position == positions[c.table_id]:
            confirmations.setdefault(c.table.round.event_id, []).append(
                {
                    "round": c.table.round.number,
                    "table": c.table.number,
                    "via": c.via,
                    "device": c.device,
                    "confirmed_at": c.confirmed_at,
                }
            )
    prizes: dict[int, list[dict[str, Any]]] = {}
    mine_ids = set(entry_ids)
    for assignment in PrizeAssignment.objects.filter(event__entries__in=entry_ids):
        for award in assignment.awards:
            for winner in award.get("winners", []):
                if winner.get("entry") in mine_ids:
                    prize = {k: award.get(k) for k in ("place", "amount_cents", "goods")}
                    prizes.setdefault(assignment.event_id, []).append({**prize, **winner})
    return {
        "exported_at": timezone.now(),
        "player": {**_row(player, PLAYER), **_row(player, PLAYER_REACH)},
        "other_identifiers": list(player.aliases.values_list("uid", "decided_by", "decided_at")),
        "consents": [
            _row(c, CONSENT) for c in Consent.objects.filter(player=player).order_by("given_at")
        ],
        "other_people": list(
            DistinctPlayers.objects.filter(Q(first=player) | Q(second=player)).values_list(
                "first__uid", "second__uid", "decided_by", "decided_at"
            )
        ),
        "entries": [
            {
                "event": entry.event.name,
                "event_date": entry.event.date,
                **_row(entry, ENTRY),
                "team": entry.squad.name if entry.squad else None,
                "pair": entry.pair.name if entry.pair else None,
                "personal_link": entry.get_link_url(),
                "seats": seats.get(entry.pk, []),
                "games": games.get(entry.event_id, []),
                "confirmations": confirmations.get(entry.event_id, []),
                "fee": _fee(fees.get(entry.pk)),
                "prizes": prizes.get(entry.event_id, []),
            }
            for entry in entries
        ],
        "ratings": list(
            Rating.objects.filter(player=player).values(
                "game", "ordinal", "mu", "sigma", "tables", "hands", "updated_at"
            )
        ),
        "history": {
            "player": _history(Player, Q(id=player.pk), PLAYER),
            "entries": _history(Entry, Q(id__in=entry_ids), ("event_id", *ENTRY)),
            "consents": _history(Consent, Q(player_id=player.pk), CONSENT),
            "fees": _history(EntryFee, Q(entry_id__in=entry_ids), FEE),
        },
    }
