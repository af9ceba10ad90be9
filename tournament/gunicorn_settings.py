"""How gunicorn serves the app: ``make serve``, and the benchmarks that measure it the same way
(``bench/load.py``, the HTTP figure of ``bench/run.py``), read it with
``gunicorn -c python:tournament.gunicorn_settings``; the address and logs are given on the
command line.

Three processes of two threads each, on a 2-core laptop. A page computed for a new result
(``tournament.pagecache``) is plain Python: in one process it shares the interpreter lock with that
process's other threads, and every other busy process takes a share of the two cores, so more
threads and processes make it slower, and the requests waiting for it wait longer: of the
counts tried with ``bench/load.py``, three of two gave the shortest slow reads (figures in
docs/performance.md). Six threads still answer a hall's reads quickly; a long request (an Excel
export of a big event, a bundle's import) holds one of them for a while.
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
    standings builds a few thousand objects, which sets off collections that would otherwise walk
    all of them too. ``gc.freeze`` is Python's own tool for this."""
    gc.freeze()
