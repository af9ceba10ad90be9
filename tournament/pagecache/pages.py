"""Read once, serve many: the pages a hall full of phones reads, computed once per version.

On a tournament day 150 phones and the projector ask for the standings every few seconds, while
they change at most once for each game saved. A page of this kind (standings, projector rows, the
season, the public table and round pages) is computed from the database once per version of its
event (``tournament.models.versions``: every write changes it, in the same transaction) and kept in
Django's cache (``settings.CACHES``: a folder all gunicorn workers of the laptop share, or Redis or
memcached for several servers). A request then costs one query: the event's version (the
standings and the projector's rows read it alone, ``views.common.event_version_or_404``).

- **Never stale.** The cache key holds the version read at the start of the request, and the page
  is computed after that read, so a page under a key shows at least that version; a saved game
  changes the version and the next request computes the page anew. One exception, for the
  standings and the projector's rows a phone reads (``earlier``): while the request that saved
  a game computes them for the version it made, right after its answer, a phone asking is
  given the version before instead of waiting (``pagecache.writers``: one computation at most).
- **Conditional requests.** The response carries an ETag made of the version, the language and
  the address; a browser (or the projector's script) that sends it back in If-None-Match gets 304
  Not Modified, without a page being computed or sent. Only where the response is the same for
  everyone who sends it: a fragment without the page around it, or a page asked for without a
  login and without a message waiting to be shown (a logged-in user's page shows their name, a
  message is shown once).
- **Computed once.** When a version is new, the first request computes the page while the others
  that ask for the same page at the same moment wait for it instead of computing it too: on the
  laptop's file cache they sleep on a file lock every process shares (``pagecache.filecache``); with
  another cache (several servers) they look again every ``POLL`` seconds, up to ``WAIT``. Pages
  made of the same figures (the standings and the projector's rows) share one lock and are
  computed together, by whichever request comes first.
- **Kept whole.** A response the same for everybody (no login, no message waiting) is kept whole
  and compressed as well: the next request of the version gets it without a template rendered.
  Such a page holds no form token (the language switch needs none: tournament.urls).

A view uses it in two steps: ``page = CachedPage(request, "standings", event.pk, event.version,
...)``, then ``return page.serve(build)``, where ``build()`` makes the response around
``page.body(render)`` (or ``page.render(template, context)``). ``serve`` answers with a 304 or the
whole response kept where it can, and otherwise builds under the page's lock, so that the requests
waiting for a new version get the whole response ready-made.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe

from tournament.models import versions
from tournament.pagecache import writers

TIMEOUT = 3600  # a page of an old version is never read again: it just expires
LOCK_TIMEOUT = 30  # a computation that died leaves its lock this long at most
# without the file cache's lock: how long a request waits for another's computation before
# doing it itself, and how often it looks
WAIT = 5.0
POLL = 0.01
T = TypeVar("T")
# set on the request with which a write computes the pages of the version it made
# (``views.fresh``): it computes them, and is never given the version before
FOR_WRITER = "computes_for_writer"

# What a cached page reads of its address: each query parameter it uses, with the test a value
# passes to be one the page tells apart. Everything else shares the page: parameters it does not
# read (?x=1, ?x=2, ...) and values it ignores (a ?sort= of no column), which otherwise made a
# cache entry each, every one computed in full (400 random sort values: 1,010 cache files).
Uses = Mapping[str, Callable[[str], bool]]


def any_value(value: str) -> bool:
    """A value QueryMiddleware has made one the page can use (a page number, a page size)."""
    return True


def one_of(values: Iterable[str]) -> Callable[[str], bool]:
    """A value of a fixed list (a side ranking's category)."""
    allowed = frozenset(v for v in values if v)
    return allowed.__contains__


def sort_of(*columns: str, pattern: str = "") -> Callable[[str], bool]:
    """A table's ``?sort=``: one of its columns, ``-`` before it for the reverse order; columns
    made per event (a column per round) by ``pattern``, a regular expression of their names."""
    names = frozenset(columns)
    made = re.compile(pattern) if pattern else None

    def sorts(value: str) -> bool:
        name = value.removeprefix("-")
        return name in names or (made is not None and made.fullmatch(name) is not None)

    return sorts


# one line per computed page at INFO ("computed standings of 12 at version 345"): how often a
# version is computed, across app servers too (tests/server)
logger = logging.getLogger(__name__)


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


@contextmanager
def computing(lock: str, key: str) -> Iterator[None]:
    """Held while the page under ``key`` is computed. The file cache's lock where there is one;
    else a marker entry in the cache, and a request that finds it looks every ``POLL`` seconds
    whether the page is there or the marker gone, up to ``WAIT`` seconds (a request that died
    computing leaves its marker for ``LOCK_TIMEOUT`` seconds at most), then goes on itself."""
    shared_lock = getattr(cache, "computing", None)
    if shared_lock is not None:
        with shared_lock(lock):
            yield
        return
    marker = lock + ":computing"
    held = cache.add(marker, True, LOCK_TIMEOUT)
    deadline = time.monotonic() + WAIT
    while not held and time.monotonic() < deadline and not cache.has_key(key):
        time.sleep(POLL)
        held = cache.add(marker, True, LOCK_TIMEOUT)
    try:
        yield
    finally:
        if held:
            cache.delete(marker)


class CachedPage:
    def __init__(
        self,
        request: HttpRequest,
        name: str,
        owner: int,
        version: int,
        *variant: Any,
        fragment: bool = False,
        together: str = "",
        uses: Uses | None = None,
        live: Mapping[str, str] | None = None,
        earlier: bool = False,
    ) -> None:
        """``name`` and ``owner`` (an event's or season's id) with its ``version`` say which page
        of what; ``variant`` is whatever else the page depends on besides the language and the
        query parameters it ``uses`` (those of its values it tells apart; the page is computed
        as if the address had only those). A ``fragment`` is a response without the page around
        it (the projector's rows): the same for everyone, logged in or not, and reads no query.
        Pages with the same ``together`` (unless asked for with page parameters) are computed
        under one lock: the request that computes one computes the others it is given as
        ``then`` too. ``live`` maps a marker the page's body holds to the HTML this request puts
        in its place: a line that changes far more often than the rest of the page (a player's
        rank, which any game in the hall may move) is not part of what is kept; the ETag covers
        it. ``earlier``: ``owner`` is an event and ``version`` its version, and while the writer
        of this version computes it, the page of the version before is served instead
        (``pagecache.writers``)."""
        self.request = request
        self.earlier = earlier
        self._made = (name, owner, variant, fragment, together, uses, live)
        self.live = dict(live or {})
        self.what = (name, owner, version)
        self.fragment = fragment
        self.computed = False  # whether this request computed the body
        self.holding = False  # whether this request holds the page's lock (``serve``)
        self.query = QueryDict(mutable=True)
        if not fragment:
            for name_, used in (uses or {}).items():
                values = [v for v in request.GET.getlist(name_) if used(v)]
                if values:
                    # the last one counts, as for the views' ``GET.get``
                    self.query.setlist(name_, values[-1:])
        query = sorted(self.query.lists())
        self.key = "page:" + _digest(name, owner, version, request.LANGUAGE_CODE, query, *variant)
        self.lock = self.key
        if together and not query:
            self.lock = "page:" + _digest(together, owner, version)
        # the same body within another page around it (another address) is another ETag; a
        # fragment's ETag is its key's, wherever it is shown (the projector page hands it on)
        self.etag = (
            '"'
            + _digest(self.key, "" if fragment else request.path, sorted(self.live.items()))
            + '"'
        )

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
        gzipped = "gzip" in self.request.headers.get("Accept-Encoding", "")
        if self.live:  # kept with its markers: this request's lines go in
            content = self._spliced(gzip.decompress(packed))
            packed = gzip.compress(content, compresslevel=1, mtime=0) if gzipped else b""
        else:
            content = b""
        if gzipped:
            response.content = packed
            response["Content-Encoding"] = "gzip"
        else:
            response.content = content or gzip.decompress(packed)
        patch_vary_headers(response, ["Accept-Encoding"])
        return self.respond(response, keep=False)  # kept already

    def ready_earlier(self) -> HttpResponse | None:
        """``ready()`` of the version before, while this version's writer computes this one
        (``pagecache.writers``): not for the writer's own computation (``FOR_WRITER``)."""
        if not self.earlier or getattr(self.request, FOR_WRITER, False):
            return None
        name, owner, variant, fragment, together, uses, live = self._made
        for version in writers.earlier(owner, self.what[2]):
            page = CachedPage(
                self.request,
                name,
                owner,
                version,
                *variant,
                fragment=fragment,
                together=together,
                uses=uses,
                live=live,
            )
            if (ready := page.ready()) is not None:
                return ready
        return None

    def serve(self, build: Callable[[], HttpResponse]) -> HttpResponse:
        """The page's response: ``ready()`` if it is, else ``build()`` (which makes the page
        around ``body()``), marked by ``respond``. A request the same for everybody builds under
        the page's lock and keeps its lock until its whole response is kept: the requests that
        waited for the new version then get that response ready-made, one after the other,
        instead of each building the page around the body again at the same moment (the
        projector's rows gzipped anew by each: a few milliseconds of every core's time per
        waiting phone, after every saved game)."""
        if (ready := self.ready()) is not None:
            return ready
        if not self.shared:
            return self.respond(build())
        if (ready := self.ready_earlier()) is not None:
            return ready
        with computing(self.lock, self.key):
            if (ready := self.ready()) is not None:  # made while this request waited
                return ready
            self.holding = True
            try:
                return self.respond(build())
            finally:
                self.holding = False

    @property
    def whole_key(self) -> str:
        """The whole response's key: the page around the body names the full address (the
        language switch and the login come back to it); a fragment is the same at any address."""
        if self.fragment:
            return self.key + ":whole"
        return self.key + ":whole:" + _digest(self.request.path)

    @property
    def plain_address(self) -> bool:
        """Whether the address asks for nothing but what the key holds: only then is the whole
        response (its links back to the address: the language switch, the login) kept for the
        others, who get it whatever else their address carries."""
        return sorted(self.request.GET.lists()) == sorted(self.query.lists())

    def body(self, render: Callable[[], str], then: Callable[[], None] | None = None) -> SafeString:
        """The page's cached part, computed by ``render`` the first time it is asked for; ``then``
        computes the pages computed together with it (``fill``), under the same lock."""
        text = cache.get(self.key)
        if text is None and self.holding:  # ``serve`` holds the lock
            text = self._compute(render, then)
        elif text is None:
            with computing(self.lock, self.key):
                text = cache.get(self.key)  # computed while this request waited
                if text is None:
                    text = self._compute(render, then)
        return mark_safe(text)  # HTML our own templates rendered

    def inside(self, template: str, context: Callable[[], dict[str, Any]]) -> SafeString:
        """A cached part of another page, asked for while that page computes under its lock (the
        table's sheet on a player's personal page): read from the cache, or computed without a
        lock of its own. A request holds one page lock at most: the file cache's lock files are
        shared stripes, so a second lock could be the very file this request holds already (and
        wait for itself for good), or be taken in the other order by another request."""
        text = cache.get(self.key)
        if text is None:
            text = self._compute(self._renderer(template, context), None)
        return mark_safe(text)  # HTML our own templates rendered

    def _compute(self, render: Callable[[], str], then: Callable[[], None] | None) -> str:
        text = self._store(render)
        self.computed = True
        if then is not None:
            then()
        return text

    def fill(self, template: str, context: Callable[[], dict[str, Any]]) -> None:
        """Compute the page now unless it is cached: a page computed together with another one
        (the standings and the projector's rows), as the other's ``then``, under its lock."""
        if not cache.has_key(self.key):
            text = self._store(self._renderer(template, context))
            if self.fragment:  # its whole response is the body itself: kept ready too
                self._keep_whole(HttpResponse(text))

    def render(
        self,
        template: str,
        context: Callable[[], dict[str, Any]],
        then: Callable[[], None] | None = None,
    ) -> SafeString:
        """``body`` for a template rendered with what ``context()`` computes."""
        return self.body(self._renderer(template, context), then)

    def _renderer(self, template: str, context: Callable[[], dict[str, Any]]) -> Callable[[], str]:
        return lambda: render_to_string(template, context(), self.request)

    def _store(self, render: Callable[[], str]) -> str:
        # rendered as if the address had only the parameters the key holds: a link on the page
        # (a sort order, the next page) must not carry another visitor's ?anything=else
        asked, self.request.GET = self.request.GET, self.query
        versions.forget()  # a write after this, in the same transaction, is a new version
        try:
            text = str(render())
            logger.info("computed %s of %s at version %s", *self.what)
            cache.set(self.key, text, TIMEOUT)
            return text
        finally:
            self.request.GET = asked

    def _keep_whole(self, response: HttpResponse) -> None:
        packed = gzip.compress(response.content, compresslevel=6, mtime=0)
        cache.set(self.whole_key, (response["Content-Type"], packed), TIMEOUT)

    def respond(self, response: HttpResponse, *, keep: bool = True) -> HttpResponse:
        """Mark ``response`` with the page's ETag: the browser keeps it and asks again with it
        (Cache-Control: no-cache means "check with the server before each use"). A response the
        same for everybody is kept whole, compressed, for the next request of this version."""
        if self.shared:
            response["ETag"] = self.etag
            if (
                keep
                and response.status_code == 200
                and "Content-Encoding" not in response
                and (self.fragment or self.plain_address)
            ):
                self._keep_whole(response)
        if self.live and response.status_code == 200 and "Content-Encoding" not in response:
            response.content = self._spliced(response.content)
        response["Cache-Control"] = "no-cache"
        patch_vary_headers(response, ["Cookie"])
        return response

    def _spliced(self, content: bytes) -> bytes:
        for marker, html in self.live.items():
            content = content.replace(marker.encode(), html.encode())
        return content


def part_key(name: str, owner: int, version: Any, *variant: Any) -> str:
    """The cache key of a ``shared_part``."""
    return "part:" + _digest(name, owner, version, *variant)


def shared_part(name: str, owner: int, version: Any, compute: Callable[[], T], *variant: Any) -> T:
    """A part of a page that is the same for every visitor who asks for it at this ``version``
    (a table's sheet on its players' phones, an event's ranking), computed once and kept in the
    cache like a page: by the first request that asks for it, while the others that ask at the
    same moment wait for it (``computing``). ``compute`` returns anything the cache can keep;
    ``variant`` is whatever else it depends on (the language of a rendered part). A request that
    asks for a part holds no other page lock (see ``CachedPage.inside``)."""
    key = part_key(name, owner, version, *variant)
    kept = cache.get(key)
    if kept is not None:
        return kept
    with computing(key, key):
        kept = cache.get(key)  # computed while this request waited
        if kept is None:
            versions.forget()  # a write after this, in the same transaction, is a new version
            kept = compute()
            logger.info("computed %s of %s at version %s", name, owner, version)
            cache.set(key, kept, TIMEOUT)
    return kept
