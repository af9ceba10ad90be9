"""One person, one player: the duplicate question at registration, correcting a player, merging
two players, removing an entry registered by mistake; withdrawing a player during a round."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.factories import (
    cego,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_round,
    make_season,
    make_user,
)
from tests.helpers.pages import messages_of
from tournament.core import errors
from tournament.models import Entry, Event, EventRole, Player, Result, Round, Table
from tournament.play import hands
from tournament.register import services
from tournament.results import standings

pytestmark = pytest.mark.django_db


# --- merging ----------------------------------------------------------------------------------


def test_merging_moves_entries_and_results_to_the_kept_player_and_deletes_the_other():
    keep = make_player(first_name="Uwe", last_name="Maier")
    remove = make_player(first_name="Uwe", last_name="Meier")
    event = make_event()
    entry = services.register_player(event=event, player=remove)
    make_entries(event, 3)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego("halbe", table.seats.get(entry=entry).position, 47))
    services.merge_players(keep=keep, remove=remove, user=make_user())
    entry.refresh_from_db()
    assert entry.player == keep
    assert not Player.objects.filter(pk=remove.pk).exists()
    assert sum(Result.objects.filter(entry__player=keep).values_list("points", flat=True)) == 60


def test_season_totals_follow_a_merge():
    season = make_season()
    keep = make_player(first_name="Uwe", last_name="Maier")
    remove = make_player(first_name="Uwe", last_name="Meier")
    for n, player in enumerate((keep, remove)):
        event = make_event(season=season)
        entry = services.register_player(event=event, player=player)
        make_entries(event, 3)
        table = make_round(event, seed=n + 1).tables.get()
        position = table.seats.get(entry=entry).position
        hands.record_hand(table=table, data=cego("halbe", position, 47))  # +60 each time
    services.merge_players(keep=keep, remove=remove)
    _events, rows = standings.season_standings(season)
    uwe = [r for r in rows if r["name"] == "Maier, Uwe"]
    assert [r["total"] for r in uwe] == [120]
    assert not [r for r in rows if r["name"] == "Meier, Uwe"]


def test_merging_two_players_of_one_event_is_refused_and_changes_nothing():
    keep, remove = make_player(last_name="Maier"), make_player(last_name="Meier")
    event = make_event(name="Herbstturnier")
    services.register_player(event=event, player=keep)
    services.register_player(event=event, player=remove)
    with pytest.raises(errors.Refused, match="Herbstturnier"):
        services.merge_players(keep=keep, remove=remove)
    assert Player.objects.filter(pk=remove.pk).exists()
    assert Entry.objects.filter(player=remove).count() == 1


def test_merging_a_player_with_itself_is_refused():
    player = make_player()
    with pytest.raises(errors.Refused, match="two different"):
        services.merge_players(keep=player, remove=player)


def test_merging_fills_a_blank_club_town_and_category_but_keeps_what_the_kept_player_has():
    keep = make_player(club="", town="Triberg", category="")
    remove = make_player(club="CC Schonach", town="Furtwangen", category="damen")
    services.merge_players(keep=keep, remove=remove)
    keep.refresh_from_db()
    assert (keep.club, keep.town, keep.category) == ("CC Schonach", "Triberg", "damen")


def test_the_history_says_who_merged_which_players():
    director = make_user("leitung")
    keep = make_player(first_name="Uwe", last_name="Maier")
    remove = make_player(first_name="Uwe", last_name="Meier")
    entry = services.register_player(event=make_event(), player=remove)
    services.merge_players(keep=keep, remove=remove, user=director)
    for record in (
        keep.history.latest(),
        entry.history.latest(),
        Player.history.filter(id=remove.pk).latest(),
    ):
        assert record.history_user == director
        assert "Uwe Meier" in record.history_change_reason
        assert "leitung" in record.history_change_reason


# --- removing an entry registered by mistake --------------------------------------------------


def test_an_entry_registered_by_mistake_is_removed_before_the_first_draw():
    event = make_event()
    mistake = make_entries(event, 5)[4]
    entry_id, player_id = mistake.pk, mistake.player_id
    services.remove_entry(entry=mistake, user=make_user())
    assert list(event.entries.values_list("start_number", flat=True)) == [1, 2, 3, 4]
    assert Player.objects.filter(pk=player_id).exists()  # the person stays known for next time
    assert Entry.history.filter(id=entry_id).latest().history_type == "-"


def test_removing_an_entry_after_the_first_draw_is_refused_with_withdraw_as_the_way():
    event = make_event()
    entries = make_entries(event, 4)
    make_round(event, start=False)
    with pytest.raises(errors.Refused, match="Withdraw"):
        services.remove_entry(entry=entries[0])
    assert event.entries.count() == 4


# --- the registration desk asks before creating a second player -------------------------------


def register(client, event, **fields):
    data = {"first_name": "", "last_name": "", "club": "", "town": "", "category": "", "team": ""}
    return client.post(reverse("event_players", args=[event.slug]), {**data, **fields})


@pytest.fixture
def director(client):
    client.force_login(make_user())
    return client


@pytest.mark.parametrize("typed", ["Maier", "Meier", "Mayer", "MAIER"])
def test_registering_a_known_name_asks_whether_it_is_the_same_person(director, typed):
    known = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    event = make_event()
    response = register(director, event, first_name="Uwe", last_name=typed, club="CC Schonach")
    page = response.content.decode()
    assert response.status_code == 200
    assert "same person" in page
    assert f'name="same_person" value="{known.pk}"' in page
    assert "CC Triberg" in page and "Triberg" in page
    assert not event.entries.exists()
    assert Player.objects.count() == 1


def test_a_close_match_is_asked_for_with_umlauts_spelt_out(director):
    make_player(first_name="Wolfgang", last_name="Schäuble", town="Offenburg")
    event = make_event()
    page = register(director, event, first_name="Wolfgang", last_name="Schaeuble").content.decode()
    assert "Offenburg" in page
    assert not event.entries.exists()


def test_answering_the_same_person_registers_the_known_player(director):
    known = make_player(first_name="Uwe", last_name="Maier")
    event = make_event()
    response = register(
        director, event, first_name="Uwe", last_name="Meier", same_person=str(known.pk)
    )
    assert response.status_code == 302
    assert list(event.entries.values_list("player_id", flat=True)) == [known.pk]
    assert Player.objects.count() == 1


def test_answering_a_different_person_creates_a_new_player(director):
    known = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg")
    event = make_event()
    response = register(
        director, event, first_name="Uwe", last_name="Maier", club="CC Triberg", same_person="new"
    )
    assert response.status_code == 302
    entry = event.entries.get()
    assert entry.player_id != known.pk
    assert str(entry.player) == "Uwe Maier"


def test_an_answer_naming_a_player_that_was_not_asked_about_asks_again(director):
    make_player(first_name="Uwe", last_name="Maier")
    stranger = make_player(first_name="Anna", last_name="Fischer")
    event = make_event()
    response = register(
        director, event, first_name="Uwe", last_name="Maier", same_person=str(stranger.pk)
    )
    assert response.status_code == 200
    assert "same person" in response.content.decode()
    assert not event.entries.exists()


def test_a_name_nobody_has_is_registered_without_a_question(director):
    make_player(first_name="Uwe", last_name="Mader")
    event = make_event()
    response = register(director, event, first_name="Uwe", last_name="Maier")
    assert response.status_code == 302
    assert str(event.entries.get().player) == "Uwe Maier"


def test_the_question_says_when_the_known_player_is_already_registered(director):
    known = make_player(first_name="Uwe", last_name="Maier")
    event = make_event()
    services.register_player(event=event, player=known)
    page = register(director, event, first_name="Uwe", last_name="Meier").content.decode()
    assert "already registered here" in page


# --- correcting, merging and removing from the pages -----------------------------------------


def test_an_organiser_corrects_a_player_and_the_history_shows_the_change(client):
    event = make_event()
    entry = make_entries(event, 1, first_name="Uwe", last_name="Meier")[0]
    client.force_login(make_role(event, EventRole.Role.ORGANISER, "turnierleitung"))
    url = reverse("player_edit", args=[event.slug, entry.pk])
    data = {"first_name": "Uwe", "last_name": "Maier", "club": "CC Triberg", "town": "Triberg"}
    assert client.post(url, {**data, "category": "senioren"}).status_code == 302
    entry.player.refresh_from_db()
    assert (str(entry.player), entry.player.category) == ("Uwe Maier", "senioren")
    page = client.get(url).content.decode()
    assert "turnierleitung" in page
    assert "<del>Meier</del>" in page and "<ins>Maier</ins>" in page


def test_an_organiser_sees_no_merge_but_a_director_sees_the_likely_duplicate(client):
    event = make_event()
    entry = make_entries(event, 1, first_name="Uwe", last_name="Maier")[0]
    twin = make_player(first_name="Uwe", last_name="Meier", town="Gütenbach")
    url = reverse("player_edit", args=[event.slug, entry.pk])
    client.force_login(make_role(event, EventRole.Role.ORGANISER))
    assert "Gütenbach" not in client.get(url).content.decode()
    client.force_login(make_user())
    page = client.get(url).content.decode()
    assert "Gütenbach" in page
    assert f"?other={twin.pk}" in page


def test_the_merge_page_shows_both_players_and_refuses_players_of_one_event(director):
    event = make_event(name="Herbstturnier")
    first, second = make_entries(event, 2)
    url = reverse("player_merge", args=[event.slug, first.pk])
    page = director.get(url, {"other": second.player_id}).content.decode()
    assert first.player.last_name in page and second.player.last_name in page
    assert "cannot be one person" in page
    assert 'method="post"' not in page.split("</header>", 1)[-1].split("<footer", 1)[0]
    response = director.post(url, {"other": second.player_id})
    assert "Herbstturnier" in " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert Player.objects.filter(pk=second.player_id).exists()


def test_an_organiser_may_not_merge_players(client):
    event = make_event()
    entry = make_entries(event, 1)[0]
    twin = make_player()
    client.force_login(make_role(event, EventRole.Role.ORGANISER))
    url = reverse("player_merge", args=[event.slug, entry.pk])
    assert client.post(url, {"other": twin.pk}).status_code == 403
    assert Player.objects.filter(pk=twin.pk).exists()


def test_the_remove_page_asks_first_and_after_the_draw_points_to_withdrawing(director):
    event = make_event()
    entries = make_entries(event, 4)
    url = reverse("entry_remove", args=[event.slug, entries[0].pk])
    assert "Remove the entry" in director.get(url).content.decode()
    players_page = director.get(reverse("event_players", args=[event.slug])).content.decode()
    assert url in players_page
    make_round(event, start=False)
    assert "can no longer be removed" in director.get(url).content.decode()
    assert url not in director.get(reverse("event_players", args=[event.slug])).content.decode()
    response = director.post(url)
    assert "Withdraw" in " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert event.entries.count() == 4


def test_the_known_player_list_tells_two_people_of_one_name_apart(director):
    make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    make_player(first_name="Uwe", last_name="Maier", club="", town="Schonach")
    page = director.get(reverse("event_players", args=[make_event().slug])).content.decode()
    assert "Maier, Uwe · CC Triberg · Triberg</option>" in page
    assert "Maier, Uwe · Schonach</option>" in page


# --- withdrawing a player during a round --------------------------------------------------------


def round_2_with_a_game_at_table_1() -> tuple[Event, Table, Entry, Entry]:
    """Nine players, round 2 being played, table 1 has played its first game: Christian Ruf
    (seat 1, who declared and won it) and Markus Ganter sit there, Doris Schwer sits out."""
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 9)
    make_round(event)
    Round.objects.update(status=Round.Status.CLOSED)
    second = make_round(event, seed=2)
    table = second.tables.get(number=1)
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    ruf, ganter = [s.entry for s in table.seats.order_by("position")[:2]]
    schwer = second.seats.get(table__isnull=True).entry
    for entry, first, last in (
        (ruf, "Christian", "Ruf"),
        (ganter, "Markus", "Ganter"),
        (schwer, "Doris", "Schwer"),
    ):
        Player.objects.filter(pk=entry.player_id).update(first_name=first, last_name=last)
    return event, table, ruf, schwer


def read(page: bytes) -> str:
    """A page's text as a person reads it: no tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.decode())).split())


def marked(text: str, name: str) -> int:
    """How often ``name`` is followed by the withdrawn mark (after a start number, if any)."""
    return len(re.findall(re.escape(name) + r"(?: \(\d+\))? \(?withdrawn\b", text))


ON_THE_SEATING = {"Christian Ruf": 1, "Ruf, Christian": 1, "Doris Schwer": 1, "Schwer, Doris": 1}
AT_TABLE_1 = {"Christian Ruf": 1}


@pytest.mark.parametrize(
    ("url", "who", "marks"),
    [
        ("/turnier/{event}/durchgang/2/", "anyone", ON_THE_SEATING),
        ("/turnier/{event}/durchgang/2/", "director", ON_THE_SEATING),
        ("/turnier/{event}/durchgang/2/druck/sitzplan/", "anyone", ON_THE_SEATING),
        ("/tisch/{table}/", "director", AT_TABLE_1),
        ("/tisch/{table}/", "anyone", AT_TABLE_1),
        ("/turnier/{event}/durchgang/2/druck/tischlisten/?table=1", "director", AT_TABLE_1),
        ("/turnier/{event}/durchgang/2/ergebnisse/", "anyone", AT_TABLE_1),
        ("/t/{token}/", "anyone", AT_TABLE_1),  # the table's phones
    ],
)
def test_a_player_withdrawn_during_a_round_is_marked_on_its_seating_sheets_and_results(
    client, url, who, marks
):
    event, table, ruf, schwer = round_2_with_a_game_at_table_1()
    services.withdraw_entry(entry=ruf)
    services.withdraw_entry(entry=schwer)
    if who == "director":
        client.force_login(make_user())
    response = client.get(url.format(event=event.slug, table=table.pk, token=table.token))
    assert response.status_code == 200
    text = read(response.content)
    # each list marks each withdrawn player once, and nobody else
    assert {name: marked(text, name) for name in marks} == marks, text
    assert "Markus Ganter" in text and not marked(text, "Markus Ganter"), text
    assert not marked(text, "Ganter, Markus")


def test_withdrawing_a_player_at_a_table_being_played_says_that_table_plays_on(director):
    event, table, ruf, schwer = round_2_with_a_game_at_table_1()
    url = reverse("entry_status", args=[event.slug, ruf.pk])
    text = read(director.post(url, follow=True).content)
    assert (
        "Christian Ruf withdrawn; later draws leave the player out. At table 1 of round 2, being "
        "played now, nothing changes: the player keeps the seat, and the table's games, those "
        "entered and those still to come, count for the player as for the others."
    ) in text
    # so it is: the next game at the table counts for him as for the others
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    totals = {e.pk: e.total for e in Entry.objects.standings(event)}
    assert totals[ruf.pk] == 120
    # a player who sits the round out has no table to hear about
    url = reverse("entry_status", args=[event.slug, schwer.pk])
    text = read(director.post(url, follow=True).content)
    assert "Doris Schwer withdrawn." in text
    assert "At table" not in text


def test_a_withdrawn_entry_still_blocks_a_merge_and_the_refusal_says_what_to_do(director):
    event = make_event(name="Herbstturnier")
    first, second = make_entries(event, 2)
    services.withdraw_entry(entry=second)
    url = reverse("player_merge", args=[event.slug, first.pk])
    page = html.unescape(director.get(url, {"other": second.player_id}).content.decode())
    assert "a withdrawn entry counts too" in page
    assert "remove that entry on the event's player list" in page
    response = director.post(url, {"other": second.player_id})
    assert messages_of(response) == [
        f"{first.player} and {second.player} both have an entry in Herbstturnier: two players of "
        "one event cannot be one person, and a withdrawn entry counts too. If one person was "
        "registered twice by mistake, remove that entry on the event's player list (possible "
        "until the event's first draw), then merge."
    ]
    assert Player.objects.filter(pk=second.player_id).exists()
