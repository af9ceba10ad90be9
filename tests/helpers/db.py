"""The database as the tests watch it: a request that must change nothing writes nothing, and many
writers at once."""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Iterator
from contextlib import ExitStack, contextmanager

from django.db import close_old_connections, connection, connections
from django.test.utils import CaptureQueriesContext

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


# the table an SQL statement writes to, if it writes: Django's ORM, admin and history write only
# with INSERT INTO, UPDATE and DELETE FROM (each backend quotes the name its own way)
WRITE = re.compile(r"\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[\"`\[]?(\w+)", re.IGNORECASE)


@contextmanager
def no_writes(*, except_in: Collection[str] = ()) -> Iterator[None]:
    """Nothing is saved inside, not even half of something: fails if an INSERT, UPDATE or DELETE
    ran on any database connection, except on the tables named in ``except_in`` (a test that
    allows one says why: a session's row, axes' log of logins)."""
    watched = [CaptureQueriesContext(each) for each in connections.all()]
    with ExitStack() as stack:
        for context in watched:
            stack.enter_context(context)
        yield
    written = [
        query["sql"]
        for context in watched
        for query in context.captured_queries
        if (found := WRITE.match(query["sql"])) and found[1] not in except_in
    ]
    assert not written, f"{len(written)} write(s) where nothing may change:\n" + "\n".join(written)
