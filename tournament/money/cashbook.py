"""The cash book of an event: fees, prizes and other items, box and bank, in whole cents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournament.core.audit import noted as _noted
from tournament.core.errors import Refused
from tournament.models import CashItem, EntryFee, Event
from tournament.money.fees import MONEY_MAX, fee_rows
from tournament.money.prizes import PrizeGiving, prize_giving

# --- the cash book ------------------------------------------------------------------------------


@dataclass
class CashLine:
    label: str
    box_cents: int = 0  # signed: income positive, expense negative
    bank_cents: int = 0
    note: str = ""
    item: CashItem | None = None

    @property
    def total_cents(self) -> int:
        return self.box_cents + self.bank_cents


@dataclass
class CashBook:
    income: list[CashLine]
    expenses: list[CashLine]
    open_fees: int  # entries that have not paid
    open_cents: int
    provisional: bool  # prize money from provisional standings

    @property
    def box_cents(self) -> int:
        return sum(line.box_cents for line in [*self.income, *self.expenses])

    @property
    def bank_cents(self) -> int:
        return sum(line.bank_cents for line in [*self.income, *self.expenses])

    @property
    def income_total(self) -> CashLine:
        return _summed(pgettext("cash book", "Total income"), self.income)

    @property
    def expenses_total(self) -> CashLine:
        return _summed(pgettext("cash book", "Total expenses"), self.expenses)

    @property
    def balance(self) -> CashLine:
        return _summed(pgettext("cash book", "Balance"), [*self.income, *self.expenses])


def _summed(label: str, lines: Sequence[CashLine]) -> CashLine:
    return CashLine(
        label,
        box_cents=sum(line.box_cents for line in lines),
        bank_cents=sum(line.bank_cents for line in lines),
    )


def cash_book(event: Event, giving: PrizeGiving | None = None) -> CashBook:
    """The event's money: fees (cash in the box, paid ahead in the bank), prize money (paid out
    of the box at the prize-giving) and the organiser's items."""
    rows = fee_rows(event)
    # a fee paid at 0 € moved no money: not a payment in the box or the bank
    cash = [r for r in rows if r.received == EntryFee.Status.CASH]
    ahead = [r for r in rows if r.received == EntryFee.Status.AHEAD]
    income = [
        CashLine(
            pgettext("cash book", "Entry fees paid in cash"),
            box_cents=sum(r.paid_cents for r in cash),
            note=ngettext("%(n)s player", "%(n)s players", len(cash)) % {"n": len(cash)},
        ),
        CashLine(
            pgettext("cash book", "Entry fees paid ahead"),
            bank_cents=sum(r.paid_cents for r in ahead),
            note=ngettext("%(n)s player", "%(n)s players", len(ahead)) % {"n": len(ahead)},
        ),
    ]
    giving = giving or prize_giving(event)
    awarded = [a for a in giving.awards if a.winners and a.prize.amount_cents]
    expenses = [
        CashLine(
            pgettext("cash book", "Prize money"),
            box_cents=-giving.money_cents,
            note=_("%(n)s prizes") % {"n": len(awarded)},
        )
    ]
    for item in CashItem.objects.filter(event=event):
        sign = 1 if item.direction == CashItem.Direction.IN else -1
        line = CashLine(item.description, item=item)
        if item.via == CashItem.Via.BOX:
            line.box_cents = sign * item.amount_cents
        else:
            line.bank_cents = sign * item.amount_cents
        (income if sign > 0 else expenses).append(line)
    unpaid = [r for r in rows if r.unpaid]
    return CashBook(
        income=income,
        expenses=expenses,
        open_fees=len(unpaid),
        open_cents=sum(r.due_cents for r in unpaid),
        provisional=not giving.finished,
    )


@transaction.atomic
def add_cash_item(
    *, event: Event, description: str, direction: str, via: str, amount_cents: int, user: Any = None
) -> CashItem:
    if not 0 < amount_cents <= MONEY_MAX:
        raise Refused(_("Give an amount above zero."))
    item = CashItem(
        event=event,
        description=description.strip(),
        direction=direction,
        via=via,
        amount_cents=amount_cents,
    )
    item.full_clean()
    _noted(item, user, "").save()
    return item


@transaction.atomic
def remove_cash_item(*, item: CashItem, user: Any = None) -> None:
    _noted(item, user, "").delete()
