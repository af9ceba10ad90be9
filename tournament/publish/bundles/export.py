"""A bundle written: everything an event is (players and event with their stable identifiers,
rounds, tables, seats, games with who entered each when, confirmations, lots), in canonical JSON
with its checksum, gzip-compressed. Not the table links, the phones' reports, the event's address
for phones or the hall's form keys."""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
import re
from typing import IO, Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournament.core.audit import noted
from tournament.models import (
    Confirmation,
    Consent,
    Entry,
    Event,
    Hand,
    LotDraw,
    Result,
    Round,
    Seat,
    Table,
    Team,
)
from tournament.publish.bundles import FORMAT, SUFFIX, VERSION

# --- export -----------------------------------------------------------------------------------


def _when(value: datetime.datetime | None) -> str | None:
    return value.astimezone(datetime.UTC).isoformat() if value is not None else None


def _username(user: Any) -> str:
    return user.get_username() if user is not None else ""


EVENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "game",
    "rules",
    "table_policy",
    "target_table_size",
    "hands_per_round",
    "rounds_planned",
    "pairing",
    "status",
)
PLAYER_FIELDS = ("first_name", "last_name", "club", "town", "category")
CONSENT_FIELDS = ("lists", "town", "season_site", "by_guardian", "wording", "via")


def event_content(event: Event) -> dict[str, Any]:
    """Everything the event is, as plain data (the bundle's ``content``). Eleven queries
    whatever the size of the event, twelve when a game names no user here (``_enterers``)."""
    event = Event.objects.select_related("season").get(pk=event.pk)  # as stored, not as held
    season = event.season
    entries = list(Entry.objects.filter(event=event).select_related("player", "squad", "pair"))
    number_of = {e.pk: e.start_number for e in entries}
    # each player's consents as given (issue 46): the public pages of every installation the
    # event reaches show the player as far as they reach
    consents: dict[int, list[dict[str, Any]]] = {}
    for consent in Consent.objects.filter(event_players(event)).order_by("given_at", "pk"):
        consents.setdefault(consent.player_id, []).append(
            {
                "uid": str(consent.uid),
                **{n: getattr(consent, n) for n in CONSENT_FIELDS},
                "given_at": _when(consent.given_at),
            }
        )
    seats: dict[int, dict[int, int]] = {}
    sitting_out: dict[int, list[int]] = {}
    for round_id, table_id, position, entry_id in Seat.objects.filter(
        round__event=event
    ).values_list("round_id", "table_id", "position", "entry_id"):
        if table_id is None:
            sitting_out.setdefault(round_id, []).append(number_of[entry_id])
        else:
            seats.setdefault(table_id, {})[position] = number_of[entry_id]
    results: dict[int, dict[int, list[int]]] = {}
    for hand_id, position, *figures in Result.objects.filter(event=event).values_list(
        "hand_id", "position", "points", "inflicted", "matches_won", "games_lost"
    ):
        results.setdefault(hand_id, {})[position] = figures
    hands: dict[int, list[dict[str, Any]]] = {}
    stored = list(
        Hand.objects.filter(table__round__event=event)
        .select_related("entered_by")
        .order_by("table_id", "number")
    )
    enterers = _enterers([h.pk for h in stored if h.entered_by is None])
    for hand in stored:
        mine = results.get(hand.pk, {})
        hands.setdefault(hand.table_id, []).append(
            {
                "number": hand.number,
                "kind": hand.kind,
                "dealer": hand.dealer,
                "data": hand.data,
                "entered_by": _username(hand.entered_by) or enterers.get(hand.pk, ""),
                "entered_at": _when(hand.entered_at),
                "updated_at": _when(hand.updated_at),
                "version": hand.version,
                "results": [mine[p] for p in sorted(mine)],
            }
        )
    confirmations: dict[int, list[dict[str, Any]]] = {}
    for c in Confirmation.objects.filter(table__round__event=event).select_related("user"):
        confirmations.setdefault(c.table_id, []).append(
            {
                "position": c.position,
                "via": c.via,
                "user": _username(c.user),
                "device": c.device,
                "confirmed_at": _when(c.confirmed_at),
            }
        )
    tables: dict[int, list[dict[str, Any]]] = {}
    for table in Table.objects.filter(round__event=event).order_by("round_id", "number"):
        placed = seats.get(table.pk, {})
        tables.setdefault(table.round_id, []).append(
            {
                "number": table.number,
                "size": table.size,
                "voided": table.voided,
                "void_reason": table.void_reason,
                "submitted_at": _when(table.submitted_at),
                "confirmed_at": _when(table.confirmed_at),
                "seats": [placed.get(p) for p in range(max([table.size - 1, *placed]) + 1)],
                "hands": hands.get(table.pk, []),
                "confirmations": sorted(
                    confirmations.get(table.pk, []), key=lambda c: c["position"]
                ),
            }
        )
    return {
        "exported_at": _when(timezone.now()),
        "event": {
            "uid": str(event.uid),
            "date": event.date.isoformat(),
            **{name: getattr(event, name) for name in EVENT_FIELDS},
        },
        "season": (
            {
                "slug": season.slug,
                "name": season.name,
                "game": season.game,
                "best_of": season.best_of,
            }
            if season is not None
            else None
        ),
        "players": [
            {
                "uid": str(e.player.uid),
                **{n: getattr(e.player, n) for n in PLAYER_FIELDS},
                "consents": consents.get(e.player_id, []),
            }
            for e in entries
        ],
        "teams": sorted(
            ({"kind": t.kind, "name": t.name} for t in Team.objects.filter(event=event)),
            key=lambda t: (t["kind"], t["name"]),
        ),
        "entries": [
            {
                "start_number": e.start_number,
                "player": str(e.player.uid),
                "status": e.status,
                "late": e.late,
                "squad": e.squad.name if e.squad else None,
                "pair": e.pair.name if e.pair else None,
                "lot": e.lot,
                # the player's day (issue 29): registered online before the day on the
                # association's server, the event travels to the hall with its registrations,
                # the waiting list in order, the check-ins and the personal links
                "source": e.source,
                "registered_at": _when(e.registered_at),
                "present_at": _when(e.present_at),
                "token": e.token,
                # registered online under a known name: the hall's desk settles who it is
                "identity_pending": e.identity_pending,
            }
            for e in entries
        ],
        "rounds": [
            {
                "number": rnd.number,
                "status": rnd.status,
                "seed": rnd.seed,
                "repeat_meetings": rnd.repeat_meetings,
                "draw_basis": rnd.draw_basis,
                "sitting_out": sorted(sitting_out.get(rnd.pk, [])),
                "tables": tables.get(rnd.pk, []),
            }
            for rnd in Round.objects.filter(event=event).order_by("number")
        ],
        "lot_draws": event_content_lots(event),
    }


def event_players(event: Event) -> Q:
    """The rows of the players entered in ``event``, as a condition on ``player``."""
    return Q(player__in=Entry.objects.filter(event=event).values("player_id"))


ENTERED_BY = re.compile(r"; entered by (.+)$")


def _enterers(hand_ids: list[int]) -> dict[int, str]:
    """Who entered the games that name no user of this installation, from their history: the
    name an import brought along ("…; entered by NAME", the other installation's user), else
    who the history names for the game's entry (a table link and its phone). One query, none
    when every game names a user."""
    if not hand_ids:
        return {}
    found: dict[int, str] = {}
    for hand_id, kind, reason, actor in (
        Hand.history.filter(id__in=hand_ids)
        .order_by("history_date", "history_id")
        .values_list("id", "history_type", "history_change_reason", "history_actor")
    ):
        brought = ENTERED_BY.search(reason or "")
        if brought:
            found[hand_id] = brought[1]
        elif kind == "+" and actor:
            found[hand_id] = actor
    return found


def canonical(content: Any) -> bytes:
    """The one byte form of ``content`` the checksum is taken over: keys sorted, no spaces,
    UTF-8."""
    return json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def document(event: Event) -> dict[str, Any]:
    content = event_content(event)
    return {
        "format": FORMAT,
        "version": VERSION,
        "sha256": hashlib.sha256(canonical(content)).hexdigest(),
        "content": content,
    }


def write_bundle(event: Event, output: IO[bytes]) -> None:
    """Write the event's bundle (gzip-compressed JSON) to ``output``."""
    data = json.dumps(document(event), ensure_ascii=False, indent=1).encode("utf-8")
    with gzip.GzipFile(fileobj=output, mode="wb", mtime=0) as packed:
        packed.write(data)


def bundle_bytes(event: Event) -> bytes:
    buffer = io.BytesIO()
    write_bundle(event, buffer)
    return buffer.getvalue()


# the history's reason (in English like every reason, read in the reader's language through
# ``results.history.MACHINE_REASONS``)
FOR_THE_HALL = "event bundle exported for the hall: online registration closed"


def for_the_hall(event: Event, user: Any = None) -> bytes:
    """The event's bundle taken to the hall (issue 43): online registration here closes in the
    same transaction, so that no player registers here for an event that is played from the
    bundle, and the time is kept (``Event.sent_to_hall_at``): the bundle that comes back keeps
    the entries made here since (``plan.plan_import``). The event here is left as it was
    otherwise."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        event.registration_open = False
        event.sent_to_hall_at = timezone.now()
        noted(event, user, FOR_THE_HALL).save(
            update_fields=["registration_open", "sent_to_hall_at"]
        )
        return bundle_bytes(event)


def filename(event: Event) -> str:
    return f"{event.slug}{SUFFIX}"


def event_content_lots(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "entries": d.entries,
            "tie": d.tie,
            "tied": d.tied,
            "lapsed_at": _when(d.lapsed_at),
            "seed": d.seed,
            "drawn_by": _username(d.drawn_by),
            "drawn_at": _when(d.drawn_at),
        }
        for d in LotDraw.objects.filter(event=event).select_related("drawn_by").order_by("pk")
    ]
