"""Player lists coming in (XLSX, CSV as German Excel writes it): reading and saving, the import
view and the import command. Every file is made in memory or in tmp_path; nothing is saved
before a confirm, and a file with one bad row saves nothing at all.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.factories import make_entries, make_event, make_player, make_round
from tests.helpers.imports import (
    FORMATS,
    GERMAN,
    PLAYERS,
    counts,
    csv_file,
    preview_of,
    upload,
    xlsx_file,
)
from tests.helpers.pages import html_tables, messages_of
from tournament.core import errors
from tournament.models import Entry, Event, Player
from tournament.register import imports, services

pytestmark = pytest.mark.django_db

ENGLISH = ["First name", "Last name", "Club", "Town", "Category"]


# --- files ------------------------------------------------------------------------------------


# --- player lists: reading and saving ---------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("header", [GERMAN, ENGLISH], ids=["german", "english"])
def test_a_good_player_list_is_previewed_as_new_and_registered_with_consecutive_numbers(
    fmt: str, header: list[str]
):
    event = make_event()
    preview = preview_of(event, [header, *PLAYERS], fmt)
    assert [(r.line, r.status) for r in preview.rows] == [(2, "new"), (3, "new"), (4, "new")]
    assert [[r.first_name, r.last_name, r.club, r.town] for r in preview.rows] == [
        p[:4] for p in PLAYERS
    ]
    assert preview.ok
    assert counts() == (0, 0)  # a preview saves nothing
    assert imports.save_players(event, preview.payload()) == 3
    entries = Entry.objects.filter(event=event).select_related("player").order_by("start_number")
    assert [
        (e.start_number, e.player.first_name, e.player.last_name, e.player.town, e.player.category)
        for e in entries
    ] == [
        (1, "Anna", "Müller", "Rottweil", "damen"),
        (2, "Jörg", "Weiß", "Hüfingen", ""),
        (3, "Lena", "Schäfer", "Titisee-Neustadt", "jugend"),
    ]


def test_imported_players_get_the_start_numbers_after_those_already_registered():
    event = make_event()
    make_entries(event, 2)
    imports.save_players(event, preview_of(event, [GERMAN, *PLAYERS]).payload())
    numbers = Entry.objects.filter(event=event).order_by("start_number")
    assert list(numbers.values_list("start_number", flat=True)) == [1, 2, 3, 4, 5]
    assert Entry.objects.get(event=event, player__last_name="Müller").start_number == 3


def test_a_known_player_is_matched_and_not_created_again():
    event = make_event()
    known = make_player(first_name="Anna", last_name="Müller", club="CC Rottweil")
    rows = [GERMAN, ["ANNA", "müller", "cc rottweil", "", "damen"], PLAYERS[1]]
    preview = preview_of(event, rows, "csv-cp1252")
    assert [(r.status, r.player_id) for r in preview.rows] == [("matched", known.pk), ("new", None)]
    players_before = Player.objects.count()
    assert imports.save_players(event, preview.payload()) == 2
    assert Player.objects.count() == players_before + 1
    assert Player.objects.filter(last_name__iexact="müller").count() == 1
    assert Entry.objects.filter(event=event, player=known).exists()


def test_the_same_name_in_another_club_is_a_new_player():
    event = make_event()
    make_player(first_name="Anna", last_name="Müller", club="CC Rottweil")
    preview = preview_of(event, [GERMAN, ["Anna", "Müller", "SV Tuningen", "", ""]])
    assert [r.status for r in preview.rows] == ["new"]


def test_a_likely_duplicate_of_a_known_player_is_marked_with_the_candidate():
    event = make_event()
    make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    make_player(first_name="Wolfgang", last_name="Schäuble", club="", town="Offenburg")
    rows = [
        GERMAN,
        ["Uwe", "Meier", "SV Schonach", "", ""],
        ["Wolfgang", "Schaeuble", "", "", ""],
        PLAYERS[0],
    ]
    preview = preview_of(event, rows)
    assert [r.status for r in preview.rows] == ["new", "new", "new"]
    assert [r.similar for r in preview.rows] == [
        "Uwe Maier (CC Triberg, Triberg)",
        "Wolfgang Schäuble (Offenburg)",
        "",
    ]


def test_two_spellings_of_one_name_in_the_file_are_marked_on_the_second_line():
    event = make_event()
    preview = preview_of(
        event, [GERMAN, ["Uwe", "Maier", "", "", ""], ["Uwe", "Mayer", "", "", ""]]
    )
    assert [r.similar for r in preview.rows] == ["", "line 2: Uwe Maier"]


def test_the_preview_page_shows_the_likely_duplicate(director: Client):
    make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    rows = [GERMAN, ["Uwe", "Meier", "", "", ""]]
    page = upload(director, url, "spieler.xlsx", xlsx_file(rows)).content.decode()
    assert "possibly the same person as Uwe Maier (CC Triberg, Triberg)" in page


@pytest.mark.parametrize(
    ("bad_row", "reason"),
    [
        (["Jörg", "", "CC Rottweil", "", ""], "last name"),
        (["Jörg", "Weiß", "CC Rottweil", "", "Profi"], "Profi"),
    ],
    ids=["missing-last-name", "unknown-category"],
)
def test_a_bad_row_is_rejected_with_its_line_and_reason_and_nothing_is_saved(
    bad_row: list[str], reason: str
):
    event = make_event()
    with translation.override("en"):
        preview = preview_of(event, [GERMAN, PLAYERS[0], bad_row, PLAYERS[2]])
    assert [(r.line, r.status) for r in preview.rows] == [
        (2, "new"),
        (3, "rejected"),
        (4, "new"),
    ]
    assert reason in preview.rows[1].reason
    assert not preview.ok
    before = counts()
    with translation.override("en"), pytest.raises(errors.Refused, match="line 3"):
        imports.save_players(event, preview.payload())
    assert counts() == before


def test_a_player_twice_in_the_file_is_rejected_the_second_time():
    event = make_event()
    rows = [GERMAN, *PLAYERS, ["anna", "MÜLLER", "CC Rottweil", "Tuningen", ""]]
    with translation.override("en"):
        preview = preview_of(event, rows)
    assert [r.status for r in preview.rows] == ["new", "new", "new", "rejected"]
    assert "line 2" in preview.rows[3].reason
    with pytest.raises(errors.Refused):
        imports.save_players(event, preview.payload())
    assert counts() == (0, 0)


def test_a_player_already_registered_for_the_event_is_rejected():
    event = make_event()
    player = make_player(first_name="Anna", last_name="Müller", club="CC Rottweil")
    services.register_player(event=event, player=player)
    with translation.override("en"):
        preview = preview_of(event, [ENGLISH, *PLAYERS])
    assert [r.status for r in preview.rows] == ["rejected", "new", "new"]
    assert "already registered" in preview.rows[0].reason
    before = counts()
    with pytest.raises(errors.Refused):
        imports.save_players(event, preview.payload())
    assert counts() == before


def test_a_list_previewed_earlier_is_refused_when_a_player_registered_meanwhile():
    event = make_event()
    preview = preview_of(event, [GERMAN, *PLAYERS])
    desk = make_player(first_name="Anna", last_name="Müller", club="CC Rottweil")
    services.register_player(event=event, player=desk)
    with pytest.raises(errors.Refused):
        imports.save_players(event, preview.payload())
    assert Entry.objects.filter(event=event).count() == 1


def test_a_list_imported_after_the_first_draw_is_registered_late_like_the_desk():
    event = make_event(table_policy=Event.TablePolicy.SIT_OUT)
    make_entries(event, 4)
    make_round(event, start=False)
    imports.save_players(event, preview_of(event, [GERMAN, *PLAYERS]).payload())
    imported = Entry.objects.filter(event=event, start_number__gt=4).order_by("start_number")
    assert [(e.start_number, e.late) for e in imported] == [(5, True), (6, True), (7, True)]


def test_a_list_for_a_finished_event_is_refused_and_creates_no_player():
    event = make_event()
    preview = preview_of(event, [GERMAN, *PLAYERS])
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(errors.Refused, match="The event is finished"):
        imports.save_players(event, preview.payload())
    assert counts() == (0, 0)


def test_two_thousand_players_import_in_one_call_with_a_bounded_number_of_queries():
    event = make_event()
    rows = [ENGLISH] + [[f"Vorname{i}", f"Nachname{i}", "CC Test", "Ort", ""] for i in range(2000)]
    preview = preview_of(event, rows)
    assert preview.counts == {"new": 2000, "matched": 0, "rejected": 0}
    with CaptureQueriesContext(connection) as ctx:
        assert imports.save_players(event, preview.payload()) == 2000
    # the known players, the registered ones, the highest start number, whether a round was
    # drawn, then the new players, the entries and their history rows in batches (SQLite takes
    # at most 999 values per statement): far fewer than one query per row, which would be 4,000+
    assert len(ctx.captured_queries) < 2000 / 20
    numbers = Entry.objects.filter(event=event).values_list("start_number", flat=True)
    assert sorted(numbers) == list(range(1, 2001))


# --- the import view --------------------------------------------------------------------------


def test_uploading_a_player_list_shows_the_preview_and_saves_nothing(director: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    response = upload(director, url, "spieler.xlsx", xlsx_file([GERMAN, *PLAYERS]))
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.counts == {"new": 3, "matched": 0, "rejected": 0}
    assert response.context["payload"]
    assert "Müller" in response.content.decode()
    assert counts() == (0, 0)


def test_confirming_the_preview_registers_the_players(director: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    payload = upload(director, url, "spieler.csv", csv_file([GERMAN, *PLAYERS], "cp1252")).context[
        "payload"
    ]
    response = director.post(url, {"action": "confirm", "payload": payload})
    assert response.status_code == 302
    assert response["Location"] == reverse("event_players", args=[event.slug])
    names = Entry.objects.filter(event=event).order_by("start_number")
    assert list(names.values_list("player__last_name", flat=True)) == ["Müller", "Weiß", "Schäfer"]


def test_a_tampered_payload_saves_nothing_and_says_so(director: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    payload = upload(director, url, "spieler.xlsx", xlsx_file([GERMAN, *PLAYERS])).context[
        "payload"
    ]
    tampered = payload[:5] + ("A" if payload[5] != "A" else "B") + payload[6:]
    response = director.post(url, {"action": "confirm", "payload": tampered})
    assert response.status_code == 200
    shown = messages_of(response)
    assert shown
    assert escape(shown[0]) in response.content.decode()
    assert counts() == (0, 0)


def test_a_payload_signed_for_another_event_saves_nothing(director: Client):
    first, second = make_event(), make_event()
    payload = upload(
        director,
        reverse("import_players", args=[first.slug]),
        "spieler.xlsx",
        xlsx_file([GERMAN, *PLAYERS]),
    ).context["payload"]
    response = director.post(
        reverse("import_players", args=[second.slug]), {"action": "confirm", "payload": payload}
    )
    assert response.status_code == 200
    assert messages_of(response)
    assert counts() == (0, 0)


def test_a_file_with_a_rejected_row_offers_no_confirm(director: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    rows = [GERMAN, PLAYERS[0], ["Jörg", "Weiß", "", "", "Profi"]]
    response = upload(director, url, "spieler.xlsx", xlsx_file(rows))
    assert response.status_code == 200
    assert not response.context["preview"].ok
    content = response.content.decode()
    assert "Profi" in content
    assert 'value="confirm"' not in content
    assert counts() == (0, 0)


def test_anonymous_users_are_sent_to_log_in_for_the_player_import(client: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    for response in (
        client.get(url),
        client.post(url, {"file": SimpleUploadedFile("spieler.xlsx", xlsx_file([GERMAN]))}),
    ):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert counts() == (0, 0)


GARBAGE = bytes(range(256)) * 16  # every byte value: NUL, CR, quotes, undecodable UTF-8
PDF = b"%PDF-1.7\r\n%\xe2\xe3\xcf\xd3\r\n1 0 obj\r<< /Type /Catalog >>\rendobj\r\n%%EOF\r\n"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("notizen.txt", GARBAGE),
        ("scan.pdf", PDF),
        ("scan.txt", PDF),
        ("spieler.xlsx", GARBAGE),
        ("spieler.csv", b""),
    ],
    ids=["garbage-txt", "pdf", "pdf-named-txt", "garbage-xlsx", "empty-csv"],
)
def test_a_file_that_is_not_a_player_list_gets_a_clear_message(
    director: Client, name: str, content: bytes
):
    event = make_event()
    response = upload(director, reverse("import_players", args=[event.slug]), name, content)
    assert response.status_code == 200
    assert response.context["form"].errors["file"]
    assert "preview" not in response.context
    assert counts() == (0, 0)


# --- the import command -----------------------------------------------------------------------


def test_import_players_registers_a_good_file(tmp_path: Path):
    event = make_event()
    path = tmp_path / "spieler.csv"
    path.write_bytes(csv_file([GERMAN, *PLAYERS], "utf-8-sig"))
    call_command("import_players", event.slug, str(path), stdout=io.StringIO())
    entries = Entry.objects.filter(event=event).order_by("start_number")
    assert list(entries.values_list("player__first_name", flat=True)) == ["Anna", "Jörg", "Lena"]


def test_import_players_refuses_a_file_with_a_rejected_row_and_saves_nothing(tmp_path: Path):
    event = make_event()
    path = tmp_path / "spieler.xlsx"
    path.write_bytes(xlsx_file([ENGLISH, PLAYERS[0], ["Jörg", "", "", "", ""]]))
    output = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_players", event.slug, str(path), stdout=output)
    assert "line 3" in output.getvalue()
    assert counts() == (0, 0)


def test_import_players_with_dry_run_saves_nothing(tmp_path: Path):
    event = make_event()
    path = tmp_path / "spieler.xlsx"
    path.write_bytes(xlsx_file([GERMAN, *PLAYERS]))
    output = io.StringIO()
    call_command("import_players", event.slug, str(path), "--dry-run", stdout=output)
    assert "3 new" in output.getvalue()
    assert counts() == (0, 0)


# --- the preview as a director checks it against the paper list ------------------------------


def category_cells(page: str) -> list[str]:
    _caption, rows = html_tables(page)[0]
    column = rows[0].index("Category") if "Category" in rows[0] else rows[0].index("Kategorie")
    return [row[column] for row in rows[1:]]


def test_the_preview_writes_the_category_in_words(director: Client):
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    rows = [
        GERMAN,
        ["Anna", "Müller", "", "", "d"],
        ["Lena", "Schäfer", "", "", "junior"],
        ["Jörg", "Weiß", "", "", ""],
    ]
    page = upload(director, url, "spieler.xlsx", xlsx_file(rows)).content.decode()
    assert category_cells(page) == ["Women", "Juniors", ""]
    director.cookies["django_language"] = "de"
    page = upload(director, url, "spieler.xlsx", xlsx_file(rows)).content.decode()
    assert category_cells(page) == ["Damen", "Jugend", ""]


def choices_for(page: str, line: int) -> dict[str, str]:
    """The answers the preview offers for a line: value → the label a director reads."""
    found = re.findall(
        rf'<input type="radio" name="same-{line}" value="([^"]+)"[^>]*>([^<]*)</label>', page
    )
    return {value: " ".join(html.unescape(label).split()) for value, label in found}


def uwe_meier_previewed(director: Client) -> tuple[Event, Player, str, str]:
    known = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    event = make_event()
    url = reverse("import_players", args=[event.slug])
    rows = [GERMAN, ["Uwe", "Meier", "", "Schonach", ""], PLAYERS[0]]
    response = upload(director, url, "spieler.xlsx", xlsx_file(rows))
    return event, known, url, response


def test_the_preview_asks_whether_a_likely_duplicate_is_the_same_person(director: Client):
    _event, known, _url, response = uwe_meier_previewed(director)
    page = response.content.decode()
    assert choices_for(page, 2) == {
        str(known.pk): "same person as Uwe Maier (CC Triberg, Triberg)",
        "new": "another person: register as a new player",
    }
    assert choices_for(page, 3) == {}


def test_same_person_registers_the_known_player(director: Client):
    event, known, url, response = uwe_meier_previewed(director)
    payload = response.context["payload"]
    response = director.post(url, {"action": "confirm", "payload": payload, "same-2": known.pk})
    assert response.status_code == 302
    assert Player.objects.count() == 2  # Uwe Maier and Anna Müller
    assert event.entries.filter(player=known).exists()


def test_another_person_is_a_new_player_and_the_register_stops_flagging_the_pair(
    director: Client,
):
    event, known, url, response = uwe_meier_previewed(director)
    register = director.get(reverse("register")).content.decode()
    assert "probably registered twice" not in register
    payload = response.context["payload"]
    response = director.post(url, {"action": "confirm", "payload": payload, "same-2": "new"})
    assert response.status_code == 302
    meier = Player.objects.get(last_name="Meier")
    assert (meier.town, event.entries.filter(player=meier).exists()) == ("Schonach", True)
    assert not event.entries.filter(player=known).exists()
    register = director.get(reverse("register")).content.decode()
    assert "possible duplicate" not in register
    assert "probably registered twice" not in register
    page = director.get(reverse("register_player", args=[known.uid])).content.decode()
    assert "Probably the same person" not in page


def test_a_likely_duplicate_left_unanswered_saves_nothing_and_says_what_to_choose(
    director: Client,
):
    _event, _known, url, response = uwe_meier_previewed(director)
    payload = response.context["payload"]
    response = director.post(url, {"action": "confirm", "payload": payload})
    assert counts() == (1, 0)
    assert messages_of(response) == [
        "Nothing was saved: line 2 (Uwe Meier) is probably a known player. Choose “same person” "
        "or “another person” for it."
    ]
