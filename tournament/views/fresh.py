"""The standings of the version a saved game made are computed for its own request, right after
the game is answered, while the phones asking meanwhile get the version before.

A saved game makes a new version of its event (``models.versions``). The standings and the
projector's rows of that version used to be computed by whichever phone asked first, while the
others that asked in that moment waited for it (``pagecache.pages``); with a thousand players the
hall's reads queued behind every saved game (``bench/load.py``). Now the request that wrote hands
them, once its answer is made, to a process beside its own (below), which computes them as an
anonymous visitor in the default language gets them; from the write until they are kept, the
phones that ask are given the version before (``pagecache.writers``: one computation at most).
The table's phone is answered as soon as its game is stored, and its connection is free for its
next request at once (computed in the request itself, after the answer, it held the phone's
kept-alive connection until done: the table's next page waited for the standings).

``settings.STANDINGS_AFTER_WRITES``:

- "process" (the server): a process of its own beside each server process computes them
  (``manage.py standings_after_writes``, started with the server process's first write or
  when gunicorn has loaded the app, ended when its server process ends). In a thread of the
  server process the computation shared that process's interpreter lock with the requests it
  answered meanwhile: the table's phone loading its link page again right after its game, in
  the same process over its kept-alive connection, waited for the lock each time its request
  read the database or the cache (p95 168-225 ms for a thousand players, ``bench/load.py``).
  The operating system shares the cores between processes far more finely. The process reads
  the games to compute from a pipe; what arrived together is computed once per event.
- "thread": a thread of the writing request's process (where no other process can share the
  page cache: ``locmem://``).
- "inline": when the response is closed (the tests: the test client's request and its
  computation share the test's database transaction, which another process does not see; the
  computation then runs before the test goes on).

The views that write a table's games and sheets say so with ``@computes_standings``.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import logging
import os
import subprocess
import sys
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
from django.urls import resolve, reverse, set_script_prefix
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
            with versions.written(committed=writers.at_work, withdrawn=_withdrawn) as made:
                response = view(request, *args, **kwargs)
        except BaseException:
            _done(made)
            raise
        if not made:
            return response
        try:
            address = _address(request)
            tasks = [
                Task(event_id, event.slug, address, event.versions)
                for event_id, event in made.items()
            ]
            if settings.STANDINGS_AFTER_WRITES == "process":
                _to_the_process(tasks)
            elif settings.STANDINGS_AFTER_WRITES == "thread":
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
    """The pages of an event to compute after writes, at the address the writing request came
    to (``_address``), and the writers' versions to release."""

    event_id: int
    slug: str
    address: dict[str, str]
    versions: list[int]

    def run_apart(self) -> None:
        """``run`` in a thread or process of its own, as a request runs: its database connection
        checked before (replaced if the database closed it meanwhile) and after, and the path's
        prefix of the writing request's address."""
        db.close_old_connections()
        set_script_prefix(self.address.get("SCRIPT_NAME") or "/")
        try:
            self.run()
        finally:
            db.close_old_connections()

    def run(self) -> None:
        # computed even where the next version's writer is at work already: the pages are those
        # of the event's version now (``compute``), kept once whoever comes first; a writer that
        # left them to the next one would take its marker away before they are kept, and the
        # phones between the two would compute them themselves (``writers.earlier``)
        try:
            compute(_anonymous_get(self.address, self.slug), self.event_id, self.slug)
        finally:
            writers.done(self.event_id, self.versions)

    def line(self) -> bytes:
        """The task as one line of the pipe to the computing process."""
        return json.dumps([self.event_id, self.slug, self.address, self.versions]).encode() + b"\n"

    @classmethod
    def read(cls, lines: list[bytes]) -> list[Task]:
        """The tasks of the lines read together, one per event: its versions joined, computed
        once, at the newest version (``compute``) and the address of its latest write."""
        tasks: dict[int, Task] = {}
        for line in lines:
            if not line.strip():
                continue
            try:
                event_id, slug, address, numbers = json.loads(line)
            except ValueError:
                logger.error("a line the standings' process cannot read: %r", line[:200])
                continue
            if (task := tasks.get(event_id)) is not None:
                task.versions.extend(numbers)
                task.slug, task.address = slug, address  # the latest write's (a renamed event)
            else:
                tasks[event_id] = Task(event_id, slug, address, list(numbers))
        return list(tasks.values())


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
                waiting.slug, waiting.address = task.slug, task.address
                continue
            _WAITING[task.event_id] = task
            _POOL[0].submit(_in_the_thread, task.event_id).add_done_callback(_failed)


def _in_the_thread(event_id: int) -> None:
    with _POOL_LOCK:
        task = _WAITING.pop(event_id)
    task.run_apart()


def _failed(future: Future) -> None:
    if (error := future.exception()) is not None:
        logger.error("computing the standings after a write failed", exc_info=error)


# the computing process of this server process, made on first use (``computer``)
_PROCESS: list[subprocess.Popen] = []


def computer() -> subprocess.Popen:
    """This server process's computing process, started if it is not running: the same Python
    and settings, reading tasks from its standard input; its log goes where the server's goes.
    It ends when its input closes, that is when this process ends."""
    with _POOL_LOCK:
        if _PROCESS and _PROCESS[0].poll() is None:
            return _PROCESS[0]
        if _PROCESS:
            ended = _PROCESS.pop()
            logger.error("the standings' process ended (%s); starting another", ended.returncode)
            ended.stdin.close()
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings.SETTINGS_MODULE}
        process = subprocess.Popen(
            [sys.executable, str(settings.BASE_DIR / "manage.py"), "standings_after_writes"],
            stdin=subprocess.PIPE,
            env=env,
            cwd=settings.BASE_DIR,
        )
        # a process that has fallen behind by a full pipe (some 200 games) is not waited for: the
        # writes' markers are taken away, and the readers compute the pages themselves
        fd = process.stdin.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        _PROCESS.append(process)
        return process


def _to_the_process(tasks: list[Task]) -> None:
    """Hand the tasks to the computing process, a line per write: a line is shorter than the
    pipe's atomic size (``_address`` keeps it so), so a write puts the whole line in the pipe or
    nothing, never a part that the next line would be read with. The process ended meanwhile
    (or replaced by another request's thread) is started again for them."""
    for number, task in enumerate(tasks):
        line = task.line()
        for attempt in (1, 2):
            process = computer()
            try:
                with _POOL_LOCK:
                    os.write(process.stdin.fileno(), line)
                break
            except (BrokenPipeError, ValueError) as gone:  # ended, or replaced meanwhile
                if isinstance(gone, BrokenPipeError):
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(timeout=5)  # so that ``computer`` starts another
                if attempt == 2:
                    raise
            except BlockingIOError:
                for behind in tasks[number:]:
                    writers.done(behind.event_id, behind.versions)
                logger.error("the standings' process is behind: its pipe is full")
                return


def serve_tasks(fd: int) -> None:
    """The computing process's loop (``manage.py standings_after_writes``): the tasks read at
    once are computed once per event; what arrives meanwhile waits in the pipe and is read
    together next. Returns when the server process has closed the pipe."""
    rest = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        *lines, rest = (rest + chunk).split(b"\n")
        for task in Task.read(lines):
            try:
                task.run_apart()
            except Exception:
                logger.exception("computing the standings of event %s failed", task.event_id)


def wait() -> None:
    """Until every computation handed to this process's thread so far is done, and the thread's
    database connection closed (the tests: a test database is dropped at the end)."""
    if _POOL:
        _POOL[0].submit(db.connections.close_all).result()


def _withdrawn(event_id: int, version: int) -> None:
    """A version told at its write whose transaction was rolled back: nobody is at work on it."""
    writers.done(event_id, [version])


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


def _address(request: HttpRequest) -> dict[str, str]:
    """What of the writing request the pages' links are made of: its host, port, scheme and the
    path's prefix (``get_script_name``), never its cookies or login."""
    address = {
        key: str(value)[:ADDRESS_PART]
        for key, value in request.META.items()
        if key in _KEPT_HEADERS or key in _KEPT_ENVIRON
    }
    address["SCRIPT_NAME"] = get_script_name(request.META)[:ADDRESS_PART]
    return address


# the longest part of an address a task carries: a task's line stays well below the 4,096 bytes
# a pipe takes whole (a host or prefix longer than this is no address of this server)
ADDRESS_PART = 200


def _anonymous_get(address: dict[str, str], slug: str) -> HttpRequest:
    """A GET of the event's standings by a visitor without a login, a cookie or a page held, at
    the ``address`` the writing request came to, as the middleware would hand it to the view."""
    path = reverse("event_standings", args=[slug])
    environ: dict[str, Any] = dict(address)
    path_info = path.removeprefix(environ.get("SCRIPT_NAME", ""))
    environ.update(
        {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": path_info,
            "QUERY_STRING": "",
            "CONTENT_LENGTH": "0",
            "wsgi.input": io.BytesIO(),
        }
    )
    visitor = WSGIRequest(environ)
    # as the URL resolver hands it to the view: the page's help link is chosen by its name
    visitor.resolver_match = resolve(path_info)
    visitor.user = AnonymousUser()
    visitor.LANGUAGE_CODE = settings.LANGUAGE_CODE
    setattr(visitor, FOR_WRITER, True)
    return visitor
