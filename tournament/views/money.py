"""Prizes, entry fees and the cash book (issue 17): the organiser's pages, the prize-giving list
(public once the event is finished) and the printable cash report."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament import access
from tournament.access import ORGANISER
from tournament.core import errors
from tournament.core.fields import ReasonForm, whole_number
from tournament.models import CashItem, EntryFee, Event, FeeCategory, Prize, Round
from tournament.money import cashbook, fees, prizes
from tournament.money.forms import CashItemForm, FeeCategoryFormSet, PrizeFormSet, PrizeSettingsForm
from tournament.play import reads as play_reads
from tournament.views.common import event_or_404, protected, refused

# blank lines the prize table offers below the stored prizes (more after each save)
BLANK_PRIZES = 6
BLANK_FEES = 2


def _prize_initial(event: Event) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {
            "ranking": p.ranking,
            "place": p.place,
            "amount": p.amount_cents or "",
            "goods": p.goods,
            "sponsor": p.sponsor,
        }
        for p in Prize.objects.filter(event=event).order_by("ranking", "place")
    ]
    ranking_order = list(Prize.Ranking.values)
    rows.sort(key=lambda r: (ranking_order.index(r["ranking"]), r["place"]))
    overall = [r["place"] for r in rows if r["ranking"] == Prize.Ranking.OVERALL]
    start = max(overall, default=0) + 1
    rows += [{"ranking": Prize.Ranking.OVERALL, "place": start + i} for i in range(BLANK_PRIZES)]
    return rows


@protected
def prize_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's prize table: prizes per ranking and place, the rule, whether one player
    may take several prizes; below it who wins what as the standings stand."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    stored = prizes.settings_of(event)
    if request.method == "POST":
        formset = PrizeFormSet(request.POST, prefix="prize")
        settings_form = PrizeSettingsForm(request.POST, instance=stored)
        if formset.is_valid() and settings_form.is_valid():
            rows = [form.values() for form in formset if not form.cleaned_data.get("empty", True)]
            chosen = settings_form.cleaned_data
            try:
                prizes.save_prize_table(
                    event=event,
                    prizes=rows,
                    several=chosen["several"],
                    every=chosen["every"],
                    goods=chosen["goods"],
                    sponsor=chosen["sponsor"],
                    user=request.user,
                )
            except errors.Refused as exc:
                refused(request, exc)
            else:
                messages.success(request, _("Prize table saved."))
                return redirect("prize_table", slug=event.slug)
    else:
        formset = PrizeFormSet(initial=_prize_initial(event), prefix="prize")
        settings_form = PrizeSettingsForm(instance=stored)
    giving = prizes.prize_giving(event)
    return render(
        request,
        "tournament/money/prizes.html",
        {
            "event": event,
            "formset": formset,
            "settings_form": settings_form,
            "giving": giving,
            "reopen_form": ReasonForm(),
            "rounds_played": _rounds_played(event),
            "open_sheets": [] if giving.finished else play_reads.unconfirmed_tables(event),
        },
    )


@protected
@require_POST
def event_finish(request: HttpRequest, slug: str) -> HttpResponse:
    """Finish the event (every round closed) and store who got which prize, or take a finished
    event back with a reason and drop that assignment."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    try:
        if request.POST.get("action") == "reopen":
            form = ReasonForm(request.POST)
            if not form.is_valid():
                raise errors.Refused(_("Give a reason for reopening the event."))
            prizes.reopen_event(event=event, reason=form.cleaned_data["reason"], user=request.user)
            messages.success(request, _("The event is open again."))
        else:
            played = _rounds_played(event)
            if played < event.rounds_planned and not request.POST.get("fewer_rounds"):
                # a day cut short is the director's decision, never a slip of the finger: the
                # form asks for it in so many words
                raise errors.Refused(
                    ngettext(
                        "%(played)s of the %(planned)s planned rounds has been played. If the "
                        "event ends here, tick “End with fewer rounds” and finish "
                        "again.",
                        "%(played)s of the %(planned)s planned rounds have been played. If the "
                        "event ends here, tick “End with fewer rounds” and finish "
                        "again.",
                        played,
                    )
                    % {"played": played, "planned": event.rounds_planned}
                )
            prizes.finish_event(
                event=event,
                user=request.user,
                confirm_sheets=request.POST.get("confirm_sheets") == "1",
            )
            messages.success(request, _("The event is finished: the prizes are assigned."))
    except errors.Refused as exc:
        refused(request, exc)
    return redirect("prize_table", slug=event.slug)


def _rounds_played(event: Event) -> int:
    """The event's rounds that are closed: those that count when it is finished."""
    return event.rounds.filter(status=Round.Status.CLOSED).count()


def _giving_for(
    request: HttpRequest, event: Event, *, projector: bool = False
) -> prizes.PrizeGiving:
    """The prize-giving list is public once the event is finished; before that the organiser
    sees it as a preview. The organiser's own list names everybody; the public's, and the
    projector's for the whole hall, name the players as far as their consent reaches."""
    organiser = access.can_organise(request.user, event)
    if event.status != Event.Status.FINISHED and not organiser:
        access.require(request, event, ORGANISER)
    return prizes.prize_giving(event, public=projector or not organiser)


@protected
def prize_giving(request: HttpRequest, slug: str) -> HttpResponse:
    """The prize-giving list in the order the prizes are handed out, last prize first; on the
    screen, on the projector (``?beamer=1``: big type) or on paper (``print_prize_giving``)."""
    event = event_or_404(slug)
    projector = request.GET.get("beamer") == "1"
    giving = _giving_for(request, event, projector=projector)
    template = (
        "tournament/money/prize_giving_projector.html"
        if projector
        else "tournament/money/prize_giving.html"
    )
    return render(request, template, {"event": event, "giving": giving})


@protected
def print_prize_giving(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    giving = _giving_for(request, event)
    return render(
        request, "tournament/money/print_prize_giving.html", {"event": event, "giving": giving}
    )


# --- entry fees ---------------------------------------------------------------------------------


@protected
def fee_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every entry with its fee and one button per status (the desk's one tap), or with
    ``?offen=1`` only those who have not paid."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    rows = fees.fee_rows(event)
    unpaid_only = request.GET.get("offen") == "1"
    return render(
        request,
        "tournament/money/fees.html",
        {
            "event": event,
            "rows": [r for r in rows if r.unpaid] if unpaid_only else rows,
            "unpaid_only": unpaid_only,
            "categories": list(FeeCategory.objects.filter(event=event)),
            "statuses": EntryFee.Status.choices,
            "totals": fees.fee_totals(rows),
        },
    )


@protected
@require_POST
def fee_set(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One tap at the desk: an entry's fee status, or its fee category."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    entry = get_object_or_404(event.entries.select_related("player"), pk=pk)
    status = request.POST.get("status") or None
    category = None
    if "category" in request.POST:
        category = FeeCategory.objects.filter(
            event=event, pk=whole_number(request.POST["category"])
        ).first()
        if category is None:
            messages.error(request, _("Choose one of the event's fees."))
            return _back_to_fees(request, event, pk)
    if status is None and category is None:
        messages.error(request, _("Choose a fee status."))
        return _back_to_fees(request, event, pk)
    try:
        fee = fees.set_entry_fee(entry=entry, status=status, category=category, user=request.user)
    except errors.Refused as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            _("%(player)s: %(status)s.")
            % {"player": entry.player, "status": fee.get_status_display()},
        )
    return _back_to_fees(request, event, pk)


def _back_to_fees(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    url = reverse("fee_list", args=[event.slug])
    if request.POST.get("offen") == "1":
        url += "?offen=1"
    return redirect(f"{url}#entry-{pk}")


@protected
def fee_categories(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's fees: name, amount and for whom it is the default."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    stored = list(FeeCategory.objects.filter(event=event))
    if request.method == "POST":
        formset = FeeCategoryFormSet(request.POST, prefix="fee")
        if formset.is_valid():
            rows = [
                {
                    "pk": form.cleaned_data.get("pk"),
                    "name": form.cleaned_data["name"],
                    "amount_cents": form.cleaned_data["amount"],
                    "player_category": form.cleaned_data.get("player_category", ""),
                }
                for form in formset
                if form.cleaned_data.get("name")
            ]
            try:
                fees.save_fee_categories(event=event, categories=rows, user=request.user)
            except errors.Refused as exc:
                refused(request, exc)
            else:
                messages.success(request, _("Fees saved."))
                return redirect("fee_list", slug=event.slug)
    else:
        initial: list[dict[str, Any]] = [
            {
                "pk": c.pk,
                "name": c.name,
                "amount": c.amount_cents,
                "player_category": c.player_category,
            }
            for c in stored
        ]
        if not stored:  # what most events charge, for the organiser to fill in the amounts
            initial = [
                {"name": _("Full fee")},
                {"name": _("Members (reduced)")},
                {"name": _("Juniors (free)"), "amount": 0, "player_category": "jugend"},
            ]
        initial += [{} for _i in range(BLANK_FEES)]
        formset = FeeCategoryFormSet(initial=initial, prefix="fee")
    return render(
        request, "tournament/money/fee_categories.html", {"event": event, "formset": formset}
    )


# --- the cash book ------------------------------------------------------------------------------


@protected
def cash_book(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    form = CashItemForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            cashbook.add_cash_item(
                event=event,
                description=form.cleaned_data["description"],
                direction=form.cleaned_data["direction"],
                via=form.cleaned_data["via"],
                amount_cents=form.cleaned_data["amount"],
                user=request.user,
            )
        except errors.Refused as exc:
            refused(request, exc)
        else:
            messages.success(request, _("Item added to the cash book."))
            return redirect("cash_book", slug=event.slug)
    return render(
        request,
        "tournament/money/cash_book.html",
        {"event": event, "form": form, "book": cashbook.cash_book(event)},
    )


@protected
@require_POST
def cash_item_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    item = get_object_or_404(CashItem, event=event, pk=pk)
    cashbook.remove_cash_item(item=item, user=request.user)
    messages.success(request, _("“%(item)s” removed from the cash book.") % {"item": item})
    return redirect("cash_book", slug=event.slug)


@protected
def print_cash_report(request: HttpRequest, slug: str) -> HttpResponse:
    """The cash report on paper, to be counted against the box and signed."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    return render(
        request,
        "tournament/money/print_cash_report.html",
        {"event": event, "book": cashbook.cash_book(event)},
    )
