"""Settings come from the environment; without a secret key and with debug off the app refuses
to start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, timeout: int = 120, **env: str) -> subprocess.CompletedProcess:
    """Python with these arguments, with no DJANGO_* or DATABASE_URL but those in ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "tournament.settings", **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_check(*options: str, **env: str) -> subprocess.CompletedProcess:
    return run("manage.py", "check", *options, **env)


def test_the_app_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = run("manage.py", "runserver", "--noreload", "127.0.0.1:0", timeout=60)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


@pytest.mark.slow
def test_the_deployment_check_reports_a_missing_secret_key():
    result = run_check("--deploy")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_the_wsgi_server_refuses_to_start_without_a_secret_key():
    result = run("-c", "import tournament.wsgi")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_maintenance_commands_run_without_a_secret_key():
    result = run("manage.py", "makemigrations", "--check", "--dry-run")
    assert result.returncode == 0, result.stderr


def test_the_app_starts_with_a_secret_key():
    result = run_check(DJANGO_SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_debug_needs_no_secret_key():
    result = run_check(DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_a_postgres_url_switches_the_database_engine():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "from django.db import connection; "
        "print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'], "
        "connection.vendor)"
    )
    result = run(
        "-c",
        code,
        DJANGO_SECRET_KEY="x" * 50,
        DATABASE_URL="postgres://u:p@127.0.0.1:5432/cego",
    )
    # Django's own PostgreSQL backend
    expected = ["django.db.backends.postgresql", "cego", "postgresql"]
    assert result.stdout.split() == expected, result.stderr


def test_the_address_for_phones_from_the_environment_is_served():
    result = run(
        "-c",
        "from django.conf import settings; print(settings.PUBLIC_URL, settings.ALLOWED_HOSTS)",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_PUBLIC_URL="http://192.168.1.20:8000/",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "http://192.168.1.20:8000 ['localhost', '127.0.0.1', '[::1]', '192.168.1.20']"
    )


def test_the_app_stores_passwords_with_pbkdf2_and_only_the_tests_use_a_fast_hash():
    from django.conf import global_settings, settings

    import tournament.settings as production

    hashers = getattr(production, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_page_cache_is_a_folder_every_worker_shares_unless_set():
    code = (
        "from django.conf import settings; c = settings.CACHES['default']; "
        "print(c['BACKEND'], c['LOCATION'])"
    )
    result = run("-c", code, DJANGO_SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    backend, location = result.stdout.split()
    # diskcache's Django cache: a folder of SQLite files every process shares, ``add`` atomic
    assert backend == "diskcache.DjangoCache"
    assert location == str(ROOT / ".cache" / "pages")
    result = run("-c", code, DJANGO_SECRET_KEY="x" * 50, DJANGO_CACHE_URL="redis://cache:6379/0")
    # Django's own Redis cache, shared by the app servers
    assert result.stdout.split() == [
        "django.core.cache.backends.redis.RedisCache",
        "redis://cache:6379/0",
    ]


def test_a_cache_url_of_an_unknown_kind_stops_the_app_with_a_message():
    result = run("manage.py", "check", DJANGO_SECRET_KEY="x" * 50, DJANGO_CACHE_URL="mongo://x")
    assert result.returncode != 0
    assert "DJANGO_CACHE_URL must start with one of file, redis, memcached, locmem://" in (
        result.stderr
    )


@pytest.mark.parametrize("written", ["turnier.example.org:8443", "https://turnier.example.org"])
def test_an_allowed_host_with_a_port_or_scheme_stops_the_app_with_a_message(written):
    # Django would otherwise refuse every request with "Bad Request (400)", saying nothing why
    result = run_check(DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS=f"localhost,{written}")
    assert result.returncode != 0
    assert (
        "DJANGO_ALLOWED_HOSTS takes host names only, without https:// and without a port "
        f"(turnier.example.org), got {written!r}"
    ) in result.stderr


def test_allowed_hosts_take_names_and_addresses_without_a_port():
    result = run(
        "-c",
        "from django.conf import settings; print(settings.ALLOWED_HOSTS)",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="turnier.example.org,.example.org,10.0.0.5,[::1]",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['turnier.example.org', '.example.org', '10.0.0.5', '[::1]']"
