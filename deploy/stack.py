"""The association's server on this machine, from the recipe's own files: nginx over HTTPS in
front of gunicorn app servers, PostgreSQL, Redis (docs/deployment.md).

``tests/server`` and ``bench/load.py --servers 2`` start it with ``Stack``: nginx with
``deploy/nginx/nginx.conf`` and its site ``deploy/nginx/cego.conf``, Redis with
``deploy/redis/cego.conf``, and the app servers with the ``ExecStart`` line of
``deploy/cego@.service`` and the settings of ``deploy/cego.env``; ``restart_app``, ``stop_app``
and ``start_app`` do to one what systemctl does, and ``backup`` runs deploy/backup.sh as
``deploy/cego-backup.service`` runs it. Only the lines those files mark with ``# test:`` are
replaced (ports, certificate, folders, user, secret, database, cache, log level), so what is
tested is what the recipe installs. Everything runs as child processes of the caller on the
loopback, with its files in a folder of its own, and is stopped by ``stop()``. PostgreSQL is the
caller's (a database URL); Redis is started here.

Nothing here is imported by the app.
"""

from __future__ import annotations

import http.client
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
HOST = "turnier.example.org"  # the recipe's host name; the test reaches it on 127.0.0.1
PROGRAMS = ("nginx", "redis-server", "openssl")
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"  # what a service's PATH is


def missing_programs() -> list[str]:
    """The programs the stack needs that this machine lacks (Debian: nginx, redis-server)."""
    found = {
        name: shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin") for name in PROGRAMS
    }
    return [name for name, path in found.items() if not path]


def program(name: str) -> str:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin") or name


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def marked(text: str, replace: dict[str, Callable[[str], str]], file: Path) -> str:
    """``text`` with each line marked ``# test: <label>`` (at its end, or on the line before
    it) passed through ``replace[label]``; a label without its line is an error (the recipe's
    file changed and the test would no longer use it)."""
    lines = text.splitlines()
    seen: set[str] = set()
    out: list[str] = []
    pending: str | None = None
    for line in lines:
        if pending is not None:
            out.append(replace[pending](line))
            seen.add(pending)
            pending = None
            continue
        found = re.search(r"#\s*test:\s*(.+?)\s*$", line)
        if found and found.group(1) in replace:
            label = found.group(1)
            if line.lstrip().startswith("#"):  # marks the next line
                pending = label
                out.append(line)
            else:
                out.append(replace[label](line))
                seen.add(label)
            continue
        out.append(line)
    if missing := set(replace) - seen:
        raise RuntimeError(f"{file} has no line marked '# test: {', '.join(sorted(missing))}'")
    return "\n".join(out) + "\n"


def env_file(path: Path, replace: dict[str, str]) -> dict[str, str]:
    """The settings of ``deploy/cego.env``, the values after a ``# test: <label>`` line replaced."""
    text = marked(
        path.read_text(),
        {
            label: (lambda line, v=value: line.split("=", 1)[0] + "=" + v)
            for label, value in replace.items()
        },
        path,
    )
    settings: dict[str, str] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            settings[key.strip()] = value.strip()
    return settings


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file's settings: section, then key, then its values in order (a key given
    twice, as ``ExecStart=`` may be, has two)."""
    settings: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = settings.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        section.setdefault(key.strip(), []).append(value.strip())
    return settings


@dataclass
class Stack:
    """nginx + ``servers`` gunicorn app servers + Redis, on free ports of the loopback."""

    work: Path
    database_url: str
    servers: int = 2
    shared_cache: bool = True  # False: each app server a file cache of its own, no Redis
    redis_url: str = (
        ""  # a Redis of the caller's (redis://host:port/db) instead of one started here
    )
    log_level: str = "INFO"
    workers: int = 2
    threads: int = 2
    secret: str = field(default_factory=lambda: "stack-" + os.urandom(24).hex())
    http_port: int = field(default_factory=free_port)
    https_port: int = field(default_factory=free_port)
    redis_port: int = field(default_factory=free_port)
    app_ports: list[int] = field(default_factory=list)
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.work.mkdir(parents=True, exist_ok=True)
        if not self.app_ports:
            self.app_ports = [free_port() for _ in range(self.servers)]

    # --- what the servers read ----------------------------------------------------------------

    @property
    def origin(self) -> str:
        return f"https://{HOST}:{self.https_port}"

    @property
    def acme(self) -> Path:
        """The folder nginx answers Let's Encrypt's checks from (/var/www/html in the recipe)."""
        return self.work / "acme"

    def cache_url(self, port: int) -> str:
        if self.shared_cache and self.redis_url:
            return self.redis_url
        if self.shared_cache:
            return f"redis://127.0.0.1:{self.redis_port}/0"
        return f"file://{self.work / f'cache-{port}'}"

    def recipe_settings(self, port: int | None = None) -> dict[str, str]:
        """What /etc/cego/cego.env holds for the stack: deploy/cego.env with the test's lines."""
        port = port or self.app_ports[0]
        recipe = env_file(
            DEPLOY / "cego.env",
            {
                "secret": self.secret,
                "database": self.database_url,
                "cache": self.cache_url(port),
                "log level": self.log_level,
            },
        )
        recipe["GUNICORN_WORKERS"] = str(self.workers)
        recipe["GUNICORN_THREADS"] = str(self.threads)
        # the association's details, which the recipe puts in for the CHANGE-MEs
        recipe["CEGO_PRIVACY_CONTROLLER"] = "Cego-Verband Schwarzwald e.V."
        recipe["CEGO_PRIVACY_ADDRESS"] = "Marktplatz 1, 78120 Furtwangen"
        recipe["CEGO_PRIVACY_EMAIL"] = "datenschutz@example.org"
        return recipe

    def settings(self, port: int | None = None) -> dict[str, str]:
        """The environment of an app server (and of manage.py run against the stack)."""
        inherited = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "DATABASE_URL", "GUNICORN_", "PYTEST", "COV_"))
        }
        inherited.pop("DJANGO_SETTINGS_MODULE", None)
        return {**inherited, **self.recipe_settings(port)}

    def app_command(self, port: int) -> list[str]:
        unit = (DEPLOY / "cego@.service").read_text()
        line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
        line = (
            line.removeprefix("ExecStart=").replace("/srv/cego", str(ROOT)).replace("%i", str(port))
        )
        return shlex.split(line)

    def backup(self, lib: Path) -> subprocess.CompletedProcess:
        """deploy/backup.sh run as systemd runs ``cego-backup.service``: its ``ExecStart`` line
        in the folder ``/``, with the settings of cego.env (``EnvironmentFile=``), systemd's
        ``PATH``, the unit's ``UMask=``, and its ``StateDirectory=`` made as systemd makes it
        (with ``StateDirectoryMode=``), under ``lib`` in place of /var/lib. The unit's user is
        this process's."""
        unit = unit_settings((DEPLOY / "cego-backup.service").read_text())["Service"]
        (line,) = unit["ExecStart"]
        (state,) = unit["StateDirectory"]
        folder = lib / state
        if not folder.exists():
            folder.mkdir(parents=True)
            folder.chmod(int(unit["StateDirectoryMode"][-1], 8))
        command = [
            word.replace("/srv/cego", str(ROOT)).replace("/var/lib/", f"{lib}/")
            for word in shlex.split(line)
        ]
        umask = int(unit["UMask"][-1], 8)
        return subprocess.run(
            command,
            cwd="/",
            env={
                "PATH": SYSTEMD_PATH,
                "STATE_DIRECTORY": str(folder),
                **self.recipe_settings(),
            },
            preexec_fn=lambda: os.umask(umask),
            capture_output=True,
            text=True,
            timeout=600,
        )

    def nginx_conf(self) -> str:
        ports = list(self.app_ports)

        def upstream(index: int) -> Callable[[str], str]:
            def change(line: str) -> str:
                if index >= len(ports):
                    return f"    # (no app server {index + 1} here)"
                return re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{ports[index]}", line)

            return change

        site = marked(
            (DEPLOY / "nginx" / "cego.conf").read_text(),
            {
                "app server 1": upstream(0),
                "app server 2": upstream(1),
                "http port": lambda line: re.sub(r"listen \d+", f"listen {self.http_port}", line),
                "https port": lambda line: re.sub(r"listen \d+", f"listen {self.https_port}", line),
                "certificate": lambda line: re.sub(
                    r"ssl_certificate \S+;", f"ssl_certificate {self.work / 'cert.pem'};", line
                ),
                "key": lambda line: re.sub(
                    r"ssl_certificate_key \S+;",
                    f"ssl_certificate_key {self.work / 'key.pem'};",
                    line,
                ),
                "static folder": lambda line: re.sub(
                    r"alias \S+;", f"alias {ROOT / 'staticfiles'}/;", line
                ),
                "acme folder": lambda line: re.sub(r"root \S+;", f"root {self.acme};", line),
            },
            DEPLOY / "nginx" / "cego.conf",
        )
        (self.work / "cego.conf").write_text(site)
        temp = self.work / "nginx-temp"
        temp.mkdir(exist_ok=True)
        self.acme.mkdir(exist_ok=True)
        main = DEPLOY / "nginx" / "nginx.conf"
        # the recipe's /etc/nginx/nginx.conf, with the folders and files of the test's own
        return marked(
            main.read_text(),
            {
                "user": lambda line: "user root;",
                "pid": lambda line: f"pid {self.work / 'nginx.pid'};",
                "error log": lambda line: f"error_log {self.work / 'nginx-error.log'} warn;",
                "access log": lambda line: "\n".join(
                    [f"    access_log {self.work / 'nginx-access.log'};"]
                    + [
                        f"    {kind}_temp_path {temp / kind};"
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
                    ]
                ),
                "conf.d": lambda line: "    # (no conf.d here)",
                "sites": lambda line: f"    include {self.work / 'cego.conf'};",
            },
            main,
        )

    # --- starting and stopping ----------------------------------------------------------------

    def start(self) -> Stack:
        try:
            self._certificate()
            if self.shared_cache and not self.redis_url:
                self.start_redis()
            for port in self.app_ports:
                self._start_app(port)
            (self.work / "nginx.conf").write_text(self.nginx_conf())
            self._spawn(
                "nginx",
                [program("nginx"), "-c", str(self.work / "nginx.conf"), "-g", "daemon off;"],
                self.work / "nginx-run.log",
            )
            for port in self.app_ports:
                self._wait_http(port, f"app server on {port}")
            self._wait_tcp(self.https_port, "nginx")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for name in list(self.processes):
            self._end(name)

    def __enter__(self) -> Stack:
        return self if self.processes else self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start_redis(self) -> None:
        self._spawn(
            "redis",
            [
                program("redis-server"),
                str(DEPLOY / "redis" / "cego.conf"),
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.work),
            ],
            self.work / "redis.log",
        )
        self._wait_tcp(self.redis_port, "redis-server")

    def stop_redis(self) -> None:
        self._end("redis")

    def restart_app(self, port: int) -> None:
        """What ``systemctl restart cego@<port>`` does to the app server (cego@.service,
        ``KillMode=mixed``): SIGTERM to gunicorn's master, which stops taking connections and
        lets its workers finish their requests, SIGKILL to what is left after ``TimeoutStopSec``,
        then the ``ExecStart`` line again. Returns once the new server is started, as systemctl
        does for a simple service, not once it answers."""
        self.stop_app(port)
        self._start_app(port)

    def stop_app(self, port: int) -> None:
        """What ``systemctl stop cego@<port>`` does (``restart_app`` without the start)."""
        name = f"app-{port}"
        process = self.processes.pop(name)
        with suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=70)
        finally:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def start_app(self, port: int) -> None:
        """What ``systemctl start cego@<port>`` does, returning once the server answers."""
        self._start_app(port)
        self._wait_http(port, f"app server on {port}")

    def _start_app(self, port: int) -> None:
        self._spawn(f"app-{port}", self.app_command(port), self.app_log(port), self.settings(port))

    def app_log(self, port: int) -> Path:
        return self.work / f"app-{port}.log"

    @property
    def pids(self) -> list[int]:
        """The processes serving requests (nginx's master and each gunicorn master): with their
        children, every process of the stack but Redis."""
        return [p.pid for name, p in self.processes.items() if name != "redis"]

    def logs(self) -> str:
        """What every app server has written so far (gunicorn's access log and Django's)."""
        return "".join(self.app_log(p).read_text(errors="replace") for p in self.app_ports)

    def _spawn(
        self, name: str, command: list[str], log: Path, env: dict[str, str] | None = None
    ) -> None:
        with log.open("a") as output:
            self.processes[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: stopped with every worker it started
            )

    def _end(self, name: str) -> None:
        process = self.processes.pop(name, None)
        if process is None:
            return
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def _certificate(self) -> None:
        if (self.work / "cert.pem").exists():
            return
        subprocess.run(
            [
                program("openssl"),
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                str(self.work / "key.pem"),
                "-out",
                str(self.work / "cert.pem"),
                "-days",
                "2",
                "-subj",
                f"/CN={HOST}",
                "-addext",
                f"subjectAltName=DNS:{HOST}",
            ],
            check=True,
            capture_output=True,
        )

    def _check_alive(self, what: str) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with {process.returncode} while waiting for {what}; "
                    f"see the logs in {self.work}"
                )

    def _wait_tcp(self, port: int, what: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while True:
            self._check_alive(what)
            with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not listen on {port} in {seconds:.0f} s")
            time.sleep(0.1)

    def _wait_http(self, port: int, what: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            self._check_alive(what)
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/", headers=self.proxied_headers())
                connection.getresponse().read()
                connection.close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{what} did not answer in {seconds:.0f} s") from None
                time.sleep(0.2)

    # --- talking to it ------------------------------------------------------------------------

    def proxied_headers(self) -> dict[str, str]:
        """The headers nginx adds, for a request straight to one app server."""
        return {
            "Host": f"{HOST}:{self.https_port}",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "127.0.0.1",
        }

    def https(self, source: str = "127.0.0.1", timeout: float = 30) -> http.client.HTTPSConnection:
        """A connection to nginx over HTTPS from the loopback address ``source`` (127.0.0.2 is
        another client), trusting the stack's own certificate."""
        context = ssl.create_default_context(cafile=str(self.work / "cert.pem"))
        # the certificate names the recipe's host; the connection goes to the loopback
        context.check_hostname = False
        return http.client.HTTPSConnection(
            "127.0.0.1",
            self.https_port,
            timeout=timeout,
            context=context,
            source_address=(source, 0),
        )
