"""Who may do what: every permission check of the app lives here.

Roles (per event): an *organiser* may do everything for the event (settings, players, draws,
rounds, results); a *scorer* may enter, correct and confirm the event's results, a player's seat
on the player's word too. Staff users are organisers of every event and may create events and
seasons. A *table link* (an unguessable token per table, printed as the table sheet's QR code)
may enter that table's games while its round is played and the sheet is not handed in, and hand
the sheet in; after that it shows the sheet read-only. It confirms no seat: the token is the
table's, so whoever holds it could confirm for every player (issue 43). A player confirms their
own seat on their *personal link* (``player_may_confirm``). The personal page hands out its
table's link as a key of its own (``personal_table_key``): bound to the personal link's current
token, so that reissuing a lost personal link takes the table away from whoever holds the old
one, and the others' keys and the printed link go on working. It does nothing else. Everybody may
read standings, seating and table sheets.

A player is one person across events, so a correction of a player reaches every event the player
played: an organiser corrects only a player whose every entry is in an event they organise; any
other player is corrected by a director (``player_correction_refused``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from tournament.models import Entry, Event, EventRole, Player, Round, Table

ORGANISER = EventRole.Role.ORGANISER
SCORER = EventRole.Role.SCORER

# the table link's phone id: random, kept for a year, so that the history tells which games came
# from the same phone (it proves nothing: the phone chooses it)
LINK_DEVICE_COOKIE = "table_phone"
LINK_DEVICE_MAX_AGE = 365 * 24 * 60 * 60
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


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


def player_correction_refused(user: Any, player: Player) -> str | None:
    """Why ``user`` may not correct ``player`` (name, club, town, category), in a sentence that
    says what to do, or None. A correction shows in every event the player played, finished ones
    included (their standings, side rankings and prize lists): a director corrects any player, an
    organiser only one whose every entry is in an event they organise. One query for an organiser.
    """
    if is_director(user):
        return None
    if user and user.is_authenticated and user.is_active:
        mine = EventRole.objects.filter(user=user, role=ORGANISER).values("event_id")
        if not Entry.objects.filter(player=player).exclude(event_id__in=mine).exists():
            return None
    return _("This player also played in events you do not organise; a director corrects them.")


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


def link_device(request: HttpRequest) -> str:
    """The phone a table link request comes from: a digest of the random id the link page keeps
    in a long-lived cookie (``LINK_DEVICE_COOKIE``), or "" for a phone that keeps no cookie. Only
    the digest is stored, so the history cannot be used to forge a phone's cookie."""
    value = request.COOKIES.get(LINK_DEVICE_COOKIE, "")
    if not DEVICE_ID.fullmatch(value):
        return ""
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def new_device_id() -> str:
    return secrets.token_urlsafe(18)


def link_may_enter(table: Table) -> bool:
    """A table link writes only while its round is played, the table counts, and the players
    have not yet handed in the sheet."""
    return (
        table.round.status == Round.Status.PLAYING
        and not table.voided
        and table.submitted_at is None
    )


def player_may_confirm(table: Table) -> bool:
    """A player confirms their own seat of a handed-in sheet on their personal link until the
    round closes (``play.confirmations.confirm_as_player``); after that a scorer confirms the
    sheet."""
    return (
        table.round.status == Round.Status.PLAYING
        and not table.voided
        and table.submitted_at is not None
        and table.confirmed_at is None
    )


# the table link a personal page hands out: "<table id>.<entry id>.<mac>", the mac over both and
# the entry's personal-link token, so that reissuing the personal link revokes it. A "." is in no
# table token (``models.base.new_token``: URL-safe base64), so the two kinds never meet.
PERSONAL_TABLE_KEY = re.compile(r"([0-9]{1,12})\.([0-9]{1,12})\.([0-9a-f]{32})")
PERSONAL_TABLE_SALT = "tournament.access.personal_table_key"


def _personal_table_mac(table_id: int, entry_id: int, entry_token: str) -> str:
    value = f"{table_id}.{entry_id}.{entry_token}"
    return salted_hmac(PERSONAL_TABLE_SALT, value, algorithm="sha256").hexdigest()[:32]


def personal_table_key(entry: Entry, table: Table) -> str:
    """The key under which ``entry``'s personal page links to ``table`` (``/t/<key>/``)."""
    return f"{table.pk}.{entry.pk}.{_personal_table_mac(table.pk, entry.pk, entry.token)}"


def personal_key_parts(key: str) -> tuple[int, int, str] | None:
    """The table id, entry id and mac of a personal page's table key, or None for a table's own
    token (or anything else)."""
    match = PERSONAL_TABLE_KEY.fullmatch(key)
    if match is None:
        return None
    return int(match[1]), int(match[2]), match[3]


def personal_key_holds(table_id: int, entry_id: int, mac: str, entry_token: str) -> bool:
    """Whether a personal page's table key was made from the entry's current personal link: a
    key from a reissued (older) link does not hold."""
    return hmac.compare_digest(mac, _personal_table_mac(table_id, entry_id, entry_token))
