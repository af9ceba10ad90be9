"""A player's data on request (issue 46.3): everything the installation holds about one player,
as a page for the director and as a JSON file, in a fixed number of queries."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import cego, make_entries, make_event, make_player, make_round, make_user
from tournament.models import Consent, EntryFee, FeeCategory, Player
from tournament.money import fees
from tournament.paper.player_data import player_data
from tournament.play import hands
from tournament.register import services

pytestmark = pytest.mark.django_db


def played_by(player: Player, slug: str) -> None:
    event = make_event(slug=slug)
    entry = services.register_player(event=event, player=player)
    make_entries(event, 3)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego(declarer=table.seats.get(entry=entry).position))
    category = FeeCategory.objects.create(event=event, name="Startgeld", amount_cents=1200)
    fees.set_entry_fee(entry=entry, status=EntryFee.Status.CASH, category=category)


@pytest.fixture
def player() -> Player:
    player = make_player(first_name="Hanna", last_name="Maier", town="Triberg")
    services.record_consents(
        consents=[
            Consent(
                player=player,
                lists=True,
                wording=Consent.WORDING,
                via=Consent.Via.ONLINE,
                given_at=timezone.now(),
            )
        ]
    )
    played_by(player, "turnier-eins")
    # an earlier spelling, kept in the history
    return services.correct_player(
        player=player, values={"last_name": "Mayer"}, user=make_user("leiter")
    )


def test_the_data_hold_the_register_consents_entries_games_fees_links_and_history(player):
    data = json.loads(json.dumps(player_data(player), default=str))
    assert data["player"]["last_name"] == "Mayer" and data["player"]["town"] == "Triberg"
    assert [c["via"] for c in data["consents"]] == ["online"]
    [entry] = data["entries"]
    assert entry["start_number"] == 1
    assert entry["personal_link"].startswith("/m/")
    assert entry["seats"][0]["round"] == 1 and entry["seats"][0]["table"] == 1
    [game] = entry["games"]
    assert game["data"]["contract"] == "halbe" and game["my_result"]["points"] != 0
    assert entry["fee"]["status"] == "cash" and entry["fee"]["paid_cents"] == 1200
    spellings = {row["last_name"] for row in data["history"]["player"]}
    assert spellings == {"Maier", "Mayer"}
    assert data["history"]["entries"] and data["history"]["consents"]


def test_the_data_cost_the_same_queries_however_many_events(player):
    with CaptureQueriesContext(connection) as one:
        player_data(player)
    for n in range(3):
        played_by(player, f"turnier-{n}")
    with CaptureQueriesContext(connection) as four:
        data = player_data(player)
    assert len(data["entries"]) == 4
    assert len(four.captured_queries) == len(one.captured_queries)


def test_the_director_reads_the_page_and_downloads_the_file(player, client: Client):
    client.force_login(make_user("direktor"))
    page = client.get(reverse("register_player_data", args=[player.uid]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Mayer" in text and "Maier" in text  # the name and its earlier spelling
    assert reverse("register_player_data_json", args=[player.uid]) in text
    download = client.get(reverse("register_player_data_json", args=[player.uid]))
    assert download["Content-Disposition"].startswith("attachment;")
    assert json.loads(download.content)["player"]["uid"] == str(player.uid)


def test_the_page_heads_each_value_with_its_name_and_writes_it_as_a_person_reads_it(
    player, client: Client
):
    client.force_login(make_user("direktor"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = client.get(reverse("register_player_data", args=[player.uid])).content.decode()
    # the fields' own names are the file's, never the page's
    for name in ("season_site", "by_guardian", "history_type", "public_lists", "start_number"):
        assert name not in text, name
    assert ">True<" not in text and ">False<" not in text
    for heading in ("Given by a parent or guardian", "Wording version", "Start number", "When"):
        assert f">{heading}</th>" in text, heading
    assert "<td>online registration form</td>" in text  # the consent's way, in words
    assert "<td>yes</td>" in text and "<td>no</td>" in text
    assert "<td>paid cash</td>" in text and "€12.00" in text
    assert "<td>entered</td>" in text and "<td>changed</td>" in text  # the history's kinds
    # the file keeps the names and the values as stored
    download = json.loads(
        client.get(reverse("register_player_data_json", args=[player.uid])).content
    )
    consent = download["consents"][0]
    assert consent["season_site"] is False and consent["via"] == "online"
    assert download["entries"][0]["fee"]["paid_cents"] == 1200
