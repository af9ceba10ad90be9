"""The pages a hall full of phones reads are computed once per version of their event and served
from the cache (tournament.pagecache, tournament.versions): never stale, 304 while unchanged, one
query a request, compressed."""

from __future__ import annotations

import gzip
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from tests.factories import cego, make_entries, make_event, make_round, make_season, make_user
from tests.helpers import ON_A_STARTED_TABLE, PREPARED, started
from tournament.core import errors
from tournament.models import Event, Player, Season, Table
from tournament.pagecache.pages import CachedPage
from tournament.play import services
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db


def _world() -> Table:
    """A season with one Cego event of 8 players at two tables, round 1 started, one game at
    table 1 (seat 0 lost a Halbe: seats 1 to 3 are tied on +20), two squads of four."""
    season = make_season()
    event = make_event(season=season)
    for team, category in (("Rot", "damen"), ("Blau", "")):
        people = [
            Player(first_name=f"{team}{i}", last_name=f"Spieler{team}{i}", category=category)
            for i in range(4)
        ]
        register_services.register_players(event=event, players=people, team=team)
    rnd = make_round(event, seed=3)
    table = rnd.tables.get(number=1)
    services.record_hand(table=table, data=cego("halbe", 0, 34))
    return table


def pages(table: Table) -> dict[str, str]:
    event = table.round.event
    return {
        "standings": f"/turnier/{event.slug}/rangliste/",
        "standings, side ranking": f"/turnier/{event.slug}/rangliste/?category=damen",
        "standings, sorted by name": f"/turnier/{event.slug}/rangliste/?sort=name",
        "teams": f"/turnier/{event.slug}/mannschaften/",
        "projector": f"/turnier/{event.slug}/beamer/",
        "projector rows": f"/turnier/{event.slug}/beamer/zeilen/",
        "season": f"/saison/{event.season.slug}/",
        "round results": f"/turnier/{event.slug}/durchgang/1/ergebnisse/",
        "table sheet": f"/tisch/{table.pk}/",
    }


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def text(response: Any) -> str:
    """The page as a reader sees it; the form token differs from render to render."""
    return CSRF.sub("", response.content.decode())


def fresh(client: Client, url: str) -> str:
    """The page computed from the database right now, with nothing cached."""
    cache.clear()
    response = client.get(url)
    assert response.status_code == 200
    return text(response)


def _lot(table: Table) -> Any:
    tied = [s.entry for s in table.seats.filter(position__gt=0)]
    return services.decide_by_lot(event=table.round.event, entries=tied, seed=5)


# the changes the issue names, each as a director or a table makes it
CHANGES: dict[str, Callable[[Table], Any]] = {
    "a game saved": lambda t: services.record_hand(table=t, data=cego("eine", 1, 41)),
    "a game edited": lambda t: services.edit_hand(
        hand=t.hands.get(number=1), data=cego("halbe", 0, 61), reason="verzählt"
    ),
    "a game deleted": lambda t: services.delete_hand(hand=t.hands.get(number=1), reason="doppelt"),
    "a table voided": lambda t: services.void_table(table=t, reason="unleserlich"),
    "a rule edited": lambda t: services.change_event_settings(
        event=t.round.event, values={"rules": {"win_threshold": 34}}, reason="Hausregel"
    ),
    "a lot drawn": _lot,
    "a player's name corrected": lambda t: register_services.correct_player(
        player=t.seats.get(position=1).entry.player, values={"last_name": "Zumsteg"}
    ),
    "a player withdrawn": lambda t: register_services.withdraw_entry(
        entry=t.seats.get(position=2).entry
    ),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_shows_on_the_very_next_request_of_every_cached_page(change: str):
    table = _world()
    client = Client()
    before: dict[str, Any] = {}
    for name, url in pages(table).items():
        first = client.get(url)
        assert first.status_code == 200, name
        etag = first.get("ETag", '"none"')  # the projector page around the rows has none
        if name != "projector":
            again = client.get(url, HTTP_IF_NONE_MATCH=etag)
            assert again.status_code == 304, f"{name}: unchanged, yet sent again"
        before[name] = (etag, text(first))
    CHANGES[change](table)
    for name, url in pages(table).items():
        etag, _shown = before[name]
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 200, f"{name}: 304 after {change}"
        assert response.get("ETag") != etag
        served = text(response)
        assert served == fresh(client, url), f"{name} is stale after {change}"
    # and the change is one a reader sees: the standings are no longer what they were
    assert text(client.get(pages(table)["standings"])) != before["standings"][1]


def test_a_saved_game_is_on_the_standings_page_at_once():
    table = _world()
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = pages(table)["standings"]
    assert "+47" not in client.get(url).content.decode()
    services.record_hand(table=table, data=cego("halbe", 2, 47))  # +60 for seat 2, -20 the others
    page = client.get(url).content.decode()
    assert "+80" in page  # seat 2: +20 from game 1, +60 now


def post_from_the_table(table: Table, declarer: int, points: int) -> Client:
    """A Halbe sent from the table's phone through its link, as the phone sends it; the phone."""
    phone = Client()
    link = f"/t/{table.token}/"
    form = phone.get(link).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = phone.post(
        link,
        {
            "csrfmiddlewaretoken": token,
            "submission": "0f8fad5b-d9cb-469f-a165-70867728950e",
            "contract": "halbe",
            "declarer": str(declarer),
            "declarer_points": str(points),
            "action": "save",
        },
    )
    assert response.status_code == 302, response.content.decode()[:300]
    return phone


def test_a_game_saved_through_the_table_link_shows_on_the_projector_rows():
    table = _world()
    projector = Client()
    url = pages(table)["projector rows"]
    first = projector.get(url)
    post_from_the_table(table, declarer=3, points=47)
    after = projector.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert "+80" in after.content.decode()


# as on the day, each write in a transaction of its own (a test's own transaction would hold them
# all, and a version changes once per transaction)
real_transactions = pytest.mark.django_db(transaction=True)


@real_transactions
@pytest.mark.parametrize("action", ON_A_STARTED_TABLE)
def test_every_service_that_writes_changes_the_events_and_the_seasons_version(action: str):
    table = started()
    event = table.round.event
    season = make_season()
    Event.objects.filter(pk=event.pk).update(season=season)
    PREPARED.get(action, lambda t: None)(table)
    before = Event.objects.get(pk=event.pk).version, Season.objects.get(pk=season.pk).version
    ON_A_STARTED_TABLE[action](table, make_user())
    after = Event.objects.get(pk=event.pk).version, Season.objects.get(pk=season.pk).version
    assert after[0] > before[0], f"{action} left the event's version as it was"
    assert after[1] > before[1], f"{action} left the season's version as it was"


@real_transactions
def test_a_write_changes_the_version_once_however_many_rows_it_touches():
    table = started()
    event = table.round.event
    before = Event.objects.get(pk=event.pk).version
    services.record_hand(table=table, data=cego("eine", 1, 41))  # a hand, its 4 results, a draw
    assert Event.objects.get(pk=event.pk).version == before + 1


@real_transactions
def test_a_saved_game_changes_the_version_at_its_end_and_a_failed_one_not_at_all(monkeypatch):
    """A saved game writes the event's and the season's versions after its rows, in its own
    transaction (versions.at_the_end): the rows other tables' games wait for are held for the
    last statements only. A game that fails after its first rows are written changes nothing,
    and the next game changes the version again."""
    event = make_event(hands_per_round={"4": 24})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    before = Event.objects.get(pk=event.pk).version
    statements: list[str] = []

    def note(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        services.record_hand(table=table, data=cego("eine", 1, 41))
    versions_at = [i for i, sql in enumerate(statements) if "SET version = version + 1" in sql]
    assert versions_at == [len(statements) - 2, len(statements) - 1], statements
    assert Event.objects.get(pk=event.pk).version == before + 1

    def broken(table):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(services, "sum_seats", broken)  # after the game and its results
    with pytest.raises(RuntimeError):
        services.record_hand(table=table, data=cego("halbe", 2, 50))
    assert Event.objects.get(pk=event.pk).version == before + 1
    assert table.hands.count() == 1  # the failed game is gone with its transaction
    monkeypatch.undo()
    services.record_hand(table=table, data=cego("halbe", 2, 50))
    assert Event.objects.get(pk=event.pk).version == before + 2


@real_transactions
def test_a_rolled_back_write_leaves_the_version_and_the_next_write_changes_it():
    table = started()
    event = table.round.event
    before = Event.objects.get(pk=event.pk).version
    with pytest.raises(errors.Refused):
        services.void_table(table=table, reason="  ")  # refused: no reason
    with transaction.atomic():
        services.record_hand(table=table, data=cego("eine", 1, 41))
        transaction.set_rollback(True)
    assert Event.objects.get(pk=event.pk).version == before
    services.record_hand(table=table, data=cego("eine", 1, 41))
    assert Event.objects.get(pk=event.pk).version == before + 1


@real_transactions
def test_saving_an_event_read_before_another_write_does_not_set_its_version_back():
    table = started()
    stale = Event.objects.get(pk=table.round.event_id)
    services.record_hand(table=table, data=cego("eine", 1, 41))
    changed = Event.objects.get(pk=stale.pk).version
    stale.venue = "Festhalle"
    stale.save()
    assert Event.objects.get(pk=stale.pk).version > changed


@real_transactions
def test_moving_an_event_to_another_season_changes_both_seasons():
    table = _world()
    event = table.round.event
    old, new = event.season, make_season()
    versions = {s.pk: s.version for s in Season.objects.filter(pk__in=[old.pk, new.pk])}
    event = Event.objects.get(pk=event.pk)
    event.season = new
    event.save()
    for season in Season.objects.filter(pk__in=[old.pk, new.pk]):
        assert season.version > versions[season.pk], season


@real_transactions
def test_a_players_correction_changes_the_version_of_every_event_they_played():
    player = Player.objects.create(first_name="Anna", last_name="Maier")
    events = [make_event(), make_event()]
    for event in events:
        register_services.register_player(event=event, player=player)
    before = {e.pk: Event.objects.get(pk=e.pk).version for e in events}
    register_services.correct_player(player=player, values={"club": "CC Neu"})
    for event in events:
        assert Event.objects.get(pk=event.pk).version > before[event.pk]


# --- conditional requests, sharing, compression -------------------------------------------


def test_an_unchanged_page_is_answered_304_without_a_body():
    table = _world()
    client = Client()
    for name, url in pages(table).items():
        first = client.get(url)
        if name == "projector":  # the page around the rows is fetched once; not conditional
            assert "ETag" not in first
            continue
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, name
        assert again.content == b""
        assert again["ETag"] == first["ETag"]
        assert again["Cache-Control"] == "no-cache"


def test_a_logged_in_visitor_always_gets_the_page_with_their_name():
    table = _world()
    client = Client()
    client.force_login(make_user("leiter"))
    url = pages(table)["standings"]
    first = client.get(url)
    assert "leiter" in first.content.decode()
    assert "ETag" not in first  # the page carries the login: not one for everybody
    assert client.get(url, HTTP_IF_NONE_MATCH='"anything"').status_code == 200


def test_the_organisers_tie_buttons_are_not_cached_for_the_public():
    table = _world()
    director, visitor = Client(), Client()
    director.force_login(make_user("leiter"))
    director.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = pages(table)["standings"]
    page = director.get(url).content.decode()
    assert "Tied prize places" in page and "Decide by lot" in page  # seats 1 to 3 on +20
    page = visitor.get(url).content.decode()
    assert "/los/" not in page
    assert "Spieler" in page  # the standings themselves, from the same cached body


def test_the_projector_rows_answer_304_to_a_logged_in_projector_too():
    table = _world()
    client = Client()
    client.force_login(make_user("leiter"))
    url = pages(table)["projector rows"]
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_the_projector_page_hands_its_rows_etag_to_the_script():
    table = _world()
    client = Client()
    page = client.get(pages(table)["projector"]).content.decode()
    etag = re.search(r'id="rows" data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    rows = client.get(pages(table)["projector rows"], HTTP_IF_NONE_MATCH=etag)
    assert rows.status_code == 304


def test_each_language_is_its_own_page():
    table = _world()
    german, english = Client(), Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = pages(table)["standings"]
    assert "Rangliste" in german.get(url).content.decode()
    page = english.get(url).content.decode()
    assert "Standings" in page and "Rangliste" not in page


def test_a_made_up_parameter_never_reaches_another_visitors_page():
    table = _world()
    url = pages(table)["standings"]
    Client().get(url + "?sort=name&ref=evil.example")
    page = Client().get(url + "?sort=name").content.decode()
    assert "evil.example" not in page


def test_pages_and_rows_go_out_compressed():
    table = _world()
    client = Client()
    for name in ("standings", "projector rows", "season"):
        response = client.get(pages(table)[name], HTTP_ACCEPT_ENCODING="gzip")
        assert response["Content-Encoding"] == "gzip", name
        body = gzip.decompress(response.content).decode()
        assert "</tr>" in body
        # the compressed page is still answered 304 with the (weak) ETag it carries
        again = client.get(
            pages(table)[name], HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=response["ETag"]
        )
        assert again.status_code == 304, name


def test_a_workbook_is_not_compressed_twice():
    table = _world()
    response = Client().get(
        f"/turnier/{table.round.event.slug}/excel/", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert response.status_code == 200
    assert "Content-Encoding" not in response


# --- one query a request ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "standings",
        "standings, side ranking",
        "teams",
        "projector rows",
        "season",
        "round results",
        "table sheet",
    ],
)
def test_a_cached_page_costs_one_query(name: str, django_assert_num_queries: Any):
    table = _world()
    client = Client()
    url = pages(table)[name]
    first = client.get(url)
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200  # from the cache
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


# --- computed once ------------------------------------------------------------------------


def _page(path: str = "/x/") -> CachedPage:
    request = RequestFactory().get(path)
    request.LANGUAGE_CODE = translation.get_language()
    return CachedPage(request, "test", 1, 7)


def test_a_request_waits_for_the_page_another_request_is_computing():
    page = _page()
    cache.add(page.key + ":computing", True)  # another request has begun
    threading.Timer(0.1, lambda: cache.set(page.key, "<p>computed once</p>")).start()
    computed = []
    body = page.body(lambda: computed.append(1) or "<p>twice</p>")
    assert body == "<p>computed once</p>"
    assert computed == []


def test_a_computation_that_never_finishes_does_not_block_the_page(monkeypatch):
    from tournament.pagecache import pages as pagecache

    monkeypatch.setattr(pagecache, "WAIT", 0.05)
    page = _page()
    cache.add(page.key + ":computing", True)  # a request that died while computing
    start = time.monotonic()
    assert page.body(lambda: "<p>here</p>") == "<p>here</p>"
    assert time.monotonic() - start < 2
    assert cache.get(page.key) == "<p>here</p>"


def test_the_standings_and_the_projector_rows_of_a_new_version_are_computed_together(
    django_assert_num_queries: Any,
):
    """The request that computes the standings computes the projector's rows too (and the other
    way round): the projector asking next finds its rows ready, one query. The standings asked
    for next find their body ready: the event's version, then the event itself for the page
    around the body, and nothing computed again."""
    table = _world()
    client = Client()
    for first, second, queries in (
        ("standings", "projector rows", 1),
        ("projector rows", "standings", 2),
    ):
        services.record_hand(table=table, data=cego("halbe", 1, 40))  # a new version
        assert client.get(pages(table)[first]).status_code == 200
        with django_assert_num_queries(queries) as asked:
            answer = client.get(pages(table)[second])
        assert answer.status_code == 200
        assert b"SpielerRot" in answer.content or b"SpielerBlau" in answer.content
        tables = {re.findall(r'FROM "(\w+)"', q["sql"])[0] for q in asked.captured_queries}
        assert tables == {"tournament_event"}


def test_a_game_saved_while_the_standings_are_built_shows_and_the_rows_computed_with_them_are_ready(
    django_assert_num_queries: Any, monkeypatch
):
    """The standings request reads the event's version, then the event itself to build the page;
    a game saved in between is in the page (it is computed after both reads), and the projector's
    rows computed along with it are those of the newer version, which the projector asks for
    next: ready, one query."""
    from tournament.views import common, public

    table = _world()
    urls = pages(table)
    read = common.event_by_id_or_404

    def a_game_saved_meanwhile(pk: int) -> Event:
        monkeypatch.setattr(public, "event_by_id_or_404", read)  # once
        services.record_hand(table=table, data=cego("solo", 2, 70))  # seat 2 wins a Solo
        return read(pk)

    monkeypatch.setattr(public, "event_by_id_or_404", a_game_saved_meanwhile)
    client = Client()
    standings = client.get(urls["standings"])
    assert standings.status_code == 200
    with django_assert_num_queries(1):
        rows = client.get(urls["projector rows"])
    cache.clear()
    assert rows.content == Client().get(urls["projector rows"]).content  # as computed afresh
    assert text(standings) == fresh(Client(), urls["standings"])  # the Solo in both


def _file_cache(tmp_path):
    from tournament.pagecache.filecache import PageFileCache

    return PageFileCache(str(tmp_path / "pages"), {})


def test_on_the_laptops_file_cache_a_request_sleeps_until_the_computing_one_is_done(
    tmp_path, monkeypatch
):
    """The file cache's lock is shared by every process and thread: the second request neither
    computes nor looks every few milliseconds, it gets the first one's page when it is done."""
    from tournament.pagecache import pages as pagecache

    files = _file_cache(tmp_path)
    monkeypatch.setattr(pagecache, "cache", files)
    page = _page()
    computing = threading.Event()
    release = threading.Event()

    def first() -> str:
        computing.set()
        release.wait(5)
        return "<p>computed once</p>"

    worker = threading.Thread(target=lambda: page.body(first))
    worker.start()
    computing.wait(5)
    computed = []
    answers = []
    second = _page()  # here: the language is the thread's
    waiting = threading.Thread(
        target=lambda: answers.append(second.body(lambda: computed.append(1) or "<p>twice</p>"))
    )
    waiting.start()
    time.sleep(0.2)
    assert answers == []  # still waiting, as long as the first one computes
    release.set()
    worker.join(5)
    waiting.join(5)
    assert answers == ["<p>computed once</p>"]
    assert computed == []


@real_transactions
def test_phones_that_waited_for_a_new_version_get_the_response_ready_made(tmp_path, monkeypatch):
    """After a saved game the phones asking at that moment wait for the one request computing the
    standings and the projector's rows; then each is answered with the whole response that
    request kept, instead of each building and compressing the page again (after every game, a
    few milliseconds of the server's time per waiting phone)."""
    from tournament.pagecache import pages as pagecache
    from tournament.views import public

    monkeypatch.setattr(pagecache, "cache", _file_cache(tmp_path))
    table = _world()
    urls = pages(table)
    computing, release = threading.Event(), threading.Event()
    standings_of = public._standings

    def slow_standings(request: Any, event: Event) -> dict[str, Any]:
        computing.set()
        release.wait(10)
        return standings_of(request, event)

    monkeypatch.setattr(public, "_standings", slow_standings)
    compressed: list[int] = []
    compress = gzip.compress
    monkeypatch.setattr(
        pagecache.gzip, "compress", lambda data, **kw: compressed.append(1) or compress(data, **kw)
    )
    answers: dict[str, list[Any]] = {"standings": [], "projector rows": []}

    def phone(name: str) -> None:
        try:
            answers[name].append(Client().get(urls[name]))
        finally:
            from django.db import connection

            connection.close()

    first = threading.Thread(target=phone, args=("standings",))
    first.start()
    assert computing.wait(10)
    waiting = [
        threading.Thread(target=phone, args=(name,))
        for name in ("projector rows", "standings", "projector rows", "standings", "projector rows")
    ]
    for thread in waiting:
        thread.start()
    time.sleep(0.3)
    assert sum(map(len, answers.values())) == 0  # all of them wait for the first
    release.set()
    for thread in [first, *waiting]:
        thread.join(10)
    assert [r.status_code for r in answers["standings"] + answers["projector rows"]] == [200] * 6
    assert len({text(r) for r in answers["standings"]}) == 1
    assert len({r.content for r in answers["projector rows"]}) == 1
    assert "SpielerRot0" in text(answers["standings"][0])
    assert b"SpielerRot0" in answers["projector rows"][0].content
    # once for the standings page, once for the rows: by the request that computed them
    assert len(compressed) == 2


def test_a_process_that_dies_computing_leaves_no_lock_behind(tmp_path, monkeypatch):
    """gunicorn kills a worker stuck past its timeout: its lock goes with it, and the next
    request computes the page."""
    import subprocess
    import sys

    from tournament.pagecache import pages as pagecache

    files = _file_cache(tmp_path)
    monkeypatch.setattr(pagecache, "cache", files)
    page = _page()
    path = files._lock_path(page.lock)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time; d = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT);"
            " fcntl.flock(d, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
            path,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        answers = []
        waiting = threading.Thread(target=lambda: answers.append(page.body(lambda: "<p>here</p>")))
        waiting.start()
        time.sleep(0.2)
        assert answers == []  # the holder is alive: the request waits
        holder.kill()
        waiting.join(5)
        assert answers == ["<p>here</p>"]
    finally:
        holder.kill()
        holder.wait()


def test_another_version_is_another_page():
    request = RequestFactory().get("/x/")
    request.LANGUAGE_CODE = "de"
    assert CachedPage(request, "standings", 1, 7).key != CachedPage(request, "standings", 1, 8).key
    assert CachedPage(request, "standings", 1, 7).key != CachedPage(request, "standings", 2, 7).key


def test_the_page_around_a_cached_body_reads_as_before():
    table = _world()
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(pages(table)["standings"]).content.decode()
    crumbs = re.search(r'<p class="crumbs no-print">(.*?)</p>', page, re.S).group(1)
    names = re.findall(r">([^<>]+)</a>", crumbs)
    assert names == [table.round.event.season.name, table.round.event.name]
    assert "Table" not in crumbs
    assert "<title>Standings · " in page


def test_a_page_the_same_for_everybody_is_served_whole_without_a_template():
    table = _world()
    url = pages(table)["standings"]
    first = Client().get(url)
    assert "tournament/standings.html" in [t.name for t in first.templates]
    again = Client().get(url)  # another visitor, same version
    assert again.templates == []
    assert text(again) == text(first)
    packed = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == first.content


def test_the_language_switch_works_from_a_page_kept_whole():
    table = _world()
    url = pages(table)["standings"]
    Client().get(url)
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(url).content.decode()
    assert "csrfmiddlewaretoken" not in page  # the page is the same for every visitor
    response = visitor.post("/i18n/setlang/", {"language": "en", "next": url})
    assert response.status_code == 302
    assert "Standings" in visitor.get(url).content.decode()


@pytest.mark.parametrize("name", ["standings", "teams", "season", "round results", "table sheet"])
def test_random_query_values_a_page_does_not_use_make_no_cache_files_of_their_own(tmp_path, name):
    """Issue 28: 400 random ?sort= values made 1,010 cache files, each page computed in full.
    Values a page does not tell apart share its entry (the file cache, as on the laptop)."""
    table = _world()
    url = pages(table)[name]
    folder = tmp_path / "pages"
    backend = {"BACKEND": "tournament.pagecache.filecache.PageFileCache", "LOCATION": str(folder)}
    with override_settings(CACHES={"default": backend}):
        client = Client()
        assert client.get(url).status_code == 200
        first = len(list(folder.rglob("*.djcache")))
        for i in range(400):
            junk = f"sort=x{i}q&utm={i}" if i % 2 else f"sort=-zz{i}&page=&x={i}"
            response = client.get(url + ("&" if "?" in url else "?") + junk)
            assert response.status_code == 200
        assert len(list(folder.rglob("*.djcache"))) <= first + 2
        # a column the page does sort by is a page of its own, computed for it
        if name == "standings":
            by_name = client.get(url + "?sort=-name").content.decode()
            assert by_name != client.get(url).content.decode()
