"""Everything the installation holds about one player, for the player's request for it
(DSGVO Art. 15, issue 46.3): the register's row, the identifiers of other installations, the
consents, each entry with its personal link, seats, games, results, fee and its payment,
confirmations of the player's seat, prize-giving lines naming the player, ratings, the players
recorded as another person, and every history row of the player, their entries, consents and
fees. The director reads it as a page and downloads it as JSON (``views.register``).

Plain data (dicts, lists, strings, numbers, times), as the bundles are: the page and the file
are written from the same dict. A fixed number of queries however many events the player
played. The file keeps the fields' names; the page (``readable``) heads each value with the
field's name in the reader's language and writes it as a person reads it.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Field, Model, Q
from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournament.core import formatting
from tournament.models import (
    Confirmation,
    Consent,
    DistinctPlayers,
    Entry,
    EntryFee,
    Hand,
    Player,
    PlayerAlias,
    Prize,
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


# --- the page: the same data for a person to read -------------------------------------------

# the headings of the data's own keys, and of those a model names in its own words for another
# purpose (a seat's ``round`` is the round's number here); any other key is headed by its
# model field's verbose name
WORDS = {
    "event": gettext_lazy("Event"),
    "event_date": gettext_lazy("Date"),
    "event_id": gettext_lazy("Event"),
    "team": gettext_lazy("Team of four"),
    "pair": gettext_lazy("Pair"),
    "personal_link": gettext_lazy("Personal link"),
    "round": gettext_lazy("Round"),
    "table": gettext_lazy("Table"),
    "seat": gettext_lazy("Seat"),
    "my_seat": gettext_lazy("Seat"),
    "points": gettext_lazy("Points"),
    "game": gettext_lazy("Game"),
    "kind": gettext_lazy("kind"),
    "data": gettext_lazy("the game as entered"),
    # a game's result for the player (``Result``): the figures the games sum
    "inflicted": gettext_lazy("Defeat points dealt out"),
    "matches_won": gettext_lazy("Matches won"),
    "games_lost": gettext_lazy("Games lost"),
    "counts": pgettext_lazy("result", "counts"),
    "rank": gettext_lazy("Rank"),
    "name": gettext_lazy("Name"),
    "club": gettext_lazy("Club"),
    "entry": gettext_lazy("entry"),
    "history_date": gettext_lazy("When"),
    "history_type": gettext_lazy("Change"),
    "history_change_reason": gettext_lazy("Reason"),
    "history_actor": gettext_lazy("Who"),
}
# a history row's kind (simple-history's "+", "~", "-") in the history page's words
CHANGES = {
    "+": gettext_lazy("entered"),
    "~": gettext_lazy("changed"),
    "-": gettext_lazy("deleted"),
}

Pairs = list[tuple[str, str]]


def readable(data: Mapping[str, Any]) -> dict[str, Any]:
    """``player_data`` for the page: every record as (heading, text) pairs in the reader's
    language, headed by its field's verbose name; yes and no, a choice's label, times and dates
    in the reader's way, money in euros. The file keeps the names and values as stored."""
    uid = data["player"]["uid"]
    return {
        "player": _pairs((Player,), data["player"]),
        "consents": [_pairs((Consent,), c) for c in data["consents"]],
        "other_identifiers": [
            _pairs((PlayerAlias,), dict(zip(("uid", "decided_by", "decided_at"), row, strict=True)))
            for row in data["other_identifiers"]
        ],
        "other_people": [
            _pairs(
                (DistinctPlayers, Player),
                {"uid": second if first == uid else first, "decided_by": by, "decided_at": at},
            )
            for first, second, by, at in data["other_people"]
        ],
        "entries": [_entry(entry) for entry in data["entries"]],
        "ratings": [_pairs((Rating,), r) for r in data["ratings"]],
        "history": [
            (capfirst(model._meta.verbose_name_plural), [_pairs((model,), r) for r in rows])
            for model, rows in (
                (Player, data["history"]["player"]),
                (Entry, data["history"]["entries"]),
                (Consent, data["history"]["consents"]),
                (EntryFee, data["history"]["fees"]),
            )
        ],
    }


def _entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    nested = ("seats", "games", "confirmations", "fee", "prizes")
    fee = entry["fee"]
    return {
        "heading": f"{entry['event']} · {_text(None, 'event_date', entry['event_date'])}",
        "rows": _pairs((Entry,), {k: v for k, v in entry.items() if k not in nested}),
        "seats": [_pairs((Seat,), seat) for seat in entry["seats"]],
        "games": [
            _pairs((Hand, Result), {**{k: v for k, v in g.items() if k != "my_result"}, **mine})
            for g in entry["games"]
            for mine in [g["my_result"] or {}]
        ],
        "confirmations": [_pairs((Confirmation,), c) for c in entry["confirmations"]],
        "fee": _pairs((EntryFee,), fee) if fee is not None else [],
        "prizes": [_pairs((Prize,), prize) for prize in entry["prizes"]],
    }


def _pairs(models: tuple[type[Model], ...], record: Mapping[str, Any]) -> Pairs:
    pairs = []
    for key, value in record.items():
        field = _field(models, key)
        if key in WORDS:
            heading = str(WORDS[key])
        elif field is not None:
            heading = str(capfirst(field.verbose_name))
        else:
            heading = key
        pairs.append((heading, _text(field, key, value)))
    return pairs


def _field(models: tuple[type[Model], ...], key: str) -> Field | None:
    for model in models:
        try:
            return model._meta.get_field(key)  # type: ignore[return-value]
        except FieldDoesNotExist:
            continue
    return None


def _text(field: Field | None, key: str, value: Any) -> str:
    """A value as a person reads it."""
    if value is None or value == "":
        return "—"
    if key == "history_type":
        return str(CHANGES.get(value, value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if key.endswith("_cents"):
        return formatting.euros(value)
    if isinstance(value, datetime.datetime):
        return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")
    if isinstance(value, datetime.date):
        return formats.date_format(value, "SHORT_DATE_FORMAT")
    if isinstance(value, float):
        return formats.number_format(value, 2)
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)
    return str(value)
