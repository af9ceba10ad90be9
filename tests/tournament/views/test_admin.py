"""The Django admin cannot make the standings stale (issue 10): what they are computed from is
read-only there, and an old version cannot be restored from the history."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import cego, make_entries, make_event, make_player, make_round, make_table
from tournament.models import (
    Confirmation,
    Entry,
    Event,
    Hand,
    LotDraw,
    Result,
    Round,
    Seat,
    Table,
    Team,
)
from tournament.play import confirmations, events, hands, rounds
from tournament.register import services as register_services
from tournament.results import standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client: Client) -> Client:
    user = get_user_model().objects.create_superuser("admin", "", "pw-for-tests-only")
    client.force_login(user)
    return client


def change_url(obj) -> str:
    return reverse(f"admin:tournament_{obj._meta.model_name}_change", args=[obj.pk])


def totals(event: Event) -> dict[int, int]:
    return {e.pk: e.total for e in Entry.objects.standings(event)}


@pytest.fixture
def played() -> Table:
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    return table


def test_a_hand_is_shown_but_cannot_be_changed_in_the_admin(admin: Client, played: Table):
    hand = played.hands.get()
    before = totals(played.round.event)
    page = admin.get(change_url(hand))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    data = {
        "table": played.pk,
        "number": 1,
        "kind": Hand.Kind.HAND,
        "data": json.dumps(cego("halbe", 0, 60)),
    }
    assert admin.post(change_url(hand), {**data, "_save": "1"}).status_code == 403
    hand.refresh_from_db()
    assert hand.data == cego("halbe", 0, 34)
    assert totals(played.round.event) == before


@pytest.mark.parametrize("model", [Hand, Seat, Table, Result, LotDraw, Confirmation])
def test_what_the_standings_use_cannot_be_added_in_the_admin(admin: Client, model):
    assert admin.get(reverse(f"admin:tournament_{model._meta.model_name}_add")).status_code == 403


@pytest.mark.parametrize("model", [Hand, Seat, Table, Result])
def test_what_the_standings_use_cannot_be_deleted_in_the_admin(admin: Client, played: Table, model):
    obj = model.objects.first()
    delete = reverse(f"admin:tournament_{model._meta.model_name}_delete", args=[obj.pk])
    assert admin.post(delete, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_a_confirmation_cannot_be_changed_or_deleted_in_the_admin(admin: Client):
    played = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=played, data=cego("halbe", 0, 34))
    confirmations.submit_table(table=played)
    confirmations.confirm_as_player(entry=played.seats.get(position=0).entry)
    confirmation = Confirmation.objects.get(table=played)
    assert admin.get(change_url(confirmation)).status_code == 200  # shown, with its history
    data = {"table": played.pk, "position": 1, "via": confirmation.via, "_save": "1"}
    assert admin.post(change_url(confirmation), data).status_code == 403
    delete = reverse("admin:tournament_confirmation_delete", args=[confirmation.pk])
    assert admin.post(delete, {"post": "yes"}).status_code == 403
    assert list(Confirmation.objects.filter(table=played).values_list("position", flat=True)) == [0]


def test_voiding_a_table_in_the_admin_is_not_possible(admin: Client, played: Table):
    data = {"round": played.round_id, "number": 1, "size": 4, "voided": "on", "void_reason": "x"}
    assert admin.post(change_url(played), {**data, "_save": "1"}).status_code == 403
    played.refresh_from_db()
    assert not played.voided
    assert Result.objects.filter(table=played, counts=True).count() == 4


def test_an_old_version_of_a_hand_cannot_be_restored_from_its_history(admin: Client, played: Table):
    hand = played.hands.get()
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="Tippfehler")
    old = hand.history.earliest()
    url = reverse("admin:tournament_hand_simple_history", args=[hand.pk, old.history_id])
    assert admin.get(url).status_code == 200
    data = {"table": played.pk, "number": 1, "kind": Hand.Kind.HAND, "data": json.dumps(old.data)}
    assert admin.post(url, {**data, "_save": "1"}).status_code == 403
    hand.refresh_from_db()
    assert hand.data == cego("halbe", 0, 47)


def test_an_events_game_and_rules_are_read_only_in_the_admin(admin: Client, played: Table):
    event = played.round.event
    page = admin.get(change_url(event)).content.decode()
    assert 'name="name"' in page
    assert 'name="rules"' not in page
    assert 'name="game"' not in page
    data = {
        "name": "Umbenannt",
        "slug": event.slug,
        "date": "2026-10-03",
        "game": "ziege",
        "rules": json.dumps({"bettel": 50}),
        "table_policy": event.table_policy,
        "target_table_size": 4,
        "hands_per_round": "{}",
        "rounds_planned": 2,
        "pairing": event.pairing,
        "_save": "1",
    }
    response = admin.post(change_url(event), data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.game, event.rules) == ("Umbenannt", "cego", {})


def test_a_round_cannot_be_closed_added_or_deleted_in_the_admin(admin: Client, played: Table):
    rnd = played.round
    assert admin.get(change_url(rnd)).status_code == 200  # shown, as the tables are
    data = {"event": rnd.event_id, "number": 1, "status": Round.Status.CLOSED, "_save": "1"}
    assert admin.post(change_url(rnd), data).status_code == 403
    assert admin.get(reverse("admin:tournament_round_add")).status_code == 403
    delete = reverse("admin:tournament_round_delete", args=[rnd.pk])
    assert admin.post(delete, {"post": "yes"}).status_code == 403
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLAYING  # its table has entered one game of many
    assert Hand.objects.filter(table__round=rnd).count() == 1


def test_an_entrys_event_start_number_and_lot_are_read_only_in_the_admin(admin: Client):
    event = make_event()
    entry = make_entries(event, 2)[0]
    page = admin.get(change_url(entry)).content.decode()
    assert 'name="status"' in page
    for field in ("event", "start_number", "lot"):
        assert f'name="{field}"' not in page


def as_shown(data: dict) -> dict:
    """A form's values as the admin page shows them, with the hidden ``initial-`` copy of each
    that the browser sends back (``LocksItsRow``: what was changed is measured against them)."""
    return {**data, **{f"initial-{k}": v for k, v in data.items() if not k.startswith("_")}}


def entry_form(entry: Entry, **changes) -> dict:
    """The admin's change form of an entry as it is shown, with ``changes`` typed in."""
    data = {
        "player": entry.player_id,
        "status": entry.status,
        "squad": entry.squad_id or "",
        "pair": entry.pair_id or "",
    }
    if entry.late:
        data["late"] = "on"
    return {**as_shown(data), **changes}


def test_a_player_seated_in_a_round_not_started_is_not_withdrawn_in_the_admin(admin: Client):
    event = make_event()
    entries = make_entries(event, 4)
    rnd = make_round(event, seed=1, start=False)
    page = admin.post(change_url(entries[0]), entry_form(entries[0], status="withdrawn"))
    assert page.status_code == 200  # the form again, with the players page's message
    assert "which has not started: draw that round again" in page.content.decode()
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.ACTIVE
    rounds.start_round(round=rnd)  # once the round is played, a withdrawal is for later rounds
    saved = admin.post(change_url(entries[0]), entry_form(entries[0], status="withdrawn"))
    assert saved.status_code == 302
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.WITHDRAWN


def test_a_team_and_a_pair_take_no_more_players_in_the_admin_than_at_the_desk(admin: Client):
    event = make_event("ziege")
    entries = make_entries(event, 8)
    squad = Team.objects.create(event=event, name="CC Triberg", kind=Team.Kind.SQUAD)
    Entry.objects.filter(pk__in=[e.pk for e in entries[:4]]).update(squad=squad)
    pair = register_services.create_pair(event=event, name="Dold / Kienzler", entries=entries[4:6])
    elsewhere = Team.objects.create(event=make_event(), name="Fremd", kind=Team.Kind.SQUAD)

    fifth = admin.post(change_url(entries[6]), entry_form(entries[6], squad=squad.pk))
    assert "The team CC Triberg already has four players." in fifth.content.decode()
    third = admin.post(change_url(entries[6]), entry_form(entries[6], pair=pair.pk))
    assert "The pair Dold / Kienzler already has two players." in third.content.decode()
    foreign = admin.post(change_url(entries[6]), entry_form(entries[6], squad=elsewhere.pk))
    assert "Select a valid choice" in foreign.content.decode()
    entries[6].refresh_from_db()
    assert (entries[6].squad_id, entries[6].pair_id) == (None, None)

    # a member may stay in its own team, and a pair with room takes the player
    kept = admin.post(change_url(entries[0]), entry_form(entries[0], late="on"))
    assert kept.status_code == 302
    Entry.objects.filter(pk=entries[5].pk).update(pair=None)
    joined = admin.post(change_url(entries[6]), entry_form(entries[6], pair=pair.pk))
    assert joined.status_code == 302
    assert set(pair.pair_members.values_list("pk", flat=True)) == {entries[4].pk, entries[6].pk}


def test_an_entry_moved_to_a_player_already_in_the_event_is_refused_in_the_admin(admin: Client):
    event = make_event()
    first, second = make_entries(event, 2)
    page = admin.post(change_url(first), entry_form(first, player=second.player_id))
    assert page.status_code == 200
    assert f"{second.player} is already registered." in page.content.decode()
    first.refresh_from_db()
    assert first.player_id != second.player_id


def event_form(event: Event, **changes) -> dict:
    data = {
        "name": event.name,
        "slug": event.slug,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "table_policy": event.table_policy,
        "target_table_size": event.target_table_size,
        "hands_per_round": json.dumps(event.hands_per_round),
        "rounds_planned": event.rounds_planned,
        "pairing": event.pairing,
        "point_value_cents": event.point_value_cents,
        "_save": "1",
    }
    return {**as_shown(data), **changes}


def test_a_rule_change_made_while_the_admins_form_was_open_is_not_undone(
    admin: Client, played: Table, monkeypatch
):
    """The director rescores the event with other rules while a superuser's event form is
    being saved (the moment between reading the event and saving it): the admin's change of
    the venue keeps the new rules and the games scored under them."""
    event = played.round.event
    before = totals(event)
    from tournament.admin import EventAdmin

    typed = EventAdmin.save_form

    def meanwhile(self, request, form, change):
        events.change_event_settings(
            event=Event.objects.get(pk=event.pk),
            values={"rules": {"win_threshold": 30}},
            reason="Turnierordnung",
        )
        return typed(self, request, form, change)

    monkeypatch.setattr(EventAdmin, "save_form", meanwhile)
    response = admin.post(change_url(event), event_form(event, venue="Gasthaus Sonne"))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.venue == "Gasthaus Sonne"
    assert event.rules == {"win_threshold": 30}
    assert totals(event) != before  # the game stays scored under the new rules
    assert totals(event) == {e.pk: e.total for e in Entry.objects.standings(event)}


def test_an_event_form_emptied_or_mistyped_in_the_admin_is_a_message(admin: Client):
    event = make_event()
    emptied = admin.post(change_url(event), event_form(event, hands_per_round=""))
    assert emptied.status_code == 302  # empty: the game's defaults
    event.refresh_from_db()
    assert event.hands_per_round == {}
    for typed in ("[24]", "24", '{"4": true}'):
        page = admin.post(change_url(event), event_form(event, hands_per_round=typed))
        assert page.status_code == 200, typed
        assert "Give a whole number of games" in page.content.decode(), typed
    event.refresh_from_db()
    assert event.hands_per_round == {}
    added = admin.get(reverse("admin:tournament_event_add")).content.decode()
    assert 'name="status"' not in added  # a new event starts in registration


def test_a_teams_event_and_kind_stay_in_the_admin_and_an_emptied_team_is_not_ranked(
    admin: Client,
):
    event = make_event()
    entries = [
        register_services.register_player(event=event, player=make_player(), team="CC Triberg")
        for _ in range(4)
    ]
    squad = entries[0].squad
    other = make_event()
    page = admin.get(change_url(squad)).content.decode()
    assert 'name="name"' in page and 'name="event"' not in page and 'name="kind"' not in page
    renamed = admin.post(
        change_url(squad), {"name": "CC Triberg 1", "event": other.pk, "kind": "pair"}
    )
    assert renamed.status_code == 302
    squad.refresh_from_db()
    assert (squad.name, squad.event_id, squad.kind) == ("CC Triberg 1", event.pk, "squad")
    assert admin.get(reverse("admin:tournament_team_add")).status_code == 403
    assert admin.post(reverse("admin:tournament_team_delete", args=[squad.pk])).status_code == 403
    alias_add = admin.get(reverse("admin:tournament_playeralias_add"))
    assert alias_add.status_code == 403

    for entry in entries:  # every player taken out of the team by corrections here
        admin.post(change_url(entry), entry_form(entry, squad=""))
    assert standings.team_standings(event) == []


def test_a_fixed_pair_is_not_changed_in_the_admin_while_its_round_is_drawn(admin: Client):
    event = make_event("ziege", pairing="fixed")
    entries = make_entries(event, 8)
    for k in range(0, 8, 2):
        register_services.create_pair(
            event=event, name=f"Paar {k // 2 + 1}", entries=entries[k : k + 2]
        )
    rnd = make_round(event, seed=3, start=False)
    second = entries[1]
    page = admin.post(change_url(second), entry_form(second, pair=""))
    assert page.status_code == 200
    assert "a pair changes only between rounds" in page.content.decode()
    second.refresh_from_db()
    assert second.pair_id is not None
    rounds.remove_round(round=rnd)  # as the message says: the round removed, then the change
    assert admin.post(change_url(second), entry_form(second, pair="")).status_code == 302


def test_a_change_made_elsewhere_after_the_admins_form_was_shown_stays(admin: Client):
    """The director sets the point value on the event's page while a superuser has the event
    open in the admin; the superuser then changes only the venue: the point value stays."""
    event = make_event()
    shown = event_form(event)  # the form as the admin page showed it
    page = admin.get(change_url(event)).content.decode()
    assert 'name="initial-point_value_cents"' in page  # what was shown goes back with the form
    events.change_event_settings(
        event=event, values={"point_value_cents": 5, "hands_per_round": {"4": 20}}
    )
    response = admin.post(change_url(event), {**shown, "venue": "Gasthaus Sonne"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.venue, event.point_value_cents, event.hands_per_round) == (
        "Gasthaus Sonne",
        5,
        {"4": 20},
    )
    # a field this form changes is saved
    assert admin.post(change_url(event), event_form(event, point_value_cents=10)).status_code == 302
    event.refresh_from_db()
    assert event.point_value_cents == 10


def test_a_team_renamed_to_a_name_taken_in_its_event_is_a_message(admin: Client):
    event = make_event()
    alpha = register_services.register_player(event=event, player=make_player(), team="Alpha").squad
    beta = register_services.register_player(event=event, player=make_player(), team="Beta").squad
    page = admin.post(change_url(beta), {"name": "Alpha"})
    assert page.status_code == 200
    assert "A team called Alpha already exists." in page.content.decode()
    beta.refresh_from_db()
    assert (alpha.name, beta.name) == ("Alpha", "Beta")
