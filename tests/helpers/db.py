"""The database as the tests watch it: many writers at once."""

from __future__ import annotations

import threading
from typing import Any

from django.apps import apps
from django.db import close_old_connections, connection

THREADS = 8


def run_in_threads(work, count: int = THREADS) -> list[BaseException]:
    """Start ``count`` threads at the same moment; return what they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def runner(i: int) -> None:
        try:
            start.wait()
            work(i)
        except BaseException as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a writer hung"
    return errors


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the app, history included: equal snapshots mean a request
    changed nothing at all."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_app_config("tournament").get_models()
    }
