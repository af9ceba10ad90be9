"""What every request passes on its way in: the language, the query parameters, the client address.

German first: every page is German unless the visitor chose English with the language switch.
Django's LocaleMiddleware would follow the browser's Accept-Language; in the hall a phone set to
English would then show a different language from the wall and the printed lists.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.utils import translation

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
