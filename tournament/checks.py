"""System checks of the app's own configuration."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Warning, register
from django.core.exceptions import ValidationError

from tournament.core.addresses import is_loopback, validate_origin


@register(deploy=True)
def secret_key_is_set(app_configs: Any, **kwargs: Any) -> list[Error]:
    """With debug off the app does not start without DJANGO_SECRET_KEY."""
    if getattr(settings, "SECRET_KEY_MISSING", False):
        return [Error(settings.SECRET_KEY_MESSAGE, id="tournament.E001")]
    return []


@register()
def public_url_is_an_address(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """DJANGO_PUBLIC_URL goes into every printed QR code: a typo there strands the phones."""
    value = getattr(settings, "PUBLIC_URL", "")
    if not value:
        return []
    try:
        validate_origin(value)
    except ValidationError:
        return [
            Warning(
                f"DJANGO_PUBLIC_URL={value!r} is not an address such as http://192.168.1.20:8000.",
                id="tournament.W002",
            )
        ]
    if is_loopback(value):
        return [
            Warning(
                f"DJANGO_PUBLIC_URL={value!r} reaches only this machine; phones cannot open it.",
                id="tournament.W003",
            )
        ]
    return []


@register(deploy=True)
def privacy_controller_is_named(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """The privacy notice names who answers for the players' data (DSGVO Art. 13): a public
    installation without it publishes names with nobody to ask."""
    name = getattr(settings, "PRIVACY_CONTROLLER", {}).get("name", "")
    if name and "CHANGE-ME" not in name:
        return []
    return [
        Warning(
            "CEGO_PRIVACY_CONTROLLER is not set (or still CHANGE-ME): the privacy notice names "
            "nobody who answers "
            "for the players' data (set it, with CEGO_PRIVACY_ADDRESS and CEGO_PRIVACY_EMAIL).",
            id="tournament.W004",
        )
    ]
