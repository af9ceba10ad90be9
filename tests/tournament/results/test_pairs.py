"""Fixed Ziege pairs as one unit of the standings: the pair ranking, and no lot between partners
(RULES.md 6: "partners drawn per round, or fixed pairs registered as teams")."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import make_round
from tests.helpers.draw import next_round
from tests.helpers.money import prize
from tests.helpers.pages import page_text
from tests.helpers.pairs import fixed_pair_event, play_pairs_round
from tournament.models import Entry, Event, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built_two_rounds(django_db_setup: Any, django_db_blocker: Any) -> Iterator[tuple[Event, list]]:
    """Four pairs, two rounds drawn by the draw service; the stronger pair of a table wins both
    deals and the match: Paar 1 wins twice, Paar 2 and Paar 3 once each, Paar 4 never. Built
    once for the module, in a transaction rolled back after its last test; each test runs in a
    savepoint inside it (pytest-django)."""
    with django_db_blocker.unblock(), transaction.atomic():
        event, teams = fixed_pair_event(4)
        strength = teams
        play_pairs_round(make_round(event, seed=3), strength)
        play_pairs_round(next_round(event, seed=5), strength)
        event.refresh_from_db()
        yield event, teams
        transaction.set_rollback(True)


@pytest.fixture
def two_rounds(built_two_rounds: tuple[Event, list]) -> tuple[Event, list]:
    """The module's pairs for one test: a deep copy, so that no test sees another's changes."""
    return copy.deepcopy(built_two_rounds)


def _ties_card(director, event) -> str:
    text = page_text(director.get(f"/turnier/{event.slug}/rangliste/"))
    if "Tied prize places" not in text:
        return ""
    return text.split("Tied prize places", 1)[1].split(" Rank No. ", 1)[0]


def test_the_standings_ask_no_lot_between_the_partners_of_a_pair(director, two_rounds):
    event, teams = two_rounds
    winners = [str(e.player) for e in teams[0].pair_members.all()]

    ties = _ties_card(director, event)

    # Paar 1's partners share rank 1 as they share every deal: nothing to draw between them
    assert "Rank 1:" not in ties
    assert not any(name in ties for name in winners)
    # Paar 2's and Paar 3's players share rank 3 (after the two winners): a lot between the two
    # pairs is asked
    assert "Rank 3:" in ties
    for team in teams[1:3]:
        for member in team.pair_members.all():
            assert str(member.player) in ties


def test_a_lot_between_two_pairs_keeps_each_pair_together(director, two_rounds):
    event, teams = two_rounds
    tied = [e for team in teams[1:3] for e in team.pair_members.all()]

    response = director.post(
        f"/turnier/{event.slug}/los/",
        {"entry": [e.pk for e in tied], "back": "event_standings", "confirmed": "1"},
        follow=True,
    )

    assert response.status_code == 200
    lots = {e.pk: e.lot for e in Entry.objects.filter(pk__in=[e.pk for e in tied])}
    for team in teams[1:3]:
        members = list(team.pair_members.all())
        assert lots[members[0].pk] == lots[members[1].pk] is not None
    assert sorted(set(lots.values())) == [1, 2]
    assert "Tied prize places" not in page_text(director.get(f"/turnier/{event.slug}/rangliste/"))


def test_the_pair_ranking_ranks_pairs_by_matches_then_difference_then_fewer_taken(
    client, two_rounds
):
    event, teams = two_rounds

    text = page_text(client.get(f"/turnier/{event.slug}/paare/rangliste/"))

    players = {t.name: " & ".join(str(m.player) for m in t.pair_members.all()) for t in teams}
    # each row up to the next, the last one up to the page's footer
    row = r"(\d) (Paar \d) (.+?) (\d) (\d) (\d) (−?\+?\d+)(?= \d Paar| Privacy notice *$)"
    rows = re.findall(row, text)
    assert [(rank, name) for rank, name, *_ in rows] == [
        ("1", "Paar 1"),
        ("2", "Paar 2"),
        ("2", "Paar 3"),
        ("4", "Paar 4"),
    ]
    # matches won, dealt out, taken, difference
    assert [tuple(row[3:]) for row in rows] == [
        ("2", "8", "0", "+8"),
        ("1", "4", "4", "0"),
        ("1", "4", "4", "0"),
        ("0", "0", "8", "−8"),
    ]
    for _rank, name, names, *_ in rows:
        assert names.strip() == players[name]


def test_the_teams_and_standings_pages_lead_to_the_pair_ranking(client, two_rounds):
    event, _teams = two_rounds

    for url in (f"/turnier/{event.slug}/mannschaften/", f"/turnier/{event.slug}/rangliste/"):
        assert f'href="/turnier/{event.slug}/paare/rangliste/"' in client.get(url).content.decode()


def test_an_event_with_drawn_partners_has_no_pair_ranking(client):
    event, _teams = fixed_pair_event(2, pairing="drawn")

    assert client.get(f"/turnier/{event.slug}/paare/rangliste/").status_code == 404


def test_the_pair_ranking_costs_the_same_queries_however_many_pairs(client):
    counts = []
    for pairs in (2, 6):
        event, teams = fixed_pair_event(pairs)
        play_pairs_round(make_round(event, seed=1), teams)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/turnier/{event.slug}/paare/rangliste/").status_code == 200
        counts.append(len(ctx.captured_queries))
    # the event; the pairs' names; the standings
    assert counts == [3, 3]


def _form_fields(page: str, action: str) -> dict[str, list[str]]:
    """The hidden fields of the first form posting to ``action``, as a browser sends them."""
    form = page.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form):
        fields.setdefault(name, []).append(value)
    return fields


def test_a_lot_between_two_tied_pairs_names_the_two_pairs_as_registered(director, two_rounds):
    """Issue 43.9: the tie and the lot between Paar 2 and Paar 3 named four players; the pairs
    are named as registered ("Die Albrechts"), and the lot is between two pairs."""
    event, teams = two_rounds
    teams[1].name, teams[2].name = "Die Albrechts", "Die Bergers"
    for team in teams[1:3]:
        team.save()
    partners = {t.name: " & ".join(str(e.player) for e in t.pair_members.all()) for t in teams}

    ties = _ties_card(director, event)
    assert f"Die Albrechts ({partners['Die Albrechts']})" in ties
    assert f"Die Bergers ({partners['Die Bergers']})" in ties
    # the prize-giving list asks for the same lot with the same names
    for place, cents in ((3, 3000), (5, 1000)):
        prize(event, place, cents)
    giving = page_text(director.get(f"/turnier/{event.slug}/preisverteilung/"))
    tie = giving.split("Ties on prize places", 1)[1].split("Draw lots", 2)[1]
    assert f"Place 3: Die Albrechts ({partners['Die Albrechts']}), Die Bergers (" in tie

    lot = f"/turnier/{event.slug}/los/"
    standings = director.get(f"/turnier/{event.slug}/rangliste/").content.decode()
    asked = director.post(lot, _form_fields(standings, lot))
    question = page_text(asked)
    assert "Draw lots between Die Albrechts and Die Bergers?" in question
    assert not any(str(e.player) in question for t in teams[1:3] for e in t.pair_members.all())

    done = director.post(lot, _form_fields(asked.content.decode(), lot), follow=True)
    said = " ".join(str(m) for m in done.context["messages"])
    drawn = re.search(r"Drawn by lot, in this order: (.*)\.", said)
    assert drawn and sorted(drawn[1].split(", ")) == ["Die Albrechts", "Die Bergers"]
    history = page_text(director.get(f"/turnier/{event.slug}/verlauf/"))
    assert "place 3 decided by lot between 2 tied pairs" in history
    assert "tied players" not in history


def test_the_seating_the_sheet_and_the_phone_name_a_fixed_pair_as_registered(director, two_rounds):
    """Issue 43.9: a registered pair's name ("Die Albrechts") is on every page that seats or
    lists its partners, not only on the pair ranking."""
    event, teams = two_rounds
    teams[0].name = "Die Albrechts"
    teams[0].save()
    seat = Seat.objects.filter(round__number=1, entry__pair=teams[0]).select_related("table")
    table = seat.first().table
    partners = [str(e.player) for e in teams[0].pair_members.all()]

    seating = page_text(director.get(f"/turnier/{event.slug}/durchgang/1/"))
    for name in partners:
        assert f"{name} (" in seating
    assert seating.count("Die Albrechts") == 2  # beside each partner
    sheet = page_text(director.get(table.get_absolute_url()))
    assert sheet.count("Die Albrechts") == 2
    phone_client = Client()
    phone_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    phone = page_text(phone_client.get(table.get_link_url()))
    assert re.search(
        r"Team [AB] : " + " & ".join(map(re.escape, partners)) + r" \(Die Albrechts\)", phone
    )
