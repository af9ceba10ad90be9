"""Who made a change, for the history rows simple-history writes.

simple-history records the logged-in user itself; a table link has no user, so its history rows
name the table and the phone instead ("table link, table 3, phone 1a2b3c"). This is the library's
documented hook (``pre_create_historical_record``), connected in ``apps.py``.
The words are stored in English whatever the writer's language, like the reasons the app writes
itself: the history shows them in the reader's language (``history.actor_text``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from simple_history.models import HistoricalRecords

# who acts in a service: a logged-in user, or nobody (a table link, a command)
User = AbstractBaseUser | AnonymousUser | None


def actor_of(request: Any) -> str:
    if request is None:
        return "system"
    table = getattr(request, "table_link", None)
    if table is not None:
        device = getattr(request, "link_device", "")
        if device:
            # the phone, as a short mark: which seats and games came from the same phone
            return f"table link, table {table.number}, phone {device[:6]}"
        return f"table link, table {table.number}"
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.get_username()
    return ""


def current_actor() -> str:
    """Who acts now, in the request being served (``system`` outside a request)."""
    return actor_of(getattr(HistoricalRecords.context, "request", None))[:150]


def note_actor(sender: Any, history_instance: Any, **kwargs: Any) -> None:
    history_instance.history_actor = current_actor()


def bulk_attrs() -> dict[str, str]:
    """The actor for history rows written in bulk (``bulk_create_with_history``), which send no
    signal: they read like rows written one at a time."""
    return {"history_actor": current_actor()}


def actor(user: User) -> Any:
    return user if user is not None and user.is_authenticated else None


def noted(instance: Any, user: User, reason: str) -> Any:
    """The history row of the next save or delete names ``user`` (when given) and ``reason``."""
    if actor(user) is not None:
        instance._history_user = user
    instance._change_reason = reason
    return instance
