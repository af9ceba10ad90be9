"""Test-wide fixtures.

The app speaks German first. The tests read its messages in English, the source language, so that
an assertion names the message the code wrote; German is checked on its own (tests/test_locale.py,
tests/test_language.py and the browser tests).
"""

from __future__ import annotations

import shutil

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from tournament.pagecache import pages

# Property tests (hypothesis): 100 generated examples each and no deadline, since the suite shares
# the machine with the browser tests and the other xdist worker and a slow example is no finding.
# `pytest --hypothesis-profile=thorough tests/scoring/test_properties.py` searches ten times as
# long, e.g. after a change to scoring/. Tests that set their own max_examples keep it.
hypothesis_settings.register_profile("suite", max_examples=100, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=1000, deadline=None)
hypothesis_settings.load_profile("suite")


@pytest.fixture(autouse=True)
def english_messages():
    with translation.override("en"):
        yield


@pytest.fixture(scope="session", autouse=True)
def page_cache_folder():
    """The test process's page cache folder (tests/settings.py) goes when the process ends."""
    yield
    cache.close()
    shutil.rmtree(settings.CACHES["default"]["LOCATION"], ignore_errors=True)


@pytest.fixture(autouse=True)
def empty_page_cache():
    """Each test starts with no cached page (tournament.pagecache): a page cached by an earlier
    test of the same process could otherwise answer for a row that reuses its id."""
    cache.clear()
    pages._gone_until[0] = 0.0  # a cache a test made fail is there again


@pytest.fixture
def client() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
