"""Property-based hostile input: random and malicious values sent to every form, to the table link
and to the imports. Whatever arrives: never an error 500, never a partial save, always an answer."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import make_entries, make_event, make_round, make_user
from tournament.models import Entry, Event, Hand, Player, Result

pytestmark = pytest.mark.django_db

HOSTILE_TEXT = st.sampled_from(
    [
        "",
        "0",
        "-1",
        "79",
        "80",
        "1e9",
        "10" * 40,
        "-" + "9" * 30,
        "²",
        "٣",
        "NaN",
        "true",
        "<script>alert(1)</script>",
        "=1+1",
        "' OR 1=1 --",
        "\x00",
        "halbe",
        "raeuber",
        "solo",
        "null",
        "[]",
        "{}",
    ]
)
VALUE = st.one_of(
    HOSTILE_TEXT,
    st.text(max_size=30),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
)
CEGO_FIELDS = [
    "contract",
    "declarer",
    "declarer_points",
    "berg",
    "gegensolo",
    "declarer_tricks",
    "won",
    "announcer",
    "forfeit",
    "points_0",
    "points_1",
    "points_2",
    "points_3",
    "submission",
    "action",
    "number",
    "version",
    "reason",
]
FORM = st.dictionaries(st.sampled_from(CEGO_FIELDS), VALUE, max_size=len(CEGO_FIELDS))
SLOW = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def clean(data: dict[str, str]) -> dict[str, str]:
    # a browser cannot send NUL bytes in a form; Django's test client refuses them too
    return {k: v.replace("\x00", "") for k, v in data.items()}


@pytest.fixture
def open_table():
    event = make_event()
    make_entries(event, 4)
    return make_round(event).tables.get()


def consistent(table) -> None:
    """No partial save: every stored hand has its four results, and they add up to zero."""
    hands = Hand.objects.filter(table=table).count()
    results = list(Result.objects.filter(table=table).values_list("points", flat=True))
    assert len(results) == 4 * hands
    assert sum(results) == 0


@SLOW
@given(data=FORM)
def test_the_table_link_answers_every_form_without_an_error(open_table, data):
    client = Client(raise_request_exception=False)
    url = open_table.get_link_url()
    for path in (url, url + "vorschau/", url + "undo/", url + "submit/", url + "confirm/"):
        response = client.post(path, clean(data))
        assert response.status_code in (200, 302, 403), (path, response.status_code)
    consistent(open_table)


@SLOW
@given(data=FORM)
def test_the_scorers_pages_answer_every_form_without_an_error(open_table, data):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    for path in (
        f"/tisch/{open_table.pk}/",
        f"/tisch/{open_table.pk}/vorschau/",
        f"/tisch/{open_table.pk}/summen/",
        f"/tisch/{open_table.pk}/bestaetigen/",
    ):
        response = client.post(path, clean(data))
        assert response.status_code in (200, 302), (path, response.status_code)
    hand = Hand.objects.filter(table=open_table).first()
    if hand:
        response = client.post(f"/spiel/{hand.pk}/", clean(data))
        assert response.status_code in (200, 302)
    consistent(open_table)


EVENT_FIELDS = [
    "name",
    "slug",
    "date",
    "game",
    "table_policy",
    "target_table_size",
    "rounds_planned",
    "pairing",
    "games_per_round",
    "cego__bettel",
    "cego__win_threshold",
    "cego__solo_double",
    "first_name",
    "last_name",
    "club",
    "town",
    "category",
    "team",
    "player",
]


@SLOW
@given(data=st.dictionaries(st.sampled_from(EVENT_FIELDS), VALUE, max_size=len(EVENT_FIELDS)))
def test_the_director_forms_answer_every_input_without_an_error(data):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    event = Event.objects.first() or make_event()
    events, players = Event.objects.count(), Player.objects.count()
    for path in ("/turnier/neu/", f"/turnier/{event.slug}/spieler/", "/saison/neu/"):
        response = client.post(path, clean(data))
        assert response.status_code in (200, 302), (path, response.status_code)
    # a form either saved one whole thing or nothing
    assert Event.objects.count() in (events, events + 1)
    assert Player.objects.count() in (players, players + 1)
    assert Entry.objects.filter(player__isnull=True).count() == 0


@SLOW
@given(content=st.binary(max_size=2000), name=st.sampled_from(["a.xlsx", "a.csv", "a.txt", "a"]))
def test_the_imports_answer_any_file_without_an_error(open_table, content, name):
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    event = open_table.round.event
    entries = Entry.objects.count()
    upload = io.BytesIO(content)
    upload.name = name
    response = client.post(f"/turnier/{event.slug}/spieler/import/", {"file": upload})
    assert response.status_code == 200
    upload = io.BytesIO(content)
    upload.name = name
    response = client.post(f"/turnier/{event.slug}/durchgang/1/ergebnisimport/", {"file": upload})
    assert response.status_code == 200
    assert Entry.objects.count() == entries  # a preview saves nothing
    consistent(open_table)
