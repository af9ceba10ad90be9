#!/usr/bin/env python3
"""Restart the association's app servers one after the other, under load, without a failed
request (docs/deployment.md, "Updates"). Run it as root once the new code is installed:

    cd /srv/cego && deploy/update.py              # cego@8001, then cego@8002

A restarted app server refuses connections for a moment. nginx sends those requests to the other
server (``proxy_next_upstream`` in deploy/nginx/cego.conf) and, after ``max_fails`` refusals,
counts the restarted one as down for ``fail_timeout``, even once it answers again. A second
server taken down within that time leaves nginx none: it answers 502 ("no live upstreams") to
every request meanwhile. So before the next server goes down, each restart waits until the
restarted server answers its health check (its start page, asked for as nginx asks) and then until
nginx's ``fail_timeout`` for it has run out, after which nginx sends it requests again.

Only the standard library: it runs with the system's python3. tests/server runs
``rolling_restart`` on its stack under the hall's load.
"""

from __future__ import annotations

import argparse
import http.client
import re
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
PORTS = (8001, 8002)
SITE = Path("/etc/nginx/sites-enabled/cego")
SETTINGS = Path("/etc/cego/cego.env")
NGINX_DEFAULT_FAIL_TIMEOUT = 10  # seconds, when a server line names none


def fail_timeout(site: str) -> int:
    """The longest ``fail_timeout`` (seconds) of the app servers in nginx's site ``site``."""
    upstream = re.search(r"upstream\s+\S+\s*\{(.*?)\}", site, re.S)
    lines = upstream.group(1) if upstream else ""
    found = [int(match.group(1)) for match in re.finditer(r"\bfail_timeout=(\d+)s?\b", lines)]
    return max(found, default=NGINX_DEFAULT_FAIL_TIMEOUT)


def allowed_host(settings: str) -> str:
    """The first of ``DJANGO_ALLOWED_HOSTS`` in the app servers' settings (cego.env)."""
    for line in settings.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "DJANGO_ALLOWED_HOSTS" and value.strip():
            return value.split(",")[0].strip()
    raise SystemExit("DJANGO_ALLOWED_HOSTS is not set in the app servers' settings")


def answers(port: int, host: str) -> bool:
    """Whether the app server on ``port`` serves its start page (200), asked as nginx asks."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request(
            "GET",
            "/",
            headers={"Host": host, "X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.0.1"},
        )
        status = connection.getresponse().status
        connection.close()
    except OSError:
        return False
    return status == 200


def rolling_restart(
    ports: Iterable[int],
    *,
    restart: Callable[[int], None],
    host: str,
    settle: float,
    within: float = 120,
    say: Callable[[str], None] = print,
) -> None:
    """Restart the app servers on ``ports`` one at a time with ``restart``; after each, wait until
    it answers on ``host`` and then ``settle`` seconds more (nginx's fail_timeout), so that nginx
    sends it requests again before the next one goes down. Raises SystemExit, leaving the next
    servers alone, when a restarted server does not answer within ``within`` seconds."""
    for port in ports:
        say(f"restarting the app server on {port}")
        restart(port)
        deadline = time.monotonic() + within
        while not answers(port, host):
            if time.monotonic() > deadline:
                raise SystemExit(
                    f"the app server on {port} does not answer after {within:.0f} s; the others "
                    f"were left running. See: journalctl -u cego@{port}"
                )
            time.sleep(0.5)
        say(f"the app server on {port} answers; nginx uses it again in {settle:.0f} s")
        time.sleep(settle)


def systemctl_restart(port: int) -> None:
    subprocess.run(["systemctl", "restart", f"cego@{port}"], check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Restart the app servers one after the other without a failed request."
    )
    parser.add_argument("ports", nargs="*", type=int, default=list(PORTS))
    parser.add_argument("--site", type=Path, default=SITE, help="nginx's site (for fail_timeout)")
    parser.add_argument("--settings", type=Path, default=SETTINGS, help="the app's cego.env")
    args = parser.parse_args(argv)
    site = args.site if args.site.exists() else DEPLOY / "nginx" / "cego.conf"
    rolling_restart(
        args.ports,
        restart=systemctl_restart,
        host=allowed_host(args.settings.read_text()),
        settle=fail_timeout(site.read_text()) + 1,
    )
    print("all app servers restarted")


if __name__ == "__main__":
    main()
