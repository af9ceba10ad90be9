"""Pages cached per version with Django's cache: what a hall full of phones reads again and again.

A page (standings, projector rows, season, a table's sheet, a personal page) is keyed by its
owner's version (``models.versions``: every write changes it, and it never repeats), the language
and the query parameters the page uses. The version is the ETag too: a phone that sends it back
gets 304 (Django's ``get_conditional_response``). A response the same for everybody (no login,
no message waiting) is kept whole, compressed, and served without a template. On a miss one
request computes the page under a ``cache.add`` lock; the others asking for the same page meanwhile
get the version just before kept, if the page allows it (``previous``: never for a login), else
compute it themselves. A cache that fails is a cache that holds nothing: each call gives up at
once (the backend's timeouts, settings.CACHES) and is not tried again for ``RETRY`` seconds.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe

from tournament.core import shown

TIMEOUT = 3600  # a page of an old version is never read again: it expires
LOCK_TIMEOUT = 10  # a request that died computing leaves its lock this long at most
RETRY = 5.0  # seconds a cache that failed is left alone
T = TypeVar("T")
logger = logging.getLogger(__name__)
_gone_until = [0.0]


def _cache(method: str, *args: Any) -> Any:
    """``cache.<method>(*args)``, or None while the cache is gone: logged once when it goes and
    once when it is back."""
    if _gone_until[0] and time.monotonic() < _gone_until[0]:
        return None
    try:
        answer = getattr(cache, method)(*args)
    except Exception as error:
        if not _gone_until[0]:
            logger.error("the page cache is gone (%s); pages are computed without it", error)
        _gone_until[0] = time.monotonic() + RETRY
        return None
    if _gone_until[0]:
        logger.warning("the page cache is back")
        _gone_until[0] = 0.0
    return answer


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


# What a page reads of its address: each query parameter it uses, with the test a value passes to
# be one the page tells apart; everything else shares the page (?x=1 is no page of its own).
Uses = Mapping[str, Callable[[str], bool]]


def any_value(value: str) -> bool:
    """A value QueryMiddleware has made one the page can use (a page number, a page size)."""
    return True


def one_of(values: Iterable[str]) -> Callable[[str], bool]:
    return frozenset(v for v in values if v).__contains__


def sort_of(*columns: str, pattern: str = "") -> Callable[[str], bool]:
    """A table's ``?sort=``: one of its columns (``-`` before it: reversed), or one named by
    ``pattern`` (a column per round)."""
    made = re.compile(pattern) if pattern else None
    return lambda value: (
        value.removeprefix("-") in columns or bool(made and made.fullmatch(value.removeprefix("-")))
    )


class Page:
    def __init__(
        self,
        request: HttpRequest,
        name: str,
        owner: int,
        version: Any,
        *variant: Any,
        uses: Uses | None = None,
        fragment: bool = False,
        previous: Any = None,
        live: Mapping[str, str] | None = None,
    ) -> None:
        """``name`` and ``owner`` (an event's, season's, table's or entry's id) at ``version``;
        ``variant``: whatever else the page depends on. A ``fragment`` (the projector's rows) is
        the same for everybody, logged in or not. ``previous``: the version the owner had just
        before this one, whose page a phone may be given while another request computes this
        one. ``live`` maps a mark in the kept page to this request's HTML (a form token, a rank
        that any game moves)."""
        self.request, self.owner, self.version, self.fragment = request, owner, version, fragment
        self.made = (name, owner, variant, uses, fragment, previous, live)
        self.live = dict(live or {})
        self.query = QueryDict(mutable=True)
        for parameter, used in ({} if fragment else uses or {}).items():
            values = [v for v in request.GET.getlist(parameter) if used(v)]
            if values:
                self.query.setlist(parameter, values[-1:])  # the last counts, as for GET.get
        # the published season names fewer players than the app (``core.shown``): kept apart
        audience = shown.audience()
        named = (name, owner, request.LANGUAGE_CODE, audience, sorted(self.query.lists()), *variant)
        self.key = "page:" + _digest(version, *named)
        # the page around the body names the full address (the language switch, the login come
        # back to it); a fragment is the same at any address
        place = "" if fragment else request.path
        self.whole_key = self.key + ":" + _digest(place)
        self.etag = '"' + _digest(self.key, place, sorted(self.live.items())) + '"'

    @property
    def shared(self) -> bool:
        """Is the whole response the same for everybody who sends this request?"""
        cookies = self.request.COOKIES
        return self.fragment or (
            settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies
        )

    def serve(self, build: Callable[[], HttpResponse]) -> HttpResponse:
        """The page's response: 304 for the ETag the client holds, the whole response kept, the
        previous version's while another request computes this one, else ``build()``."""
        if not self.shared:
            return self.respond(build())
        if (ready := self.ready()) is not None:
            return ready
        lock = self.key + ":computing"
        if _cache("add", lock, True, LOCK_TIMEOUT):
            try:  # kept meanwhile by the request that held the lock before, or computed now
                return self.kept() or self.respond(build())
            finally:
                _cache("delete", lock)
        # a login never gets the version before: a director sees what they just did
        anonymous = settings.SESSION_COOKIE_NAME not in self.request.COOKIES
        return (anonymous and self.earlier()) or self.respond(build())

    def ready(self) -> HttpResponse | None:
        """What needs nothing built, for a shared request: 304 for the ETag the client holds, or
        the whole response kept; else None."""
        if not self.shared:
            return None
        if (held := get_conditional_response(self.request, etag=self.etag)) is not None:
            return self.respond(held, keep=False)
        return self.kept()

    def kept(self) -> HttpResponse | None:
        """The whole response as an earlier request of this version got it, or None."""
        kept = _cache("get", self.whole_key)
        if kept is None:
            return None
        content_type, packed = kept
        response = HttpResponse(content_type=content_type)
        gzipped = "gzip" in self.request.headers.get("Accept-Encoding", "")
        if self.live:  # kept with its marks: this request's lines go in
            content = self._spliced(gzip.decompress(packed))
            packed = gzip.compress(content, compresslevel=1, mtime=0) if gzipped else b""
        elif not gzipped:
            content = gzip.decompress(packed)
        if gzipped:
            response.content, response["Content-Encoding"] = packed, "gzip"
        else:
            response.content = content
        patch_vary_headers(response, ["Accept-Encoding"])
        return self.respond(response, keep=False)

    def earlier(self) -> HttpResponse | None:
        """The whole response of the version just before this one, if the page allows it and it
        is kept: the same database's, one computation old (a restored backup's versions never
        lead to a page of the versions it wiped)."""
        name, owner, variant, uses, fragment, previous, live = self.made
        if previous is None:
            return None
        page = Page(
            self.request, name, owner, previous, *variant, uses=uses, fragment=fragment, live=live
        )
        return page.kept()

    def body(self, template: str, context: Callable[[], dict[str, Any]]) -> SafeString:
        """The page's cached part: ``template`` rendered with ``context()`` the first time, as if
        the address had only the parameters the key holds (a sort link must not carry another
        visitor's ?anything=else)."""

        def render() -> str:
            asked, self.request.GET = self.request.GET, self.query
            try:
                return render_to_string(template, context(), self.request)
            finally:
                self.request.GET = asked

        return mark_safe(self.text(render))  # HTML our own templates rendered

    def text(self, compute: Callable[[], str]) -> str:
        """The page's cached part as ``compute()`` writes it (HTML, or the projector's JSON)."""
        text = _cache("get", self.key)
        if text is None:
            text = compute()
            logger.info("computed %s of %s at version %s", *self.made[:2], self.version)
            _cache("set", self.key, text, TIMEOUT)
        return text

    def respond(self, response: HttpResponse, *, keep: bool = True) -> HttpResponse:
        """The response marked with the page's ETag (Cache-Control: no-cache: the browser asks
        again with it before each use); a shared one kept whole for the next request."""
        if self.shared:
            response["ETag"] = self.etag
            plain = self.fragment or sorted(self.request.GET.lists()) == sorted(self.query.lists())
            if (
                keep
                and plain
                and response.status_code == 200
                and "Content-Encoding" not in response
            ):
                packed = gzip.compress(response.content, compresslevel=6, mtime=0)
                _cache("set", self.whole_key, (response["Content-Type"], packed), TIMEOUT)
                if not self.live and "gzip" in self.request.headers.get("Accept-Encoding", ""):
                    response.content, response["Content-Encoding"] = packed, "gzip"
                    patch_vary_headers(response, ["Accept-Encoding"])
        if self.live and response.status_code == 200 and "Content-Encoding" not in response:
            response.content = self._spliced(response.content)
        response["Cache-Control"] = "no-cache"
        patch_vary_headers(response, ["Cookie"])
        return response

    def _spliced(self, content: bytes) -> bytes:
        for mark, html in self.live.items():
            content = content.replace(mark.encode(), html.encode())
        return content


def part(name: str, owner: int, version: Any, compute: Callable[[], T], *variant: Any) -> T:
    """A part of several pages, the same for everybody at this ``version`` (a table's sheet on
    its players' phones): computed by the first request that asks for it, then kept."""
    key = "part:" + _digest(name, owner, version, *variant)
    kept = _cache("get", key)
    if kept is None:
        kept = compute()
        logger.info("computed %s of %s at version %s", name, owner, version)
        _cache("set", key, kept, TIMEOUT)
    return kept
