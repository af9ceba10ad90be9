"""The page cache on Redis (tournament.pagecache.rediscache), against a real redis-server: the
compute lock is shared by every app server and expires when its holder died, and a Redis that
stops costs speed, never an answer."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from django.core.cache import caches
from django.test import override_settings

from deploy import stack as recipe
from tests.factories import cego, make_table
from tournament.pagecache import rediscache
from tournament.play import services


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
    assert isinstance(one, rediscache.PageRedisCache) and one is not two
    one.clear()
    return one, two


def test_a_page_computed_on_one_server_makes_the_other_wait_for_it(two_servers):
    one, two = two_servers
    order: list[str] = []
    holding = threading.Event()

    def first() -> None:
        with one.computing("page:standings"):
            holding.set()
            time.sleep(0.3)
            order.append("one computed")

    thread = threading.Thread(target=first)
    thread.start()
    holding.wait(5)
    with two.computing("page:standings"):
        order.append("two went on")
    thread.join()
    assert order == ["one computed", "two went on"]


def test_the_lock_of_a_server_that_died_computing_expires(two_servers, monkeypatch):
    one, two = two_servers
    monkeypatch.setattr(rediscache, "LOCK_TIMEOUT", 1)
    held = one._cache.get_client(write=True).lock(
        one.make_and_validate_key("page:rows") + ":computing", timeout=1
    )
    assert held.acquire()  # and never released: its process was killed
    start = time.monotonic()
    with two.computing("page:rows"):
        waited = time.monotonic() - start
    assert 0.5 < waited < rediscache.WAIT


def test_a_stopped_redis_is_a_cache_that_holds_nothing(two_servers, redis_server):
    one, _ = two_servers
    one.set("page:x", "kept", 60)
    assert one.get("page:x") == "kept"
    redis_server.stop_redis()
    try:
        assert one.get("page:x") is None
        one.set("page:x", "new", 60)  # dropped, no error
        assert one.has_key("page:x") is False
        with one.computing("page:x"):  # not held, no wait
            pass
    finally:
        redis_server.start_redis()
    one.set("page:x", "again", 60)
    assert one.get("page:x") == "again"


@pytest.mark.django_db
def test_the_standings_answer_while_redis_is_down_and_show_every_game(
    client, redis_server, settings
):
    settings.CACHES = redis_cache(redis_server, "default")
    table = make_table()
    event = table.round.event
    url = f"/turnier/{event.slug}/rangliste/"
    with override_settings(CACHES=redis_cache(redis_server, "default")):
        assert client.get(url).status_code == 200
        redis_server.stop_redis()
        try:
            services.record_hand(table=table, data=cego(points=47))
            page = client.get(url)
            assert page.status_code == 200
            assert "+60" in page.content.decode()
        finally:
            redis_server.start_redis()
        assert client.get(url).status_code == 200
