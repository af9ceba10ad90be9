"""Serving a real event: production settings pass Django's deployment checks, logins are
throttled, and every response carries the security headers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import make_user

ROOT = Path(__file__).resolve().parent.parent


def test_production_settings_pass_the_deployment_checks():
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "DJANGO_SECRET_KEY": "k3y-" + "Zq8vT2xLw9" * 6,
        "DJANGO_HTTPS": "1",
        "DJANGO_ALLOWED_HOSTS": "turnier.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_user_name_even_for_the_right_one():
    make_user("leiter", "richtig-und-lang-2026")
    client = Client()
    for _ in range(5):
        response = client.post("/anmelden/", {"username": "leiter", "password": "falsch"})
    assert response.status_code in (403, 429)
    response = client.post(
        "/anmelden/", {"username": "leiter", "password": "richtig-und-lang-2026"}
    )
    assert response.status_code in (403, 429)
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_right_password_logs_in():
    make_user("leiterin", "richtig-und-lang-2026")
    client = Client()
    response = client.post(
        "/anmelden/", {"username": "leiterin", "password": "richtig-und-lang-2026"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_pages_carry_security_headers_and_forms_need_csrf(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(make_user())
    assert strict.post("/turnier/neu/", {"name": "x"}).status_code == 403
