"""How gunicorn serves the app: ``make serve``, and the benchmarks that measure it the same way
(``bench/load.py``, the HTTP figure of ``bench/run.py``), read it with
``gunicorn -c python:tournament.gunicorn_settings``; the address and logs are given on the
command line.

Three processes of two threads each, on a 2-core laptop. A page computed for a new result
(``tournament.pagecache``) is plain Python: in one process it shares the interpreter lock with that
process's other threads, and every other busy process takes a share of the two cores, so more
threads and processes make it slower, and the requests waiting for it wait longer. Measured with
``bench/load.py`` at ten times the hall's rate on the 1,000-player event, reads' p95 (one figure per
run, 2026-12-01): 6 processes of 4 threads 147 and 165 ms, 4 of 4 125 and 135 ms, 6 of 2 108, 109,
113, 122 and 130 ms, 3 of 2 91, 94 and 106 ms (game posts' p95 112-173 ms with 3 of 2). Six
threads still answer a hall's 20 reads a second in a few milliseconds each; a long request (an
Excel export of a big event, a bundle's import) holds one of them for a few seconds.
"""

import gc
import os

# GUNICORN_WORKERS / GUNICORN_THREADS: another machine's count (a server with more cores)
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
# a request that has not answered after a minute is stuck: its process is replaced (and with it
# any lock it held while computing a page)
timeout = 60
wsgi_app = "tournament.wsgi"


def post_worker_init(worker: object) -> None:
    """Once a worker has loaded the app, the objects it holds (Django, the templates, the
    collation table ...) are set aside from Python's garbage collection: they live as long as the
    process, and a full collection would go through all of them again. A new version of the
    standings builds a few thousand objects, which sets off collections: 10 ms of the 61 ms the
    1,000-player event's standings and projector rows took, 2.7 ms of 56 ms with the objects set
    aside (median of 20 versions, one process, 2026-12-01). ``gc.freeze`` is Python's own tool for
    this."""
    gc.freeze()
