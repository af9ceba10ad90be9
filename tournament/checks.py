"""System checks of the app's own configuration."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register


@register(deploy=True)
def secret_key_is_set(app_configs: Any, **kwargs: Any) -> list[Error]:
    """With debug off the app does not start without DJANGO_SECRET_KEY."""
    if getattr(settings, "SECRET_KEY_MISSING", False):
        return [Error(settings.SECRET_KEY_MESSAGE, id="tournament.E001")]
    return []
