"""Helpers shared by the views: fetching an object with what its page needs, and access."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament import access
from tournament.core import errors
from tournament.models import Event, Round, Seat, Table
from tournament.register import services

SEED_MAX = 2**62  # draw seeds are stored in a 64-bit column


def event_or_404(slug: str) -> Event:
    return get_object_or_404(Event.objects.select_related("season"), slug=slug)


def event_by_id_or_404(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("season"), pk=pk)


def event_version_or_404(slug: str) -> tuple[int, int, int | None]:
    """The event's id, version and the version before: all a cached page needs to know whether
    it is ready."""
    found = Event.objects.filter(slug=slug).values_list("id", "version", "previous_version")
    if (row := found.first()) is None:
        raise Http404("No event with this address.")
    return row


def round_or_404(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("event__season"), event__slug=slug, number=number
    )


def table_or_404(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__event__season"), pk=pk)


def protected(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Send an anonymous visitor of a page that needs a login to the login page; a logged-in user
    without the role gets 403 (the checks themselves are in ``access``)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except access.LoginRequired:
            return access.login_redirect(request)

    return wrapper


def refused(request: HttpRequest, exc: Exception) -> None:
    messages.error(request, str(exc))


def table_players(table: Table) -> list[str]:
    seats = Seat.objects.filter(table_id=table.pk).select_related("entry__player")
    return [str(s.entry.player) for s in seats.order_by("position")]


# what any game in the hall changes, which a page kept per row does not show
CHANGED_BY_EVERY_GAME = frozenset({"version", "previous_version", "last_result_at"})


def row_values(instance: Any) -> tuple[Any, ...]:
    """What a row holds but for what every game changes: part of the version of a page kept
    whole that shows it (the personal link, the table link)."""
    return tuple(
        getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.name not in CHANGED_BY_EVERY_GAME
    )


def xlsx_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(
        content,
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def corrected_player(request: HttpRequest, form: Any) -> Any:
    """A player form sent: the player corrected (for every event, kept in the history) with a
    message, or None with the refusal on the form. Nothing is done for a GET or an invalid form;
    a user who may not correct this player (``access.player_correction_refused``) changes nothing.
    """
    if request.method != "POST":
        return None
    if (refusal := access.player_correction_refused(request.user, form.instance)) is not None:
        form.add_error(None, refusal)
        return None
    if not form.is_valid():
        return None
    try:
        player = services.correct_player(
            player=form.instance, values=form.values(), user=request.user
        )
    except errors.Refused as exc:
        form.add_error(None, str(exc))
        return None
    messages.success(request, _("%(player)s saved.") % {"player": player})
    return player
