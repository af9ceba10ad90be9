"""The check-in desk's decisions (register.checkin), without the page: what the box finds and
offers, the walk-in form's names, and what the desk is told after a tap. The page itself, with
the fee in the tap, is tested in tests/tournament/views/test_player_day.py."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from tests.factories import make_entries, make_event, make_player, make_round
from tournament.models import Entry, Event, Player
from tournament.register import checkin

pytestmark = pytest.mark.django_db


def entry_of(event: Event, **fields) -> Entry:
    entry = make_entries(event, 1)[0]
    Entry.objects.filter(pk=entry.pk).update(**fields)
    return Entry.objects.select_related("player", "event").get(pk=entry.pk)


def words(told: list[checkin.Told]) -> list[tuple[str, str]]:
    return [(line.level, line.text) for line in told]


# --- what the box finds ------------------------------------------------------------------------


def test_an_empty_box_finds_nobody_and_offers_an_empty_walk_in_form():
    event = make_event()
    make_entries(event, 3)
    found = checkin.look_up(event, "")
    assert (found.found, found.known, found.first_name, found.last_name) == ([], [], "", "")


def test_each_entry_found_carries_the_desks_button_and_who_it_may_be():
    event = make_event()
    mine = make_entries(event, 3)[1]
    found = checkin.look_up(event, str(mine.start_number))
    assert [e.pk for e in found.found] == [mine.pk]
    assert found.found[0].offer == checkin.CHECK_IN
    assert found.found[0].known_as == []
    assert found.known == []  # found in the event: nobody of the register is offered


def test_a_name_nobody_in_the_event_has_offers_the_players_of_the_register():
    event = make_event()
    make_entries(event, 2)
    before = make_player(first_name="Theresia", last_name="Kienzler")
    make_player(first_name="Theo", last_name="Maier")
    elsewhere = make_player(first_name="Thea", last_name="Kienzle")
    Entry.objects.create(event=event, player=elsewhere, start_number=99)  # in the event already
    found = checkin.look_up(event, "th kienz")
    assert found.found == []
    assert found.known == [before]
    # a start number nobody has is no name: nobody of the register is offered
    assert checkin.look_up(event, "123").known == []
    assert checkin.known_players(event, "t") == []  # one letter is too few


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("Muster", ("", "Muster")),
        ("Anna Muster", ("Anna", "Muster")),
        ("Anna Maria Muster", ("Anna", "Maria Muster")),
    ],
)
def test_the_walk_in_form_starts_with_the_names_in_the_box(query, names):
    assert checkin.walk_in_names(query) == names


# --- what the desk may do with an entry found --------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "finished", "button"),
    [
        ({}, False, checkin.CHECK_IN),
        ({"status": Entry.Status.WAITING}, False, checkin.CHECK_IN),
        ({"present": True}, False, checkin.UNDO),
        ({"status": Entry.Status.WITHDRAWN}, False, checkin.REINSTATE),
        # after the event nobody is brought back or un-checked-in
        ({"present": True}, True, ""),
        ({"status": Entry.Status.WITHDRAWN}, True, ""),
        # a tap is refused with the reason: the event is finished
        ({}, True, checkin.CHECK_IN),
    ],
)
def test_the_desk_offers_the_button_the_entrys_state_allows(fields, finished, button):
    event = make_event()
    if fields.pop("present", False):
        fields["present_at"] = timezone.now()
    entry = entry_of(event, **fields)
    if finished:
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        entry = Entry.objects.select_related("event").get(pk=entry.pk)
    assert checkin.offer(entry) == button


# --- what the desk is told after a check-in ------------------------------------------------------


def test_a_tap_that_checks_in_says_so_and_one_a_moment_late_says_the_other_desk_did():
    event = make_event()
    entry = make_entries(event, 1)[0]
    entry, done = checkin.check_in(entry=entry)
    with translation.override("en"):
        first = checkin.told_after_check_in(
            entry, typed=entry.player, was_withdrawn=False, done=done
        )
        entry, done = checkin.check_in(entry=entry)
        again = checkin.told_after_check_in(
            entry, typed=entry.player, was_withdrawn=False, done=done
        )
    assert words(first) == [("success", f"{entry.player} ({entry.start_number}) is checked in.")]
    assert words(again) == [("info", f"{entry.player} was checked in already (at another desk).")]


def back_in(entry: Entry) -> str:
    entry, done = checkin.check_in(entry=entry, reinstate=True)
    with translation.override("en"):
        told = checkin.told_after_check_in(entry, typed=entry.player, was_withdrawn=True, done=done)
    assert [line.level for line in told] == ["success"]
    return told[0].text


def test_a_player_back_before_any_draw_is_only_told_back_in():
    event = make_event()
    entry = entry_of(event, status=Entry.Status.WITHDRAWN)
    said = back_in(entry)
    assert said == f"{entry.player} ({entry.start_number}) is back in the event and checked in."


def test_a_player_back_after_the_seats_are_drawn_is_told_to_draw_them_again():
    event = make_event()
    make_entries(event, 4)
    make_round(event, start=False)
    said = back_in(entry_of(event, status=Entry.Status.WITHDRAWN))
    assert said.endswith(
        "The seats of round 1 are drawn already: draw them again to seat the player now, or the "
        "player is seated from the next round."
    )


def test_a_player_back_while_a_round_is_played_is_seated_from_the_next_draw():
    event = make_event()
    make_entries(event, 4)
    make_round(event)
    said = back_in(entry_of(event, status=Entry.Status.WITHDRAWN))
    assert said.endswith(
        "is back in the event and checked in. The player is seated from the next round's draw."
    )


def test_the_desk_is_told_where_the_online_form_and_the_register_disagree():
    known = make_player(
        first_name="Egon",
        last_name="Meier",
        club="CC Furtwangen",
        town="Furtwangen",
        category=Player.Category.WOMEN,
    )
    Entry.objects.create(event=make_event(), player=known, start_number=1)
    event = make_event()
    typed = make_player(
        first_name="Egon",
        last_name="Meier",
        club="CC Furtwangen",
        town="",
        category=Player.Category.SENIORS,
    )
    entry = Entry.objects.create(
        event=event,
        player=typed,
        start_number=1,
        source=Entry.Source.ONLINE,
        identity_pending=True,
    )
    assert checkin.look_up(event, "Meier").found[0].known_as == [known]
    entry, done = checkin.check_in(entry=entry, known=str(known.uid))
    with translation.override("en"):
        told = checkin.told_after_check_in(entry, typed=typed, was_withdrawn=False, done=done)
    assert words(told) == [
        (
            "warning",
            "Egon Meier: the register says category “Women”, the online form said “Seniors”. "
            "The register's is kept; correct it on the player's page if the player says "
            "otherwise.",
        ),
        ("success", "Egon Meier (1) is checked in."),
    ]
    # the same person settled as a player of their own: nothing to compare
    other = Entry.objects.create(
        event=event, player=make_player(), start_number=2, source=Entry.Source.ONLINE
    )
    other, done = checkin.check_in(entry=other)
    told = checkin.told_after_check_in(other, typed=other.player, was_withdrawn=False, done=done)
    assert [line.level for line in told] == ["success"]
