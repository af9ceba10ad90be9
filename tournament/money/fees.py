"""Entry fees of an event: fee categories, who has paid what, in whole cents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import noted as _noted
from tournament.core.errors import Refused
from tournament.models import Consent, Entry, EntryFee, Event, FeeCategory, Player, Round, Seat
from tournament.money.lock import lock_event
from tournament.register import services

MONEY_MAX = 100_000_000  # one million euros, in cents: more is a typing error
PAID = (EntryFee.Status.CASH, EntryFee.Status.AHEAD)


# --- entry fees ---------------------------------------------------------------------------------


@dataclass
class FeeRow:
    entry: Entry
    category: FeeCategory | None
    status: str
    paid_cents: int
    # whether the entry takes part: active, or withdrawn after playing a round. A player who
    # cancelled, was removed as not come or waits on the waiting list owes no fee (issue 43.9);
    # one who comes after all is checked in and pays then (``payable_cents``).
    plays: bool = True

    @property
    def payable_cents(self) -> int:
        """The category's amount while the fee is open: what the desk takes when the player
        checks in (the check-in's buttons), whether or not the player owes it now."""
        if self.status != EntryFee.Status.OPEN or self.category is None:
            return 0
        return self.category.amount_cents

    @property
    def due_cents(self) -> int:
        """What the entry still owes: the open fee of a player who takes part."""
        return self.payable_cents if self.plays else 0

    @property
    def received(self) -> str | None:
        """Where money came in for this fee: "cash" (the box) or "ahead" (the bank), or None.
        A fee paid at 0 € (a free category) moved no money: it is counted as free, never among
        the payments; the fee list's summary and the cash book both ask this."""
        return self.status if self.status in PAID and self.paid_cents > 0 else None

    @property
    def free(self) -> bool:
        """A fee of nothing: marked paid at 0 €, or open on a free category (juniors)."""
        if self.status in PAID:
            return self.paid_cents == 0
        return self.nothing_due and self.plays and self.category is not None

    @property
    def unpaid(self) -> bool:
        """Owes money: the one test the fee list's marks, its "not paid" filter, its summary and
        the cash book all use, so the rows marked unpaid are the ones counted."""
        return self.due_cents > 0

    @property
    def nothing_due(self) -> bool:
        """Open, but owes nothing (no fee set yet, a free one such as juniors', or a player who
        does not take part): the director must not read it as "not paid"."""
        return self.status == EntryFee.Status.OPEN and not self.unpaid

    @property
    def state(self) -> str:
        """The status the fee list marks (row colour, pressed button): the stored status, except
        that an open fee of nothing is marked as no status at all."""
        return "nothing-due" if self.nothing_due else self.status


def default_category(categories: Sequence[FeeCategory], player: Player) -> FeeCategory | None:
    """The fee a player pays unless the organiser picks another: the category meant for the
    player's category (juniors: free), else the first general one."""
    for category in categories:
        if category.player_category and category.player_category == player.category:
            return category
    general = [c for c in categories if not c.player_category]
    return (general or list(categories) or [None])[0]


def fee_rows(event: Event) -> list[FeeRow]:
    """Every entry with its fee, in start-number order, and whether it takes part. Two
    queries."""
    categories = list(FeeCategory.objects.filter(event=event))
    by_pk = {c.pk: c for c in categories}
    played = Seat.objects.filter(
        entry=OuterRef("pk"),
        table__isnull=False,
        round__status__in=[Round.Status.PLAYING, Round.Status.CLOSED],
    )
    entries = event.entries.select_related("player", "fee").annotate(played=Exists(played))
    rows = []
    for entry in entries.order_by("start_number"):
        fee = getattr(entry, "fee", None)
        plays = entry.status == Entry.Status.ACTIVE or entry.played
        if fee is None:
            category = default_category(categories, entry.player)
            rows.append(FeeRow(entry, category, EntryFee.Status.OPEN, 0, plays))
        else:
            category = by_pk.get(fee.category_id) if fee.category_id else None
            rows.append(FeeRow(entry, category, fee.status, fee.paid_cents, plays))
    return rows


@transaction.atomic
def register_entry(
    *,
    event: Event,
    player: Player,
    team: str = "",
    fee_status: str = "",
    consent: Consent | None = None,
    user: Any = None,
) -> Entry:
    """Register a player and take the fee at the desk in one go (one transaction: a fee that
    cannot be set leaves the player unregistered, with the reason), with the consent the player
    gave the desk (None: none recorded)."""
    # on the day, once the desk checks players in, a player registered at the desk is there
    present = {"present_at": timezone.now()} if services.checkin_begun(event) else {}
    entry = services.register_players(
        event=event, players=[player], team=team, user=user, fields=present
    )[0]
    services.record_entry_consent(
        entry=entry, consent=consent, user=user, reason="consent given at the desk"
    )
    if fee_status and fee_status != EntryFee.Status.OPEN:
        set_entry_fee(entry=entry, status=fee_status, user=user)
    return entry


def fee_totals(rows: Sequence[FeeRow]) -> dict[str, int]:
    """Cents per fee status (paid cash, paid ahead; still open), and the counts; a fee of 0 €
    counts as free, not as a payment, and an open fee of a player who does not take part as
    nothing to pay."""
    totals = {"cash": 0, "ahead": 0, "open": 0, "cash_count": 0, "ahead_count": 0}
    totals["waived_count"] = totals["open_count"] = totals["free_count"] = 0
    totals["not_playing_count"] = 0
    for row in rows:
        if row.received:
            totals[row.received] += row.paid_cents
            totals[f"{row.received}_count"] += 1
        elif row.free:
            totals["free_count"] += 1
        elif row.status == EntryFee.Status.WAIVED:
            totals["waived_count"] += 1
        elif row.unpaid:
            totals["open"] += row.due_cents
            totals["open_count"] += 1
        elif not row.plays:
            totals["not_playing_count"] += 1
    return totals


@transaction.atomic
def set_entry_fee(
    *,
    entry: Entry,
    status: str | None = None,
    category: FeeCategory | None = None,
    user: Any = None,
) -> EntryFee:
    """Set an entry's fee status (one tap at the desk) and/or its category. A fee that becomes
    paid (cash or ahead) takes the category's amount as it is now and keeps it: a second tap on
    "paid", after the category's amount changed, leaves the amount paid and writes nothing.
    Waived and open take nothing."""
    if status is not None and status not in EntryFee.Status.values:
        raise Refused(_("Unknown fee status."))
    if category is not None and category.event_id != entry.event_id:
        raise Refused(_("This fee belongs to another event."))
    # the entry's row is the lock: two taps on a row without a fee yet create one fee
    Entry.objects.select_for_update().filter(pk=entry.pk).first()
    fee = EntryFee.objects.select_for_update().filter(entry=entry).first()
    if fee is None:
        categories = list(FeeCategory.objects.filter(event_id=entry.event_id))
        fee = EntryFee(entry=entry, category=default_category(categories, entry.player))
    before = (fee.status, fee.category_id, fee.paid_cents)
    was_paid = fee.pk is not None and fee.status in PAID
    if category is not None:
        if fee.status in PAID and status is None:
            raise Refused(
                _("%(player)s has paid already: set the fee to “not paid” before changing it.")
                % {"player": entry.player}
            )
        fee.category = category
    if status is not None:
        fee.status = status
    paid = fee.status in PAID
    if paid and fee.category is None:
        raise Refused(_("Set up the event's fees first."))
    if not paid:
        fee.paid_cents = 0
    elif not was_paid or fee.category_id != before[1]:
        # the money changes hands now: at the fee's amount of this moment
        fee.paid_cents = fee.category.amount_cents
    if fee.pk is not None and (fee.status, fee.category_id, fee.paid_cents) == before:
        return fee  # the same button again: no change, no history row
    _noted(fee, user, "").save()
    return fee


@transaction.atomic
def save_fee_categories(
    *, event: Event, categories: Sequence[dict[str, Any]], user: Any = None
) -> list[FeeCategory]:
    """Replace the event's fee categories (dicts with pk or None, name, amount_cents,
    player_category); one that entries already use cannot be removed."""
    names = [c["name"].strip() for c in categories]
    if len({n.casefold() for n in names}) != len(names):
        raise Refused(_("Give each fee a name of its own."))
    lock_event(event)
    stored = {c.pk: c for c in FeeCategory.objects.select_for_update().filter(event=event)}
    kept = []
    for position, values in enumerate(categories):
        category = stored.pop(values.get("pk"), None) or FeeCategory(event=event)
        category.name = values["name"].strip()
        category.amount_cents = values["amount_cents"]
        category.player_category = values.get("player_category", "")
        category.position = position
        kept.append(category)
    for category in stored.values():
        if category.fees.exists():
            raise Refused(
                _("“%(name)s” is the fee of registered players; change their fee first.")
                % {"name": category.name}
            )
        _noted(category, user, "").delete()
    # names may be swapped between rows: free them before saving (a unique constraint)
    for category in kept:
        if category.pk:
            FeeCategory.objects.filter(pk=category.pk).update(name=f"~{category.pk}~")
    for category in kept:
        _noted(category, user, "").save()
    return kept
