"""The pages a hall full of phones reads are computed once per version of their event and served
from the cache (tournament.pagecache, tournament.versions): never stale, 304 while unchanged, one
query a request, compressed."""

from __future__ import annotations

import gzip
import io
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, RequestFactory

from tests.factories import cego, make_entries, make_event, make_round, make_season, make_user
from tests.helpers.pages import projector_lines
from tests.helpers.play import ON_A_STARTED_TABLE, PREPARED, started
from tournament.core import errors
from tournament.models import Event, Player, Season, Table
from tournament.pagecache.pages import Page
from tournament.play import events, hands, lots, scores
from tournament.register import services as register_services
from tournament.views import public
from tournament.views.common import event_version_or_404

pytestmark = pytest.mark.django_db


def _world() -> Table:
    """A season with one Cego event of 8 players at two tables, round 1 started, one game at
    table 1 (seat 0 lost a Halbe: seats 1 to 3 are tied on +20), two squads of four."""
    season = make_season()
    event = make_event(season=season)
    for team, category in (("Rot", "damen"), ("Blau", "")):
        people = [
            # named in public (issue 46): the cached pages show their names
            Player(
                first_name=f"{team}{i}",
                last_name=f"Spieler{team}{i}",
                category=category,
                public_lists=True,
            )
            for i in range(4)
        ]
        register_services.register_players(event=event, players=people, team=team)
    rnd = make_round(event, seed=3)
    table = rnd.tables.get(number=1)
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
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
    return lots.decide_by_lot(event=table.round.event, entries=tied, seed=5)


# the changes the issue names, each as a director or a table makes it
CHANGES: dict[str, Callable[[Table], Any]] = {
    "a game saved": lambda t: hands.record_hand(table=t, data=cego("eine", 1, 41)),
    "a game edited": lambda t: hands.edit_hand(
        hand=t.hands.get(number=1), data=cego("halbe", 0, 61), reason="verzählt"
    ),
    "a game deleted": lambda t: hands.delete_hand(hand=t.hands.get(number=1), reason="doppelt"),
    "a table voided": lambda t: hands.void_table(table=t, reason="unleserlich"),
    "a rule edited": lambda t: events.change_event_settings(
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
    hands.record_hand(table=table, data=cego("halbe", 2, 47))  # +60 for seat 2, -20 the others
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
def test_a_saved_game_changes_the_version_at_its_end_and_a_failed_one_not_at_all(monkeypatch):
    """A saved game writes the event's and the season's versions after its rows, once each, in
    its own transaction (versions.at_the_end): the rows other tables' games wait for are held for
    the last statements only. A game that fails after its first rows are written changes
    nothing, and the next game changes the version again."""
    event = make_event(hands_per_round={"4": 24})
    make_entries(event, 4)
    table = make_round(event).tables.get()
    before = Event.objects.get(pk=event.pk).version
    statements: list[str] = []

    def note(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        hands.record_hand(table=table, data=cego("eine", 1, 41))
    versions_at = [i for i, sql in enumerate(statements) if 'SET "previous_version"' in sql]
    assert versions_at == [len(statements) - 2, len(statements) - 1], statements
    saved = Event.objects.get(pk=event.pk).version
    assert saved > before

    def broken(table):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(scores, "sum_seats", broken)  # after the game and its results
    with pytest.raises(RuntimeError):
        hands.record_hand(table=table, data=cego("halbe", 2, 50))
    assert Event.objects.get(pk=event.pk).version == saved
    assert table.hands.count() == 1  # the failed game is gone with its transaction
    monkeypatch.undo()
    hands.record_hand(table=table, data=cego("halbe", 2, 50))
    assert Event.objects.get(pk=event.pk).version > saved


@real_transactions
def test_a_rolled_back_write_leaves_the_version_and_the_next_write_changes_it():
    table = started()
    event = table.round.event
    before = Event.objects.get(pk=event.pk).version
    with pytest.raises(errors.Refused):
        hands.void_table(table=table, reason="  ")  # refused: no reason
    with transaction.atomic():
        hands.record_hand(table=table, data=cego("eine", 1, 41))
        transaction.set_rollback(True)
    assert Event.objects.get(pk=event.pk).version == before
    hands.record_hand(table=table, data=cego("eine", 1, 41))
    assert Event.objects.get(pk=event.pk).version > before


@real_transactions
def test_saving_an_event_read_before_another_write_does_not_set_its_version_back():
    table = started()
    stale = Event.objects.get(pk=table.round.event_id)
    hands.record_hand(table=table, data=cego("eine", 1, 41))
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
        if name == "projector rows":
            assert len(projector_lines(body)[0]) == Event.objects.get().entries.count()
        else:
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


# --- one computation, the version before meanwhile, a version that never repeats ------------


def _computing(page_url: str, client: Client) -> Any:
    """Another request has begun computing the page of the event's version now (its lock)."""
    response = client.get(page_url)  # only to learn the key: computed, then forgotten
    assert response.status_code == 200
    request = response.wsgi_request
    at = event_version_or_404(request.resolver_match.kwargs["slug"])
    page = public._standings_page(request, *at)
    cache.delete_many([page.key, page.whole_key])
    cache.add(page.key + ":computing", True)
    return page


def test_while_another_request_computes_a_new_version_a_phone_gets_the_version_before():
    table = _world()
    url = pages(table)["standings"]
    before = Client().get(url)
    assert "Zumsteg" not in before.content.decode()
    register_services.correct_player(
        player=table.seats.get(position=1).entry.player, values={"last_name": "Zumsteg"}
    )
    director = Client()
    director.force_login(make_user("leiter"))
    _computing(url, director)
    phone = Client().get(url)  # the version before, ready-made, with its own ETag
    assert "Zumsteg" not in phone.content.decode()
    assert phone["ETag"] == before["ETag"]
    # never for a login: the director's page is the new version, computed for them
    assert "Zumsteg" in director.get(url).content.decode()
    # once nobody computes it, the phone gets the new version
    cache.clear()
    assert "Zumsteg" in Client().get(url).content.decode()


def test_only_the_version_just_before_is_given_else_a_phone_computes_the_page_itself():
    table = _world()
    url = pages(table)["standings"]
    Client().get(url)  # kept: the version now
    hands.record_hand(table=table, data=cego("eine", 1, 41))
    hands.record_hand(table=table, data=cego("halbe", 2, 70))  # two versions later
    _computing(url, Client())
    response = Client().get(url)
    assert response.status_code == 200
    assert text(response) == fresh(Client(), url)  # computed: the page two versions back is not


def test_a_version_never_repeats_after_a_backup_of_before_is_restored():
    """A restore of an older backup takes the rows and their versions back; the cache and the
    phones still hold pages of the versions it wiped. The next write must make a version none of
    them knows: here the restore is a savepoint rolled back with the cache left as it was."""
    table = _world()
    url = pages(table)["standings"]
    phone = Client()
    phone.get(url)
    restore_point = transaction.savepoint()
    hands.record_hand(table=table, data=cego("eine", 1, 41))  # a game the restore wipes
    wiped = phone.get(url)
    assert wiped.status_code == 200
    wiped_version = Event.objects.get(pk=table.round.event_id).version
    transaction.savepoint_rollback(restore_point)  # the backup of before is restored
    assert table.hands.count() == 1
    hands.record_hand(table=table, data=cego("halbe", 2, 70))  # the next game after it
    assert Event.objects.get(pk=table.round.event_id).version != wiped_version
    again = phone.get(url, HTTP_IF_NONE_MATCH=wiped["ETag"])
    assert again.status_code == 200
    assert text(again) == fresh(Client(), url)  # the standings of the database as it is


def test_a_cache_that_is_gone_costs_no_answer_and_is_logged_once_gone_and_once_back(
    monkeypatch, caplog
):
    from tournament.pagecache import pages as pagecache

    table = _world()
    url = pages(table)["standings"]
    expected = fresh(Client(), url)

    def gone(*args, **kwargs):
        raise ConnectionError("Redis is not there")

    for method in ("get", "set", "add", "delete"):
        monkeypatch.setattr(cache, method, gone)
    with caplog.at_level("WARNING", logger="tournament.pagecache.pages"):
        for _ in range(3):
            response = Client().get(url)
            assert response.status_code == 200 and text(response) == expected
        monkeypatch.undo()
        pagecache._gone_until[0] = time.monotonic()  # the pause after the failure is over
        assert text(Client().get(url)) == expected
    said = [r.getMessage() for r in caplog.records]
    assert [m for m in said if "gone" in m] == [
        "the page cache is gone (Redis is not there); pages are computed without it"
    ]
    assert [m for m in said if "back" in m] == ["the page cache is back"]


def test_another_version_is_another_page():
    request = RequestFactory().get("/x/")
    request.LANGUAGE_CODE = "de"
    assert Page(request, "standings", 1, 7).key != Page(request, "standings", 1, 8).key
    assert Page(request, "standings", 1, 7).key != Page(request, "standings", 2, 7).key


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
def test_random_query_values_a_page_does_not_use_compute_no_page_of_their_own(name, caplog):
    """Issue 28: 400 random ?sort= values made 1,010 cache files, each page computed in full.
    Values a page does not tell apart share its page: computed once."""
    table = _world()
    url = pages(table)[name]
    client = Client()
    with caplog.at_level("INFO", logger="tournament.pagecache.pages"):
        assert client.get(url).status_code == 200
        for i in range(400):
            junk = f"sort=x{i}q&utm={i}" if i % 2 else f"sort=-zz{i}&page=&x={i}"
            response = client.get(url + ("&" if "?" in url else "?") + junk)
            assert response.status_code == 200
    computed = [r.getMessage() for r in caplog.records if r.getMessage().startswith("computed")]
    assert len(computed) == 1, computed
    # a column the page does sort by is a page of its own, computed for it
    if name == "standings":
        by_name = client.get(url + "?sort=-name").content.decode()
        assert by_name != client.get(url).content.decode()


def test_after_a_restore_every_event_and_season_has_a_new_version_and_no_page_is_kept(client):
    # a restored database (restore.sh, restore_replica) may carry versions whose pages the cache
    # and the phones keep with data the copy lacks
    from django.core.management import call_command

    season = make_season()
    event = make_event(season=season)
    make_entries(event, 4)
    before = Event.objects.get(pk=event.pk).version, Season.objects.get(pk=season.pk).version
    page = client.get(f"/turnier/{event.slug}/rangliste/")
    assert page.status_code == 200
    cache.set("kept page", "a page of the old version")
    call_command("renew_versions", stdout=io.StringIO())
    after = Event.objects.get(pk=event.pk).version, Season.objects.get(pk=season.pk).version
    assert after[0] > before[0] and after[1] > before[1]
    assert cache.get("kept page") is None
    # the phone's old ETag gets the page, not 304
    again = client.get(f"/turnier/{event.slug}/rangliste/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 200
