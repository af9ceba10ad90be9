"""The check-in desk's tap with the fee in it (issue 29): the player marked present and the entry
fee taken (paid cash, waived) in one transaction, so a fee that cannot be set leaves the player
not checked in, with the reason. The check-in itself is ``register.checkin``."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournament.models import Consent, Entry, EntryFee, Event, Player
from tournament.money.fees import set_entry_fee
from tournament.register import checkin, services

# what the desk's tap may do with the fee: leave it, take it in cash, waive it
DESK_FEES = ("", EntryFee.Status.CASH, EntryFee.Status.WAIVED)


def _fee(entry: Entry, fee_status: str, user: Any) -> None:
    if not fee_status:
        return
    current = EntryFee.objects.filter(entry=entry).values_list("status", flat=True).first()
    if current == fee_status or (
        current in (EntryFee.Status.CASH, EntryFee.Status.AHEAD)
        and fee_status == EntryFee.Status.CASH
    ):
        return  # paid already (at the other desk, or ahead): the amount stays as it was paid
    set_entry_fee(entry=entry, status=fee_status, user=user)


@transaction.atomic
def check_in(
    *,
    entry: Entry,
    fee_status: str = "",
    user: Any = None,
    reinstate: bool = False,
    known: str | None = None,
) -> tuple[Entry, bool]:
    """Present (``reinstate``: a withdrawn player back in the event too; ``known``: who a player
    registered online under a known name is), and the fee as the desk says;
    ``checkin.check_in`` says whether this tap did it."""
    entry, done = checkin.check_in(entry=entry, user=user, reinstate=reinstate, known=known)
    _fee(entry, fee_status, user)
    return entry, done


@transaction.atomic
def walk_in(
    *,
    event: Event,
    player: Player,
    fee_status: str = "",
    consent: Consent | None = None,
    user: Any = None,
) -> Entry:
    """A walk-in registered, present and (if the desk says so) paid, with the consent given at
    the desk (None: none recorded), in one write."""
    entry = checkin.walk_in(event=event, player=player, user=user)
    services.record_entry_consent(
        entry=entry, consent=consent, user=user, reason="consent given at the desk"
    )
    _fee(entry, fee_status, user)
    return entry
