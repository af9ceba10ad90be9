"""Test-wide fixtures.

The app speaks German first. The tests read its messages in English, the source language, so that
an assertion names the message the code wrote; German is checked on its own (tests/test_locale.py,
tests/test_language.py and the browser tests).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation


@pytest.fixture(autouse=True)
def english_messages():
    with translation.override("en"):
        yield


@pytest.fixture
def client() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
