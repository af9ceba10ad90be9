"""Championship scale, measured: ``python bench/run.py`` (after ``make test``, inside .venv).

Builds the data once through the real services (bench/generate.py) into bench/out/bench.sqlite3,
then prints one line per figure and a closing summary, and exits 1 when a target is missed.

Robust figures: every time is the median of enough runs that two runs of the benchmark on an idle
machine agree within 15 % (at least a few runs and at least a second or two of work per figure, so
fast figures get more runs); a comparison with a floor (raw SQL, openpyxl alone) is the median of
the ratios of floor and tool measured alternately, so a neighbour's load hits both alike. The
figures of a run are kept in bench/out/last-<database>.json, and the summary says whether this run
agrees with the previous one within 15 %, and names each figure that does not.

    .venv/bin/python bench/run.py                     # everything
    .venv/bin/python bench/run.py --quick             # skip the HTTP load test
    .venv/bin/python bench/run.py --only standings,pages
    .venv/bin/python bench/run.py --only stats        # the statistics pages (issue 16)
    .venv/bin/python bench/run.py --only floor        # what one read costs, nothing else going on
    .venv/bin/python bench/run.py --only copy         # posts with and without the live copy
    .venv/bin/python bench/run.py --database postgres://user:pw@127.0.0.1:5432/db
    .venv/bin/python bench/run.py --database postgres://… --cache redis://127.0.0.1:6379/0
    make bench-pg                                     # the same on a throwaway PostgreSQL cluster
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
DB = OUT / "bench.sqlite3"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-" + "x" * 40)


def database_from(argv: list[str]) -> str:
    """``--database URL`` (read before Django starts), else the SQLite file in bench/out/."""
    for i, arg in enumerate(argv):
        if arg == "--database" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--database="):
            return arg.split("=", 1)[1]
    return f"sqlite:///{DB}"


os.environ["DATABASE_URL"] = database_from(sys.argv[1:])
os.environ.pop("DJANGO_DEBUG", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

from bench import generate, load  # noqa: E402
from tournament.models import Entry, Event, Hand, Round, Season, Table, versions  # noqa: E402
from tournament.play import rounds  # noqa: E402
from tournament.results import standings  # noqa: E402

RESULTS: list[tuple[str, bool]] = []
# each figure's number (a time, a ratio, a p95), compared with the previous run's
FIGURES: dict[str, float] = {}
AGREE = 0.15  # two runs agree when a figure differs by at most 15 %
PARTS = (
    "standings",
    "version",
    "floor",
    "pages",
    "draw",
    "export",
    "growth",
    "http",
    "morning",
    "load",
    "copy",
    "stats",
)


def log(text: str) -> None:
    print(text, flush=True)


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def median_time(
    work: Callable[[], object], runs: int = 5, seconds: float = 1.0, most: int = 200
) -> float:
    """The median of at least ``runs`` runs and at least ``seconds`` of work: a figure of a few
    milliseconds gets hundreds of runs, one of a second a few."""
    work()  # warm up: the first run pays for imports, compiled templates and cold caches
    times: list[float] = []
    while len(times) < most and (len(times) < runs or sum(times) < seconds):
        times.append(timed(work))
    return statistics.median(times)


def median_ratio(
    floor: Callable[[], object],
    tool: Callable[[], object],
    runs: int = 9,
    seconds: float = 2.0,
    most: int = 300,
) -> tuple[float, float, float]:
    """Floor and tool measured alternately: (median floor, median tool, median of the ratios of
    each pair). Pairs taken moments apart see the same load, so their ratio is steadier than a
    ratio of two medians taken one after the other."""
    floor()
    tool()
    floors: list[float] = []
    tools: list[float] = []
    while len(floors) < most and (len(floors) < runs or sum(floors) + sum(tools) < seconds):
        floors.append(timed(floor))
        tools.append(timed(tool))
    ratios = [t / f for f, t in zip(floors, tools, strict=True)]
    return statistics.median(floors), statistics.median(tools), statistics.median(ratios)


def figure(name: str, value: str, ok: bool, target: str, key: str = "", number: float = 0) -> None:
    """A figure's line; ``key`` and ``number`` keep it for the comparison with the next run."""
    RESULTS.append((name, ok))
    if key:
        FIGURES[key] = number
    log(f"{'PASS' if ok else 'MISS'}  {name}: {value} (target {target})")


def compare_with_last(path: Path) -> str:
    """Whether this run's figures agree with the last run's on this database (within 15 %), and
    keep this run's figures (merged over the last ones, so a partial run still compares)."""
    try:
        last = json.loads(path.read_text())["figures"]
    except (OSError, ValueError, KeyError):
        last = {}
    common = [key for key in FIGURES if last.get(key)]
    differ = [
        f"{key} {last[key]:.3g} → {FIGURES[key]:.3g} ({FIGURES[key] / last[key] - 1:+.0%})"
        for key in common
        if abs(FIGURES[key] - last[key]) > AGREE * abs(last[key])
    ]
    path.write_text(
        json.dumps(
            {
                "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "database": connection.vendor,
                "figures": {**last, **FIGURES},
            },
            indent=1,
            sort_keys=True,
        )
    )
    if not common:
        return f"no previous run to compare with ({path.name} kept for the next one)"
    if not differ:
        return f"all {len(common)} figures agree with the previous run within 15 %"
    return (
        f"{len(common) - len(differ)} of {len(common)} figures agree with the previous run "
        f"within 15 %; differ: {'; '.join(differ)}"
    )


# --- standings against the database's own floor ----------------------------------------------


def raw_event_floor(event: Event) -> list[tuple[int, int]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT entry_id, SUM(points) FROM tournament_result "
            "WHERE event_id = %s AND counts GROUP BY entry_id ORDER BY 2 DESC",
            [event.pk],
        )
        return cursor.fetchall()


def raw_seats_floor(event: Event) -> list[tuple[int, int]]:
    """What the standings read since the seats hold their results' sums: one row per seat."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.entry_id, SUM(s.points) FROM tournament_seat s JOIN tournament_round r "
            "ON r.id = s.round_id WHERE r.event_id = %s GROUP BY s.entry_id ORDER BY 2 DESC",
            [event.pk],
        )
        return cursor.fetchall()


def tool_event_standings(event: Event) -> list[Entry]:
    rounds = list(event.rounds.all())
    return list(Entry.objects.standings(event, rounds))


def raw_season_floor(season: Season) -> list[tuple[int, int, int]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT e.player_id, r.event_id, SUM(r.points) FROM tournament_result r "
            "JOIN tournament_entry e ON e.id = r.entry_id JOIN tournament_event v ON "
            "v.id = r.event_id WHERE v.season_id = %s AND r.counts GROUP BY e.player_id, "
            "r.event_id",
            [season.pk],
        )
        return cursor.fetchall()


def bench_standings(big: Event, season: Season) -> None:
    # a floor of 10 ms: four seconds of pairs (some 100) for a ratio steady to a few per cent
    floor, tool, ratio = median_ratio(
        lambda: raw_event_floor(big), lambda: tool_event_standings(big), seconds=4
    )
    figure(
        "event standings, 1,000 players: tool / raw SUM GROUP BY",
        f"{ratio:.2f} ({tool * 1000:.0f} ms vs {floor * 1000:.0f} ms)",
        ratio <= 2.5,
        "<= 2.5",
        "event_standings_ratio",
        ratio,
    )
    # the standings add up the seats' sums, written with the results: below the floor of
    # summing every result; against a bare sum of the seats, the rest of the work shows
    floor, tool, ratio = median_ratio(
        lambda: raw_seats_floor(big), lambda: tool_event_standings(big), seconds=4
    )
    log(
        "info  event standings, 1,000 players: tool / raw SUM of the seats' sums: "
        f"{ratio:.2f} ({tool * 1000:.0f} ms vs {floor * 1000:.0f} ms)"
    )
    floor, tool, ratio = median_ratio(
        lambda: raw_season_floor(season), lambda: standings.season_standings(season), seconds=4
    )
    figure(
        "season standings, 14 events: tool / raw SUM GROUP BY",
        f"{ratio:.2f} ({tool * 1000:.0f} ms vs {floor * 1000:.0f} ms)",
        ratio <= 2.5,
        "<= 2.5",
        "season_standings_ratio",
        ratio,
    )


def bench_version(big: Event) -> None:
    """What a new version of the 1,000-player standings costs this process: the event changes
    (as with every saved game), then the first phone asks for the standings and the projector
    asks for its rows, each computed for the new version (anonymous, with the page cache of the
    settings, gzip accepted). CPU time of this process (``time.process_time``): on SQLite the
    database's work is in it, on PostgreSQL the database server's is not."""
    client = Client(HTTP_ACCEPT_ENCODING="gzip")
    pages = [f"/turnier/{big.slug}/rangliste/", f"/turnier/{big.slug}/beamer/zeilen/"]
    costs = []
    with override_settings(ALLOWED_HOSTS=["testserver"]):
        for run in range(40):
            with transaction.atomic():
                versions.changed(big)
            start = time.process_time()
            for page in pages:
                assert client.get(page).status_code == 200
            if run:  # the first run pays for templates and imports
                costs.append(time.process_time() - start)
            for page in pages:  # the version is kept: the next phones read it from the cache
                assert client.get(page).status_code == 200
    cost = statistics.median(costs) * 1000
    figure(
        "CPU per new version of the 1,000-player standings (standings page and projector rows)",
        f"{cost:.1f} ms",
        cost <= 10,
        "<= 10 ms",
        "version_cpu_ms",
        cost,
    )


def bench_floor(big: Event) -> None:
    """What one read costs the server with nothing else going on: the floor under the hall's
    "server CPU per read" (``load``), which adds the games posted and the pages they make new.
    Each kind of read the phones make, its page kept (the version does not change): in this
    process through Django's test client, then through gunicorn as ``make serve`` runs it
    (one connection kept alive, requests one after another), the server's CPU per request."""
    entries = Entry.objects.filter(event=big).exclude(token="").order_by("pk")
    tokens = entries.values_list("token", flat=True)[:200]
    reads = {
        "standings": [f"/turnier/{big.slug}/rangliste/"],
        "projector rows": [f"/turnier/{big.slug}/beamer/zeilen/"],
        "personal page": [f"/m/{token}/" for token in tokens],
    }
    client = Client(HTTP_ACCEPT_ENCODING="gzip")
    inside = {}
    with override_settings(ALLOWED_HOSTS=["testserver"]):
        for name, paths in reads.items():
            for path in paths:  # computed and kept
                assert client.get(path).status_code == 200
            costs = []
            for i in range(600):
                start = time.process_time()
                assert client.get(paths[i % len(paths)]).status_code == 200
                costs.append(time.process_time() - start)
            inside[name] = statistics.median(costs) * 1000
    with load.gunicorn(log) as (base, server):
        address = urllib.parse.urlsplit(base)
        connection_ = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
        load.settle(server.pid, log)
        for name, paths in reads.items():
            for path in paths:
                connection_.request("GET", path, headers={"Accept-Encoding": "gzip"})
                connection_.getresponse().read()
            count = 1500
            before = load.process_ticks(server.pid)
            for i in range(count):
                connection_.request(
                    "GET", paths[i % len(paths)], headers={"Accept-Encoding": "gzip"}
                )
                response = connection_.getresponse()
                response.read()
                assert response.status == 200, response.status
            served = load.cpu_seconds(before, load.process_ticks(server.pid)) / count * 1000
            log(
                f"info  one read, page kept, nothing else going on: {name}: {inside[name]:.2f} ms "
                f"of CPU in this process; {served:.2f} ms of the server's CPU through gunicorn"
            )


# the pages as computed: a page cache (if the settings have one) would answer the repeated
# requests from memory, and what is measured here is what a change of the event costs
NO_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def bench_pages(big: Event) -> None:
    client = Client()
    url = f"/turnier/{big.slug}/rangliste/"

    def get(path: str) -> None:
        response = client.get(path)
        assert response.status_code == 200, response.status_code

    with override_settings(ALLOWED_HOSTS=["testserver"], CACHES=NO_CACHE):
        printed = median_time(lambda: get(f"/turnier/{big.slug}/rangliste/druck/"), seconds=3)
        page = median_time(lambda: get(url + "?per_page=50"), seconds=2)
        screen = median_time(lambda: get(url), seconds=2)
        everything = median_time(lambda: get(url + "?per_page=all"), seconds=3)
    figure(
        "full standings page, 1,000 rows (as printed)",
        f"{printed:.3f} s",
        printed < 1.0,
        "< 1 s",
        "printed_page_s",
        printed,
    )
    figure(
        "paginated standings page (50 rows)",
        f"{page:.3f} s",
        page < 0.2,
        "< 0.2 s",
        "page_50_s",
        page,
    )
    figure(
        "sortable standings page with all 1,000 rows (?per_page=all)",
        f"{everything:.3f} s",
        everything < 0.3,
        "< 0.3 s",
        "sortable_all_s",
        everything,
    )
    log(f"info  standings page as first shown (100 rows): {screen:.3f} s")


# --- statistics (issue 16) -------------------------------------------------------------------


def bench_stats(big: Event, season: Season) -> None:
    """The event statistics of the 1,000-player event and the page of a player with 14 events,
    as computed (no page cache), each through the whole request."""
    client = Client()
    player = (
        Entry.objects.filter(event__season=season)
        .values("player__uid")
        .annotate(events=Count("event"))
        .filter(events=14)
        .order_by("player__uid")
        .values_list("player__uid", flat=True)
        .first()
    )

    def get(path: str) -> None:
        response = client.get(path)
        assert response.status_code == 200, response.status_code

    with override_settings(ALLOWED_HOSTS=["testserver"], CACHES=NO_CACHE):
        event_page = median_time(lambda: get(f"/turnier/{big.slug}/statistik/"), seconds=3)
        player_page = median_time(lambda: get(f"/spieler/{player}/"), seconds=3)
    figure(
        "event statistics page, 1,000 players, 12,000 hands",
        f"{event_page:.3f} s",
        event_page < 0.5,
        "< 0.5 s",
        "stats_event_s",
        event_page,
    )
    figure(
        "player page with statistics, 14 events of a season",
        f"{player_page:.3f} s",
        player_page < 0.5,
        "< 0.5 s",
        "stats_player_s",
        player_page,
    )


# --- the draw -----------------------------------------------------------------------------


def draw_once(big: Event) -> tuple[float, int]:
    second = big.rounds.get(number=2)
    with transaction.atomic():
        # draw round 2 again as on the day: round 1 closed, round 2 not yet seated
        Table.objects.filter(round=second).delete()
        second.seats.all().delete()
        Round.objects.filter(pk=second.pk).update(status=Round.Status.DRAFT)
        start = time.perf_counter()
        drawn = rounds.draw_round(round=second, seed=2)
        took = time.perf_counter() - start
        repeats = drawn.repeat_meetings
        transaction.set_rollback(True)
    return took, repeats


def bench_draw(big: Event) -> None:
    runs = [draw_once(big) for _ in range(5)]
    took = statistics.median(r[0] for r in runs)
    repeats = max(r[1] for r in runs)
    figure(
        "draw round 2 of 1,000 players, avoiding repeat meetings",
        f"{took:.2f} s, {repeats} repeat meetings",
        took < 5 and repeats == 0,
        "< 5 s, 0 repeats",
        "draw_s",
        took,
    )


# --- Excel export -------------------------------------------------------------------------

EXPORT_PROBE = """
import io, os, resource, sys, time
sys.path.insert(0, {root!r})
import django
django.setup()
import openpyxl
from tournament.paper.exports import event_workbook
from tournament.models import Event
event = Event.objects.get(slug={slug!r})
start = time.perf_counter()
with open({out!r}, "wb") as handle:
    event_workbook(event, handle)
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
floor = 0.0
if {floor!r}:
    # the floor: openpyxl's write-only mode writing the same sheets, rows and values, read back
    # from the tool's file into plain lists beforehand (no queries, no formatting)
    book = openpyxl.load_workbook({out!r}, read_only=True)
    sheets = [(ws.title, [list(row) for row in ws.iter_rows(values_only=True)]) for ws in book]
    book.close()
    start = time.perf_counter()
    plain = openpyxl.Workbook(write_only=True)
    for title, rows in sheets:
        ws = plain.create_sheet(title)
        for row in rows:
            ws.append(row)
    with open({out!r} + ".floor", "wb") as handle:
        plain.save(handle)
    floor = time.perf_counter() - start
print(took, floor, peak)
"""


def export_once(event: Event, floor: bool = False) -> tuple[float, float, float]:
    """Export in a fresh process: its peak memory is the export's, not this process's (taken
    before the floor is measured). Returns the export's time, the floor's (with ``floor``) and the
    peak in MB."""
    out = OUT / f"{event.slug}.xlsx"
    code = EXPORT_PROBE.format(root=str(ROOT), slug=event.slug, out=str(out), floor=floor)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True
    )
    took, floor_took, peak_kb = result.stdout.split()
    return float(took), float(floor_took), int(peak_kb) / 1024


def bench_export(big: Event) -> None:
    runs = [export_once(big, floor=True) for _ in range(5)]
    took = statistics.median(r[0] for r in runs)
    floor = statistics.median(r[1] for r in runs)
    ratio = statistics.median(r[0] / r[1] for r in runs)
    peak = max(r[2] for r in runs)
    hands = Hand.objects.filter(table__round__event=big).count()
    figure(
        f"Excel export of {hands:,} hands",
        f"{took:.2f} s, peak {peak:.0f} MB",
        took < 10 and peak < 300,
        "< 10 s, < 300 MB",
        "export_s",
        took,
    )
    figure(
        "Excel export: tool / openpyxl write-only writing the same cells",
        f"{ratio:.2f} ({took:.2f} s vs {floor:.2f} s)",
        ratio <= 2,
        "<= 2",
        "export_ratio",
        ratio,
    )


EXPORT_GROWTH_ROUNDS = 5


def bench_growth() -> None:
    """How the cost grows from the smallest event to the largest: the median of the ratios of
    the two measured moments apart (as a tool and its floor are), so that a neighbour's load hits
    both alike. The export's sizes were measured one after the other until 2026-12-01: a burst
    of load during one of them moved the growth by a fifth (x4.56 and x5.15 on the same code)."""
    sizes = {n: Event.objects.get(slug=slug) for n, slug in generate.SIZES.items()}
    small, large = min(sizes), max(sizes)
    small_t, large_t, standings_growth = median_ratio(
        lambda: tool_event_standings(sizes[small]),
        lambda: tool_event_standings(sizes[large]),
        seconds=2,
    )
    standings_t = {
        n: {small: small_t, large: large_t}.get(n)
        or median_time(lambda e=e: tool_event_standings(e), seconds=2)
        for n, e in sizes.items()
    }
    rounds = [{n: export_once(e)[0] for n, e in sizes.items()} for _ in range(EXPORT_GROWTH_ROUNDS)]
    export_t = {n: statistics.median(r[n] for r in rounds) for n in sizes}
    export_growth = statistics.median(r[large] / r[small] for r in rounds)
    linear = large / small
    for name, times, growth in (
        ("standings", standings_t, standings_growth),
        ("export", export_t, export_growth),
    ):
        line = ", ".join(f"{n}: {t * 1000:.0f} ms" for n, t in times.items())
        # n times the players may cost at most n times as much (with 25 % for noise)
        figure(
            f"{name} cost growth {small} → {large:,} players",
            f"x{growth:.2f} ({line})",
            growth <= linear * 1.25,
            f"<= x{linear * 1.25:.1f}: linear x{linear:.1f}, with 25 % for noise",
            f"{name}_growth",
            growth,
        )


# --- entering hands over HTTP ---------------------------------------------------------------

# A hall of 36 tables, each entering its round of 24 games. A real table enters a game every few
# minutes; here all tables together post 32 games a second (the rate of the earlier 16 clients
# pausing half a second), far more than a hundred times the pace of the hall.
CLIENTS = 36
HANDS_PER_CLIENT = 24
RATE = 32.0
THINK = CLIENTS / RATE  # a client's mean pause between two games
# Each pause is drawn between half and one and a half times the mean, and the clients start at
# random moments of the first pause: with one fixed pause the clients posted in step, all within
# a few milliseconds, and the p95 was the wait of the last of each burst at SQLite's single
# writer (whether the clients fell into step or not made it 84, 123 or 156 ms from run to run)
JITTER = 0.5
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    return load.free_port()  # BENCH_PORT, or a free port


def start_gunicorn() -> tuple[subprocess.Popen, str]:
    """gunicorn as make serve runs it, on a free port of the loopback, once it answers."""
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "-c",
            "python:tournament.gunicorn_settings",  # as make serve runs it
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    return server, base


def run_together(threads: list[threading.Thread], timeout: float) -> float:
    """Start the clients at once and wait for them all: the seconds it took."""
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return time.perf_counter() - start


def prepare_load_event() -> list[str]:
    """A fresh event of 64 players, round 1 started: 16 tables whose links the clients use."""
    Event.objects.filter(slug="bench-load").delete()
    with transaction.atomic():
        event = generate._event(
            "bench-load", "Benchmark Last", generate._players(CLIENTS * 4, "bench-load")
        )
    rnd = rounds.add_round(event=event)
    rounds.draw_round(round=rnd, seed=7)
    rounds.start_round(round=rnd)
    return [t.token for t in rnd.tables.order_by("number")]


def client_run(port: int, token: str, latencies: list[float], errors: list[str], seed: int) -> None:
    """One phone: open the table link once, then post its games; each post's time is measured
    until the server's answer (the redirect after the game is stored)."""
    pause = random.Random(seed)
    time.sleep(pause.uniform(0, THINK))
    path = f"/t/{token}/"
    connection_ = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection_.request("GET", path)
    response = connection_.getresponse()
    page = response.read().decode()
    # each Set-Cookie header on its own: joined, an "expires" date's comma breaks the parse
    cookie = SimpleCookie()
    for header in response.msg.get_all("Set-Cookie") or []:
        cookie.load(header)
    csrf_cookie = cookie["csrftoken"].value
    form_token = CSRF.search(page).group(1)
    for number in range(1, HANDS_PER_CLIENT + 1):
        body = urllib.parse.urlencode(
            {
                "csrfmiddlewaretoken": form_token,
                "submission": str(uuid.uuid4()),
                "contract": "halbe",
                "declarer": "1" if number % 4 == 1 else "0",
                "declarer_points": str(30 + number),
                "action": "save",
            }
        )
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf_cookie}",
            "Referer": f"http://127.0.0.1:{port}{path}",
        }
        start = time.perf_counter()
        try:
            connection_.request("POST", path, body=body, headers=headers)
            response = connection_.getresponse()
            response.read()
            latencies.append(time.perf_counter() - start)
            if response.status != 302:
                errors.append(f"{token[:6]} game {number}: HTTP {response.status}")
        except Exception as exc:  # every failure is counted, none hidden
            errors.append(f"{token[:6]} game {number}: {exc}")
            connection_ = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        time.sleep(THINK * pause.uniform(1 - JITTER, 1 + JITTER))
    connection_.close()


def bench_http() -> None:
    tokens = prepare_load_event()
    server, base = start_gunicorn()
    port = int(base.rsplit(":", 1)[1])
    try:
        latencies: list[float] = []
        errors: list[str] = []
        threads = [
            threading.Thread(target=client_run, args=(port, t, latencies, errors, seed))
            for seed, t in enumerate(tokens)
        ]
        took = run_together(threads, timeout=300)
    finally:
        server.terminate()
        server.wait(timeout=30)
    stored = Hand.objects.filter(table__round__event__slug="bench-load").count()
    expected = CLIENTS * HANDS_PER_CLIENT
    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95) - 1] if latencies else float("inf")
    ok = p95 < 0.1 and not errors and stored == expected
    figure(
        f"{CLIENTS} tables entering {expected} hands over HTTP "
        f"({RATE:.0f} a second in all, {THINK:.2f} s between a table's games on average)",
        f"p95 {p95 * 1000:.0f} ms, median {statistics.median(latencies) * 1000:.0f} ms, "
        f"{len(errors)} errors, {stored}/{expected} stored, {took:.1f} s",
        ok,
        "p95 < 100 ms, no error, nothing lost",
        "http_p95_ms",
        p95 * 1000,
    )
    for error in errors[:5]:
        log(f"      {error}")


MORNING_PLAYERS = 150
MORNING_DESKS = 2
DESK_PASSWORD = "bench-desk-password-2026"


def prepare_morning_event() -> list[int]:
    """A fresh event of 150 registered players, nobody checked in yet: their start numbers."""
    from django.contrib.auth import get_user_model

    Event.objects.filter(slug="bench-morning").delete()
    with transaction.atomic():
        event = generate._event(
            "bench-morning",
            "Benchmark Morgen",
            generate._players(MORNING_PLAYERS, "bench-morning"),
        )
    users = get_user_model()
    desk = users.objects.filter(username="bench-desk").first() or users(
        username="bench-desk", is_staff=True
    )
    desk.set_password(DESK_PASSWORD)
    desk.save()
    return list(event.entries.order_by("start_number").values_list("start_number", flat=True))


def desk_run(
    base: str, numbers: list[int], taps: list[float], finds: list[float], errors: list[str]
):
    """One desk as a person works it: log in, then for each player arriving type the start number
    (the search page answers) and tap "check in" (the post, and the desk page it leads back to)."""
    import http.cookiejar

    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    page = opener.open(base + "/anmelden/", timeout=30).read().decode()
    opener.open(
        base + "/anmelden/",
        urllib.parse.urlencode(
            {
                "csrfmiddlewaretoken": CSRF.search(page).group(1),
                "username": "bench-desk",
                "password": DESK_PASSWORD,
            }
        ).encode(),
        timeout=30,
    ).read()
    desk = f"{base}/turnier/bench-morning/checkin/"
    entry_of = re.compile(r'name="entry" value="(\d+)"')
    for number in numbers:
        try:
            start = time.perf_counter()
            found = opener.open(f"{desk}?q={number}", timeout=30).read().decode()
            finds.append(time.perf_counter() - start)
            body = urllib.parse.urlencode(
                {
                    "csrfmiddlewaretoken": CSRF.search(found).group(1),
                    "entry": entry_of.search(found).group(1),
                    "action": "check_in",
                    "fee": "",
                }
            ).encode()
            start = time.perf_counter()
            answer = opener.open(desk, body, timeout=30)  # follows the redirect to the desk
            text = answer.read().decode()
            taps.append(time.perf_counter() - start)
            if "ist eingecheckt" not in text and "is checked in" not in text:
                errors.append(f"start number {number}: no confirmation on the desk page")
        except Exception as exc:  # every failure is counted, none hidden
            errors.append(f"start number {number}: {exc}")


def bench_morning() -> None:
    """The morning at the desk: 150 players checked in by two desks at once, through HTTP."""
    numbers = prepare_morning_event()
    server, base = start_gunicorn()
    taps: list[float] = []
    finds: list[float] = []
    errors: list[str] = []
    try:
        # the two desks take the arrivals in turn, both at the same moment
        threads = [
            threading.Thread(
                target=desk_run, args=(base, numbers[i::MORNING_DESKS], taps, finds, errors)
            )
            for i in range(MORNING_DESKS)
        ]
        took = run_together(threads, timeout=600)
    finally:
        server.terminate()
        server.wait(timeout=30)
    present = Entry.objects.filter(event__slug="bench-morning", present_at__isnull=False).count()
    p95, find95 = load.percentile(taps, 95), load.percentile(finds, 95)
    ok = p95 < 0.15 and not errors and present == MORNING_PLAYERS
    figure(
        f"the morning: {MORNING_PLAYERS} players checked in by {MORNING_DESKS} desks at once "
        "over HTTP (search by start number, then the tap and the desk page after it)",
        f"tap p95 {p95 * 1000:.0f} ms (median {statistics.median(taps) * 1000:.0f} ms), "
        f"search p95 {find95 * 1000:.0f} ms, {len(errors)} errors, "
        f"{present}/{MORNING_PLAYERS} present, {took:.1f} s",
        ok,
        "tap p95 < 150 ms, no error, everybody present once",
        "checkin_p95_ms",
        p95 * 1000,
    )
    for error in errors[:5]:
        log(f"      {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the HTTP and load tests")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a database URL, e.g. postgres://user:pw@127.0.0.1:5432/db (default: SQLite in "
        "bench/out/; make bench-pg starts a throwaway PostgreSQL cluster for it)",
    )
    parser.add_argument(
        "--cache",
        metavar="URL",
        default="",
        help="redis://host:port/db: the load figures against the association's server as "
        "docs/deployment.md sets it up (nginx, two app servers sharing this Redis; needs nginx "
        "and a PostgreSQL --database)",
    )
    parser.add_argument(
        "--only",
        metavar="PARTS",
        help=f"a comma-separated choice of {', '.join(PARTS)} (default: all of them)",
    )
    args = parser.parse_args()
    parts = set(args.only.split(",")) if args.only else set(PARTS)
    if unknown := parts - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    if args.quick:
        parts -= {"http", "morning", "load", "copy"}
    log(f"database: {connection.vendor}")
    OUT.mkdir(exist_ok=True)
    total = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    generate.ensure(log)
    if connection.vendor == "postgresql":
        # the state autovacuum keeps a served database in: fresh statistics, and a visibility map
        # that lets index-only scans skip the table (the data was just written, or a load run
        # deleted its round)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    big = Event.objects.get(slug=generate.BIG)
    season = Season.objects.get(slug=generate.SEASON)
    if "standings" in parts:
        bench_standings(big, season)
    if "version" in parts:
        bench_version(big)
    if "floor" in parts:
        bench_floor(big)
    if "pages" in parts:
        bench_pages(big)
    if "draw" in parts:
        bench_draw(big)
    if "export" in parts:
        bench_export(big)
    if "growth" in parts:
        bench_growth()
    if "http" in parts:
        bench_http()
    if "morning" in parts:
        bench_morning()
    if "load" in parts:
        load.run_load(figure, log, cache=args.cache)  # the hall full of phones (bench/load.py)
    if "copy" in parts and connection.vendor == "sqlite":
        # the laptop's live copy (issue 45): posts with and without Litestream, its lag
        load.run_load(figure, log, copy=True)
    if "stats" in parts:
        bench_stats(big, season)
    missed = [name for name, ok in RESULTS if not ok]
    log(
        f"SUMMARY: {len(RESULTS) - len(missed)} of {len(RESULTS)} targets met"
        + (f"; missed: {', '.join(missed)}" if missed else "")
        + f" ({time.perf_counter() - total:.0f} s)"
    )
    log(f"AGREEMENT: {compare_with_last(OUT / f'last-{connection.vendor}.json')}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
