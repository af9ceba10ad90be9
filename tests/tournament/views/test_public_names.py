"""Public pages name a player only as far as the consent reaches (issue 46.1): without a
recorded consent to the public lists a neutral label (initials and start number) and no club,
on every public page and print, in the projector's lines and in the published season; the
season's website needs the consent to it too; the town only with its own consent. The table's
sheet as the public reads it, the printed table sheets (whoever prints them: they lie on the
tables), the table's settlement, the rating, the team ranking and the public prize-giving (its
projector too) ask the same. The director's own pages name everybody: the list of players, the
scorer's sheet, the organiser's prize-giving list and its print."""

from __future__ import annotations

import importlib
import io
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

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
from tests.helpers.pages import workbook_cells
from tournament.access import ORGANISER, SCORER
from tournament.models import Consent, Entry, Event, Player, Prize, PrizeAssignment, Table, Team
from tournament.money import prizes
from tournament.play import confirmations, hands, rounds
from tournament.register import services

pytestmark = pytest.mark.django_db

SECRET = {
    "first_name": "Gisela",
    "last_name": "Geheimnisvoll",
    "club": "Verschwiegene Kartler",
    "town": "Verborgenheim",
}


def en() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def played_with(**consent: bool) -> tuple[Entry, Entry]:
    """A played Cego event of a season: the secret player (with ``consent``) and three others;
    the secret player's entry and another's."""
    season = make_season(slug="saison-geheim")
    event = make_event(season=season, slug="geheim", registration_open=True)
    player = make_player(**SECRET, **consent)
    secret = services.register_player(event=event, player=player)
    others = make_entries(event, 3)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego(points=50))
    return secret, others[0]


def public_urls(entry: Entry) -> list[str]:
    event = entry.event
    return [
        reverse("event_standings", args=[event.slug]),
        reverse("projector_rows", args=[event.slug]),
        reverse("projector", args=[event.slug]),
        reverse("round_seating", args=[event.slug, 1]),
        reverse("round_results", args=[event.slug, 1]),
        reverse("print_standings", args=[event.slug]),
        reverse("print_seating", args=[event.slug, 1]),
        reverse("event_participants", args=[event.slug]),
        reverse("player", args=[entry.player.uid]),
        reverse("season", args=[event.season.slug]),
        reverse("print_season", args=[event.season.slug]),
        reverse("where_do_i_sit", args=[event.slug]) + f"?q={entry.start_number}",
        reverse("event_statistics", args=[event.slug]),
        reverse("event_xlsx", args=[event.slug]),
        reverse("season_xlsx", args=[event.season.slug]),
    ]


def read(url: str) -> str:
    """What the public reads at ``url``: the page, or every cell of the workbook."""
    response = en().get(url)
    if "spreadsheetml" in response["Content-Type"]:
        return "\n".join(workbook_cells(response.content))
    return response.content.decode()


def test_without_a_consent_every_public_page_shows_the_initials_and_start_number_only():
    secret, other = played_with(public_lists=False, public_season=False)
    label = f"G. G. (No. {secret.start_number})"
    player_page = reverse("player", args=[secret.player.uid])
    for url in public_urls(secret):
        if url == player_page:  # none for a player the pages may not name
            assert en().get(url).status_code == 404
            continue
        page = read(url)
        for word in SECRET.values():
            assert word not in page, (url, word)
        if "statistik" in url:
            continue  # names only the notable games' players, if any
        # the season has no start number: the initials alone
        assert label in page or "G. G." in page, url
        if not any(part in url for part in ("saison", "/spieler/", "excel")):
            assert label in page, url
    # the others, who agreed, are named as before
    standings = en().get(reverse("event_standings", args=[other.event.slug])).content.decode()
    assert other.player.last_name in standings


def test_a_player_without_a_consent_has_no_public_page_and_no_public_page_links_one():
    secret, other = played_with(public_lists=False, public_season=False)
    page = reverse("player", args=[secret.player.uid])
    director = en()
    director.force_login(make_user())
    assert en().get(page).status_code == 404
    assert director.get(page).status_code == 404  # a director finds the player in the register
    for url in [*public_urls(secret), reverse("rating")]:
        assert page not in read(url), url
    # who agreed has a page, linked from the standings and the season
    mine = reverse("player", args=[other.player.uid])
    assert en().get(mine).status_code == 200
    for url in (
        reverse("event_standings", args=[other.event.slug]),
        reverse("season", args=[other.event.season.slug]),
    ):
        assert mine in read(url), url
    # the register links the public page only where there is one
    register = director.get(reverse("register_player", args=[secret.player.uid])).content.decode()
    assert page not in register


def test_the_directors_list_of_players_names_everybody():
    secret, _other = played_with(public_lists=False)
    director = en()
    director.force_login(make_role(secret.event, ORGANISER))
    page = director.get(reverse("event_players", args=[secret.event.slug])).content.decode()
    assert SECRET["last_name"] in page and SECRET["club"] in page


def test_the_town_is_on_no_public_page_without_its_consent_and_on_the_player_page_with_it():
    secret, _other = played_with()  # name and club agreed to, not the town
    for url in public_urls(secret):
        assert SECRET["town"] not in read(url), url
    secret.player.town_shown = True
    secret.player.save()
    page = en().get(reverse("player", args=[secret.player.uid])).content.decode()
    assert SECRET["town"] in page


def test_a_consent_recorded_later_names_the_player_on_the_cached_pages_at_once():
    secret, _other = played_with(public_lists=False)
    url = reverse("event_standings", args=[secret.event.slug])
    assert SECRET["last_name"] not in en().get(url).content.decode()
    services.record_consents(
        consents=[
            Consent(
                player=secret.player,
                lists=True,
                wording=Consent.WORDING,
                via=Consent.Via.DESK,
                given_at=timezone.now(),
            )
        ]
    )
    assert SECRET["last_name"] in en().get(url).content.decode()


def test_the_published_season_names_only_who_agreed_to_the_website(tmp_path: Path):
    # name and club in the lists agreed to, the season's website not
    secret, other = played_with(public_lists=True, public_season=False)
    live = en().get(reverse("event_standings", args=[secret.event.slug])).content.decode()
    assert SECRET["last_name"] in live
    call_command(
        "publish_season", secret.event.season.slug, "--output", str(tmp_path), stdout=io.StringIO()
    )
    files = list(tmp_path.rglob("*.html"))
    assert files
    text = "\n".join(p.read_text() for p in files)
    for word in SECRET.values():
        assert word not in text, word
    assert other.player.last_name in text
    # a page only for who agreed to the website, and no link to one that is not there
    assert not (tmp_path / "de" / "spieler" / f"{secret.player.uid}.html").exists()
    assert (tmp_path / "de" / "spieler" / f"{other.player.uid}.html").exists()
    assert f"{secret.player.uid}.html" not in text
    # the app's own pages still name the player afterwards (the page cache keeps them apart)
    live = en().get(reverse("event_standings", args=[secret.event.slug])).content.decode()
    assert SECRET["last_name"] in live


def test_where_do_i_sit_finds_a_player_without_consent_by_start_number_not_by_name():
    # a guessed name must not tell anyone that the person plays, nor their number
    secret, other = played_with(public_lists=False, public_season=False)
    url = reverse("where_do_i_sit", args=[secret.event.slug])
    by_name = en().get(url, {"q": "Gisela"}).content.decode()
    assert f"No. {secret.start_number}" not in by_name and "G. G." not in by_name
    assert "Nobody called" in by_name
    by_number = en().get(url, {"q": str(secret.start_number)}).content.decode()
    assert f"G. G. (No. {secret.start_number})" in by_number and "Table 1" in by_number
    # who agreed is found by name as before
    named = en().get(url, {"q": other.player.last_name}).content.decode()
    assert other.player.last_name in named


def closed_money_round(**consent: bool) -> tuple[Entry, Table]:
    """A Cego event played for money (10 cents a point), its one round closed: the secret
    player (with ``consent``, a woman, in a team of four) won it with 90; the secret player's
    entry and table."""
    event = make_event(hands_per_round={"*": 1}, rounds_planned=1, point_value_cents=10)
    secret = services.register_player(
        event=event, player=make_player(**SECRET, **consent, category=Player.Category.WOMEN)
    )
    others = make_entries(event, 7)
    squad = Team.objects.create(event=event, name="Die Stillen", kind=Team.Kind.SQUAD)
    Entry.objects.filter(pk__in=[secret.pk, *(e.pk for e in others[:3])]).update(squad=squad)
    rnd = make_round(event)
    for table in rnd.tables.order_by("number"):
        position = table.seats.filter(entry=secret).values_list("position", flat=True).first()
        if position is None:
            totals = [60, -10, -20, -30]
        else:
            totals = [-30, -30, -30, -30]
            totals[position] = 90
        hands.record_totals(table=table, totals=totals)
        confirmations.confirm_table(table=table)
    rounds.close_round(round=rnd)
    table = Table.objects.get(round=rnd, seats__entry=secret)
    return Entry.objects.get(pk=secret.pk), table


def sheet_urls(entry: Entry, table: Table) -> list[str]:
    """The table's public sheet, its printed sheets, its settlement, the rating and the team
    ranking."""
    slug = entry.event.slug
    return [
        reverse("table", args=[table.pk]),
        reverse("print_sheets", args=[slug, 1]),
        reverse("print_sheets", args=[slug, 1]) + f"?table={table.number}",
        reverse("table_settlement", args=[table.pk]),
        reverse("rating"),
        reverse("event_teams", args=[slug]),
    ]


def test_the_table_sheet_its_print_its_settlement_the_rating_and_teams_name_by_consent():
    secret, table = closed_money_round(public_lists=False, public_season=False)
    label = f"G. G. (No. {secret.start_number})"
    for url in sheet_urls(secret, table):
        page = read(url)
        for word in SECRET.values():
            assert word not in page, (url, word)
        # the rating has no start number: the initials alone
        assert (label if url != reverse("rating") else "G. G.") in page, url
        assert reverse("player", args=[secret.player.uid]) not in page, url
    # the others, who agreed, are named as before
    sheet = read(reverse("table", args=[table.pk]))
    neighbour = table.seats.exclude(entry=secret).select_related("entry__player").first()
    assert str(neighbour.entry.player) in sheet


def test_a_printed_sheet_names_by_consent_whoever_prints_it_and_the_scorers_page_names_all():
    secret, table = closed_money_round(public_lists=False)
    scorer = en()
    scorer.force_login(make_role(secret.event, SCORER))
    printed = scorer.get(reverse("print_sheets", args=[secret.event.slug, 1])).content.decode()
    assert SECRET["last_name"] not in printed
    assert f"G. G. (No. {secret.start_number})" in printed
    page = scorer.get(reverse("table", args=[table.pk])).content.decode()
    assert f"{SECRET['first_name']} {SECRET['last_name']}" in page


def finished_with_prizes(**consent: bool) -> Entry:
    """The money round's event with an overall and a women's first prize, finished (its
    assignment stored): the secret player wins the overall prize and is passed over for the
    women's, which she does not need."""
    secret, _table = closed_money_round(**consent)
    event = secret.event
    Prize.objects.create(event=event, ranking=Prize.Ranking.OVERALL, place=1, amount_cents=5000)
    Prize.objects.create(event=event, ranking=Prize.Ranking.WOMEN, place=1, goods="Blumen")
    prizes.finish_event(event=event)
    return secret


def prize_pages(entry: Entry) -> list[str]:
    url = reverse("prize_giving", args=[entry.event.slug])
    return [url, url + "?beamer=1", reverse("print_prize_giving", args=[entry.event.slug])]


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "computed"])
def test_the_public_prize_giving_names_by_consent_and_the_organisers_list_names_all(stored):
    secret = finished_with_prizes(public_lists=False, public_season=False)
    if not stored:  # an event finished before the lists were kept: computed when shown
        PrizeAssignment.objects.filter(event=secret.event).delete()
    label = "Geheimnisvoll, Gisela"
    shown_as = f"G. G. (No. {secret.start_number})"
    for url in prize_pages(secret):
        page = read(url)
        for word in SECRET.values():
            assert word not in page, (url, word)
        assert f"{shown_as} (rank 1) has the 1st overall prize" in page, url
    organiser = en()
    organiser.force_login(make_role(secret.event, ORGANISER))
    for url in prize_pages(secret):
        page = organiser.get(url).content.decode()
        if "beamer" in url:  # the projector shows the whole hall
            assert label not in page and shown_as in page
        else:
            assert label in page and SECRET["club"] in page, url


def test_the_public_prize_giving_names_who_agreed_as_the_list_was_kept():
    secret = finished_with_prizes()  # name and club agreed to
    page = read(prize_pages(secret)[0])
    assert "Geheimnisvoll, Gisela" in page and SECRET["club"] in page


def test_the_kept_list_read_for_the_public_costs_two_queries_however_many_prizes(
    django_assert_num_queries: Any,
):
    secret = finished_with_prizes(public_lists=False)
    event = Event.objects.get(pk=secret.event_id)
    # Expect 2 queries: the kept list, the entries it names with their players
    with django_assert_num_queries(2):
        giving = prizes.prize_giving(event, public=True)
    assert giving.stored


def test_a_pair_given_no_name_is_numbered_and_names_no_partner_beyond_the_consent():
    """A Ziege pair registered without a name was named after the partners' last names, which
    the pair ranking and the seating show as it is: numbered now, the partners' names beside it
    as far as their consent reaches; an anonymised partner leaves no trace in a pair's name."""
    from tests.helpers.pairs import play_pairs_round

    event = make_event("ziege", pairing=Event.Pairing.FIXED, hands_per_round={"4": 2})
    first, second, third, fourth = make_entries(event, 4, public_lists=False)
    Player.objects.filter(pk=first.player_id).update(last_name=SECRET["last_name"])
    director = make_user()
    pair = services.create_pair(event=event, name="", entries=[first, second], user=director)
    other = services.create_pair(event=event, name="", entries=[third, fourth], user=director)
    assert (pair.name, other.name) == ("Pair 1", "Pair 2")
    play_pairs_round(make_round(event, seed=3), [pair, other])
    for url in (
        reverse("event_pairs", args=[event.slug]),
        reverse("round_seating", args=[event.slug, 1]),
    ):
        page = en().get(url).content.decode()
        assert "Pair 1" in page and SECRET["last_name"] not in page, url

    # a pair named after its partners before: numbered by the migration, a typed name kept
    migration = importlib.import_module("tournament.migrations.0032_pair_names")
    last = Player.objects.get(pk=second.player_id).last_name
    Team.objects.filter(pk=pair.pk).update(name=f"{SECRET['last_name']} / {last}")
    Team.objects.filter(pk=other.pk).update(name="Die Zwei")
    migration.numbered_pairs(django_apps, None)
    assert set(Team.objects.filter(event=event).values_list("name", flat=True)) == {
        "Paar 1",
        "Die Zwei",
    }

    # a name the director typed with the partner's name in it loses it when they are anonymised
    Team.objects.filter(pk=pair.pk).update(name=f"Team {SECRET['last_name']}")
    services.anonymise_player(player=first.player, reason="Bitte vom 3.12.")
    assert Team.objects.get(pk=pair.pk).name == f"Team Anonym {first.player_id}"
