"""Table sheets: the games of a table, entering and correcting them (scorers)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament import access
from tournament.access import SCORER
from tournament.core import addresses
from tournament.core import errors as core_errors
from tournament.core.fields import ReasonForm, whole_number
from tournament.games.base import GameType
from tournament.games.words import describe_hand
from tournament.models import Hand, Table
from tournament.pagecache.pages import Page
from tournament.play import confirmations, hands
from tournament.play.forms import TotalsForm, card_counter_class, hand_form_class
from tournament.play.sheets import confirmation_state, read_sheet
from tournament.results import history
from tournament.views.common import (
    enter_hand,
    event_or_404,
    protected,
    refused,
    table_or_404,
    table_players,
)


def sheet_context(table: Table, *, public: bool = False) -> dict[str, Any]:
    """The paper sheet on screen: a row per hand with each seat's result and running totals;
    for a sheet handed in and not yet confirmed, who has confirmed it and who has not.
    ``public``: the players named as far as their consent reaches (``play.sheets.seat_name``)."""
    context = read_sheet(table, public=public).context()
    if table.submitted_at and not table.confirmed_at:
        context.update(confirmation_state(table, context["players"]))
    return context


@protected
def table_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The table sheet, public; a scorer also gets the form for the next game and the actions."""
    table = table_or_404(pk)
    event = table.round.event
    may_score = access.can_score(request.user, event)
    if request.method == "POST" and not may_score:
        access.require(request, event, SCORER)  # login, or 403
    if not may_score:
        return _public_sheet(request, table)
    form_context: dict[str, Any] = {}
    response = enter_hand(request, table, table_players(table), form_context)
    if response is not None:
        return response
    context = {**sheet_context(table), **form_context}
    context["may_score"] = may_score
    context["may_organise"] = access.can_organise(request.user, event)
    game = event.game_type
    context["counter"] = card_counter(game)
    context["totals_form"] = None
    if context["totals_entered"]:
        # the totals are corrected where they were entered, with a reason (issue 43.9)
        stored = context["rows"][0].hand
        initial = {f"total_{i}": v for i, v in enumerate(stored.data.get("totals", []))}
        context["totals_form"] = TotalsForm(
            table=table, players=context["players"], initial=initial
        )
        context["totals_hand"] = stored
    elif not context["rows"] and not game.totals_refused:
        context["totals_form"] = TotalsForm(table=table, players=context["players"])
    context["link_url"] = (
        addresses.public_url(request, event, table.get_link_url()) if may_score else None
    )
    return render(request, "tournament/table.html", context)


def _public_sheet(request: HttpRequest, table: Table) -> HttpResponse:
    """The sheet as the players' phones and everybody without a role see it: computed once per
    version of the event (tournament.pagecache)."""
    event = table.round.event
    page = Page(request, "table", event.pk, event.version, table.pk)
    game = event.game_type

    def context() -> dict[str, Any]:
        return {
            **sheet_context(table, public=True),
            "may_score": False,
            "may_organise": False,
            "counter": card_counter(game),
        }

    def build() -> HttpResponse:
        body = page.body("tournament/cached/table.html", context)
        return render(
            request,
            "tournament/table.html",
            {"event": event, "round": table.round, "table": table, "body": body},
        )

    return page.serve(build)


@protected
@require_POST
def table_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """A scorer hands in the sheet for the players to confirm, confirms one player's seat on the
    player's word, confirms it for all players, or reopens a handed-in sheet (reason)."""
    table = table_or_404(pk)
    access.require(request, table.round.event, SCORER)
    try:
        if request.POST.get("action") == "reopen":
            form = ReasonForm(request.POST)
            if not form.is_valid():
                raise core_errors.Refused(" ".join(form.errors["reason"]))
            confirmations.reopen_table(
                table=table, reason=form.cleaned_data["reason"], user=request.user
            )
            messages.success(request, _("The sheet is open again; the players confirm anew."))
        elif request.POST.get("action") == "submit":
            confirmations.submit_table(table=table, user=request.user)
            messages.success(
                request, _("Sheet handed in. The players now confirm it on their personal links.")
            )
        elif request.POST.get("action") == "seat":
            position = whole_number(request.POST.get("position"))
            if position is None:
                raise core_errors.Refused(_("Choose the player whose seat you confirm."))
            confirmations.confirm_on_word(table=table, position=position, user=request.user)
            messages.success(
                request,
                _("%(player)s confirmed on their word; the history names you.")
                % {"player": table_players(table)[position]},
            )
        else:
            confirmations.confirm_table(table=table, user=request.user)
            messages.success(request, _("The sheet is confirmed."))
    except core_errors.Refused as exc:
        refused(request, exc)
    return redirect(table)


@protected
@require_POST
def table_totals(request: HttpRequest, pk: int) -> HttpResponse:
    """The paper fallback's totals of a table (the sheet's totals form): entered on an empty
    sheet, or corrected with a reason once entered, kept in the history like a corrected game."""
    table = table_or_404(pk)
    access.require(request, table.round.event, SCORER)
    form = TotalsForm(request.POST, table=table, players=table_players(table))
    stored = table.hands.filter(kind=Hand.Kind.TOTALS).first()
    if form.is_valid():
        try:
            if stored is None:
                hands.record_totals(table=table, totals=form.totals, user=request.user)
                messages.success(request, _("Totals saved."))
            else:
                reason = ReasonForm(request.POST)
                if not reason.is_valid():
                    said = request.POST.get("reason", "").strip()
                    raise core_errors.Refused(
                        f"{_('Reason')}: {' '.join(reason.errors['reason'])}"
                        if said
                        else _("Give a reason for the change; the totals were not changed.")
                    )
                hands.edit_hand(
                    hand=stored,
                    data={"totals": form.totals},
                    reason=reason.cleaned_data["reason"],
                    user=request.user,
                    version=whole_number(request.POST.get("version", "")),
                )
                messages.success(request, _("Totals changed."))
        except core_errors.Refused as exc:
            refused(request, exc)
    else:
        for error in form.non_field_errors():
            messages.error(request, error)
        for name, errors in form.errors.items():
            if name != "__all__":
                messages.error(request, f"{form.fields[name].label}: {' '.join(errors)}")
    return redirect(table)


@protected
def hand_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct or delete hand ``number`` of table ``pk`` (a reason is kept in the history)."""
    hand = get_object_or_404(
        Hand.objects.select_related("table__round__event"), table_id=pk, number=number
    )
    table = hand.table
    event = table.round.event
    access.require(request, event, SCORER)
    players = table_players(table)
    if hand.kind == Hand.Kind.TOTALS:
        # totals are corrected in the sheet's totals form, where they were entered
        return redirect(f"{table.get_absolute_url()}#totals")
    form_class = hand_form_class(event.game_type)
    reason_form = ReasonForm(request.POST or None)
    if request.method == "POST":
        form = form_class(request.POST, table=table, players=players, number=hand.number)
        if request.POST.get("action") == "delete":
            if reason_form.is_valid():
                try:
                    hands.delete_hand(
                        hand=hand, reason=reason_form.cleaned_data["reason"], user=request.user
                    )
                except core_errors.Refused as exc:
                    refused(request, exc)
                else:
                    messages.success(request, _("Game %(n)s deleted.") % {"n": hand.number})
                    return redirect(table)
        elif form.is_valid() and reason_form.is_valid():
            version = request.POST.get("version", "")
            try:
                hands.edit_hand(
                    hand=hand,
                    data=form.hand,
                    reason=reason_form.cleaned_data["reason"],
                    user=request.user,
                    version=whole_number(version),
                )
            except hands.StaleEdit as exc:
                # show what the game is now, with the form set to it, so nothing is overwritten
                # blindly: the scorer makes the change again on top of the current state
                hand = exc.current
                messages.error(
                    request,
                    f"{exc} "
                    + _("Now: %(game)s") % {"game": describe_hand(event.game, hand.data, players)},
                )
                form = form_class(
                    table=table,
                    players=players,
                    number=hand.number,
                    initial=form_class.initial_from(hand.data),
                )
            except core_errors.Refused as exc:
                refused(request, exc)
            else:
                messages.success(request, _("Game %(n)s changed.") % {"n": hand.number})
                return redirect(table)
    else:
        form = form_class(
            table=table,
            players=players,
            number=hand.number,
            initial=form_class.initial_from(hand.data),
        )
    return render(
        request,
        "tournament/hand_edit.html",
        {
            "event": event,
            "round": table.round,
            "table": table,
            "hand": hand,
            "form": form,
            "reason_form": reason_form,
            "changes": history.for_hand(event, hand),
            "players": players,
        },
    )


@protected
@require_POST
def hand_preview(request: HttpRequest, pk: int) -> JsonResponse:
    """Live preview for the hand form: the engine's results, or its reason for refusing."""
    table = table_or_404(pk)
    access.require(request, table.round.event, SCORER)
    form_class = hand_form_class(table.round.event.game_type)
    number = request.POST.get("number")
    form = form_class(
        request.POST,
        table=table,
        players=table_players(table),
        number=whole_number(number),
    )
    if form.is_valid():
        return JsonResponse({"ok": True, "results": form.result})
    errors = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
    return JsonResponse({"ok": False, "errors": errors})


HISTORY_PAGE = 50  # changes per page of a history


def _history_page(request: HttpRequest, changes: list[history.Change]) -> Any:
    return Paginator(changes, HISTORY_PAGE).get_page(request.GET.get("page"))


@protected
@require_GET
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    event = table.round.event
    access.require(request, event, SCORER)
    changes = history.for_tables(event, Table.objects.filter(pk=table.pk))
    return render(
        request,
        "tournament/history.html",
        {
            "event": event,
            "round": table.round,
            "table": table,
            "page": _history_page(request, changes),
        },
    )


@protected
@require_GET
def event_history(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, SCORER)
    return render(
        request,
        "tournament/history.html",
        {"event": event, "page": _history_page(request, history.for_event(event))},
    )


def card_counter(game: GameType) -> forms.Form | None:
    """The card counter form on the scorer's sheet, where the game has one."""
    counter = card_counter_class(game)
    return counter(prefix="cc") if counter else None
