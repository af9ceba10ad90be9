"""The phone's queue on the server's side (issue 14): a game sent from the table link's queue is
stored once however often it comes, only as the number it was entered as, or refused with a
reason the table reads; the director sees what each phone reported."""

from __future__ import annotations

import uuid
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError, connections
from django.test import Client

from tests.factories import cego, make_entries, make_event, make_round, make_user
from tests.helpers.play import lose_games
from tournament.models import Hand, Table, TablePhone
from tournament.play import confirmations, hands, rounds

pytestmark = pytest.mark.django_db


def _table(**event: Any) -> Table:
    game = make_event(**event)
    make_entries(game, 4)
    return make_round(game).tables.get()


def phone() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def send(client: Client, table: Table, number: int, key: str | None = None, **game: str) -> Any:
    data = {
        "contract": "halbe",
        "declarer": "1",
        "declarer_points": "47",
        "submission": key or str(uuid.uuid4()),
        "number": str(number),
        "waiting": "1",
        "refused": "0",
        **game,
    }
    return client.post(f"/t/{table.token}/senden/", data)


def test_a_game_sent_twice_is_stored_once():
    table = _table()
    client, key = phone(), str(uuid.uuid4())
    first = send(client, table, 1, key)
    assert first.status_code == 200
    assert first.json()["ok"] and first.json()["number"] == 1
    # the phone did not hear the answer and sends it again
    again = send(client, table, 1, key)
    assert again.status_code == 200 and again.json()["number"] == 1
    assert Hand.objects.filter(table=table).count() == 1


def test_the_answer_carries_the_sheet_with_the_results():
    table = _table()
    answer = send(phone(), table, 1).json()
    assert answer["next_number"] == 2
    assert "+60" in answer["results"]  # the declarer's Halbe, won with 47
    assert "+60" in answer["totals"] and "Halbe" in answer["sheet"]


def test_games_sent_in_order_are_stored_in_order():
    table = _table()
    client = phone()
    for number, declarer in ((1, "1"), (2, "2"), (3, "3")):
        assert send(client, table, number, declarer=declarer).status_code == 200
    stored = list(table.hands.order_by("number").values_list("number", "data__declarer"))
    assert stored == [(1, 1), (2, 2), (3, 3)]


def test_a_number_entered_meanwhile_by_another_phone_is_shown_with_both_games():
    table = _table()
    hands.record_hand(table=table, data=cego("eine", 2, 41))  # the other phone's game 1
    answer = send(phone(), table, 1)
    assert answer.status_code == 409
    json = answer.json()
    assert json["kind"] == "conflict"
    assert "Game 1 is on the sheet already" in json["message"]
    assert json["server"]["number"] == 1 and "Eine" in json["server"]["game"]
    assert json["next_number"] == 2
    assert Hand.objects.filter(table=table).count() == 1
    # sent again as the sheet's next game, it is stored as game 2
    assert send(phone(), table, 2).json()["number"] == 2


def test_a_game_for_a_closed_round_is_refused_with_the_reason():
    table = _table(hands_per_round={"4": 1})
    hands.record_totals(table=table, totals=[-60, 20, 20, 20])  # the scorer, from the paper
    rounds.close_round(round=table.round)
    answer = send(phone(), table, 2)
    assert answer.status_code == 409
    assert answer.json()["kind"] == "closed"
    assert "Round 1 is closed; this game was not stored" in answer.json()["message"]


def test_a_game_for_a_handed_in_sheet_is_refused_with_the_reason():
    table = _table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
    confirmations.submit_table(table=table)
    answer = send(phone(), table, 2)
    assert answer.status_code == 409
    assert "handed in meanwhile" in answer.json()["message"]


def test_a_game_the_engine_rejects_is_refused_with_its_error():
    table = _table()
    answer = send(phone(), table, 1, declarer_points="99")  # more card points than there are
    assert answer.status_code == 422
    assert answer.json()["kind"] == "invalid"
    assert answer.json()["message"]
    assert not Hand.objects.filter(table=table).exists()


def test_the_round_page_shows_the_director_what_each_phone_reported():
    table = _table()
    client = phone()
    send(client, table, 1)
    client.post(
        f"/t/{table.token}/senden/",
        {
            "contract": "halbe",
            "declarer": "1",
            "declarer_points": "47",
            "submission": str(uuid.uuid4()),
            "number": "2",
            "waiting": "3",
            "refused": "0",
        },
    )
    report = TablePhone.objects.get(table=table)
    assert (report.waiting, report.refused) == (2, 0)  # three waiting, one of them stored now
    director = phone()
    director.force_login(make_user())
    page = director.get(f"/turnier/{table.round.event.slug}/durchgang/1/").content.decode()
    assert "Game 2 arrived at" in page
    assert "The phone holds 2 games not sent yet" in page
    # a refusal is flagged with its reason
    send(client, table, 7)
    page = director.get(f"/turnier/{table.round.event.slug}/durchgang/1/").content.decode()
    assert "1 game was refused:" in page
    assert "This phone sent game 7, but the sheet has 2 games" in page


def test_the_public_round_page_shows_no_phone_reports():
    table = _table()
    send(phone(), table, 1)
    page = phone().get(f"/turnier/{table.round.event.slug}/durchgang/1/").content.decode()
    assert "arrived at" not in page


def test_sending_takes_only_a_post():
    table = _table()
    assert phone().get(f"/t/{table.token}/senden/").status_code == 405


@pytest.mark.parametrize("number", ["abc", "-1", "1e3", "99999999999", "0", "²", "1.0"])
def test_a_malformed_game_number_from_the_phone_is_refused_and_nothing_is_stored(number):
    table = _table()
    data = {
        "contract": "halbe",
        "declarer": "1",
        "declarer_points": "47",
        "submission": str(uuid.uuid4()),
        "number": number,
        "waiting": "1",
        "refused": "0",
    }
    answer = phone().post(f"/t/{table.token}/senden/", data)
    assert answer.status_code == 422
    assert answer.json()["ok"] is False
    assert "no valid game number" in answer.json()["message"]
    assert not Hand.objects.filter(table=table).exists()


def test_a_game_sent_while_the_database_is_away_is_answered_503_with_retry_after():
    """A PostgreSQL restart: the connection raises OperationalError. The phone hears 503 with
    Retry-After (its queue sends again), not 500; nothing was stored."""
    table = _table()
    client = phone()
    url = f"/t/{table.token}/senden/"
    data = {
        "contract": "halbe",
        "declarer": "1",
        "declarer_points": "47",
        "submission": str(uuid.uuid4()),
        "number": "1",
        "waiting": "1",
        "refused": "0",
    }
    gone = OperationalError("server closed the connection unexpectedly")
    with mock.patch.object(type(connections["default"]), "_cursor", side_effect=gone):
        answer = client.post(url, data)
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert not Hand.objects.filter(table=table).exists()
    # back up: the same game sent again is stored
    assert client.post(url, data).status_code == 200
    assert Hand.objects.filter(table=table).count() == 1


# --- a phone sends again the games a restored server lost (issue 45) ----------------------------


def test_a_game_sent_again_to_a_server_that_lost_it_is_stored_once_and_marked():
    table = _table()
    client = phone()
    keys = [str(uuid.uuid4()) for _ in range(3)]
    for number, key in enumerate(keys, 1):
        send(client, table, number, key, declarer=str(number))
    lose_games(table, 2, 3)  # the laptop restored from a copy made after game 1
    for number, key in ((2, keys[1]), (3, keys[2])):
        answer = send(client, table, number, key, declarer=str(number), resend="1")
        assert answer.status_code == 200 and answer.json()["number"] == number
        # the phone hears the sheet's games and keys, to compare with what it holds
        assert answer.json()["stored"][-1] == [number, key[:13]]
    # the phone did not hear the last answer and sends the game once more
    assert send(client, table, 3, keys[2], declarer="3", resend="1").json()["number"] == 3
    stored = table.hands.order_by("number")
    assert [(h.number, str(h.submission_key)) for h in stored] == list(
        zip([1, 2, 3], keys, strict=True)
    )
    assert [h.resent_at is not None for h in stored] == [False, True, True]


def test_a_game_sent_again_that_the_server_still_has_is_neither_doubled_nor_marked():
    table = _table()
    client, key = phone(), str(uuid.uuid4())
    send(client, table, 1, key)
    answer = send(client, table, 1, key, resend="1")
    assert answer.status_code == 200 and answer.json()["number"] == 1
    hand = table.hands.get()
    assert hand.resent_at is None


def test_a_game_sent_again_whose_number_another_game_took_is_the_conflict():
    table = _table()
    client, key = phone(), str(uuid.uuid4())
    send(client, table, 1, key)
    lose_games(table, 1)
    hands.record_hand(table=table, data=cego("eine", 2, 41))  # another phone's game 1, since
    answer = send(client, table, 1, key, resend="1")
    assert answer.status_code == 409
    assert answer.json()["kind"] == "conflict"
    assert answer.json()["server"]["number"] == 1 and "Eine" in answer.json()["server"]["game"]
    assert table.hands.count() == 1


def test_a_game_sent_again_after_it_was_taken_back_is_forgotten_not_refused():
    table = _table()
    client, key = phone(), str(uuid.uuid4())
    send(client, table, 1, key)
    hands.delete_hand(hand=table.hands.get(), reason="doppelt eingegeben")  # the scorer
    answer = send(client, table, 1, key, resend="1")
    assert answer.status_code == 409
    assert answer.json()["kind"] == "taken_back"
    assert not table.hands.exists()
    # the server had it: nothing for the director to walk to
    assert TablePhone.objects.get(table=table).refused == 0


def test_the_sheets_show_a_game_a_phone_sent_again():
    table = _table()
    client, key = phone(), str(uuid.uuid4())
    send(client, table, 1)
    send(client, table, 2, key)
    lose_games(table, 2)
    send(client, table, 2, key, resend="1")
    for url in (f"/t/{table.token}/", f"/tisch/{table.pk}/"):
        page = client.get(url).content.decode()
        assert page.count("sent again by the phone") == 1, url
    german = Client()
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert "vom Handy erneut gesendet" in german.get(f"/t/{table.token}/").content.decode()


def test_the_link_page_tells_the_phone_the_sheets_games_and_the_round():
    table = _table(hands_per_round={"4": 1})
    client, key = phone(), str(uuid.uuid4())
    send(client, table, 1, key)
    page = client.get(f"/t/{table.token}/").content.decode()
    # the start of each game's key: enough to tell them apart, never a whole key to send with
    stored = f'<script id="stored-games" type="application/json">[[1, "{key[:13]}"]]</script>'
    assert stored in page and key not in page
    assert f'data-round="{table.round.pk}" data-round-status="playing" data-enter="1"' in page
    rounds.close_round(round=table.round)
    page = client.get(f"/t/{table.token}/").content.decode()
    # a closed round: the phone forgets the games it held of it, and sends none again
    assert f'data-round="{table.round.pk}" data-round-status="closed">' in page
