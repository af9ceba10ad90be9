"""Who may do what, role by role: anonymous, logged in without a role, scorer and organiser of the
event, scorer of another event, director (staff), and the table link."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.factories import (
    afresh,
    built_once,
    cego,
    make_entries,
    make_event,
    make_role,
    make_round,
    make_user,
    reread,
)
from tests.helpers.money import played
from tournament.models import EventRole, Hand, Player
from tournament.play import services
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "no role", "scorer", "organiser", "scorer elsewhere", "director"]
ALLOWED = "allowed"
LOGIN = "login"
FORBIDDEN = "forbidden"


@dataclass
class World:
    event: object
    table: object
    hand: object
    entry: object


@pytest.fixture(scope="module")
def built_world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """An event with one started table and one game, built once for the module's tests."""
    with built_once(django_db_blocker):
        event = make_event()
        entry = make_entries(event, 4)[0]
        table = make_round(event).tables.get()
        hand = services.record_hand(table=table, data=cego("halbe", 0, 34))
        yield reread(World(event, table, hand, entry))


@pytest.fixture
def world(built_world: World) -> World:
    return afresh(built_world)


def client_for(role: str, world: World) -> Client:
    client = Client()
    if role == "anonymous":
        return client
    if role == "no role":
        user = make_user("plain", staff=False)
    elif role == "scorer":
        user = make_role(world.event, EventRole.Role.SCORER)
    elif role == "organiser":
        user = make_role(world.event, EventRole.Role.ORGANISER)
    elif role == "scorer elsewhere":
        user = make_role(make_event(), EventRole.Role.SCORER)
    else:
        user = make_user("boss")
    client.force_login(user)
    return client


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
        lambda w: f"/turnier/{w.event.slug}/spieler/{w.entry.pk}/",
    ),
    (
        "remove an entry",
        "organiser",
        "get",
        lambda w: f"/turnier/{w.event.slug}/spieler/{w.entry.pk}/entfernen/",
    ),
    # players are shared by every event: only a director merges two of them
    (
        "merge players",
        "director",
        "get",
        lambda w: f"/turnier/{w.event.slug}/spieler/{w.entry.pk}/zusammenfuehren/",
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
def test_each_role_may_do_exactly_what_it_is_given(world, role, name, needs, method, url):
    client = client_for(role, world)
    response = getattr(client, method)(url(world))
    assert outcome(response) == expected(role, needs)


def test_a_scorer_may_enter_a_game_but_a_user_without_a_role_stores_nothing(world):
    data = {"contract": "cego", "declarer": "1", "declarer_points": "40", "action": "save"}
    assert client_for("no role", world).post(f"/tisch/{world.table.pk}/", data).status_code == 403
    assert Hand.objects.filter(table=world.table).count() == 1
    response = client_for("scorer", world).post(f"/tisch/{world.table.pk}/", data)
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
    services.record_hand(table=world.table, data=cego())
    world.table.round.status = "closed"
    world.table.round.save()
    client.post(world.table.get_link_url(), data)
    assert Hand.objects.filter(table=world.table).count() == 3
    assert (
        client.get(world.table.get_link_url().replace(world.table.token, "x" * 32)).status_code
        == 404
    )


def test_after_the_sheet_is_handed_in_the_link_cannot_change_it_but_a_scorer_can(world):
    world.event.hands_per_round = {"4": 1}
    world.event.save()
    services.submit_table(table=world.table)
    link = Client()
    link.post(world.table.get_link_url() + "undo/", {"reason": "oops"})
    assert Hand.objects.filter(table=world.table).count() == 1
    scorer = client_for("scorer", world)
    response = scorer.post(
        world.hand.get_absolute_url(),
        {
            "contract": "halbe",
            "declarer": "0",
            "declarer_points": "47",
            "reason": "Liste nachgezählt",
            "version": "1",
            "action": "save",
        },
    )
    assert response.status_code == 302
    world.hand.refresh_from_db()
    assert world.hand.data["declarer_points"] == 47


def test_a_table_link_confirms_a_handed_in_sheet_only_until_the_round_closes(world):
    world.event.hands_per_round = {"4": 1}
    world.event.save()
    services.submit_table(table=world.table)
    phone = Client()
    phone.get(world.table.get_link_url())
    services.close_round(round=world.table.round)
    phone.post(world.table.get_link_url() + "confirm/", {"position": "0"})
    assert not world.table.confirmations.exists()
    # the scorer's way stays open: the scorer confirms for all
    client_for("scorer", world).post(f"/tisch/{world.table.pk}/bestaetigen/")
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
