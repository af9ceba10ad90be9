"""Who a bundle's player is here (issue 15): by identifier, or proposed by name, club and town
for the director to decide; a homonym is never merged by itself."""

from __future__ import annotations

import getpass
import io
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils.html import escape

from tests.factories import cego, make_event, make_player, make_round, make_user
from tournament.models import Entry, Event, Player, PlayerAlias
from tournament.play import hands
from tournament.publish.bundles import export, plan, read
from tournament.register import identity
from tournament.register import services as register_services
from tournament.register.identity import Person, match_players

pytestmark = pytest.mark.django_db


def person(first: str, last: str, club: str = "", town: str = "", uid: Any = None) -> Person:
    return Person(str(uid or uuid.uuid4()), first, last, club, town)


def test_a_player_with_the_same_identifier_is_found_whatever_the_spelling():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")
    [match] = match_players([person("Uwe", "Mayer-Typo", uid=here.uid)])
    assert (match.how, match.player) == (identity.BY_IDENTIFIER, here)


def test_a_spelling_variant_in_the_same_club_is_proposed_not_taken():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen", town="")
    [match] = match_players([person("Uwe", "Meier", "CC Furtwangen", "Furtwangen")])
    assert match.how == identity.PROPOSED and match.player is None
    assert match.candidates == [here]


def test_a_proposal_accepted_by_the_director_is_that_player():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")
    theirs = person("Uwe", "Meier", "CC Furtwangen")
    [match] = match_players([theirs], decisions={theirs.uid: str(here.uid)})
    assert (match.how, match.player) == (identity.BY_DECISION, here)
    [match] = match_players([theirs], decisions={theirs.uid: identity.NEW})
    assert match.is_new and match.player is None


def test_a_homonym_of_another_club_and_town_is_kept_apart_as_a_new_player():
    other = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    [match] = match_players([person("Uwe", "Maier", "Tarockrunde Villingen", "Villingen")])
    assert match.is_new and match.decided
    assert match.candidates == [] and match.homonyms == [other]


def test_the_same_town_in_another_club_is_still_proposed():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    [match] = match_players([person("Uwe", "Meyer", "Kartenfreunde Triberg", "Triberg")])
    assert match.how == identity.PROPOSED and match.candidates == [here]


def test_without_club_and_town_a_name_match_is_proposed():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    [match] = match_players([person("Uwe", "Maier")])
    assert match.how == identity.PROPOSED and match.candidates == [here]


def test_the_exact_rule_takes_only_a_single_candidate_written_the_same():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    same = person("uwe", "MAIER", "CC  Triberg", "Triberg")
    variant = person("Uwe", "Meier", "CC Triberg", "Triberg")
    spelt, exact = match_players([variant, same], accept_exact=True)
    assert (exact.how, exact.player) == (identity.BY_EXACT, here)
    # the variant cannot be the player the exact one already is
    assert spelt.is_new and spelt.candidates == []
    [alone] = match_players([variant], accept_exact=True)
    assert alone.how == identity.PROPOSED


def test_two_bundle_players_decided_to_be_one_player_are_a_problem():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg")
    a, b = person("Uwe", "Maier", "CC Triberg"), person("Uwe", "Meier", "CC Triberg")
    matches = match_players([a, b], decisions={a.uid: str(here.uid), b.uid: str(here.uid)})
    assert identity.clashes(matches) == [
        "Uwe Maier and Uwe Meier of the bundle cannot both be Uwe Maier."
    ]


def test_a_decision_naming_nobody_is_refused_with_the_identifier():
    theirs = person("Uwe", "Maier")
    nobody = str(uuid.uuid4())
    with pytest.raises(identity.UnknownDecision, match=nobody):
        match_players([theirs], decisions={theirs.uid: nobody})
    with pytest.raises(identity.UnknownDecision, match="no player with the identifier"):
        match_players([theirs], decisions={nobody: identity.NEW})


def test_matching_costs_three_queries_however_many_players(django_assert_num_queries: Any):
    for i in range(30):
        make_player(first_name=f"Anna{i}", last_name="Faller")
    people = [person(f"Anna{i}", "Faler", "CC Test") for i in range(30)]
    # players by identifier, identifiers decided before, every player (with a decision naming a
    # player here, a fourth: the players decided on)
    with django_assert_num_queries(3):
        matches = match_players(people)
    assert all(m.how == identity.PROPOSED for m in matches)


# --- at import --------------------------------------------------------------------------------


def hall_bundle(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A bundle from a hall's laptop whose players the association does not know by identifier:
    Uwe Meier of CC Furtwangen and three others; the hall's database is then gone."""
    event = make_event(name="Turnier Furtwangen", slug="furtwangen")
    names = [("Uwe", "Meier"), ("Karl", "Dold"), ("Hans", "Kern"), ("Eva", "Ruf")]
    for first, last in names:
        register_services.register_player(
            event=event,
            player=Player(first_name=first, last_name=last, club="CC Furtwangen"),
        )
    table = make_round(event).tables.get()
    hands.record_hand(table=table, data=cego(points=60))
    path = tmp_path / "furtwangen.gz"
    path.write_bytes(export.bundle_bytes(event))
    uids = {p.last_name: str(p.uid) for p in Player.objects.filter(entries__event=event)}
    event.delete()
    Player.objects.filter(entries__isnull=True).delete()
    return path, uids


def run(*args: Any) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_the_command_stops_at_a_proposal_and_imports_once_it_is_decided(tmp_path: Path):
    path, uids = hall_bundle(tmp_path)
    maier = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")

    out = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported: decide"):
        call_command("import_event", str(path), stdout=out)
    assert f"--same {uids['Meier']}={maier.uid}" in out.getvalue()
    assert not Event.objects.filter(slug="furtwangen").exists()

    out = run("import_event", str(path), "--same", f"{uids['Meier']}={maier.uid}")
    assert "Imported Turnier Furtwangen." in out
    entry = Entry.objects.get(event__slug="furtwangen", start_number=1)
    assert entry.player == maier  # the association's player, with the association's spelling
    assert not Player.objects.filter(last_name="Meier").exists()
    assert PlayerAlias.objects.get(uid=uids["Meier"]).player == maier


def test_an_identifier_decided_once_is_found_without_asking_at_the_next_import(tmp_path: Path):
    path, uids = hall_bundle(tmp_path)
    maier = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")
    run("import_event", str(path), "--same", f"{uids['Meier']}={maier.uid}")
    content = read.read_bundle(path.read_bytes())
    [match] = [m for m in plan.plan_import(content).matches if m.person.uid == uids["Meier"]]
    # the event is here: its start number finds the player, and so would the alias elsewhere
    assert match.player == maier
    [alias] = match_players([m.person for m in [match]])
    assert (alias.how, alias.player) == (identity.BY_ALIAS, maier)


def test_the_command_keeps_a_homonym_apart_and_says_so(tmp_path: Path):
    path, uids = hall_bundle(tmp_path)
    other = make_player(first_name="Karl", last_name="Dold", club="CC Triberg", town="Triberg")
    Player.objects.filter(pk=other.pk).update(town="Triberg")
    out = run("import_event", str(path))
    assert "same name, other club and town (kept apart): Karl Dold (CC Triberg, Triberg)" in out
    entry = Entry.objects.get(event__slug="furtwangen", player__uid=uids["Dold"])
    assert entry.player != other and entry.player.club == "CC Furtwangen"


def test_the_upload_page_asks_for_the_decision_and_imports_with_it(client: Client, tmp_path: Path):
    path, uids = hall_bundle(tmp_path)
    maier = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")
    client.force_login(make_user())
    file = io.BytesIO(path.read_bytes())
    file.name = path.name
    response = client.post("/turnier/import/", {"file": file})
    page = response.content.decode()
    assert "possibly a known player: decide" in page
    assert f'name="decide-{uids["Meier"]}" value="{maier.uid}"' in page
    payload = response.context["payload"]

    response = client.post("/turnier/import/", {"payload": payload, "action": "import"})
    assert response.status_code == 200
    assert "Decide first whether Uwe Meier is a known player or a new one." in (
        response.content.decode()
    )
    assert not Event.objects.filter(slug="furtwangen").exists()

    response = client.post(
        "/turnier/import/",
        {"payload": payload, "action": "import", f"decide-{uids['Meier']}": str(maier.uid)},
    )
    assert response.status_code == 302
    assert Entry.objects.get(event__slug="furtwangen", start_number=1).player == maier


def test_a_decision_that_is_no_identifier_is_refused_and_a_pasted_one_in_capitals_works():
    here = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg")
    theirs = person("Uwe", "Meier", "CC Triberg")
    with pytest.raises(identity.UnknownDecision, match="“garbage” is not a player's identifier"):
        match_players([theirs], decisions={theirs.uid: "garbage"})
    [match] = match_players([theirs], decisions={theirs.uid.upper(): f" {str(here.uid).upper()}"})
    assert match.player == here


def test_a_forged_decision_on_the_upload_page_is_a_message(client: Client, tmp_path: Path):
    path, uids = hall_bundle(tmp_path)
    make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")
    client.force_login(make_user())
    file = io.BytesIO(path.read_bytes())
    file.name = path.name
    payload = client.post("/turnier/import/", {"file": file}).context["payload"]
    response = client.post(
        "/turnier/import/",
        {"payload": payload, "action": "import", f"decide-{uids['Meier']}": "<script>"},
    )
    assert response.status_code == 200
    assert escape("“<script>” is not a player's identifier.") in response.content.decode()
    assert not Event.objects.filter(slug="furtwangen").exists()


def test_a_command_line_import_names_the_computer_account_in_the_history(tmp_path: Path):
    path, _uids = hall_bundle(tmp_path)
    run("import_event", str(path), "--accept-exact")
    hand = Event.objects.get(slug="furtwangen").rounds.get().tables.get().hands.get()
    reason = hand.history.get().history_change_reason
    assert f"by {getpass.getuser()} (command line)" in reason


def test_after_a_merge_a_bundle_naming_the_merged_player_finds_the_one_kept():
    kept = make_player(first_name="Uwe", last_name="Maier", club="CC Furtwangen")
    twice = make_player(first_name="Uwe", last_name="Meier", club="CC Furtwangen")
    earlier = uuid.uuid4()  # an identifier from another laptop, decided at an earlier import
    PlayerAlias.objects.create(uid=earlier, player=twice)
    gone = twice.uid
    register_services.merge_players(keep=kept, remove=twice)
    by_uid, by_alias = match_players(
        [person("Uwe", "Meier", uid=gone), person("U", "M", uid=earlier)]
    )
    assert (by_uid.how, by_uid.player) == (identity.BY_ALIAS, kept)
    assert (by_alias.how, by_alias.player) == (identity.BY_ALIAS, kept)
