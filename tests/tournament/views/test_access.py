"""Who may read and who may change what through the web pages, in one matrix: every URL of the
app, for each role (anonymous, logged in without a role, scorer and organiser of the event, scorer
of another event, director), with each method. Reads are public; every change needs a login, the
role it needs and a POST; a refused change saves nothing; the table link writes only its own
table while its round is played; only a director corrects a player of another organiser's event.

The world, the users of each role and the worlds of the writes are built once for the module
(``built_world`` in tests/tournament/conftest.py, ``users`` and ``writes`` below); each test runs
in a savepoint that is rolled back, so what one test writes is gone before the next.
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils.html import escape

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_role,
    make_round,
    make_user,
)
from tests.helpers.access import (
    DIRECTOR_PAGES,
    PLAYER_PAGES,
    POST_ONLY,
    TABLE_LINK_PAGES,
    WRITE_IDS,
    WRITES,
    Write,
    entry_of,
)
from tests.helpers.db import no_writes
from tests.helpers.forms import event_post, register_post
from tests.helpers.money import played
from tests.helpers.pages import assert_sent_to_login, shows
from tests.helpers.world import PUBLIC_PAGES, World
from tournament import urls as tournament_urls
from tournament.models import Entry, Event, EventRole, Hand, Player, Season
from tournament.play import confirmations, hands, rounds
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "no role", "scorer", "organiser", "scorer elsewhere", "director"]
ALLOWED = "allowed"
LOGIN = "login"
FORBIDDEN = "forbidden"


@pytest.fixture(scope="module")
def users(built_world: World, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """A user of each role but the anonymous one, for the world's event; built once, rolled back
    after the module (inside the world's transaction)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield {
            "no role": make_user("plain", staff=False),
            "scorer": make_role(built_world.event, EventRole.Role.SCORER),
            "organiser": make_role(built_world.event, EventRole.Role.ORGANISER),
            "scorer elsewhere": make_role(make_event(), EventRole.Role.SCORER),
            "director": make_user("boss"),
        }
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def writes(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Write]]:
    """Each write's own small world (tests/helpers/access.py), built once for the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield {name: make() for name, (_url_name, make) in zip(WRITE_IDS, WRITES, strict=True)}
        transaction.set_rollback(True)


@pytest.fixture
def write(writes: dict[str, Write], request: pytest.FixtureRequest) -> Write:
    """The write a test is parametrized with (``make``), as built for the module."""
    return writes[request.node.callspec.params["make"].__name__]


@pytest.fixture
def client_for(users: dict[str, Any]) -> Callable[[str], Client]:
    """A browser of a role, reading the messages in English (tests/conftest.py)."""

    def client_for(role: str) -> Client:
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        if role != "anonymous":
            client.force_login(users[role])
        return client

    return client_for


@pytest.fixture
def director(client_for: Callable[[str], Client]) -> Client:
    """A logged-in director, who may do everything: "a logged-in user" below."""
    return client_for("director")


def outcome(response) -> str:
    if response.status_code == 302 and "/anmelden/" in response["Location"]:
        return LOGIN
    if response.status_code == 403:
        return FORBIDDEN
    assert response.status_code in (200, 302), response.status_code
    return ALLOWED


def expected(role: str, needs: str) -> str:
    if role == "anonymous":
        return LOGIN
    granted = {
        "director": {"director", "organiser", "scorer"},
        "organiser": {"organiser", "scorer"},
        "scorer": {"scorer"},
    }.get(role, set())
    return ALLOWED if needs in granted else FORBIDDEN


# --- every URL: who reaches it ------------------------------------------------------------------


# what a director would POST to the pages that take one (hand_edit is among the writes below)
DIRECTOR_POSTS: dict[str, Callable[[World], dict[str, Any]]] = {
    "event_create": lambda w: event_post(),
    "event_edit": lambda w: event_post(name="Umbenannt", slug=w.event.slug),
    "season_create": lambda w: {"name": "Saison 2027", "slug": "saison-2027"},
    "event_players": lambda w: register_post(first_name="Anna", last_name="Maier"),
    "import_players": lambda w: {"action": "confirm", "payload": ""},
    "import_results": lambda w: {"action": "confirm", "payload": ""},
    "prize_table": lambda w: {
        "prize-TOTAL_FORMS": "1",
        "prize-INITIAL_FORMS": "0",
        "prize-0-ranking": "overall",
        "prize-0-place": "1",
        "prize-0-amount": "150",
    },
    "fee_categories": lambda w: {
        "fee-TOTAL_FORMS": "1",
        "fee-INITIAL_FORMS": "0",
        "fee-0-name": "Voll",
        "fee-0-amount": "15",
    },
    "cash_book": lambda w: {
        "description": "Hallenmiete",
        "direction": "out",
        "via": "box",
        "amount": "80",
    },
    "checkin": lambda w: {"action": "check_in", "entry": entry_of(w).pk},
}


def test_the_matrix_covers_every_url_name() -> None:
    names = {p.name for p in tournament_urls.urlpatterns if isinstance(p, URLPattern)}
    covered = set(PUBLIC_PAGES) | set(DIRECTOR_PAGES) | {name for name, _make in WRITES}
    covered |= TABLE_LINK_PAGES | PLAYER_PAGES
    # logging in and out, and the language switch, are tested on their own (tests/test_language.py),
    # so is /favicon.ico, a redirect to the static icon (tests/tournament/views/test_public.py);
    # the handbook's pages show files, not the world (tests/tournament/views/test_help.py)
    handbook = {
        f"{book}{page}" for book in ("handbook", "guide") for page in ("", "_chapter", "_image")
    }
    assert names - {"login", "logout", "set_language", "favicon"} - handbook == covered


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_anyone_can_read_a_public_page(client: Client, world: World, name: str) -> None:
    url, text = PUBLIC_PAGES[name](world)
    response = client.get(url)
    assert response.status_code == 200
    assert shows(response, text)


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_a_logged_in_user_reads_the_same_public_page(
    director: Client, world: World, name: str
) -> None:
    url, text = PUBLIC_PAGES[name](world)
    response = director.get(url)
    assert response.status_code == 200
    assert shows(response, text)


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_a_director_page_sends_an_anonymous_visitor_to_the_login(
    client: Client, world: World, name: str
) -> None:
    url, _html = DIRECTOR_PAGES[name](world)
    assert_sent_to_login(client.get(url), url)


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_a_director_page_opens_for_a_logged_in_user(
    director: Client, world: World, name: str
) -> None:
    url, html = DIRECTOR_PAGES[name](world)
    response = director.get(url)
    assert response.status_code == 200
    if "spreadsheetml" in response["Content-Type"]:  # the result template to fill in offline
        assert shows(response, html)
    elif response["Content-Type"] == "application/zip":  # the season's published website
        assert html in zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    elif response["Content-Type"] == "application/gzip":  # the event bundle
        assert html in gzip.decompress(response.content).decode()
    else:
        assert html in response.content.decode()


@pytest.mark.parametrize("name", DIRECTOR_POSTS)
def test_an_anonymous_post_to_a_director_page_changes_nothing(
    client: Client, world: World, name: str
) -> None:
    url, data = DIRECTOR_PAGES[name](world)[0], DIRECTOR_POSTS[name](world)
    with no_writes():
        assert_sent_to_login(client.post(url, data), url)


# how each of these POSTs is seen saved
SAVED: dict[str, Callable[[], bool]] = {
    "event_create": lambda: Event.objects.filter(name="Herbstturnier").exists(),
    "event_edit": lambda: Event.objects.filter(name="Umbenannt").exists(),
    "season_create": lambda: Season.objects.filter(slug="saison-2027").exists(),
    "event_players": lambda: Entry.objects.filter(player__last_name="Maier").exists(),
}


@pytest.mark.parametrize("name", SAVED)
def test_a_director_post_is_saved(director: Client, world: World, name: str) -> None:
    # the POSTs of the test above are real changes: anonymous, they were refused for the login
    response = director.post(DIRECTOR_PAGES[name](world)[0], DIRECTOR_POSTS[name](world))
    assert response.status_code == 302
    assert SAVED[name]()


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_an_anonymous_post_changes_nothing_and_asks_for_a_login(
    client: Client, name: str, make: Callable[[], Write], write: Write
) -> None:
    with no_writes():
        response = client.post(write.url, write.data)
        assert_sent_to_login(response, write.url)


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_a_logged_in_post_does_what_it_says(
    director: Client, name: str, make: Callable[[], Write], write: Write
) -> None:
    response = director.post(write.url, write.data)
    assert response.status_code in (200, 302)
    assert not [m for m in get_messages(response.wsgi_request) if m.level_tag == "error"]
    write.happened(response)


@pytest.mark.parametrize(("name", "make"), WRITES, ids=WRITE_IDS)
def test_a_logged_in_user_without_a_role_may_change_nothing(
    client_for: Callable[[str], Client], name: str, make: Callable[[], Write], write: Write
) -> None:
    client = client_for("no role")
    with no_writes():
        assert client.post(write.url, write.data).status_code == 403


@pytest.mark.parametrize(("name", "make"), POST_ONLY, ids=[m.__name__ for _n, m in POST_ONLY])
def test_a_get_on_a_post_only_endpoint_answers_405(
    director: Client, name: str, make: Callable[[], Write], write: Write
) -> None:
    with no_writes():
        assert director.get(write.url).status_code == 405


@pytest.mark.parametrize("name", [n for n in PUBLIC_PAGES if n != "table"])
def test_a_read_page_refuses_a_post(director: Client, world: World, name: str) -> None:
    url, _text = PUBLIC_PAGES[name](world)
    assert director.post(url).status_code == 405


def test_an_unknown_round_action_is_not_found(director: Client) -> None:
    event = make_event()
    make_entries(event, 4)
    make_round(event, start=False)
    with no_writes():
        url = reverse("round_start", args=[event.slug, 1]).replace("/start/", "/shuffle/")
        assert director.post(url).status_code == 404


# --- each role, page by page ---------------------------------------------------------------------


# (name, what it needs, method, url) – every page and write that needs more than reading
PAGES = [
    ("new event", "director", "get", lambda w: "/turnier/neu/"),
    ("new season", "director", "get", lambda w: "/saison/neu/"),
    ("event settings", "organiser", "get", lambda w: f"/turnier/{w.event.slug}/bearbeiten/"),
    ("players", "organiser", "get", lambda w: f"/turnier/{w.event.slug}/spieler/"),
    ("import players", "organiser", "get", lambda w: f"/turnier/{w.event.slug}/spieler/import/"),
    (
        "correct a player",
        "organiser",
        "get",
        lambda w: f"/turnier/{w.event.slug}/spieler/{entry_of(w).pk}/",
    ),
    (
        "remove an entry",
        "organiser",
        "get",
        lambda w: f"/turnier/{w.event.slug}/spieler/{entry_of(w).pk}/entfernen/",
    ),
    # players are shared by every event: only a director merges two of them
    (
        "merge players",
        "director",
        "get",
        lambda w: f"/turnier/{w.event.slug}/spieler/{entry_of(w).pk}/zusammenfuehren/",
    ),
    # a player's name taken off everything: every event's, so a director's
    (
        "anonymise a player",
        "director",
        "get",
        lambda w: f"/spielerverzeichnis/{w.player.uid}/anonymisieren/",
    ),
    # a player's consent, recorded or withdrawn: it reaches every event's pages
    (
        "record a consent",
        "director",
        "post",
        lambda w: f"/spielerverzeichnis/{w.player.uid}/einwilligung/",
    ),
    ("add round", "organiser", "post", lambda w: f"/turnier/{w.event.slug}/durchgang/neu/"),
    ("close round", "organiser", "post", lambda w: f"/turnier/{w.event.slug}/durchgang/1/close/"),
    (
        "remove round",
        "organiser",
        "post",
        lambda w: f"/turnier/{w.event.slug}/durchgang/1/remove/",
    ),
    ("void table", "organiser", "post", lambda w: f"/tisch/{w.table.pk}/werten/"),
    ("draw by lot", "organiser", "post", lambda w: f"/turnier/{w.event.slug}/los/"),
    (
        "after the laptop change",
        "organiser",
        "get",
        lambda w: f"/turnier/{w.event.slug}/wiederhergestellt/",
    ),
    ("enter a game", "scorer", "post", lambda w: f"/tisch/{w.table.pk}/"),
    ("preview a game", "scorer", "post", lambda w: f"/tisch/{w.table.pk}/vorschau/"),
    ("correct a game", "scorer", "get", lambda w: w.hand.get_absolute_url()),
    ("totals", "scorer", "post", lambda w: f"/tisch/{w.table.pk}/summen/"),
    ("confirm a sheet", "scorer", "post", lambda w: f"/tisch/{w.table.pk}/bestaetigen/"),
    ("table history", "scorer", "get", lambda w: f"/tisch/{w.table.pk}/verlauf/"),
    ("event history", "scorer", "get", lambda w: f"/turnier/{w.event.slug}/verlauf/"),
    (
        "result template",
        "scorer",
        "get",
        lambda w: f"/turnier/{w.event.slug}/durchgang/1/ergebnisvorlage/",
    ),
    (
        "import results",
        "scorer",
        "get",
        lambda w: f"/turnier/{w.event.slug}/durchgang/1/ergebnisimport/",
    ),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "needs", "method", "url"), PAGES, ids=[p[0] for p in PAGES])
def test_each_role_may_do_exactly_what_it_is_given(
    client_for, world, role, name, needs, method, url
):
    client = client_for(role)
    if expected(role, needs) == ALLOWED:
        response = getattr(client, method)(url(world))
    else:
        with no_writes():  # a refused request saves nothing
            response = getattr(client, method)(url(world))
    assert outcome(response) == expected(role, needs)


def test_a_scorer_may_enter_a_game_but_a_user_without_a_role_stores_nothing(client_for, world):
    data = {"contract": "cego", "declarer": "1", "declarer_points": "40", "action": "save"}
    assert client_for("no role").post(f"/tisch/{world.table.pk}/", data).status_code == 403
    assert Hand.objects.filter(table=world.table).count() == 1
    response = client_for("scorer").post(f"/tisch/{world.table.pk}/", data)
    assert response.status_code == 302
    assert Hand.objects.filter(table=world.table).count() == 2


def test_a_table_link_writes_only_its_own_table_and_only_while_the_round_is_played(world):
    other = make_event()
    make_entries(other, 4)
    other_table = make_round(other).tables.get()
    data = {"contract": "cego", "declarer": "1", "declarer_points": "40", "action": "save"}
    client = Client()
    client.post(world.table.get_link_url(), data)
    assert Hand.objects.filter(table=world.table).count() == 2
    assert Hand.objects.filter(table=other_table).count() == 0
    # the link is no login: the scorer's page stays closed to it
    assert outcome(client.post(f"/tisch/{world.table.pk}/", data)) == LOGIN
    # a closed round takes no more games through the link
    hands.record_hand(table=world.table, data=cego())
    world.table.round.status = "closed"
    world.table.round.save()
    client.post(world.table.get_link_url(), data)
    assert Hand.objects.filter(table=world.table).count() == 3
    assert (
        client.get(world.table.get_link_url().replace(world.table.token, "x" * 32)).status_code
        == 404
    )


def test_after_the_sheet_is_handed_in_the_link_cannot_change_it_but_a_scorer_can(client_for, world):
    world.event.hands_per_round = {"4": 1}
    world.event.save()
    confirmations.submit_table(table=world.table)
    link = Client()
    link.post(world.table.get_link_url() + "undo/", {"reason": "oops"})
    assert Hand.objects.filter(table=world.table).count() == 1
    scorer = client_for("scorer")
    response = scorer.post(
        world.hand.get_absolute_url(),
        {
            "contract": "halbe",
            "declarer": "0",
            "declarer_points": "47",
            "reason": "Liste nachgezählt",
            "version": str(world.hand.version),
            "action": "save",
        },
    )
    assert response.status_code == 302
    world.hand.refresh_from_db()
    assert world.hand.data["declarer_points"] == 47


def test_a_table_link_confirms_a_handed_in_sheet_only_until_the_round_closes(client_for, world):
    world.event.hands_per_round = {"4": 1}
    world.event.save()
    confirmations.submit_table(table=world.table)
    phone = Client()
    phone.get(world.table.get_link_url())
    rounds.close_round(round=world.table.round)
    phone.post(world.table.get_link_url() + "confirm/", {"position": "0"})
    assert not world.table.confirmations.exists()
    # the scorer's way stays open: the scorer confirms for all
    client_for("scorer").post(f"/tisch/{world.table.pk}/bestaetigen/")
    assert world.table.confirmations.count() == 4


# --- a player is one person across events: who may correct one ---------------------------------

REFUSAL = "This player also played in events you do not organise; a director corrects them."


@dataclass
class TwoOrganisers:
    """Organiser A of a running event and organiser B of a finished one; Eva played both."""

    mine: object
    theirs: object
    eva: object
    entry: object
    organiser: Any
    other_organiser: Any


@pytest.fixture
def two_organisers() -> TwoOrganisers:
    theirs, entries = played([40, 20, -30, -30])
    eva = entries[0].player
    Player.objects.filter(pk__in=[eva.pk, entries[1].player_id]).update(category="damen")
    Player.objects.filter(pk=eva.pk).update(first_name="Eva", last_name="Schwörer")
    eva.refresh_from_db()
    mine = make_event(name="Turnier Gütenbach")
    entry = register_services.register_player(event=mine, player=eva)
    make_entries(mine, 3)
    return TwoOrganisers(
        mine=mine,
        theirs=theirs,
        eva=eva,
        entry=entry,
        organiser=make_role(mine, EventRole.Role.ORGANISER, "orga-a"),
        other_organiser=make_role(theirs, EventRole.Role.ORGANISER, "orga-b"),
    )


def pages_of(event) -> list[str]:
    """What a reader of the event's standings and women's ranking reads."""
    client = Client()
    url = reverse("event_standings", args=[event.slug])
    return [
        client.get(url).content.decode(),
        client.get(url, {"category": "damen"}).content.decode(),
    ]


def test_an_organiser_may_not_correct_a_player_who_played_another_organisers_event(two_organisers):
    world = two_organisers
    before = pages_of(world.theirs)
    assert "Schwörer" in before[1]
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the sentence as the test reads it
    client.force_login(world.organiser)
    url = reverse("player_edit", args=[world.mine.slug, world.entry.pk])
    page = client.get(url).content.decode()
    assert escape(REFUSAL) in page
    assert 'name="first_name"' not in page
    response = client.post(
        url, {"first_name": "Eve", "last_name": "Schwarz", "club": "", "town": "", "category": ""}
    )
    assert response.status_code == 403
    assert escape(REFUSAL) in response.content.decode()
    world.eva.refresh_from_db()
    assert (str(world.eva), world.eva.category) == ("Eva Schwörer", "damen")
    assert pages_of(world.theirs) == before


def test_an_organiser_corrects_a_player_who_played_only_their_own_events(two_organisers):
    world = two_organisers
    newcomer = world.mine.entries.exclude(pk=world.entry.pk).select_related("player").first()
    client = Client()
    client.force_login(world.organiser)
    url = reverse("player_edit", args=[world.mine.slug, newcomer.pk])
    assert 'name="first_name"' in client.get(url).content.decode()
    data = {"first_name": "Lena", "last_name": "Schäfer", "club": "", "town": "", "category": ""}
    assert client.post(url, {**data, "category": "jugend"}).status_code == 302
    newcomer.player.refresh_from_db()
    assert (str(newcomer.player), newcomer.player.category) == ("Lena Schäfer", "jugend")


def test_a_director_corrects_a_player_of_any_event(two_organisers):
    world = two_organisers
    client = Client()
    client.force_login(make_user())
    data = {"first_name": "Eva", "last_name": "Schwörer-Kern", "club": "", "town": ""}
    url = reverse("player_edit", args=[world.mine.slug, world.entry.pk])
    assert client.post(url, {**data, "category": "damen"}).status_code == 302
    theirs = world.theirs.entries.get(player=world.eva)
    url = reverse("player_edit", args=[world.theirs.slug, theirs.pk])
    assert client.post(url, {**data, "category": "senioren"}).status_code == 302
    world.eva.refresh_from_db()
    assert (world.eva.last_name, world.eva.category) == ("Schwörer-Kern", "senioren")
    assert "Schwörer-Kern" in pages_of(world.theirs)[0]
