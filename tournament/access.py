"""Who may do what: every permission check of the app lives here.

Roles (per event): an *organiser* may do everything for the event (settings, players, draws,
rounds, results); a *scorer* may enter, correct and confirm the event's results. Staff users are
organisers of every event and may create events and seasons. A *table link* (an unguessable token
per table, printed as the table sheet's QR code) may enter and confirm that table's games while its
round is being played, and nothing else. Everybody may read standings, seating and table sheets.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .models import Event, EventRole, Round, Table

ORGANISER = EventRole.Role.ORGANISER
SCORER = EventRole.Role.SCORER


class LoginRequired(Exception):
    """Raised for an anonymous user on a page that needs a login; turned into a redirect."""


def is_director(user: Any) -> bool:
    """Staff: may create events and seasons and is organiser of every event."""
    return bool(user and user.is_authenticated and user.is_active and user.is_staff)


def role_of(user: Any, event: Event) -> str | None:
    if not (user and user.is_authenticated and user.is_active):
        return None
    if is_director(user):
        return ORGANISER
    role = EventRole.objects.filter(event=event, user=user).values_list("role", flat=True).first()
    return role


def can_organise(user: Any, event: Event) -> bool:
    return role_of(user, event) == ORGANISER


def can_score(user: Any, event: Event) -> bool:
    return role_of(user, event) in (ORGANISER, SCORER)


def require(request: HttpRequest, event: Event, role: str) -> None:
    """Raise for a user who lacks ``role`` for ``event`` (anonymous: go and log in)."""
    if not request.user.is_authenticated:
        raise LoginRequired
    allowed = can_organise if role == ORGANISER else can_score
    if not allowed(request.user, event):
        raise PermissionDenied


def require_director(request: HttpRequest) -> None:
    if not request.user.is_authenticated:
        raise LoginRequired
    if not is_director(request.user):
        raise PermissionDenied


def login_redirect(request: HttpRequest) -> Any:
    return redirect_to_login(request.get_full_path())


def link_may_enter(table: Table) -> bool:
    """A table link writes only while its round is played, the table counts, and the players
    have not yet handed in the sheet."""
    return (
        table.round.status == Round.Status.PLAYING
        and not table.voided
        and table.submitted_at is None
    )


def link_may_confirm(table: Table) -> bool:
    return (
        table.round.status in (Round.Status.PLAYING, Round.Status.CLOSED)
        and not table.voided
        and table.submitted_at is not None
        and table.confirmed_at is None
    )
