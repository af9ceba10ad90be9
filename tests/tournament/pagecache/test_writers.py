"""The request that saves a game computes the standings of its version before it answers, and
the phones asking meanwhile get the version before (tournament.views.fresh,
tournament.pagecache.writers): never a page older than a write that has been answered."""

from __future__ import annotations

import logging
import os
import re
import select
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext

from tests.factories import cego, make_user
from tests.tournament.pagecache.test_pagecache import _world, pages, post_from_the_table
from tournament.models import Event, Table
from tournament.pagecache import writers
from tournament.play import services
from tournament.views import fresh, public

# each write in a transaction of its own, as on the day: a version per write
pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def writer_at_work(event_id: int, versions: list[int]) -> Iterator[None]:
    """The writer of ``versions`` at work on their pages for the block's time."""
    for version in versions:
        writers.at_work(event_id, version)
    try:
        yield
    finally:
        writers.done(event_id, versions)


def _version(table: Table) -> int:
    return Event.objects.get(pk=table.round.event_id).version


def test_a_game_from_the_table_link_has_its_standings_ready_before_the_phone_is_answered():
    table = _world()
    standings, rows = pages(table)["standings"], pages(table)["projector rows"]
    post_from_the_table(table, declarer=2, points=47)  # seat 2: +20 from game 1, +60 now
    visitor = Client()
    for url in (standings, rows):
        with CaptureQueriesContext(connection) as read:
            page = visitor.get(url).content.decode()
        assert len(read.captured_queries) == 1, f"{url} was computed again"  # the version alone
        assert "+80" in page


def test_a_phone_asking_after_the_games_commit_before_its_answer_gets_the_version_before(
    monkeypatch,
):
    table = _world()
    url = pages(table)["standings"]
    held = Client().get(url)
    asked = {}
    compute = fresh.compute

    def a_phone_asks_first(request, event_id, slug):
        asked["standings"] = Client().get(url)  # the game is committed, its phone not answered
        compute(request, event_id, slug)

    monkeypatch.setattr(fresh, "compute", a_phone_asks_first)
    post_from_the_table(table, declarer=2, points=47)
    assert asked["standings"]["ETag"] == held["ETag"]
    assert "+80" not in asked["standings"].content.decode()
    assert "+80" in Client().get(url).content.decode()  # once it is answered


def test_while_the_writer_computes_its_version_a_phone_gets_the_version_before():
    table = _world()
    event = table.round.event
    standings, rows = pages(table)["standings"], pages(table)["projector rows"]
    phone = Client()
    held = {url: phone.get(url) for url in (standings, rows)}  # the version before, kept
    services.record_hand(table=table, data=cego("halbe", 2, 47))  # seat 2 to +80
    with writer_at_work(event.pk, [_version(table)]):  # its writer still at work
        for url in (standings, rows):
            before = Client().get(url)
            assert before["ETag"] == held[url]["ETag"]
            assert "+80" not in before.content.decode()
            # and the phone that holds it is told it has not changed
            assert phone.get(url, HTTP_IF_NONE_MATCH=held[url]["ETag"]).status_code == 304
        # a director's page is the version itself, computed as before
        director = Client()
        director.force_login(make_user("leiter"))
        assert "+80" in director.get(standings).content.decode()
    # the writer answered: everyone gets the version with the game
    for url in (standings, rows):
        after = phone.get(url, HTTP_IF_NONE_MATCH=held[url]["ETag"])
        assert after.status_code == 200
        assert "+80" in after.content.decode()


def test_the_version_before_only_while_every_writer_since_it_is_still_at_work():
    table = _world()
    event = table.round.event
    standings = pages(table)["standings"]
    kept = Client().get(standings)
    services.record_hand(table=table, data=cego("halbe", 2, 47))  # seat 2 to +80
    between = _version(table)
    services.record_hand(table=table, data=cego("halbe", 3, 61))
    newest = _version(table)
    # the writer of the game between has answered (no marker): the page it answered after
    # must not be hidden by the newest writer's work
    with writer_at_work(event.pk, [newest]):
        page = Client().get(standings)
    assert page["ETag"] != kept["ETag"]
    assert page.content != kept.content
    # it is the newest version's page, computed as if no writer were at work
    cache.clear()
    assert Client().get(standings).content == page.content
    cache.clear()
    kept = Client().get(standings)  # the page before both games
    services.record_hand(table=table, data=cego("halbe", 2, 47))
    between = _version(table)
    services.record_hand(table=table, data=cego("halbe", 3, 61))
    newest = _version(table)
    with writer_at_work(event.pk, [between]), writer_at_work(event.pk, [newest]):
        assert Client().get(standings)["ETag"] == kept["ETag"]  # both writers still at work


def test_a_writer_that_fails_computing_still_answers_and_leaves_no_marker(monkeypatch, caplog):
    table = _world()
    event = table.round.event

    def broken(request, slug):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(public, "event_standings", broken)
    with caplog.at_level(logging.ERROR, logger="tournament.views.fresh"):
        post_from_the_table(table, declarer=2, points=47)
    assert table.hands.count() == 2  # the game is saved, and the phone was told so
    assert "computing the standings of event" in caplog.text
    assert cache.get(f"writing:{event.pk}:{_version(table)}") is None
    monkeypatch.undo()
    assert "+80" in Client().get(pages(table)["standings"]).content.decode()


RANK_LINE = re.compile(r'<p class="big-figure">.*?</p>', re.S)


def test_a_players_rank_line_is_that_of_the_version_before_while_its_writer_computes():
    table = _world()
    event = table.round.event
    # seat 0 lost game 1 (-60): last of the eight; a Halbe won by seat 0 with 61 puts it level
    # with everybody at 0
    entry = table.seats.get(position=0).entry
    personal = entry.get_link_url()
    Client().get(pages(table)["standings"])  # the ranking of this version, kept
    before = RANK_LINE.search(Client().get(personal).content.decode()).group(0)
    assert "8" in before
    services.record_hand(table=table, data=cego("halbe", 0, 61))
    with writer_at_work(event.pk, [_version(table)]):
        assert RANK_LINE.search(Client().get(personal).content.decode()).group(0) == before
    after = RANK_LINE.search(Client().get(personal).content.decode()).group(0)
    assert after != before
    assert "8" not in after.split("·")[0].split()[1]  # no longer eighth


@override_settings(STANDINGS_AFTER_WRITES="thread")
def test_on_the_server_a_thread_computes_the_standings_after_the_phone_has_its_answer():
    table = _world()
    event = table.round.event
    url = pages(table)["standings"]
    held = Client().get(url)
    post_from_the_table(table, declarer=2, points=47)
    fresh.wait()  # the thread has computed them
    assert cache.get(f"writing:{event.pk}:{_version(table)}") is None
    with CaptureQueriesContext(connection) as read:
        page = Client().get(url, HTTP_IF_NONE_MATCH=held["ETag"])
    assert page.status_code == 200
    assert len(read.captured_queries) == 1  # computed by the thread, not by this request
    assert "+80" in page.content.decode()


def test_a_page_cache_that_fails_at_the_commit_does_not_turn_a_stored_game_into_an_error(
    monkeypatch,
):
    table = _world()

    def full_disk(event_id, version):
        raise OSError("No space left on device")

    monkeypatch.setattr(writers, "at_work", full_disk)
    post_from_the_table(table, declarer=2, points=47)  # answered 302: the game is stored
    assert table.hands.count() == 2
    assert "+80" in Client().get(pages(table)["standings"]).content.decode()


def test_the_writer_is_at_work_from_its_write_on_not_only_from_its_commit(monkeypatch):
    """Between the commit of a game and its writer's word another process could see the new
    version with nobody at work on it, and compute it itself while the phones waited for it
    (bench/load.py: 13 computations by readers in a run at ten times the rate): the writer says
    so while its transaction is still open."""
    table = _world()
    event = table.round.event
    told = []
    at_work = writers.at_work

    def tell(event_id, version):
        told.append((event_id, version, connection.in_atomic_block))
        at_work(event_id, version)

    monkeypatch.setattr(writers, "at_work", tell)
    post_from_the_table(table, declarer=2, points=47)
    assert told == [(event.pk, _version(table), True)]  # once, before the commit


def test_the_writer_of_a_game_rolled_back_computes_nothing(monkeypatch):
    table = _world()
    event = table.round.event
    computed = []
    monkeypatch.setattr(fresh, "compute", lambda *args: computed.append(args))
    before = _version(table)

    @fresh.computes_standings
    def fails_after_the_game(request):
        with transaction.atomic():
            services.record_hand(table=table, data=cego("halbe", 2, 47))
            raise RuntimeError("the request fails after the game in its transaction")

    with pytest.raises(RuntimeError):
        fails_after_the_game(RequestFactory().post("/t/x/"))
    assert table.hands.count() == 1 and _version(table) == before  # nothing stored
    assert computed == []
    assert cache.get(f"writing:{event.pk}:{before + 1}") is None  # its word taken back


def _tasks_through_a_pipe(*lines: bytes) -> None:
    """The computing process's loop over ``lines`` written at once, as a server process writes
    them, until the pipe closes (``fresh.serve_tasks``)."""
    read, write = os.pipe()
    os.write(write, b"".join(lines))
    os.close(write)
    try:
        fresh.serve_tasks(read)
    finally:
        os.close(read)


def test_the_computing_process_computes_the_games_it_read_together_once(monkeypatch, caplog):
    table = _world()
    event = table.round.event
    url = pages(table)["standings"]
    before = Client().get(url)
    address = {"HTTP_HOST": "testserver", "SERVER_NAME": "testserver", "SERVER_PORT": "80"}
    services.record_hand(table=table, data=cego("halbe", 2, 47))
    first = _version(table)
    services.record_hand(table=table, data=cego("halbe", 3, 61))
    second = _version(table)
    tasks = [fresh.Task(event.pk, event.slug, address, [v]) for v in (first, second)]
    for task in tasks:
        writers.at_work(event.pk, task.versions[0])
    computed = []
    compute = fresh.compute

    def counted(request, event_id, slug):
        computed.append(event_id)
        compute(request, event_id, slug)

    monkeypatch.setattr(fresh, "compute", counted)
    with caplog.at_level(logging.ERROR, logger="tournament.views.fresh"):
        _tasks_through_a_pipe(tasks[0].line(), b"not a task\n", tasks[1].line())
    assert computed == [event.pk]  # both games' version, once
    assert "a line the standings' process cannot read" in caplog.text
    for version in (first, second):
        assert cache.get(f"writing:{event.pk}:{version}") is None
    with CaptureQueriesContext(connection) as read:
        page = Client().get(url)
    assert len(read.captured_queries) == 1  # kept by the process: nothing computed here
    assert page["ETag"] != before["ETag"]
    cache.clear()
    # the newest version, as a visitor's request computes it (its help link too)
    assert Client().get(url).content == page.content


@pytest.fixture
def no_computing_process():
    """The test's own computing process, ended after it."""
    fresh._PROCESS.clear()
    yield
    for process in fresh._PROCESS:
        process.stdin.close()
        process.wait(timeout=60)
    fresh._PROCESS.clear()


def test_the_computing_process_runs_beside_the_server_process_and_ends_with_it(
    no_computing_process,
):
    process = fresh.computer()
    assert process.poll() is None
    assert fresh.computer() is process  # one per server process
    # once it has started (its command line is there a moment after it is made): the readers'
    # requests come first when the cores are busy
    deadline = time.monotonic() + 60
    while os.getpriority(os.PRIO_PROCESS, process.pid) <= os.getpriority(os.PRIO_PROCESS, 0):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    command = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
    assert b"standings_after_writes" in command
    process.stdin.close()  # the server process ends: its pipe closes
    assert process.wait(timeout=60) == 0


def test_a_computing_process_that_died_is_started_again(no_computing_process, caplog):
    process = fresh.computer()
    process.kill()
    process.wait(timeout=60)
    with caplog.at_level(logging.ERROR, logger="tournament.views.fresh"):
        again = fresh.computer()
    assert again is not process and again.poll() is None
    assert "the standings' process ended" in caplog.text


def test_games_of_a_renamed_event_read_together_are_computed_at_its_new_address():
    address = {"HTTP_HOST": "testserver"}
    first = fresh.Task(7, "altes-turnier", address, [3]).line()
    renamed = fresh.Task(7, "neues-turnier", address, [4]).line()
    (task,) = fresh.Task.read([first, renamed])
    assert (task.slug, task.versions) == ("neues-turnier", [3, 4])


def test_a_task_stays_one_line_the_pipe_takes_whole_whatever_the_request_sent():
    request = RequestFactory().post(
        "/t/x/", HTTP_HOST="h" * 5000, HTTP_X_FORWARDED_HOST="f" * 5000, SCRIPT_NAME="/p" * 3000
    )
    line = fresh.Task(7, "turnier", fresh._address(request), list(range(50))).line()
    assert len(line) < select.PIPE_BUF and line.count(b"\n") == 1


def test_a_writers_marker_does_not_make_the_file_cache_look_at_its_folder(tmp_path, monkeypatch):
    from tournament.pagecache.filecache import PageFileCache

    files = PageFileCache(str(tmp_path), {})
    looked = []
    monkeypatch.setattr(
        "django.core.cache.backends.filebased.FileBasedCache._cull", lambda self: looked.append(1)
    )
    monkeypatch.setattr(writers, "cache", files)
    writers.at_work(7, 3)
    assert looked == [] and files.get("writing:7:3") is True
    files.set("page", "x", 60)  # any other write looks (once a minute)
    assert looked == [1]
