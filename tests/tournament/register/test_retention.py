"""Retention (issue 46.5): a player who registered and never played (cancelled, left on the
waiting list, did not come) loses name, club and town once every event of theirs is finished
(``manage.py forget_unplayed --apply``); whoever played, or is registered for an event still to
come, keeps them, and the standings stay. The registration limit's old address digests go."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.factories import make_entries, make_event, make_round
from tests.helpers.db import no_writes
from tournament.models import Entry, Event, Player, RegistrationAttempt
from tournament.play import confirmations, events, hands, rounds
from tournament.register import online, services

pytestmark = pytest.mark.django_db


def finished_event(extra: int) -> tuple[Event, list[Entry]]:
    """A finished event of one table of four that played, and ``extra`` entries registered
    before the draw (returned), which the test makes cancel, wait or stay home."""
    event = make_event(hands_per_round={"*": 1}, rounds_planned=1)
    make_entries(event, 4)
    unplayed = make_entries(event, extra)
    for entry in unplayed:
        services.withdraw_entry(entry=entry)
    return event, unplayed


def finish(event: Event) -> None:
    rnd = make_round(event)
    table = rnd.tables.get()
    hands.record_totals(table=table, totals=[30, 10, -10, -30])
    confirmations.confirm_table(table=table)
    rounds.close_round(round=rnd)
    events.finish_event(event=event)


def forget(*args: str) -> str:
    out = io.StringIO()
    call_command("forget_unplayed", *args, stdout=out)
    return out.getvalue()


def names(*entries: Entry) -> list[tuple[str, str]]:
    return [
        tuple(Player.objects.filter(pk=e.player_id).values_list("first_name", "last_name")[0])
        for e in entries
    ]


def test_who_never_played_is_anonymised_after_the_event_and_nobody_else():
    event, (cancelled, waiting, stayed_home, comes_back, played_before) = finished_event(5)
    Entry.objects.filter(pk=waiting.pk).update(status=Entry.Status.WAITING)
    # registered for an event still to come: its desk needs the name
    make_event().entries.create(player=comes_back.player, start_number=1)
    # played another event
    earlier = make_event(hands_per_round={"*": 1}, rounds_planned=1)
    make_entries(earlier, 3)
    services.register_player(event=earlier, player=played_before.player)
    finish(earlier)
    finish(event)
    played = list(Entry.objects.filter(event=event).played())
    kept = names(*played, comes_back, played_before)
    standings = list(Entry.objects.standings(event).values_list("start_number", "rank", "total"))
    gone = [cancelled, waiting, stayed_home]
    before = names(*gone)

    with no_writes():
        listed = forget()
    for first, last in before:
        assert f"{last}, {first}" in listed
    assert "3 to anonymise" in listed

    assert "Anonymised 3 players" in forget("--apply")
    assert names(*gone) == [("Anonym", str(e.player_id)) for e in gone]
    assert names(*played, comes_back, played_before) == kept
    assert list(Entry.objects.standings(event).values_list("start_number", "rank", "total")) == (
        standings
    )
    reasons = Player.history.filter(id=cancelled.player_id).values_list(
        "history_change_reason", flat=True
    )
    assert f"anonymised: {services.NEVER_PLAYED}" in reasons
    for first, last in before:
        assert not Player.history.filter(first_name=first, last_name=last).exists()
    # a second run finds nobody
    assert "Anonymised 0 players" in forget("--apply")


def test_a_player_of_an_event_not_finished_keeps_the_name():
    event = make_event()
    entry = make_entries(event, 5)[4]
    services.withdraw_entry(entry=entry)
    forget("--apply")
    assert names(entry)[0][0] != "Anonym"


def test_the_registration_limits_old_digests_are_deleted_and_the_counted_ones_kept():
    RegistrationAttempt.objects.create(address=online.address_key("192.0.2.1"))
    old = RegistrationAttempt.objects.create(address=online.address_key("192.0.2.2"))
    RegistrationAttempt.objects.filter(pk=old.pk).update(
        at=timezone.now() - online.WINDOW - timedelta(seconds=1)
    )
    assert "deleted 1 old address digests" in forget("--apply")
    assert list(RegistrationAttempt.objects.values_list("address", flat=True)) == [
        online.address_key("192.0.2.1")
    ]
