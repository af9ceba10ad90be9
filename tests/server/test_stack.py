"""The association's server, run as docs/deployment.md sets it up (deploy/): nginx over HTTPS in
front of two gunicorn app servers, PostgreSQL, Redis for the page cache and its lock.

What a director, a phone and an attacker meet there: a game saved through one app server is on
the other's standings at once; a new version of the standings is computed once by both servers
together under the hall's reads, the others given the version before meanwhile; the login
lockout is keyed on the address nginx saw; HTTPS, secure cookies and CSRF work through the
proxy; Redis stopped mid-run costs a moment, not answers; an update restarts both app servers
in turn under the hall's load without a failed request or a game stored twice; Let's Encrypt
reaches its check file; nginx keeps a hall of phones connected; Redis keeps no snapshots.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections import Counter

import pytest

from deploy import stack as recipe
from deploy import update
from tests.server.conftest import (
    CSRF,
    ROOT,
    STANDINGS,
    Browser,
    a_game,
    computed,
    event_version,
    games_stored,
    save_a_game,
    standings,
    start,
    table_token,
)
from tournament.gunicorn_settings import workers as GUNICORN_WORKERS
from tournament.pagecache.pages import RETRY

pytestmark = pytest.mark.slow

DIRECTOR, PASSWORD = "leitung", "cego-demo-2026"  # the demo's director (tournament/demo.py)


def read_at_once(stack: recipe.Stack, path: str, readers: int) -> Counter:
    """``readers`` phones asking for ``path`` at the same moment, through nginx; their statuses."""
    statuses: Counter = Counter()
    barrier = threading.Barrier(readers)

    def read() -> None:
        barrier.wait()
        statuses[Browser(stack).get(path).status] += 1

    threads = [threading.Thread(target=read) for _ in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


def test_a_game_saved_through_one_server_is_on_the_other_servers_standings_a_moment_later(
    stack, stack_database
):
    first, second = stack.app_ports
    reader = Browser(stack)
    before = standings(reader.get(STANDINGS, port=second))
    assert standings(reader.get(STANDINGS)) == before  # through nginx: the same page

    save_a_game(stack, stack_database, port=first)

    # the next reader computes the new standings (or reads them, computed by another)
    after = standings(reader.get(STANDINGS, port=second))
    changed = sorted(after[n] - before[n] for n in before if after[n] != before[n])
    # the Halbe with 47 points of RULES.md section 7: +60 for the declarer, -20 for each opponent
    assert changed == [-20, -20, -20, 60]
    assert standings(reader.get(STANDINGS)) == after


def test_a_new_version_is_computed_once_by_both_servers_together(stack, stack_database):
    for port in stack.app_ports:  # the version before is kept, as on the day
        assert Browser(stack).get(STANDINGS, port=port).status == 200
    save_a_game(stack, stack_database)
    version = event_version(stack_database)
    statuses = read_at_once(stack, STANDINGS, readers=40)
    assert statuses == Counter({200: 40})
    _written_down(stack, version)
    # by one of the readers, under the lock both servers share; the others meanwhile were given
    # the version before, or the new one once kept
    new = computed(stack).count(version)
    assert new == 1, f"the new version was computed {new} times"
    # both servers took their share of the 40 reads (nginx spreads them)
    for port in stack.app_ports:
        assert stack.app_log(port).read_text().count(f"GET {STANDINGS} ") >= 5


def _written_down(stack: recipe.Stack, version: str) -> None:
    """Until a server has computed the version (and written so in its log)."""
    deadline = time.monotonic() + 10
    while version not in computed(stack):
        assert time.monotonic() < deadline, f"version {version} was never computed"
        time.sleep(0.05)


def test_without_the_shared_cache_each_server_computes_each_version_itself(
    tmp_path_factory, stack_database
):
    # the same load on two servers with a file cache each (no Redis): the lock is per server
    with start(tmp_path_factory, stack_database, shared_cache=False) as separate:
        for port in separate.app_ports:
            assert Browser(separate).get(STANDINGS, port=port).status == 200
        save_a_game(separate, stack_database)
        version = event_version(stack_database)
        assert read_at_once(separate, STANDINGS, readers=40) == Counter({200: 40})
        _written_down(separate, version)
        assert computed(separate).count(version) == 2


def test_wrong_passwords_from_another_address_never_lock_the_director_out(stack):
    for attempt in range(6):
        attacker = Browser(stack, source="127.0.0.2")
        # it pretends to be the director's machine, and another one at each try
        forged = {"X-Forwarded-For": f"127.0.0.1, 10.0.0.{attempt}"}
        answer = attacker.log_in(DIRECTOR, f"wrong-{attempt}", headers=forged)
    assert answer.status in (403, 429)  # locked out: the forged address did not help
    # the attacker's address stays locked, even with the right password
    locked = Browser(stack, source="127.0.0.2").log_in(DIRECTOR, PASSWORD)
    assert locked.status in (403, 429)
    director = Browser(stack, source="127.0.0.1")
    answer = director.log_in(DIRECTOR, PASSWORD)
    assert answer.status == 302, answer.text[:500]
    assert "sessionid" in director.cookies


def test_https_redirect_secure_cookies_and_csrf_through_the_proxy(stack):
    import http.client

    plain = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=10)
    plain.request("GET", "/anmelden/", headers={"Host": f"{recipe.HOST}:{stack.http_port}"})
    redirect = plain.getresponse()
    assert redirect.status == 301
    # to HTTPS on its own port (443), not to https on the plain request's port
    assert redirect.getheader("Location") == f"https://{recipe.HOST}/anmelden/"

    browser = Browser(stack)
    page = browser.get("/anmelden/")
    assert page.status == 200
    assert "max-age=31536000" in page.header("Strict-Transport-Security")
    cookies = page.headers.get_all("Set-Cookie")
    assert any(c.startswith("csrftoken=") and "Secure" in c for c in cookies)

    # a form sent without its token is refused; with it the director is logged in
    forged = Browser(stack).request(
        "POST", "/anmelden/", data={"username": DIRECTOR, "password": PASSWORD}
    )
    assert forged.status == 403
    answer = browser.log_in(DIRECTOR, PASSWORD)
    assert answer.status == 302
    session = [c for c in answer.headers.get_all("Set-Cookie") if c.startswith("sessionid=")]
    assert session and "Secure" in session[0] and "HttpOnly" in session[0]
    assert browser.get("/").status == 200


def test_static_files_come_from_nginx(stack):
    answer = Browser(stack).get("/static/css/app.css")
    assert answer.status == 200
    assert ".standings" in answer.text
    # nginx's own: its ETag form (size-time in hex) and the recipe's week of caching, not the
    # app server's (WhiteNoise would answer without an Expires header)
    assert re.fullmatch(r'"[0-9a-f]+-[0-9a-f]+"', answer.header("ETag"))
    assert answer.header("Expires")
    assert "public" in ", ".join(answer.headers.get_all("Cache-Control"))


def test_lets_encrypt_reaches_its_check_file_over_plain_http(stack):
    # certbot --webroot writes a file into the site's folder and the certificate authority asks
    # for it over plain HTTP; everything else is redirected to HTTPS
    import http.client

    challenge = stack.acme / ".well-known" / "acme-challenge"
    challenge.mkdir(parents=True, exist_ok=True)
    (challenge / "Hx9-token").write_text("Hx9-token.thumbprint")
    plain = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=10)
    plain.request("GET", "/.well-known/acme-challenge/Hx9-token", headers={"Host": recipe.HOST})
    answer = plain.getresponse()
    assert (answer.status, answer.read()) == (200, b"Hx9-token.thumbprint")


def test_nginx_keeps_a_hall_of_phones_connected_and_still_answers(stack):
    # 300 phones, each browser keeping up to six connections open to the server (HTTP
    # keep-alive): Debian's 768 connections per nginx process are used up, and nginx closes
    # every connection after that unanswered
    import socket

    phones = []
    try:
        for _ in range(1800):
            phones.append(socket.create_connection(("127.0.0.1", stack.https_port), timeout=10))
        assert Browser(stack).get(STANDINGS).status == 200
    finally:
        for connection in phones:
            connection.close()
    assert "worker_connections are not enough" not in (stack.work / "nginx-error.log").read_text()


def test_the_page_cache_keeps_no_snapshots_and_has_a_memory_limit(stack):
    import redis

    cache = redis.Redis(port=stack.redis_port)
    assert cache.config_get("save") == {"save": ""}
    assert cache.config_get("appendonly") == {"appendonly": "no"}
    assert int(cache.config_get("maxmemory")["maxmemory"]) == 256 * 1024 * 1024
    assert cache.config_get("maxmemory-policy") == {"maxmemory-policy": "allkeys-lru"}
    cache.close()


def test_the_recipes_settings_pass_the_deployment_checks(stack):
    result = subprocess.run(
        [
            str(ROOT / ".venv" / "bin" / "python"),
            "manage.py",
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
        ],
        cwd=ROOT,
        env={**stack.settings(), "DJANGO_SECRET_KEY": "k3y-" + "Zq8vT2xLw9" * 6},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_redis_stopped_mid_run_costs_speed_not_answers(stack, stack_database):
    reader = Browser(stack)
    before = standings(reader.get(STANDINGS))
    stack.stop_redis()
    try:
        for _ in range(4):
            assert reader.get(STANDINGS).status == 200
        save_a_game(stack, stack_database)  # a game is saved with the cache gone
        after = standings(reader.get(STANDINGS))
        assert sorted(after[n] - before[n] for n in before if after[n] != before[n]) == [
            -20,
            -20,
            -20,
            60,
        ]
        # each server process says it once, however many reads went without the cache
        gone = stack.logs().count("the page cache is gone")
        assert 1 <= gone <= len(stack.app_ports) * GUNICORN_WORKERS, gone
        assert "Internal Server Error" not in stack.logs()
    finally:
        stack.start_redis()
    time.sleep(RETRY + 0.5)  # a server process looks at a cache that failed again after this
    # back: the next version is computed once, then served from the cache again
    save_a_game(stack, stack_database)
    version = event_version(stack_database)
    for _ in range(6):
        assert reader.get(STANDINGS).status == 200
    _written_down(stack, version)
    assert computed(stack).count(version) == 1


class HallLoad:
    """The hall while the servers are updated: readers asking for the standings and the start
    page without a pause, and a table's phone sending a game (fresh submission key) every moment,
    all through nginx. Counts every answer's status and keeps the keys of the games answered as
    saved."""

    def __init__(self, stack: recipe.Stack, url: str, readers: int = 6) -> None:
        self.stack, self.url = stack, url
        self.statuses: Counter = Counter()
        self.saved: list[str] = []  # submission keys of games answered with the redirect
        self.sent: list[str] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.read) for _ in range(readers)]
        self.threads.append(threading.Thread(target=self.enter_games))

    def __enter__(self) -> HallLoad:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def count(self, status: int) -> None:
        self.statuses[status] += 1

    def read(self) -> None:
        browser = Browser(self.stack)
        while not self.stop.is_set():
            for path in (STANDINGS, "/"):
                self.count(browser.get(path).status)

    def enter_games(self) -> None:
        # the demo's round in play has room for 126 more games (9 tables, 10 of 24 played)
        while not self.stop.is_set() and len(self.sent) < 60:
            phone = Browser(self.stack)
            link = f"/t/{table_token(self.url)}/"
            page = phone.get(link)
            self.count(page.status)
            token = CSRF.search(page.text)
            if page.status != 200 or not token:
                continue
            game = a_game()
            self.sent.append(game["submission"])
            answer = phone.request(
                "POST", link, data={"csrfmiddlewaretoken": token.group(1), **game}
            )
            self.count(answer.status)
            if answer.status == 302:
                self.saved.append(game["submission"])
            time.sleep(0.4)


def test_an_update_restarts_both_servers_in_turn_without_a_failed_request(
    tmp_path_factory, stack_database
):
    # the recipe's update (docs/deployment.md, "Updates"): deploy/update.py with the site's
    # fail_timeout, each server restarted as systemctl restarts it, under the hall's load
    site = (ROOT / "deploy" / "nginx" / "cego.conf").read_text()
    with start(tmp_path_factory, stack_database) as running:
        with HallLoad(running, stack_database) as load:
            time.sleep(2)
            update.rolling_restart(
                running.app_ports,
                restart=running.restart_app,
                host=recipe.HOST,
                settle=update.fail_timeout(site) + 1,
                say=lambda line: None,
            )
            time.sleep(2)
        logs = running.logs()
    # every request answered as on a quiet day: pages, and the games' redirects
    assert set(load.statuses) <= {200, 302}, load.statuses
    assert load.statuses[200] > 100, load.statuses
    assert len(load.saved) > 10, load.statuses
    # both servers were restarted and served afterwards
    for port in running.app_ports:
        assert logs.count(f"Listening at: http://127.0.0.1:{port}") == 2, port
    # a game nginx passed on to the other server is stored once, and every saved one is stored
    stored = games_stored(stack_database, load.sent)
    assert max(stored.values()) == 1, stored.most_common(3)
    assert all(stored[key] == 1 for key in load.saved)
