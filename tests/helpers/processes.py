"""The app as a process of its own, as a laptop or server runs it: the environment it is started
with, a free port for it, and whether it answers yet."""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.request
from pathlib import Path


def clean_env(**env: str) -> dict[str, str]:
    """This environment without any DJANGO_* or DATABASE_URL, plus ``env``."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return {**kept, "DJANGO_SETTINGS_MODULE": "tournament.settings", **env}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(url: str) -> bool:
    """Whether the page at ``url`` answers 200 yet (not listening, or busy starting its
    workers: not yet)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


ROOT = Path(__file__).resolve().parents[2]


def planned_serve(**variables: str) -> str:
    """The commands `make serve` would run with these make variables (a dry run)."""
    return subprocess.run(
        ["make", "--no-print-directory", "-n", "-o", "venv", "serve"]
        + [f"{name}={value}" for name, value in variables.items()],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
