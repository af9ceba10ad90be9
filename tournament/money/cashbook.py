"""Prizes, entry fees and the cash book of an event (issue 17, parts 1 to 3).

Money is whole cents everywhere (``int``, never a float), shown with ``formatting.euros``.

**Prizes.** The organiser lists prizes per ranking and place (``Prize``) and may add a rule
(``PrizeSettings.every``: goods for every n-th player, i.e. the better 1/n of the field). The
assignment is computed from the standings, as the standings are from the hands, so a late
correction reaches it; it is handed out once the event is finished. How it decides:

- Only active entries win prizes; a withdrawn player keeps his place in the standings, but the
  prize for that place passes to the next active player.
- The standings already order players tied on a place by the recorded lot (``Entry.lot``). Where
  players still share a rank and the order among them changes who gets which prize, the list
  names the tie and the organiser draws lots (``services.decide_by_lot``).
- One player, one prize (unless ``PrizeSettings.several``): a player in line for two keeps the
  better one (more money; then goods over nothing; then the overall ranking over a side ranking;
  then the higher place) and the other passes to the next in its ranking. This is the
  stable assignment in which prizes are offered down their rankings and a player keeps the best
  offer (Gale and Shapley), so it does not depend on the order the prizes are processed.
- The last place's prize is the traditional consolation prize (FIELD.md): it goes to the last
  place in addition to anything else, shared by a tie on the last place (``mark_last_place``).
- A team prize goes to a team of four (``standings.team_standings``) and takes nothing from its
  members' own prizes.

**Fees** have a category per entry (the default follows the player's category, e.g. juniors free)
and a status set with one tap. **The cash book** counts fees paid in cash in the cash box and
fees paid ahead in the bank account; prize money is paid out of the box at the prize-giving;
the organiser's own items name where they were paid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.core.audit import noted as _noted
from tournament.core.errors import Refused
from tournament.models import (
    CashItem,
    EntryFee,
    Event,
)
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
    cash = [r for r in rows if r.status == EntryFee.Status.CASH]
    ahead = [r for r in rows if r.status == EntryFee.Status.AHEAD]
    income = [
        CashLine(
            pgettext("cash book", "Entry fees paid in cash"),
            box_cents=sum(r.paid_cents for r in cash),
            note=_("%(n)s players") % {"n": len(cash)},
        ),
        CashLine(
            pgettext("cash book", "Entry fees paid ahead"),
            bank_cents=sum(r.paid_cents for r in ahead),
            note=_("%(n)s players") % {"n": len(ahead)},
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
