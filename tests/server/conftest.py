"""The stack of deploy/stack.py for the tests of this folder: nginx over HTTPS in front of two
gunicorn app servers, a Redis for their page cache, on a PostgreSQL database of its own (on the
server of DATABASE_URL), with the demo season loaded by ``load_demo``.

Skipped, with the reason, where the machine lacks what it needs: PostgreSQL (DATABASE_URL), nginx,
redis-server or openssl. ``.ci/run`` installs them and sets REQUIRE_SERVER=1, which turns a missing
program into a failure.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import urllib.parse
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from deploy import stack as recipe

ROOT = Path(__file__).resolve().parents[2]
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
EVENT = "triberg-2026"  # the demo's event with a round in play (fixtures/demo_events.json)
STANDINGS = f"/turnier/{EVENT}/rangliste/"


def database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip(
            "the server stack runs on PostgreSQL: set DATABASE_URL=postgres://… "
            "(.ci/run does, for its PostgreSQL run)"
        )
    if missing := recipe.missing_programs():
        reason = (
            f"the server stack needs {', '.join(missing)} "
            "(Debian: apt-get install nginx redis-server openssl)"
        )
        if os.environ.get("REQUIRE_SERVER"):
            pytest.fail(reason + "; .ci/run installs them")
        pytest.skip(reason)
    return url


def fresh_database(url: str, name: str) -> str:
    """A new empty database ``name`` on the server of ``url``, and its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def manage(stack: recipe.Stack, *args: str) -> str:
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", *args],
        cwd=ROOT,
        env=stack.settings(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="session")
def stack_database(tmp_path_factory) -> Iterator[str]:
    """The stack's database: migrated, static files collected, the demo season loaded; dropped
    at the end."""
    server = database_url()
    name = f"cego_stack_{os.getpid()}"
    url = fresh_database(server, name)
    setup = recipe.Stack(work=tmp_path_factory.mktemp("stack-setup"), database_url=url)
    manage(setup, "migrate", "--noinput", "-v0")
    manage(setup, "collectstatic", "--noinput", "-v0")
    manage(setup, "load_demo")
    yield url
    import psycopg

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start(tmp_path_factory: pytest.TempPathFactory, url: str, **options) -> recipe.Stack:
    return recipe.Stack(work=tmp_path_factory.mktemp("stack"), database_url=url, **options).start()


@pytest.fixture(scope="module")
def stack(tmp_path_factory, stack_database) -> Iterator[recipe.Stack]:
    """Two app servers sharing a Redis, behind nginx."""
    running = start(tmp_path_factory, stack_database)
    yield running
    running.stop()


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    text: str

    def header(self, name: str) -> str:
        return self.headers.get(name, "")


@dataclass
class Browser:
    """A client of the stack as a browser is one: its own cookies, one address (127.0.0.2 is
    another machine than 127.0.0.1), HTTPS through nginx, or straight to one app server with the
    headers nginx would add (``port``)."""

    stack: recipe.Stack
    source: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        *,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        port: int | None = None,
    ) -> Answer:
        sent = {"Host": f"{recipe.HOST}:{self.stack.https_port}"}
        if port is not None:  # straight to an app server, as nginx would pass it on
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            sent.update(self.stack.proxied_headers())
            sent["X-Forwarded-For"] = self.source
        else:
            connection = self.stack.https(self.source)
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = self.stack.origin
            sent["Referer"] = self.stack.origin + path
        sent.update(headers or {})
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
        finally:
            connection.close()
        for header in response.msg.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        return Answer(response.status, response.msg, text)

    def get(self, path: str, **kwargs) -> Answer:
        return self.request("GET", path, **kwargs)

    def post_form(self, path: str, data: dict[str, str], **kwargs) -> Answer:
        """The form at ``path`` sent back with ``data``, as a browser sends it (its CSRF token)."""
        page = self.get(path, port=kwargs.get("port"))
        assert page.status == 200, (path, page.status)
        token = CSRF.search(page.text)
        assert token, f"no form token on {path}"
        return self.request(
            "POST", path, data={"csrfmiddlewaretoken": token.group(1), **data}, **kwargs
        )

    def log_in(self, username: str, password: str, **kwargs) -> Answer:
        return self.post_form("/anmelden/", {"username": username, "password": password}, **kwargs)


def standings(answer: Answer) -> dict[str, int]:
    """The standings as a person reads them: each start number's total (the last column)."""
    totals: dict[str, int] = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", answer.text, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        if len(cells) >= 3 and cells[1].isdigit():
            totals[cells[1]] = int(cells[-1].replace("+", "").replace("−", "-"))
    assert totals, "no standings rows on the page"
    return totals


def table_token(url: str) -> str:
    """The table link of a table of the demo's round in play (what its QR code opens)."""
    import psycopg

    with psycopg.connect(url) as connection:
        row = connection.execute(
            """SELECT t.token FROM tournament_table t
               JOIN tournament_round r ON r.id = t.round_id
               JOIN tournament_event e ON e.id = r.event_id
               WHERE e.slug = %s AND r.status = 'playing' AND NOT t.voided
               ORDER BY (SELECT count(*) FROM tournament_hand h WHERE h.table_id = t.id), t.number
               LIMIT 1""",
            (EVENT,),
        ).fetchone()
    assert row, f"no table in play in {EVENT}"
    return row[0]


def event_version(url: str) -> str:
    """The demo event's version now, as the servers' log lines write it."""
    import psycopg

    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT version FROM tournament_event WHERE slug = %s", (EVENT,)
        ).fetchone()
    return str(row[0])


def a_game(declarer_points: int = 47) -> dict[str, str]:
    """A Halbe of seat 0 as the table's phone sends it (a fresh submission key)."""
    return {
        "submission": str(uuid.uuid4()),
        "contract": "halbe",
        "declarer": "0",
        "declarer_points": str(declarer_points),
        "action": "save",
    }


def computed(stack: recipe.Stack, page: str = "standings") -> list[str]:
    """The versions at which the app servers computed ``page`` of the event, one per computation
    (their log lines "computed standings of <event> at version <v>", at INFO)."""
    return re.findall(rf"computed {page} of \d+ at version (\d+)", stack.logs())


def save_a_game(stack: recipe.Stack, url: str, *, port: int | None = None, points: int = 47) -> str:
    """A Halbe of ``points`` saved by a table's phone (through nginx, or straight to ``port``);
    its submission key."""
    link = f"/t/{table_token(url)}/"
    game = a_game(points)
    answer = Browser(stack).post_form(link, game, port=port)
    assert answer.status == 302, (answer.status, answer.text[:500])
    return game["submission"]


def games_stored(url: str, keys: list[str]) -> Counter:
    """How many games are stored with each of the submission keys."""
    import psycopg

    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT submission_key::text, count(*) FROM tournament_hand "
            "WHERE submission_key::text = ANY(%s) GROUP BY submission_key",
            (keys,),
        ).fetchall()
    return Counter(dict(rows))
