"""Director pages that ask before they act: closing a round with unconfirmed sheets and a draw by
lot show a confirmation page (no script needed); only the confirmed request changes anything."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import cego, make_entries, make_event, make_player, make_round, make_user
from tests.helpers.forms import as_browser_sends
from tournament.models import Entry, Event, EventRole, LotDraw, Player, Round
from tournament.play import confirmations, hands
from tournament.play.forms import EventForm
from tournament.register import services as register_services
from tournament.register.forms import RegisterForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client) -> Client:
    client.force_login(make_user())
    return client


def played_round(tables: int = 2) -> Round:
    event = make_event(hands_per_round={"4": 1})
    make_entries(event, 4 * tables)
    rnd = make_round(event)
    for table in rnd.tables.all():
        hands.record_hand(table=table, data=cego())
    return rnd


def close_url(rnd: Round) -> str:
    return reverse("round_close", args=[rnd.event.slug, rnd.number])


def test_closing_a_round_with_unconfirmed_sheets_asks_first_and_names_the_tables(director):
    rnd = played_round(tables=2)
    first = rnd.tables.get(number=1)
    confirmations.confirm_table(table=first)
    response = director.post(close_url(rnd))
    assert response.status_code == 200
    page = response.content.decode()
    assert "1 table has not confirmed its sheet yet: table 2." in page
    assert 'name="confirmed" value="1"' in page
    assert f'action="{close_url(rnd)}"' in page
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLAYING  # nothing closed yet


def test_the_question_counts_the_unconfirmed_tables_in_the_plural(director):
    rnd = played_round(tables=2)
    page = director.post(close_url(rnd)).content.decode()
    assert "2 tables have not confirmed their sheets yet: tables 1, 2." in page


def test_confirming_closes_the_round(director):
    rnd = played_round(tables=2)
    response = director.post(close_url(rnd), {"confirmed": "1"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_a_round_whose_sheets_are_all_confirmed_closes_without_asking(director):
    rnd = played_round(tables=1)
    confirmations.confirm_table(table=rnd.tables.get())
    assert director.post(close_url(rnd)).status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_a_voided_table_needs_no_confirmation(director):
    rnd = played_round(tables=2)
    first, second = rnd.tables.order_by("number")
    confirmations.confirm_table(table=first)
    hands.void_table(table=second, reason="Blatt verloren")
    assert director.post(close_url(rnd)).status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_a_draw_by_lot_asks_first_naming_the_players_and_draws_nothing(director):
    event = make_event()
    anna = register_services.register_player(
        event=event, player=make_player(first_name="Anna", last_name="Schwörer")
    )
    bernd = register_services.register_player(
        event=event, player=make_player(first_name="Bernd", last_name="Schäuble")
    )
    make_entries(event, 2)
    make_round(event)  # four players at one table, tied on 0: only players who played are ranked
    url = reverse("decide_lot", args=[event.slug])
    response = director.post(url, {"entry": [anna.pk, bernd.pk]})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Draw lots between Bernd Schäuble and Anna Schwörer?" in page
    assert page.count('name="entry"') == 2
    assert not LotDraw.objects.filter(event=event).exists()
    assert set(Entry.objects.filter(event=event).values_list("lot", flat=True)) == {None}

    response = director.post(url, {"entry": [anna.pk, bernd.pk], "confirmed": "1"})
    assert response.status_code == 302
    assert LotDraw.objects.filter(event=event).count() == 1


def test_a_draw_by_lot_with_one_player_is_refused_without_asking(director):
    event = make_event()
    (only,) = make_entries(event, 1)
    response = director.post(reverse("decide_lot", args=[event.slug]), {"entry": [only.pk]})
    assert response.status_code == 302
    assert not LotDraw.objects.exists()


def test_a_round_with_unfinished_tables_is_refused_without_asking(director):
    event = make_event(hands_per_round={"4": 2})
    make_entries(event, 4)
    rnd = make_round(event)
    hands.record_hand(table=rnd.tables.get(), data=cego())  # one of two games
    response = director.post(close_url(rnd), follow=True)
    assert "Table 1 has not entered all its games yet." in response.content.decode()
    assert 'name="confirmed"' not in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLAYING


# --- creating an event, registering at the desk (issue 12: the writes are the services') ---------


def test_the_director_who_creates_an_event_is_its_organiser_and_named_in_its_history(director):
    data = {
        **as_browser_sends(EventForm()),
        "name": "Herbstturnier",
        "date": "2026-10-03",
    }
    response = director.post(reverse("event_create"), data)
    event = Event.objects.get(name="Herbstturnier")
    assert response.url == reverse("event_players", args=[event.slug])
    assert EventRole.objects.get(event=event).user.username == "director"
    page = director.get(reverse("event_history", args=[event.slug])).content.decode()
    assert "director" in page


def test_a_new_name_and_its_team_are_created_at_the_desk_with_the_entry(director):
    event = make_event()
    url = reverse("event_players", args=[event.slug])
    data = {**as_browser_sends(RegisterForm()), "first_name": "Eva", "last_name": "Neu"}
    response = director.post(url, {**data, "team": "Rohrbach"})
    assert response.status_code == 302
    entry = Entry.objects.select_related("player", "squad").get(event=event)
    assert (str(entry.player), entry.squad.name, entry.start_number) == ("Eva Neu", "Rohrbach", 1)


def test_a_fifth_member_of_a_team_is_refused_and_the_new_name_is_not_kept(director):
    event = make_event()
    for _ in range(4):
        register_services.register_player(event=event, player=make_player(), team="Rohrbach")
    url = reverse("event_players", args=[event.slug])
    data = {**as_browser_sends(RegisterForm()), "first_name": "Eva", "last_name": "Neu"}
    response = director.post(url, {**data, "team": "Rohrbach"}, follow=True)
    assert "The team Rohrbach already has four players." in response.content.decode()
    assert not Player.objects.filter(last_name="Neu").exists()
    assert Entry.objects.filter(event=event).count() == 4
