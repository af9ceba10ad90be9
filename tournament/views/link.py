"""The table link: the players' own page for their table, opened from the sheet's QR code.

It needs no login; the unguessable token is the permission. It enters and confirms that table's
games while the round is played, and does nothing else (``access.link_may_enter``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access, services
from ..forms import HAND_FORMS, ReasonForm, whole_number
from ..models import Hand, Table
from .common import refused, table_players
from .sheets import _sheet, enter_hand


def _link_table(request: HttpRequest, token: str) -> Table:
    """The table of a link; the request remembers it, so the history names the table link."""
    table = (
        Table.objects.select_related("round__event").filter(token=token).first()
        if 16 <= len(token) <= 64
        else None
    )
    if table is None:
        raise Http404
    request.table_link = table
    return table


def table_link(request: HttpRequest, token: str) -> HttpResponse:
    table = _link_table(request, token)
    may_enter = access.link_may_enter(table)
    if request.method == "POST" and not may_enter:
        messages.error(request, _("This table cannot enter games now."))
        return redirect(request.path)
    form_context: dict[str, Any] = {}
    if may_enter:
        # a saved game answers with a redirect at once: the sheet is built only to be shown
        response = enter_hand(request, table, table_players(table), form_context)
        if response is not None:
            return response
    context = {**_sheet(table), **form_context}
    context["may_enter"] = may_enter
    context["may_confirm"] = access.link_may_confirm(table)
    confirmed = set(table.confirmations.values_list("position", flat=True))
    context["confirmed"] = confirmed
    context["seat_rows"] = [
        {"position": i, "name": name, "confirmed": i in confirmed}
        for i, name in enumerate(context["players"])
    ]
    context["undo_form"] = ReasonForm()
    return render(request, "tournament/link.html", context)


@require_POST
def link_preview(request: HttpRequest, token: str) -> JsonResponse:
    table = _link_table(request, token)
    if not access.link_may_enter(table):
        return JsonResponse({"ok": False, "errors": {"__all__": [_("Closed.")]}}, status=403)
    form = HAND_FORMS[table.round.event.game](
        request.POST, table=table, players=table_players(table)
    )
    if form.is_valid():
        return JsonResponse({"ok": True, "results": form.result})
    return JsonResponse(
        {"ok": False, "errors": {k: [str(e) for e in v] for k, v in form.errors.items()}}
    )


@require_POST
def link_action(request: HttpRequest, token: str, action: str) -> HttpResponse:
    """Undo the last game (with a reason), hand in the sheet, or confirm it as one player."""
    table = _link_table(request, token)
    try:
        if action == "undo":
            if not access.link_may_enter(table):
                raise services.Refused(_("This table cannot change its games now."))
            form = ReasonForm(request.POST)
            last = Hand.objects.filter(table=table).order_by("-number").first()
            if last is None or not form.is_valid():
                raise services.Refused(_("Give a reason to take back the last game."))
            services.delete_hand(hand=last, reason=form.cleaned_data["reason"], by_scorer=False)
            messages.success(request, _("Game %(n)s taken back.") % {"n": last.number})
        elif action == "submit":
            if not access.link_may_enter(table):
                raise services.Refused(_("This sheet cannot be handed in now."))
            services.submit_table(table=table)
            messages.success(request, _("Sheet handed in. Now every player confirms it."))
        elif action == "confirm":
            if not access.link_may_confirm(table):
                raise services.Refused(_("There is nothing to confirm at this table now."))
            position = whole_number(request.POST.get("position"))
            if position is None:
                raise services.Refused(_("Tap your own name to confirm."))
            services.confirm_seat(table=table, position=position)
            messages.success(request, _("Thank you, confirmed."))
        else:
            raise Http404
    except services.Refused as exc:
        refused(request, exc)
    return redirect("table_link", token=token)
