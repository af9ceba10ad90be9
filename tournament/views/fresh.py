"""The standings of the version a saved game made are computed by its own request's process,
right after the game is answered, while the phones asking meanwhile get the version before.

A saved game makes a new version of its event (``models.versions``). The standings and the
projector's rows of that version used to be computed by whichever phone asked first, while the
others that asked in that moment waited for it (``pagecache.pages``); with a thousand players the
hall's reads queued behind every saved game (``bench/load.py``). Now the request that wrote hands
them, once its answer is made, to a thread of its own process that computes them as an anonymous
visitor in the default language gets them; from the write's commit until they are kept, the phones
that ask are given the version before (``pagecache.writers``: one computation at most). The
table's phone is answered as soon as its game is stored, and its connection is free for its next
request at once (computed in the request itself, after the answer, it held the phone's kept-alive
connection until done: the table's next page waited for the standings).

``settings.STANDINGS_AFTER_WRITES``: "thread" (the server) or "inline" (the tests: the test
client's request and its computation share the test's database transaction, which another
thread does not see; the computation then runs when the response is closed, before the test
goes on).

The views that write a table's games and sheets say so with ``@computes_standings``.
"""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django import db
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse, set_script_prefix
from django.utils import translation

from tournament.models import versions
from tournament.pagecache import writers
from tournament.pagecache.pages import FOR_WRITER
from tournament.views import public

logger = logging.getLogger(__name__)

# the request headers the page's own links and addresses are made of (the host, the scheme
# behind a proxy); a visitor's cookies, login and conditional headers are not passed on
_KEPT_HEADERS = frozenset(
    {"HTTP_HOST", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT"}
)


# the rest of the address: the server's name and port, the path's prefix, the scheme
_KEPT_ENVIRON = frozenset(
    {"SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL", "SCRIPT_NAME", "wsgi.url_scheme"}
)


def computes_standings(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view whose writes change the standings: the standings and the projector's rows of each
    version its writes made are computed once its answer is made."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        made: dict[int, versions.Written] = {}
        try:
            with versions.written(committed=writers.at_work) as made:
                response = view(request, *args, **kwargs)
        except BaseException:
            _done(made)
            raise
        if not made:
            return response
        try:
            tasks = [
                Task(event_id, event.slug, _anonymous_get(request, event.slug), event.versions)
                for event_id, event in made.items()
            ]
            if settings.STANDINGS_AFTER_WRITES == "thread":
                _hand_over(tasks)
            else:
                # when the response is closed, after it is sent (a file's response closes its
                # file so); the test client closes it before it returns
                response._resource_closers.append(lambda: [task.run() for task in tasks])
        except Exception:  # the game is stored: its answer says so, the pages come later
            logger.exception("handing over the standings after a write failed")
            _done(made)
        return response

    return wrapped


@dataclass
class Task:
    """The pages of an event to compute after writes, and the writers' versions to release."""

    event_id: int
    slug: str
    visitor: HttpRequest
    versions: list[int]

    def run(self) -> None:
        try:
            if not writers.overtaken(self.event_id, max(self.versions)):
                compute(self.visitor, self.event_id, self.slug)
        finally:
            writers.done(self.event_id, self.versions)


_POOL: list[ThreadPoolExecutor] = []
_POOL_LOCK = threading.Lock()
# an event's task waiting for the thread: a later write's versions join it (it computes the
# newest version when it runs), so that a queue never holds the same event twice and no phone is
# given a version older than the computation under way and the one waiting
_WAITING: dict[int, Task] = {}


def _hand_over(tasks: list[Task]) -> None:
    with _POOL_LOCK:
        if not _POOL:  # made on first use: in the server's worker process, after the fork
            _POOL.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="standings"))
        for task in tasks:
            waiting = _WAITING.get(task.event_id)
            if waiting is not None:
                waiting.versions.extend(task.versions)
                continue
            _WAITING[task.event_id] = task
            _POOL[0].submit(_in_the_thread, task.event_id).add_done_callback(_failed)


def _in_the_thread(event_id: int) -> None:
    with _POOL_LOCK:
        task = _WAITING.pop(event_id)
    try:
        # the thread's database connection, as a request's: a connection the database has
        # closed meanwhile (a PostgreSQL restart) is replaced, and it is given back after
        db.close_old_connections()
        set_script_prefix(get_script_name(task.visitor.META))
        task.run()
    finally:
        db.close_old_connections()


def _failed(future: Future) -> None:
    if (error := future.exception()) is not None:
        logger.error("computing the standings after a write failed", exc_info=error)


def wait() -> None:
    """Until every computation handed to this process's thread so far is done, and the thread's
    database connection closed (the tests: a test database is dropped at the end)."""
    if _POOL:
        _POOL[0].submit(db.connections.close_all).result()


def _done(made: dict[int, versions.Written]) -> None:
    for event_id, event in made.items():
        writers.done(event_id, event.versions)


def compute(visitor: HttpRequest, event_id: int, slug: str) -> None:
    """The standings and the projector's rows of the event's version (the newest: another game
    may have come in meanwhile), as the anonymous ``visitor`` gets them, kept in the page cache.
    A failure here is logged and leaves the pages to the next request that asks: the game is
    saved, and its answer said so."""
    try:
        with translation.override(visitor.LANGUAGE_CODE):
            public.event_standings(visitor, slug)  # computes the projector's rows too
    except Http404:
        pass
    except Exception:
        logger.exception("computing the standings of event %s after a write failed", event_id)


def _anonymous_get(request: HttpRequest, slug: str) -> HttpRequest:
    """A GET of the event's standings by a visitor without a login, a cookie or a page held, at
    the address the writing request came to, as the middleware would hand it to the view."""
    path = reverse("event_standings", args=[slug])
    environ = {
        key: value
        for key, value in request.META.items()
        if key in _KEPT_HEADERS or key in _KEPT_ENVIRON
    }
    script = environ.get("SCRIPT_NAME", "")
    environ.update(
        {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": path.removeprefix(script) if script else path,
            "QUERY_STRING": "",
            "CONTENT_LENGTH": "0",
            "wsgi.input": io.BytesIO(),
        }
    )
    visitor = WSGIRequest(environ)
    visitor.user = AnonymousUser()
    visitor.LANGUAGE_CODE = settings.LANGUAGE_CODE
    setattr(visitor, FOR_WRITER, True)
    return visitor
