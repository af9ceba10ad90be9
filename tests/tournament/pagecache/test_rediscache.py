"""The page cache on Redis (Django's own Redis cache, settings.CACHES), against a real
redis-server: the lock of a page's computation is shared by every app server and expires, and a
Redis that stops costs a moment, never an answer."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings

from deploy import stack as recipe
from tests.factories import cego, make_table
from tournament.play import hands


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    if "redis-server" in recipe.missing_programs():
        reason = "needs redis-server (Debian: apt-get install redis-server)"
        if os.environ.get("REQUIRE_SERVER"):
            pytest.fail(reason + "; .ci/run installs it")
        pytest.skip(reason)
    server = recipe.Stack(work=Path(tmp_path_factory.mktemp("redis")), database_url="")
    server.start_redis()
    yield server
    server.stop()


def redis_cache(server: recipe.Stack, alias: str) -> dict:
    from tournament.settings import cache_from

    return {alias: cache_from(f"redis://127.0.0.1:{server.redis_port}/0")}


@pytest.fixture
def two_servers(redis_server, settings):
    """The page cache as two app servers each have it: one object each, on one Redis."""
    settings.CACHES = {
        **settings.CACHES,
        **redis_cache(redis_server, "one"),
        **redis_cache(redis_server, "two"),
    }
    one, two = caches["one"], caches["two"]
    assert isinstance(one, RedisCache) and one is not two
    one.clear()
    return one, two


def test_the_lock_of_a_computation_is_one_for_every_app_server_and_expires(two_servers):
    one, two = two_servers
    assert one.add("page:standings:computing", True, 1)
    assert not two.add("page:standings:computing", True, 1)  # the other server goes on without
    time.sleep(1.2)  # the holder died: its lock is gone with its timeout
    assert two.add("page:standings:computing", True, 1)


@pytest.mark.django_db
def test_the_standings_answer_at_once_while_redis_is_down_and_show_every_game(
    client, redis_server, settings, caplog
):
    table = make_table()
    event = table.round.event
    url = f"/turnier/{event.slug}/rangliste/"
    with override_settings(CACHES=redis_cache(redis_server, "default")):
        assert client.get(url).status_code == 200
        redis_server.stop_redis()
        try:
            hands.record_hand(table=table, data=cego(points=47))
            with caplog.at_level(logging.WARNING, logger="tournament.pagecache.pages"):
                start = time.monotonic()
                pages = [client.get(url) for _ in range(5)]
                took = time.monotonic() - start
            # five reads, each given up on Redis within its timeouts (0.2 s), the first only
            assert took < 2, took
            assert all(p.status_code == 200 and "+60" in p.content.decode() for p in pages)
            gone = [r for r in caplog.records if "gone" in r.getMessage()]
            assert len(gone) == 1
        finally:
            redis_server.start_redis()
