"""The address phones in the hall use to reach this machine, printed in the sheets' QR codes.

Which address: the event's own setting (``Event.public_url``, on the director's event page), else
``settings.PUBLIC_URL`` (env ``DJANGO_PUBLIC_URL``; ``make serve`` sets it to this machine's LAN
address), else the address the director's browser used for the page. A loopback address
(127.0.0.1, localhost) works only on this machine: the print page warns before it is printed.
"""

from __future__ import annotations

import ipaddress
from typing import Protocol
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.http.request import validate_host
from django.utils.translation import gettext_lazy as _


class WithPublicUrl(Protocol):
    """What this module reads of an event (``tournament.models.Event``): its own address."""

    public_url: str


def validate_origin(value: str) -> None:
    """An address for phones is http(s), a host and perhaps a port; nothing after it."""
    if not value:
        return
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise ValidationError(
            _("Give the address and port only, for example http://192.168.1.20:8000."),
            code="invalid",
        )


def origin(value: str) -> str:
    """``http://host:port`` without a trailing slash."""
    return value.strip().rstrip("/")


def public_origin(request: HttpRequest, event: WithPublicUrl) -> str:
    if event.public_url:
        return origin(event.public_url)
    if settings.PUBLIC_URL:
        return origin(settings.PUBLIC_URL)
    return origin(request.build_absolute_uri("/"))


def public_url(request: HttpRequest, event: WithPublicUrl, path: str) -> str:
    """``path`` (from ``reverse``) as phones in the hall open it."""
    return public_origin(request, event) + path


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


def is_loopback(url: str) -> bool:
    """Whether the address reaches only this machine itself (or no machine at all)."""
    host = _host(url)
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def is_served(url: str) -> bool:
    """Whether this server answers requests for the address's host (``ALLOWED_HOSTS``)."""
    host = _host(url)
    if ":" in host:  # IPv6, as Django compares it
        host = f"[{host}]"
    return validate_host(host, settings.ALLOWED_HOSTS)
