"""Django's PostgreSQL backend, with a health check that costs no round trip.

A connection is kept between requests (``CONN_MAX_AGE``) and checked before a request uses it
(``CONN_HEALTH_CHECKS``), so that after a PostgreSQL restart the next request reconnects instead of
failing. Django checks by sending ``SELECT 1`` and waiting for the answer: one more round trip for
every request, which on a tournament day is every phone's every look at the standings (most of
them answered from the page cache with one query besides: the event's version).

Here the check asks the operating system instead: an idle connection, with nothing asked, has
nothing to read. When the server ends a connection (a restart, an administrator's
``pg_terminate_backend``) it sends its reason and closes the socket, which is then readable. So a
connection with nothing to read is usable; one with something to read is checked the way Django
does (a notice is harmless and ``SELECT 1`` then succeeds; a closed connection fails it and Django
opens a new one). A server that vanished without closing (a pulled cable) is found by neither
check before the timeout of the query itself. One case Django's check finds and this one does not:
a server process told to stop that has not yet said so (the few milliseconds between
``pg_terminate_backend`` and the process's end, which a restart waits out); a request in those
milliseconds fails, and the next one reconnects. The round trip saved is a visible share of a
cached page's time.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


def has_input(descriptor: int) -> bool:
    """Is there something to read on the socket, without waiting?"""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(descriptor, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(0))
    return bool(select.select([descriptor], [], [], 0)[0])  # pragma: no cover (Windows)


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return super().is_usable()  # not between requests: Django's own check
        try:
            if not has_input(connection.fileno()):
                return True
        except (OSError, ValueError, psycopg.Error):  # no socket to ask: closed meanwhile
            return False
        return super().is_usable()
