"""After the laptop change (issue 45): the director's page lists, per table of the current round,
the games the restored server has, those a phone sent again, and the phone's last report."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import cego, make_entries, make_event, make_round, make_user
from tests.helpers.play import lose_games
from tournament.models import Event, Round
from tournament.play import hands, recovery

pytestmark = pytest.mark.django_db


def _event(players: int = 8) -> Event:
    event = make_event()
    make_entries(event, players)
    make_round(event)
    return event


def _phone_sends(client: Client, token: str, number: int, key: str, **extra: str) -> None:
    data = {"contract": "halbe", "declarer": "1", "declarer_points": "47", "submission": key}
    answer = client.post(
        f"/t/{token}/senden/", {**data, "number": number, "waiting": "1", "refused": "0", **extra}
    )
    assert answer.status_code == 200, answer.content


def _director(language: str = "en") -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(make_user())
    return client


def test_each_table_shows_its_games_those_sent_again_and_its_phones_report():
    event = _event()
    first, second = event.rounds.get().tables.order_by("number")
    phone, keys = Client(), [str(uuid.uuid4()) for _ in range(3)]
    for number, key in enumerate(keys, 1):
        _phone_sends(phone, first.token, number, key)
    hands.record_hand(table=second, data=cego())  # the scorer's game at the other table
    lose_games(first, 2, 3)
    _phone_sends(phone, first.token, 2, keys[1], resend="1")
    _phone_sends(phone, first.token, 3, keys[2], resend="1", waiting="3")

    checks = recovery.table_checks(recovery.current_round(event))
    assert [(c.table.number, c.games, c.resent) for c in checks] == [(1, 3, [2, 3]), (2, 1, [])]
    assert checks[0].phone.waiting == 2 and checks[0].flagged
    assert checks[1].phone is None and not checks[1].flagged

    page = _director().get(reverse("after_restore", args=[event.slug])).content.decode()
    assert "2 games: 2, 3" in page
    assert "The phone holds 2 games not sent yet" in page
    assert "No phone has sent a game yet." in page
    german = _director("de").get(reverse("after_restore", args=[event.slug])).content.decode()
    assert "Nach dem Laptopwechsel" in german and "2 Spiele: 2, 3" in german


def test_the_current_round_is_the_one_being_played_else_the_latest_drawn():
    event = _event()
    assert recovery.current_round(event).number == 1
    Round.objects.filter(event=event).update(status=Round.Status.CLOSED)
    assert recovery.current_round(event).number == 1
    empty = make_event()
    assert recovery.current_round(empty) is None
    page = _director().get(reverse("after_restore", args=[empty.slug])).content.decode()
    assert "No round has been drawn yet." in page


def test_the_page_costs_the_same_queries_for_2_tables_and_10():
    counts = []
    for players in (8, 40):
        event = _event(players)
        for table in event.rounds.get().tables.all():
            hands.record_hand(table=table, data=cego(), submission_key=uuid.uuid4())
            hands.note_phone(table=table, waiting=0, refused=0)
        with CaptureQueriesContext(connection) as queries:
            recovery.table_checks(recovery.current_round(event))
        counts.append(len(queries))
    # the round being played; the tables with their phones; the games per table; those sent again
    assert counts == [4, 4]
