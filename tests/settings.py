"""The production settings, with a throwaway secret key so that tests run with debug off.

Debug and the allowed hosts are pinned whatever the shell exports (``DJANGO_DEBUG=1`` from
``make run`` must not turn a test's error page into a debug page, nor open every host).
"""

import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-not-secret")
os.environ.pop("DJANGO_DEBUG", None)
# no live copy unless a test names its folder (tests/tournament/core/test_replica.py)
os.environ.pop("CEGO_REPLICA", None)
os.environ["DJANGO_ALLOWED_HOSTS"] = "localhost,127.0.0.1,[::1]"

from tournament.settings import *  # noqa: F403

DEBUG = False
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

# tests serve the app's assets straight from the source folders, without collectstatic
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# A fast hash for the tests' passwords: PBKDF2 costs about 0.35 s a hash on a small machine, and
# most tests make a user. The app keeps PBKDF2 (tests/test_settings.py checks that).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# SQLite tests use a database file, as the app does on a laptop, so that tests with threads see
# one database with WAL and the busy timeout (an in-memory test database is private per thread).
if DATABASES["default"]["ENGINE"] == "tournament.sqlite":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"cego-test-{os.getpid()}.sqlite3")
    }

# the page cache (tournament.pagecache) as on the laptop, a folder of its own per test process;
# tests/conftest.py empties it before each test
CACHES = {
    "default": cache_from(f"file://{tempfile.gettempdir()}/cego-test-cache-{os.getpid()}")  # noqa: F405
}
