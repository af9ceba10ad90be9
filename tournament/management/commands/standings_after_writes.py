"""The process that computes the standings after writes, beside a server process: started by
that process (``tournament.views.fresh.computer``), never by hand."""

import gc
import os
import signal
import sys

from django.core.management.base import BaseCommand

from tournament.views import fresh

# the readers' requests come first: when the cores are busy, the computation waits a little
# (the phones meanwhile get the version before, ``pagecache.writers``)
NICENESS = 10


class Command(BaseCommand):
    # started with every gunicorn worker: the server's own start has run the checks
    requires_system_checks: list[str] = []
    help = (
        "Compute the standings and projector rows of the versions a server process's writes "
        "made, as it hands them over on standard input (one JSON line per event); ends when "
        "standard input closes. Started by the server itself (settings.STANDINGS_AFTER_WRITES "
        '= "process"); not a command to run by hand.'
    )

    def handle(self, *args, **options):
        # Ctrl-C at the server's terminal reaches this process too: it ends with its server
        # process, when the pipe closes, not before
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        os.nice(NICENESS)
        gc.freeze()  # Django and the app, loaded for good (as gunicorn's workers do)
        fresh.serve_tasks(sys.stdin.fileno())
