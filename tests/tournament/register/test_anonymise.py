"""A player anonymised on request (issue 46.4): the name, club and town are gone from the
register, every page, a fresh bundle, the published season and the history, the personal link
stops, and every ranking stays as it was."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.factories import cego, make_entries, make_event, make_player, make_round, make_season
from tournament.models import Entry, Player
from tournament.play import hands
from tournament.publish.bundles import BundleError, export, read, write
from tournament.register import services

pytestmark = pytest.mark.django_db

OLD = ("Walburga", "Wegwunsch", "Kartenfreunde Vergessen", "Fortort")


def standings_of(event) -> list[tuple[int, int, int]]:
    return list(Entry.objects.standings(event).values_list("start_number", "rank", "total"))


def test_an_anonymised_player_is_gone_from_every_page_and_file_and_the_rankings_stay(
    tmp_path: Path,
):
    season = make_season(slug="saison-vergessen")
    event = make_event(season=season, slug="vergessen")
    first, last, club, town = OLD
    player = make_player(first_name=first, last_name=last, club=club, town=town)
    entry = services.register_player(event=event, player=player)
    make_entries(event, 3)
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego(declarer=table.seats.get(entry=entry).position))
    services.correct_player(player=player, values={"club": "Zwischenverein Vergessen"})
    link = reverse("personal_link", args=[entry.token])
    before = standings_of(event)
    call_command(
        "anonymise_player", str(player.uid), "--reason", "Bitte vom 3.12.", stdout=io.StringIO()
    )
    assert standings_of(event) == before
    player = Player.objects.get(pk=player.pk)
    assert (player.first_name, player.club, player.town) == ("Anonym", "", "")
    client = Client()
    assert client.get(link).status_code == 404
    texts = [
        client.get(url).content.decode()
        for url in (
            reverse("event_standings", args=[event.slug]),
            reverse("round_results", args=[event.slug, 1]),
            reverse("player", args=[player.uid]),
            reverse("season", args=[season.slug]),
        )
    ]
    texts.append(gzip.decompress(export.bundle_bytes(event)).decode())  # a fresh bundle
    call_command("publish_season", season.slug, "--output", str(tmp_path), stdout=io.StringIO())
    texts += [p.read_text() for p in tmp_path.rglob("*.html")]
    history = list(Player.history.filter(id=player.pk).values_list("first_name", "last_name"))
    history += list(Player.history.filter(id=player.pk).values_list("club", "town"))
    texts.append(repr(history))
    for text in texts:
        for word in (*OLD, "Zwischenverein"):
            assert word not in text
    reasons = Player.history.filter(id=player.pk).values_list("history_change_reason", flat=True)
    assert "anonymised: Bitte vom 3.12." in reasons


def test_an_anonymisation_needs_a_reason():
    player = make_player()
    with pytest.raises(CommandError):
        call_command("anonymise_player", str(player.uid), "--reason", " ", stdout=io.StringIO())


def test_a_bundle_that_brings_the_player_back_does_not_undo_the_anonymisation():
    event = make_event(slug="rueckkehr")
    first, last, club, town = OLD
    player = make_player(first_name=first, last_name=last, club=club, town=town)
    services.register_player(event=event, player=player)
    make_entries(event, 3)
    make_round(event)
    older = export.bundle_bytes(event)  # taken to the hall before the request
    services.anonymise_player(player=player, reason="Bitte")
    content = read.read_bundle(older)
    # found by its identifier under another name: the import asks the director first
    with pytest.raises(BundleError, match="Decide first"):
        write.apply_import(content, user=None)
    # the same person: the player here keeps the label
    same = {str(player.uid): str(player.uid)}
    write.apply_import(content, decisions=same, reason="aus der Halle zurück", user=None)
    player.refresh_from_db()
    assert (player.first_name, player.last_name) == ("Anonym", str(player.pk))
    # nor does the bundle bring the old name back as a second player
    assert not Player.objects.filter(last_name=last).exists()
