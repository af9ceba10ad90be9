"""The directors' player register (issue 15): search by name, spelling variant, club and town;
correct a player; merge two players after seeing what moves; who may see it at all."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.factories import (
    cego,
    challenge,
    make_entries,
    make_event,
    make_player,
    make_role,
    make_round,
    make_season,
    make_table,
    make_user,
)
from tournament.models import Entry, EventRole, Player
from tournament.play import hands
from tournament.register import services
from tournament.results import standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(make_user())
    return client


def _names(page: str, players: list[Player]) -> list[str]:
    """Which of ``players`` the page lists, in the order it shows them."""
    shown = [(page.find(f"{p.last_name}, {p.first_name}"), p.last_name) for p in players]
    return [name for position, name in sorted(shown) if position >= 0]


# --- who may use it ---------------------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_the_login_and_sees_no_player(client):
    player = make_player(last_name="Schwörer")
    for url in (
        reverse("register"),
        reverse("register_player", args=[player.uid]),
        reverse("register_merge", args=[player.uid]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", [None, EventRole.Role.SCORER, EventRole.Role.ORGANISER])
def test_a_player_scorer_or_organiser_without_staff_rights_gets_no_access(client, role):
    event = make_event()
    entry, other = make_entries(event, 2)
    user = make_role(event, role) if role else make_user("spieler", staff=False)
    client.force_login(user)
    assert client.get(reverse("register")).status_code == 403
    url = reverse("register_player", args=[entry.player.uid])
    assert client.post(url, {"first_name": "X", "last_name": "Y"}).status_code == 403
    merge = reverse("register_merge", args=[entry.player.uid])
    assert client.post(merge, {"other": str(other.player.uid)}).status_code == 403
    entry.player.refresh_from_db()
    assert entry.player.last_name != "Y"
    assert Player.objects.filter(pk=other.player_id).exists()


def test_the_navigation_shows_the_register_to_directors_only(client):
    event = make_event()
    client.force_login(make_role(event, EventRole.Role.ORGANISER))
    assert reverse("register") not in client.get(reverse("home")).content.decode()
    client.force_login(make_user())
    assert reverse("register") in client.get(reverse("home")).content.decode()


# --- search -----------------------------------------------------------------------------------


def test_the_register_lists_every_player_in_german_name_order(director):
    players = [
        make_player(first_name="Eva", last_name="Schwörer"),
        make_player(first_name="Anna", last_name="Schäuble"),
        make_player(first_name="Jan", last_name="Mueller"),
        make_player(first_name="Paul", last_name="Müller"),
    ]
    page = director.get(reverse("register")).content.decode()
    assert _names(page, players) == ["Mueller", "Müller", "Schäuble", "Schwörer"]
    assert "4 players" in page


def test_a_name_search_finds_spelling_variants_and_umlauts_written_out(director):
    maier = make_player(first_name="Uwe", last_name="Maier")
    meyer = make_player(first_name="Hans", last_name="Meyer")
    schaeuble = make_player(first_name="Anna", last_name="Schäuble")
    mader = make_player(first_name="Uwe", last_name="Mader")
    page = director.get(reverse("register"), {"q": "meier"}).content.decode()
    assert _names(page, [maier, meyer, schaeuble, mader]) == ["Maier", "Meyer"]
    page = director.get(reverse("register"), {"q": "Schaeuble"}).content.decode()
    assert _names(page, [maier, meyer, schaeuble, mader]) == ["Schäuble"]
    page = director.get(reverse("register"), {"q": "uwe ma"}).content.decode()
    assert _names(page, [maier, meyer, schaeuble, mader]) == ["Mader", "Maier"]


def test_club_and_town_narrow_the_search(director):
    players = [
        make_player(last_name="Kern", club="CC Schonach", town="Schonach"),
        make_player(last_name="Dold", club="Feuerwehr Gütenbach", town="Gütenbach"),
        make_player(last_name="Faller", club="CC Schonach", town="Triberg"),
    ]
    page = director.get(reverse("register"), {"club": "schonach"}).content.decode()
    assert _names(page, players) == ["Faller", "Kern"]
    page = director.get(reverse("register"), {"club": "schonach", "town": "tri"}).content.decode()
    assert _names(page, players) == ["Faller"]
    page = director.get(reverse("register"), {"town": "Guetenbach"}).content.decode()
    assert _names(page, players) == ["Dold"]


def test_a_search_that_finds_nobody_says_so(director):
    make_player(last_name="Kern")
    page = director.get(reverse("register"), {"q": "Zwölfer"}).content.decode()
    assert "No player matches the search." in page


def test_a_probable_duplicate_is_flagged_with_a_link_to_compare_and_merge(director):
    maier = make_player(first_name="Uwe", last_name="Maier", town="Triberg")
    meier = make_player(first_name="Uwe", last_name="Meier", town="Gütenbach")
    make_player(first_name="Uwe", last_name="Mader")
    page = director.get(reverse("register")).content.decode()
    assert "2 probably registered twice" in page
    merge = reverse("register_merge", args=[maier.uid]) + f"?other={meier.uid}"
    assert merge in page


# --- one player -------------------------------------------------------------------------------


def test_a_director_corrects_a_player_and_the_history_keeps_the_old_name(director):
    player = make_player(first_name="Uwe", last_name="Meier", club="CC Schonach")
    url = reverse("register_player", args=[player.uid])
    response = director.post(
        url, {"first_name": "Uwe", "last_name": "Maier", "club": "CC Schonach", "town": "Triberg"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.last_name, player.town) == ("Maier", "Triberg")
    page = director.get(url).content.decode()
    assert "<del>Meier</del>" in page and "<ins>Maier</ins>" in page


def test_a_correction_with_an_empty_name_is_refused_with_a_message(director):
    player = make_player(first_name="Uwe", last_name="Maier")
    response = director.post(
        reverse("register_player", args=[player.uid]), {"first_name": "Uwe", "last_name": ""}
    )
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    player.refresh_from_db()
    assert player.last_name == "Maier"


def test_the_player_page_lists_events_across_seasons_with_the_public_page(director):
    player = make_player(first_name="Uwe", last_name="Maier")
    autumn = make_event(name="Herbstturnier", season=make_season(name="Saison 2025/26"))
    spring = make_event(name="Frühjahrsturnier", season=make_season(name="Saison 2026/27"))
    for event in (autumn, spring):
        services.register_player(event=event, player=player)
    page = director.get(reverse("register_player", args=[player.uid])).content.decode()
    for text in ("Herbstturnier", "Frühjahrsturnier", "Saison 2025/26", "Saison 2026/27"):
        assert text in page
    assert reverse("player", args=[player.uid]) in page


def test_an_unknown_player_is_not_found(director):
    missing = "12345678-1234-5678-1234-567812345678"
    assert director.get(f"/spielerverzeichnis/{missing}/").status_code == 404


# --- merging ----------------------------------------------------------------------------------


def _played(player: Player, season, seed: int, points: int = 47) -> Entry:
    """``player`` plays one hand of a new event of ``season``: +60 with the default points."""
    event = make_event(season=season)
    entry = services.register_player(event=event, player=player)
    make_entries(event, 3)
    table = make_round(event, seed=seed).tables.get()
    hands.record_hand(
        table=table, data=cego("halbe", table.seats.get(entry=entry).position, points)
    )
    return entry


def test_the_merge_page_shows_what_moves_before_anything_changes(director):
    season = make_season(name="Saison 2025/26")
    keep = make_player(first_name="Uwe", last_name="Maier", town="")
    other = make_player(first_name="Uwe", last_name="Meier", town="Gütenbach")
    _played(keep, season, 1)
    _played(other, season, 2)
    url = reverse("register_merge", args=[keep.uid])
    page = director.get(url, {"other": str(other.uid)}).content.decode()
    assert "1 entry of Uwe Meier moves to Uwe Maier" in page
    assert "town is taken over: Gütenbach" in page
    row = page.split("Saison 2025/26</td>", 1)[1].split("</tr>", 1)[0]
    assert [cell.split(">")[-1] for cell in row.split("</td>")[:3]] == ["60", "60", "120"]
    assert Player.objects.filter(pk=other.pk).exists()
    assert reverse("register_merge", args=[other.uid]) + f"?other={keep.uid}" in page


def test_a_merge_moves_entries_history_and_season_totals_to_the_kept_player(director):
    season = make_season()
    keep = make_player(first_name="Uwe", last_name="Maier")
    other = make_player(first_name="Uwe", last_name="Meier")
    _played(keep, season, 1)
    moved = _played(other, season, 2)
    url = reverse("register_merge", args=[keep.uid])
    response = director.post(url, {"other": str(other.uid)})
    assert response["Location"] == reverse("register_player", args=[keep.uid])
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert messages == ["Uwe Meier merged into Uwe Maier."]
    moved.refresh_from_db()
    assert moved.player == keep
    assert not Player.objects.filter(pk=other.pk).exists()
    assert "merged" in moved.history.latest().history_change_reason
    assert "director" in keep.history.latest().history_change_reason
    _events, rows = standings.season_standings(season)
    assert [(r["name"], r["total"]) for r in rows if "Uwe" in r["name"]] == [("Maier, Uwe", 120)]
    page = director.get(response["Location"]).content.decode()
    assert page.count('<td class="num">60</td>') == 2


def test_merging_players_of_one_event_is_refused_on_the_page_and_by_a_post(director):
    event = make_event(name="Herbstturnier")
    first, second = make_entries(event, 2)
    url = reverse("register_merge", args=[first.player.uid])
    page = director.get(url, {"other": str(second.player.uid)}).content.decode()
    assert "cannot be one person" in page
    assert 'method="post"' not in page.split("<main>", 1)[1]
    response = director.post(url, {"other": str(second.player.uid)})
    assert "Herbstturnier" in " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert Player.objects.filter(pk=second.player_id).exists()


def test_the_merge_page_finds_the_other_player_by_a_name_search(director):
    keep = make_player(first_name="Uwe", last_name="Maier")
    other = make_player(first_name="Ulrich", last_name="Maier-Kern")
    url = reverse("register_merge", args=[keep.uid])
    page = director.get(url, {"q": "kern"}).content.decode()
    assert f"?other={other.uid}" in page
    assert f"?other={keep.uid}" not in page


def test_a_merge_without_a_valid_other_player_changes_nothing(director):
    keep = make_player()
    url = reverse("register_merge", args=[keep.uid])
    for other in ("", "not-a-uuid", str(keep.uid), "12345678-1234-5678-1234-567812345678"):
        response = director.post(url, {"other": other})
        assert response.status_code == 200
        assert "Choose the player to merge into this one." in response.content.decode()
    assert Player.objects.filter(pk=keep.pk).exists()


def test_the_register_costs_six_queries_however_many_players(director, django_assert_num_queries):
    for _n in range(30):
        player = make_player(first_name="Uwe", last_name="Maier")
        for _event in range(2):
            services.register_player(event=make_event(), player=player)
    # Expect 6 queries: the session, the user, the players with their events, every name for the
    # duplicates, the pairs decided to be two people, the flagged players' drawn events
    with django_assert_num_queries(6):
        page = director.get(reverse("register")).content.decode()
    assert "30 players" in page and "30 probably registered twice" in page
    assert page.count('<td class="num">2</td>') == 30


def test_a_row_names_three_likely_duplicates_and_counts_the_rest(director):
    for town in ("Triberg", "Schonach", "Furtwangen", "Gütenbach", "Titisee"):
        make_player(first_name="Uwe", last_name="Maier", town=town)
    page = director.get(reverse("register")).content.decode()
    assert page.count("compare with Uwe Maier") == 5 * 3
    assert page.count("and 1 more") == 5


def test_a_correction_shows_at_once_on_the_standings_a_visitor_reads(director):
    event = make_event()
    entry = make_entries(event, 4)[0]
    make_round(event)
    standings_url = reverse("event_standings", args=[event.slug])
    visitor = type(director)()
    assert entry.player.last_name in visitor.get(standings_url).content.decode()  # now cached
    director.post(
        reverse("register_player", args=[entry.player.uid]),
        {"first_name": entry.player.first_name, "last_name": "Schwörer"},
    )
    page = visitor.get(standings_url).content.decode()
    assert "Schwörer" in page and entry.player.last_name not in page


# --- the players page's list of known players -------------------------------------------------


def test_the_known_player_list_leaves_out_who_is_registered_already(director):
    event = make_event()
    hubert = make_player(first_name="Hubert", last_name="Albrecht", club="CC Triberg")
    make_player(first_name="Gisela", last_name="Ketterer", club="CC Schonach")
    services.register_player(event=event, player=hubert)
    page = director.get(reverse("event_players", args=[event.slug])).content.decode()
    assert "Ketterer, Gisela · CC Schonach</option>" in page
    assert "Albrecht, Hubert · CC Triberg</option>" not in page
    # a second tab that still offered him: a message, and he is not registered twice
    again = director.post(reverse("event_players", args=[event.slug]), {"player": hubert.pk})
    assert "This player can no longer be chosen: registered for this event already" in (
        again.content.decode()
    )
    assert event.entries.filter(player=hubert).count() == 1


def test_two_players_of_one_drawn_event_are_no_longer_flagged_as_one_person(director):
    event = make_event()
    maier = make_player(first_name="Uwe", last_name="Maier", town="Triberg")
    meier = make_player(first_name="Uwe", last_name="Meier", town="Gütenbach")
    for player in (maier, meier):
        services.register_player(event=event, player=player)
    make_entries(event, 2)
    compare = reverse("register_merge", args=[maier.uid]) + f"?other={meier.uid}"
    assert compare in director.get(reverse("register")).content.decode()
    make_round(event, start=False)  # from the draw on neither entry can be removed: never merged
    page = director.get(reverse("register"), {"q": "Uwe"}).content.decode()
    assert compare not in page
    assert "probably registered twice" not in page and "possible duplicate" not in page


def test_the_merge_page_writes_each_result_as_the_player_page_and_adds_no_two_games(director):
    """A Cego player and a Hennes Sibbe player, neither in a season: each event's result reads
    as on the player's own page, and the rows outside a season are one per game, so Cego points
    and penalty cards are never added up (issue 28.9: '150 + 1 = 151')."""
    cego_table = make_table("cego", 4)
    hands.record_hand(table=cego_table, data=cego("halbe", 0, 60))
    sibbe_table = make_table("hennes_sibbe", 3)
    hands.record_hand(
        table=sibbe_table,
        data=challenge(),
    )
    keep = cego_table.seats.get(position=0).entry.player
    other = sibbe_table.seats.get(position=0).entry.player
    url = reverse("register_merge", args=[keep.uid]) + f"?other={other.uid}"
    page = director.get(url).content.decode()
    for player in (keep, other):
        own = director.get(f"/spieler/{player.uid}/").content.decode()
        played = own.split('<table class="list played">', 1)[1].split("</tr>", 2)[1]
        result = re.findall(r'<td class="num">([^<]*)</td>', played)[-1]
        event = player.entries.get().event
        assert f"{event.name} · " in page
        listed = page.split(f"{event.name} · ", 1)[1].split("</li>", 1)[0]
        assert listed.endswith(f" · {result}"), (listed, result)
    seasons = page_text_of(page)
    assert "No season · Cego" in seasons and "No season · Hennes Sibbe" in seasons
    assert " 151 " not in seasons


def page_text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
