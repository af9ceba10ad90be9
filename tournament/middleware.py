"""What every request passes on its way in: the language, the query parameters, the client address.

German first: every page is German unless the visitor chose English with the language switch.
Django's LocaleMiddleware would follow the browser's Accept-Language; in the hall a phone set to
English would then show a different language from the wall and the printed lists.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.utils import translation
from django.utils.translation import gettext as _

from tournament.core.query import clean_query


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.languages else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response


class QueryMiddleware:
    """Every page that reads page, per_page, q, sort or a filter from the address gets values it
    can use, so that a hand-made address is answered with a page, never with an error 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.GET:
            request.GET = clean_query(request.GET)
        return self.get_response(request)


# how long a phone or a browser waits before it sends again while the database is away (a
# PostgreSQL restart takes a few seconds)
RETRY_AFTER_SECONDS = 5

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """While the database cannot be reached (a PostgreSQL restart, the connection lost, SQLite
    locked past its timeout) a request is answered "503 Service Unavailable" with Retry-After,
    not with an error 500: nothing was stored, and the phone's queue (static/js/table_queue.js)
    sends the game again, as after a lost network. The body is plain text, not the queue's JSON,
    so the phone keeps the game waiting instead of taking it as refused. Logged as an error all
    the same: an OperationalError can also be a fault of the code."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error("database unavailable: %s %s", request.method, request.path, exc_info=True)
        response = HttpResponse(
            _(
                "The database cannot be reached just now; nothing was stored. "
                "Try again in a moment."
            ),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response


def client_address(request: HttpRequest) -> str | None:
    """The address of the device that sent the request (django-axes keys login lockouts on it).

    Without a proxy it is the connection's own address. Behind ``PROXY_COUNT`` proxies, each of
    which appends the address it was reached from to X-Forwarded-For, it is the entry that many
    places from the right: entries further left are whatever the client chose to send and are
    not trusted. A request that did not pass every proxy keeps the connection's address.
    """
    remote = request.META.get("REMOTE_ADDR")
    hops = settings.PROXY_COUNT
    if not hops:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < hops:
        return remote
    candidate = forwarded[-hops]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


# what compresses well: pages, the projector's rows, JSON; a workbook or a PDF is compressed already
COMPRESSED_TYPES = ("text/", "application/json", "application/javascript", "image/svg+xml")


class CompressionMiddleware(GZipMiddleware):
    """Pages and JSON go out gzip-compressed to a browser that accepts it (a standings page of
    100 KB is 5 KB on the hall's Wi-Fi). Django's GZipMiddleware pads each response with random
    bytes against the BREACH attack on the CSRF token (Django 4.2+); spreadsheets and PDFs,
    compressed already, are passed on as they are."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        content_type = response.get("Content-Type", "")
        if not content_type.startswith(COMPRESSED_TYPES):
            return response
        return super().process_response(request, response)
