"""Consent as given (issue 46.1): the online form, the desk, a player list and a bundle each
record what the player agreed to be shown in public, with the words' version, when and how;
where nothing was said, nothing is recorded. A player under 16 registers online only with a
parent's or guardian's box ticked."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import make_entries, make_event, make_role, make_round, make_user
from tests.helpers.imports import preview_of, upload, xlsx_file
from tournament.access import ORGANISER
from tournament.models import Consent, Entry, Event, Player
from tournament.publish.bundles import export, read, write
from tournament.register import imports, services

pytestmark = pytest.mark.django_db


def en() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def register(event: Event, last: str, **ticked: str):
    client = en()
    page = client.get(reverse("event_register", args=[event.slug])).content.decode()
    key = re.search(r'name="submission" value="([^"]+)"', page).group(1)
    data = {
        "first_name": "Mia",
        "last_name": last,
        "club": "CC Test",
        "town": "Furtwangen",
        "category": "",
        "consent": "on",
        "submission": key,
        **ticked,
    }
    return client.post(reverse("event_register", args=[event.slug]), data)


def reach(player: Player) -> tuple[bool, bool, bool]:
    player.refresh_from_db()
    return player.public_lists, player.public_season, player.town_shown


def test_the_online_form_stores_the_consent_as_ticked_with_its_words_and_time():
    event = make_event(registration_open=True)
    before = timezone.now()
    assert register(event, "Kopf", consent_season="on").status_code == 302
    player = Player.objects.get(last_name="Kopf")
    consent = player.consents.get()
    assert (consent.lists, consent.season_site, consent.town, consent.by_guardian) == (
        True,
        True,
        False,
        False,
    )
    assert (consent.wording, consent.via) == (Consent.WORDING, Consent.Via.ONLINE)
    assert before <= consent.given_at <= timezone.now()
    assert reach(player) == (True, True, False)
    assert consent.history.get().history_change_reason == "online registration"


def test_the_form_asks_the_consents_and_the_age_it_stores():
    event = make_event(registration_open=True)
    page = en().get(reverse("event_register", args=[event.slug])).content.decode()
    for name in ("consent", "consent_season", "consent_town", "under_16", "guardian"):
        assert f'name="{name}"' in page


def test_a_player_under_16_is_refused_without_a_parents_consent_and_registered_with_it():
    event = make_event(registration_open=True)
    refused = register(event, "Jung", under_16="on")
    assert refused.status_code == 422
    assert "registers only with a parent" in refused.content.decode()
    assert not Entry.objects.filter(event=event).exists()
    assert register(event, "Jung", under_16="on", guardian="on").status_code == 302
    assert Player.objects.get(last_name="Jung").consents.get().by_guardian


def desk(event: Event) -> Client:
    client = en()
    client.force_login(make_role(event, ORGANISER))
    return client


DESK_POST = {
    "first_name": "Otto",
    "last_name": "Theke",
    "club": "",
    "town": "",
    "category": "",
    "same_person": "new",
    "fee": "",
}


def test_the_desk_records_no_consent_unless_it_ticks_one():
    event = make_event()
    desk(event).post(reverse("event_players", args=[event.slug]), DESK_POST)
    player = Player.objects.get(last_name="Theke")
    assert not player.consents.exists() and reach(player) == (False, False, False)
    post = {**DESK_POST, "last_name": "Zustimmer", "consent_lists": "on", "consent_town": "on"}
    desk(event).post(reverse("event_players", args=[event.slug]), post)
    consent = Consent.objects.get(player__last_name="Zustimmer")
    assert (consent.via, consent.lists, consent.season_site, consent.town) == (
        Consent.Via.DESK,
        True,
        False,
        True,
    )


def test_a_junior_at_the_desk_is_recorded_with_the_consent_the_guardian_gave():
    event = make_event()
    page = desk(event).get(reverse("event_players", args=[event.slug])).content.decode()
    assert "given by a parent or guardian (a player under 16)" in page
    post = {**DESK_POST, "consent_lists": "on", "consent_guardian": "on"}
    desk(event).post(reverse("event_players", args=[event.slug]), post)
    consent = Consent.objects.get(player__last_name="Theke")
    assert (consent.lists, consent.by_guardian) == (True, True)
    # the guardian's box alone says nothing the public may show: none recorded
    alone = {**DESK_POST, "last_name": "Vormund", "consent_guardian": "on"}
    desk(event).post(reverse("event_players", args=[event.slug]), alone)
    assert not Consent.objects.filter(player__last_name="Vormund").exists()


def test_a_walk_in_at_the_check_in_brings_the_consent_ticked_there():
    event = make_event()
    make_entries(event, 2)
    post = {**DESK_POST, "action": "walk_in", "consent_lists": "on"}
    desk(event).post(reverse("checkin", args=[event.slug]), post)
    consent = Consent.objects.get(player__last_name="Theke")
    assert consent.via == Consent.Via.DESK and consent.lists


HEADER = ["Vorname", "Nachname", "Verein", "Ort", "Kategorie", "Einwilligung"]


def test_a_player_list_records_the_consent_its_column_names_nein_as_none_and_empty_as_nothing():
    event = make_event()
    rows = [
        HEADER,
        ["Anna", "Liste", "CC", "", "", "ja, Saison"],
        ["Bert", "Leer", "CC", "", "", ""],
        ["Cora", "Nein", "CC", "", "", "nein"],
    ]
    preview = preview_of(event, rows)
    assert preview.ok
    assert imports.save_players(event, preview.payload()) == 3
    given = Consent.objects.order_by("player__last_name")
    assert [c.player.last_name for c in given] == ["Liste", "Nein"]
    for consent in given:
        assert (consent.via, consent.wording) == (Consent.Via.IMPORT, Consent.WORDING_LIST)
    yes, no = given
    assert (yes.lists, yes.season_site, yes.town) == (True, True, False)
    assert (no.lists, no.season_site, no.town) == (False, False, False)


def known_with_consent(last_name: str) -> Player:
    """A player of the register who agreed online to the lists (last season)."""
    assert register(make_event(registration_open=True), last_name).status_code == 302
    player = Player.objects.get(last_name=last_name)
    assert reach(player) == (True, False, False)
    return player


@pytest.mark.parametrize(
    ("cell", "withdrawn"), [("nein", True), ("", False)], ids=["nein", "empty"]
)
def test_a_list_saying_nein_for_a_known_player_withdraws_the_consent_an_empty_cell_keeps_it(
    director: Client, cell: str, withdrawn: bool
):
    player = known_with_consent("Kehrtwende")
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    rows = [HEADER, ["Mia", "Kehrtwende", "CC Test", "Furtwangen", "", cell]]
    response = upload(director, url, "spieler.xlsx", xlsx_file(rows))
    [row] = response.context["preview"].rows
    assert row.status == "matched"
    page = response.content.decode()
    assert ("<td>none (nein)</td>" in page) is withdrawn
    director.post(url, {"action": "confirm", "payload": response.context["payload"]})
    assert Entry.objects.filter(event=event, player=player).exists()
    assert reach(player) == ((False, False, False) if withdrawn else (True, False, False))
    assert Consent.objects.filter(player=player).count() == (2 if withdrawn else 1)


def test_the_preview_says_the_consent_in_words():
    preview = preview_of(
        make_event(),
        [
            HEADER,
            ["Anna", "Alles", "CC", "", "", "Ja / Saison / Wohnort"],
            ["Bert", "Keine", "CC", "", "", "Nein"],
            ["Cora", "Leer", "CC", "", "", ""],
            ["Dora", "Beides", "CC", "", "", "ja, nein"],
        ],
    )
    with translation.override("en"):
        labels = [row.consent_label for row in preview.rows]
    assert labels == ["lists, season website, town", "none (nein)", "", "ja, nein"]
    assert preview.rows[3].rejected  # "ja" and "nein" at once says nothing certain


def test_a_consent_cell_the_import_cannot_read_rejects_the_row():
    preview = preview_of(make_event(), [HEADER, ["Anna", "Liste", "CC", "", "", "vielleicht"]])
    [row] = preview.rows
    assert row.rejected and "vielleicht" in row.reason
    # "nein" beside a consent says two things: refused with the same words
    preview = preview_of(make_event(), [HEADER, ["Anna", "Liste", "CC", "", "", "ja, nein"]])
    [row] = preview.rows
    assert row.rejected and "nein alone" in row.reason


def test_a_consent_travels_in_the_bundle_and_is_recorded_once_however_often_it_comes():
    event = make_event(registration_open=True)
    assert register(event, "Reisende", consent_season="on").status_code == 302
    make_entries(event, 3)
    make_round(event)
    given = Consent.objects.get()
    data = export.bundle_bytes(event)
    # the hall's laptop: neither the event nor the player is known there
    event.delete()
    Player.objects.filter(last_name="Reisende").delete()
    assert not Consent.objects.exists()
    write.apply_import(read.read_bundle(data), user=None)
    arrived = Consent.objects.get()
    assert (arrived.uid, arrived.via, arrived.wording, arrived.given_at) == (
        given.uid,
        Consent.Via.ONLINE,
        Consent.WORDING,
        given.given_at,
    )
    assert reach(arrived.player) == (True, True, False)
    write.apply_import(read.read_bundle(data), user=None)
    assert Consent.objects.count() == 1


def test_the_latest_consent_counts_and_a_withdrawal_is_a_consent_of_its_own():
    [entry] = make_entries(make_event(), 1)
    player = entry.player
    now = timezone.now()

    def given(minutes: int, lists: bool) -> Consent:
        at = now + datetime.timedelta(minutes=minutes)
        return Consent(
            uid=uuid.uuid4(), player=player, lists=lists, wording="x", via="desk", given_at=at
        )

    services.record_consents(consents=[given(0, True)])
    assert reach(player) == (True, False, False)
    services.record_consents(consents=[given(10, False)])
    assert reach(player) == (False, False, False)
    # an older consent arriving later (a bundle) does not overrule the newer withdrawal
    services.record_consents(consents=[given(5, True)])
    assert reach(player) == (False, False, False)


def test_recording_a_consent_changes_the_version_of_the_events_the_player_plays():
    event = make_event()
    [entry] = make_entries(event, 1)
    before = Event.objects.get(pk=event.pk).version
    services.record_consents(
        consents=[
            Consent(
                player=entry.player, lists=True, wording="x", via="desk", given_at=timezone.now()
            )
        ]
    )
    assert Event.objects.get(pk=event.pk).version != before


def test_the_desk_joining_an_online_registration_to_the_known_player_keeps_the_consent():
    # Mia registers online; the register knew her already (entered at the desk last season,
    # without a consent); the desk says "the same person": her consent of today is hers
    known = Player.objects.create(
        first_name="Mia", last_name="Kaltenbach", club="CC Test", public_lists=False
    )
    event = make_event(registration_open=True)
    register(event, "Kaltenbach", consent_season="on")
    online = Entry.objects.get(event=event).player
    assert online.pk != known.pk and reach(online) == (True, True, False)
    services.merge_players(keep=known, remove=online)
    assert reach(known) == (True, True, False)
    assert Consent.objects.filter(player=known, lists=True, season_site=True).count() == 1
    standings = en().get(reverse("event_participants", args=[event.slug])).content.decode()
    assert "Kaltenbach" in standings


# --- the director records a consent stated later: a withdrawal, a change ----------------------


def director() -> Client:
    client = en()
    client.force_login(make_user())
    return client


def consented_player() -> tuple[Entry, Player]:
    """A played event's entry whose player agreed online to the lists and the season's website,
    and the player."""
    event = make_event(registration_open=True)
    assert register(event, "Widerruf", consent_season="on").status_code == 302
    make_entries(event, 3)
    make_round(event)
    entry = Entry.objects.get(event=event, player__last_name="Widerruf")
    return entry, entry.player


def state(player: Player, reason: str = "per E-Mail vom 3. Mai", **ticked: str):
    """The director records on the register's player page what the player says now."""
    data = {"consent-reason": reason, **{f"consent-{box}": "on" for box in ticked}}
    return director().post(reverse("register_consent", args=[player.uid]), data, follow=True)


def test_the_players_page_shows_the_consent_that_counts_and_a_form_for_a_new_one():
    _entry, player = consented_player()
    page = director().get(reverse("register_player", args=[player.uid])).content.decode()
    assert "online registration form" in page and "counts" in page
    assert "The public pages show: name and club in the event&#x27;s public lists, on the" in page
    for box in ("lists", "season_site", "town", "by_guardian", "reason"):
        assert f'name="consent-{box}"' in page
    # the boxes start as the consent that counts: lists and website ticked, town not
    ticked = set(re.findall(r'<input type="checkbox" name="consent-(\w+)"[^>]*checked', page))
    assert ticked == {"lists", "season_site"}


def test_a_withdrawal_at_the_desk_takes_the_name_off_the_public_pages_at_once():
    entry, player = consented_player()
    standings = reverse("event_standings", args=[entry.event.slug])
    assert "Widerruf" in en().get(standings).content.decode()
    response = state(player)  # nothing ticked: the consent is withdrawn
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("register_player", args=[player.uid])
    assert "Consent recorded. The public pages show the player only as M. W." in page
    # the season's published website was allowed: it keeps the name until published again
    assert "until it is published again" in page
    public = en().get(standings).content.decode()
    assert "Widerruf" not in public and f"M. W. (No. {entry.start_number})" in public
    assert reach(player) == (False, False, False)
    latest, _earlier = Consent.objects.filter(player=player).order_by("-given_at")
    assert (latest.lists, latest.season_site, latest.town, latest.by_guardian) == (
        False,
        False,
        False,
        False,
    )
    assert (latest.via, latest.wording) == (Consent.Via.DESK, Consent.WORDING)
    assert latest.history.get().history_change_reason == "per E-Mail vom 3. Mai"
    assert latest.history.get().history_user.username == "director"
    # the page lists both, the withdrawal first, with its reason
    assert page.index("per E-Mail vom 3. Mai") < page.index("online registration form")


def test_a_consent_given_later_at_the_desk_shows_the_town_too():
    _entry, player = consented_player()
    player.town = "Furtwangen"
    player.save()
    page = state(player, "am Turniertisch", lists="on", town="on", by_guardian="on")
    said = "The public pages show: name and club in the event&#x27;s public lists, town on the "
    assert said in page.content.decode()
    assert reach(player) == (True, False, True)
    assert Consent.objects.filter(player=player).latest("given_at").by_guardian
    public = en().get(reverse("player", args=[player.uid])).content.decode()
    assert "Furtwangen" in public


def test_a_consent_without_a_reason_is_not_recorded():
    _entry, player = consented_player()
    response = state(player, reason="")
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert Consent.objects.filter(player=player).count() == 1
    assert reach(player) == (True, True, False)


def test_a_town_withdrawn_says_the_website_shows_it_until_published_again():
    _entry, player = consented_player()
    state(player, "am Turniertisch", lists="on", season_site="on", town="on")
    page = state(player, "per E-Mail", lists="on", season_site="on").content.decode()
    assert "shows the town until it is published again" in page
    assert "names the player until" not in page


def test_after_a_consent_refused_the_correction_form_still_corrects_the_player():
    _entry, player = consented_player()
    refused = state(player, reason="").content.decode()
    assert f'action="{reverse("register_player", args=[player.uid])}"' in refused
