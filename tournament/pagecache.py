"""Read once, serve many: the pages a hall full of phones reads, computed once per version.

On a tournament day 150 phones and the projector ask for the standings every few seconds, while
they change at most once for each game saved. A page of this kind (standings, projector rows, the
season, the public table and round pages) is computed from the database once per version of its
event (``tournament.versions``: every write changes it, in the same transaction) and kept in
Django's cache (``settings.CACHES``: a folder all gunicorn workers of the laptop share, or Redis or
memcached for several servers). A request then costs one query: the event's row with its version.

- **Never stale.** The cache key holds the version read at the start of the request, and the page
  is computed after that read, so a page under a key shows at least that version; a saved game
  changes the version and the next request computes the page anew.
- **Conditional requests.** The response carries an ETag made of the version, the language and
  the address; a browser (or the projector's script) that sends it back in If-None-Match gets 304
  Not Modified, without a page being computed or sent. Only where the response is the same for
  everyone who sends it: a fragment without the page around it, or a page asked for without a
  login and without a message waiting to be shown (a logged-in user's page shows their name, a
  message is shown once).
- **Computed once.** When a version is new, the first request computes the page while the others
  that ask for the same page at the same moment wait for it (up to ``WAIT`` seconds) instead of
  computing it too.
- **Kept whole.** A response the same for everybody (no login, no message waiting) is kept whole
  and compressed as well: the next request of the version gets it without a template rendered.
  Such a page holds no form token (the language switch needs none: tournament.urls).

A view uses it in three steps: ``page = CachedPage(request, "standings", event.pk, event.version,
...)``; ``page.ready()`` (a 304, the whole response kept, or None); ``page.respond(response)``
around the response built with ``page.body(render)``.
"""

from __future__ import annotations

import gzip
import hashlib
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe

from . import versions

TIMEOUT = 3600  # a page of an old version is never read again: it just expires
LOCK_TIMEOUT = 30  # a computation that died leaves its lock this long at most
WAIT = 5.0  # how long a request waits for another's computation before doing it itself
POLL = 0.01

# the query parameters a cached page may depend on; others (?x=1, ?x=2, ...) share the page
PAGE_PARAMETERS = ("category", "page", "per_page", "sort")


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


class CachedPage:
    def __init__(
        self,
        request: HttpRequest,
        name: str,
        owner: int,
        version: int,
        *variant: Any,
        fragment: bool = False,
    ) -> None:
        """``name`` and ``owner`` (an event's or season's id) with its ``version`` say which page
        of what; ``variant`` is whatever else the page depends on besides the language and the
        address's page parameters. A ``fragment`` is a response without the page around it (the
        projector's rows): the same for everyone, logged in or not."""
        self.request = request
        self.fragment = fragment
        self.computed = False  # whether this request computed the body
        self.query = QueryDict(mutable=True)
        if not fragment:
            for name_ in PAGE_PARAMETERS:
                if name_ in request.GET:
                    self.query.setlist(name_, request.GET.getlist(name_))
        query = sorted(self.query.lists())
        self.key = "page:" + _digest(name, owner, version, request.LANGUAGE_CODE, query, *variant)
        # the same body within another page around it (another address) is another ETag; a
        # fragment's ETag is its key's, wherever it is shown (the projector page hands it on)
        self.etag = '"' + _digest(self.key, "" if fragment else request.path) + '"'

    @property
    def shared(self) -> bool:
        """Is the whole response the same for everybody who sends this request?"""
        if self.fragment:
            return True
        cookies = self.request.COOKIES
        return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies

    def ready(self) -> HttpResponse | None:
        """The answer that needs nothing computed, for a request whose response is the same for
        everybody: 304 Not Modified when the client holds this very page already, else the whole
        response as an earlier request of this version got it (compressed ahead). None: the
        view builds the page."""
        if not self.shared:
            return None
        sent = self.request.headers.get("If-None-Match", "")
        held = {tag.strip().removeprefix("W/") for tag in sent.split(",")}
        if self.etag in held or "*" in held:
            return self.respond(HttpResponseNotModified())
        kept = cache.get(self.whole_key)
        if kept is None:
            return None
        content_type, packed = kept
        response = HttpResponse(content_type=content_type)
        if "gzip" in self.request.headers.get("Accept-Encoding", ""):
            response.content = packed
            response["Content-Encoding"] = "gzip"
        else:
            response.content = gzip.decompress(packed)
        patch_vary_headers(response, ["Accept-Encoding"])
        return self.respond(response)

    @property
    def whole_key(self) -> str:
        """The whole response's key: the page around the body names the full address (the
        language switch and the login come back to it)."""
        return self.key + ":whole:" + _digest(self.request.get_full_path())

    def body(self, render: Callable[[], str]) -> SafeString:
        """The page's cached part, computed by ``render`` the first time it is asked for."""
        text = cache.get(self.key)
        if text is None:
            text = self._compute(render)
            self.computed = True
        return mark_safe(text)  # HTML our own templates rendered

    def warm(self, template: str, context: Callable[[], dict[str, Any]]) -> None:
        """Compute the page now unless it is cached or being computed: a page that is read
        right after another one of the same version (the standings and the projector's rows),
        while what both are made of is at hand. Never waits."""
        if cache.has_key(self.key) or not cache.add(self.key + ":computing", True, LOCK_TIMEOUT):
            return
        try:
            self._store(self._renderer(template, context))
        finally:
            cache.delete(self.key + ":computing")

    def render(self, template: str, context: Callable[[], dict[str, Any]]) -> SafeString:
        """``body`` for a template rendered with what ``context()`` computes."""
        return self.body(self._renderer(template, context))

    def _renderer(self, template: str, context: Callable[[], dict[str, Any]]) -> Callable[[], str]:
        return lambda: render_to_string(template, context(), self.request)

    def _compute(self, render: Callable[[], str]) -> str:
        lock = self.key + ":computing"
        if not cache.add(lock, True, LOCK_TIMEOUT):
            # another request computes this page now: wait for it rather than compute it twice
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                time.sleep(POLL)
                text = cache.get(self.key)
                if text is not None:
                    return text
        try:
            return self._store(render)
        finally:
            cache.delete(lock)

    def _store(self, render: Callable[[], str]) -> str:
        # rendered as if the address had only the parameters the key holds: a link on the page
        # (a sort order, the next page) must not carry another visitor's ?anything=else
        asked, self.request.GET = self.request.GET, self.query
        versions.forget()  # a write after this, in the same transaction, is a new version
        try:
            text = str(render())
            cache.set(self.key, text, TIMEOUT)
            return text
        finally:
            self.request.GET = asked

    def respond(self, response: HttpResponse) -> HttpResponse:
        """Mark ``response`` with the page's ETag: the browser keeps it and asks again with it
        (Cache-Control: no-cache means "check with the server before each use"). A response the
        same for everybody is kept whole, compressed, for the next request of this version."""
        if self.shared:
            response["ETag"] = self.etag
            if response.status_code == 200 and "Content-Encoding" not in response:
                packed = gzip.compress(response.content, compresslevel=6, mtime=0)
                cache.set(self.whole_key, (response["Content-Type"], packed), TIMEOUT)
        response["Cache-Control"] = "no-cache"
        patch_vary_headers(response, ["Cookie"])
        return response
