"""The table page as a scorer meets it: entering a hand, corrections that need a reason, the card
counter and the paper fallback of totals for the round.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.factories import (
    cego,
    make_event,
    make_table,
    make_user,
)
from tests.helpers.db import no_writes
from tests.helpers.forms import HALBE_LOST, HALBE_LOST_RESULTS, HUGE, cego_post, form_as_shown
from tests.helpers.pages import MINUS, field_error, messages_of
from tests.helpers.play import results, totals_by_seat
from tournament.models import Entry, Hand, Result, Table
from tournament.play import confirmations, hands
from tournament.views.common import table_players

pytestmark = pytest.mark.django_db


# --- entering a hand on the table page ------------------------------------------------------------


def test_a_valid_cego_hand_is_saved_and_shown_on_the_sheet(scorer: Client) -> None:
    table = make_table()
    url = reverse("table", args=[table.pk])
    response = scorer.post(url, cego_post(), follow=True)
    assert response.redirect_chain == [(url, 302)]
    hand = table.hands.get()
    assert hand.data == cego()
    assert hand.entered_by == make_user()
    assert results(hand) == HALBE_LOST_RESULTS
    sheet = response.content.decode().split('<table class="sheet">', 1)[1].split("</table>", 1)[0]
    assert f"{MINUS}60" in sheet
    assert sheet.count("+20") >= 3


def test_preview_shows_the_result_and_saves_nothing(scorer: Client) -> None:
    table = make_table()
    with no_writes():
        response = scorer.post(reverse("table", args=[table.pk]), cego_post(action="preview"))
        assert response.status_code == 200
        assert response.context["preview"] == HALBE_LOST_RESULTS
        preview = response.content.decode().split('id="preview"', 1)[1].split("</div>", 1)[0]
        assert f"{MINUS}60" in preview
        assert preview.count("+20") == 3


def test_it_rejects_declarer_points_above_79_next_to_the_field(scorer: Client) -> None:
    table = make_table()
    with no_writes():
        response = scorer.post(reverse("table", args=[table.pk]), cego_post(declarer_points="80"))
        assert response.status_code == 200
        assert "79" in " ".join(response.context["form"].errors["declarer_points"])
        assert "79" in field_error(response.content.decode(), "declarer_points")


def test_a_raeuber_hand_takes_each_seats_card_points(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "raeuber", "action": "save"}
    data |= {f"points_{i}": str(p) for i, p in enumerate([10, 20, 30, 19])}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data == {"contract": "raeuber", "points": [10, 20, 30, 19], "announcer": None}
    # seat 2 took the most card points: it pays the Räuber value to each of the others
    assert results(hand) == [40, 40, -120, 40]


def test_a_raeuber_hand_without_every_seats_points_is_refused(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "raeuber", "points_0": "40", "points_1": "39", "action": "save"}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 200
    # said at the first empty field (the third player's)
    assert response.context["form"].errors["points_2"] == ["enter every player's card points"]
    assert not table.hands.exists()


def test_a_raeuber_hand_whose_points_do_not_add_up_is_said_of_all_of_them(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "raeuber", "action": "save"}
    data.update({f"points_{i}": p for i, p in enumerate(("40", "20", "20", "5"))})
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.non_field_errors() == ["Räuber card points: must add up to 79 card points, got 85"]
    assert not any(name.startswith("points_") for name in form.errors)
    assert not table.hands.exists()


def test_a_ziege_deal_is_saved(scorer: Client) -> None:
    table = make_table("ziege", 4)
    response = scorer.post(
        reverse("table", args=[table.pk]), {"team_a_points": "80", "action": "save"}
    )
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data == {"team_a_points": 80}
    # team B (seats 1 and 3) made 40 card points and is charged defeat points
    assert results(hand) == [0, 2, 0, 2]


def test_a_crazy_solo_deal_is_saved_at_a_table_of_seven(scorer: Client) -> None:
    table = make_table("crazy_solo", 7)
    assert table.size == 7
    data = {
        "contract": "solo",
        "bidder": "0",
        "partner": "1",
        "soloist_points": "80",
        "trump": "kreuz",
        "action": "save",
    }
    response = scorer.post(reverse("table", args=[table.pk]), data, follow=True)
    hand = table.hands.get()
    assert hand.data == {
        "contract": "solo",
        "bidder": 0,
        "partner": 1,
        "soloist_points": 80,
        "trump": "kreuz",
    }
    assert results(hand) == [120, 80, -40, -40, -40, -40, -40]
    # the balance row: the start balance of 150 chips plus the bidder's 120
    assert '<th class="num">270</th>' in response.content.decode()


def test_a_crazy_solo_deal_needs_no_trumps_and_a_herz_solo_keeps_none(scorer: Client) -> None:
    """Issue 43: the trumps change no payout (RULES.md 4: ``trump`` is optional); requiring them
    refused a Solo or an Alleingang the engine scores, and hid the deal's real mistakes."""
    table = make_table("crazy_solo", 4)
    url = reverse("table", args=[table.pk])
    solo = {"contract": "solo", "bidder": "0", "partner": "1", "soloist_points": "70"}
    # a real mistake is said at once, not after the trumps
    response = scorer.post(url, {**solo, "partner": "0", "trump": "", "action": "save"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "trump" not in errors
    assert "must be another seat than the bidder" in " ".join(errors["partner"])
    for contract, partner in (("solo", "1"), ("alleingang", "")):
        deal = {**solo, "contract": contract, "partner": partner, "trump": "", "action": "save"}
        assert scorer.post(url, deal).status_code == 302
    hands = list(table.hands.order_by("number"))
    assert [h.data.get("trump") for h in hands] == [None, None]
    assert results(hands[0]) == [20, 20, -20, -20]
    # the trumps named are kept for the sheet
    assert scorer.post(url, {**solo, "trump": "pik", "action": "save"}).status_code == 302
    assert table.hands.get(number=3).data["trump"] == "pik"
    # a Herz-Solo's trumps are hearts: a trump chosen before the contract changed is not kept
    herz = {**solo, "contract": "herz_solo", "trump": "pik", "action": "save"}
    assert scorer.post(url, herz).status_code == 302
    assert "trump" not in table.hands.get(number=4).data


def test_a_hennes_sibbe_challenge_with_the_tables_verdict_is_saved(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    data = {
        "claimant": "0",
        "challenger": "1",
        "claim_count": "5",
        "claim_colour": "rot",
        "claim_correct": "yes",
        "action": "save",
    }
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data == {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 5, "colour": "rot"},
        "claim_correct": True,
    }
    # the claim was right: the challenger who called "Lüge!" takes the penalty card
    assert results(hand) == [0, 1, 0, 0]


def test_hand_preview_returns_the_results_as_json(scorer: Client) -> None:
    table = make_table()
    response = scorer.post(reverse("hand_preview", args=[table.pk]), HALBE_LOST)
    assert response.status_code == 200
    assert response.json() == {"ok": True, "results": HALBE_LOST_RESULTS}


def test_hand_preview_returns_the_engines_reason_as_json(scorer: Client) -> None:
    table = make_table()
    url = reverse("hand_preview", args=[table.pk])
    response = scorer.post(url, {**HALBE_LOST, "declarer_points": "80"})
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False
    assert list(body["errors"]) == ["declarer_points"]
    assert "79" in body["errors"]["declarer_points"][0]
    assert not table.hands.exists()


def test_a_hand_on_a_voided_table_is_refused_with_a_message(scorer: Client) -> None:
    table = make_table()
    hands.void_table(table=table, reason="Tisch aufgelöst")
    with no_writes():
        response = scorer.post(reverse("table", args=[table.pk]), cego_post())
        assert response.status_code == 200
        assert messages_of(response)


# --- Hennes Sibbe: whoever takes the penalty card deals next -----------------------------------


def test_the_hennes_sibbe_dealer_is_who_took_the_penalty_card_before(scorer: Client) -> None:
    """Issue 43, RULES.md 5.1 ("Spieler D bekommt eine Strafkarte, ... mischt, verteilt und
    beginnt die neue Ansage"): the sheet's dealer column rotated by seat."""
    table = make_table("hennes_sibbe", 4)
    url = reverse("table", args=[table.pk])
    players = [escape(name) for name in table_players(table)]

    def challenge(claimant: int, challenger: int, right: str) -> dict[str, str]:
        return {
            "claimant": str(claimant),
            "challenger": str(challenger),
            "claim_count": "5",
            "claim_colour": "rot",
            "claim_correct": right,
            "action": "save",
        }

    def shown() -> tuple[list[str], str]:
        page = scorer.get(url).content.decode()
        rows = re.findall(r'<small class="dealer"[^>]*>dealer: ([^<]*)</small>', page)
        upcoming = re.search(r"<h2>Challenge \d+ <small>dealer: ([^<]*)</small>", page).group(1)
        return rows, upcoming

    # the first challenge is dealt by the first player, as in every game
    assert shown() == ([], players[0])
    # the claim was wrong: the claimant (first player) takes the card and deals again
    assert scorer.post(url, challenge(0, 1, "no")).status_code == 302
    assert shown() == ([players[0]], players[0])
    # the claim was right: the challenger (fourth player) takes the card and deals next
    assert scorer.post(url, challenge(2, 3, "yes")).status_code == 302
    assert shown() == ([players[0], players[0]], players[3])
    assert [h.dealer for h in table.hands.order_by("number")] == [0, 0]
    # the first challenge corrected: the second player took that card, so dealt the second
    first = table.hands.get(number=1)
    response = scorer.post(
        reverse("hand_edit", args=[table.pk, 1]),
        {**challenge(0, 1, "yes"), "version": first.version, "reason": "verzählt"},
    )
    assert response.status_code == 302
    assert shown() == ([players[0], players[1]], players[3])
    assert [h.dealer for h in table.hands.order_by("number")] == [0, 1]


# --- corrections need a reason --------------------------------------------------------------------


@pytest.fixture
def played() -> tuple[Table, Hand]:
    table = make_table()
    return table, hands.record_hand(table=table, data=cego())


def test_a_correction_without_a_reason_changes_nothing(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    with no_writes():
        response = scorer.post(hand.get_absolute_url(), cego_post(declarer_points="50", reason=""))
        assert response.status_code == 200
        assert response.context["reason_form"].errors["reason"]
    assert totals_by_seat(table) == HALBE_LOST_RESULTS


def test_a_correction_with_a_reason_changes_the_hand_and_the_standings(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    data = cego_post(declarer_points="50", reason="Stiche falsch gezählt", version=hand.version)
    response = scorer.post(hand.get_absolute_url(), data)
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.data == cego(points=50)
    # Halbe with 50 card points is won: +90 for the declarer, −30 for each opponent
    assert totals_by_seat(table) == [90, -30, -30, -30]
    standings = scorer.get(reverse("event_standings", args=[table.round.event.slug]))
    assert "+90" in standings.content.decode()
    latest = hand.history.first()
    assert latest.history_change_reason == "Stiche falsch gezählt"
    assert latest.history_user == make_user()


def test_a_correction_of_an_outdated_version_is_refused(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    _table, hand = played
    hands.edit_hand(hand=hand, data=cego(points=20), reason="erste Korrektur")
    with no_writes():
        data = cego_post(declarer_points="50", reason="zweite Korrektur", version="1")
        response = scorer.post(hand.get_absolute_url(), data)
        assert response.status_code == 200
        assert any(m.level_tag == "error" for m in get_messages(response.wsgi_request))


def test_a_deletion_without_a_reason_keeps_the_hand(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    with no_writes():
        response = scorer.post(hand.get_absolute_url(), {"action": "delete"})
        assert response.status_code == 200
        assert response.context["reason_form"].errors["reason"]
    assert totals_by_seat(table) == HALBE_LOST_RESULTS


def test_a_deletion_with_a_reason_removes_the_hand_and_its_points(
    scorer: Client, played: tuple[Table, Hand]
) -> None:
    table, hand = played
    url = hand.get_absolute_url()
    response = scorer.post(url, {"action": "delete", "reason": "doppelt eingetragen"})
    assert response.status_code == 302
    assert not Hand.objects.filter(pk=hand.pk).exists()
    assert not Result.objects.filter(table=table).exists()
    assert totals_by_seat(table) == [0, 0, 0, 0]
    deleted = Hand.history.get(id=hand.pk, history_type="-")
    assert deleted.history_change_reason == "doppelt eingetragen"


# --- the card counter -----------------------------------------------------------------------------


@pytest.fixture
def counter_url() -> str:
    """The card counter of a Cego event (the game that has one)."""
    return reverse("card_points", args=[make_event("cego").slug])


def test_the_card_counter_adds_a_king_and_another_card(counter_url: str) -> None:
    response = Client().get(counter_url, {"cc-king": "1", "cc-other": "1"})
    assert response.json() == {"ok": True, "points": "5", "value": 5.0, "carry_refused": ""}


def test_the_card_counter_shows_a_half_point(counter_url: str) -> None:
    body = Client().get(counter_url, {"cc-other": "1"}).json()
    assert body["ok"] is True
    assert body["value"] == 0.5
    assert body["points"] in ("0½", "½")
    # the form takes whole card points only: the counter says why it does not carry the half
    # (in German, the language of a page asked without a choice)
    assert body["carry_refused"].startswith("0½ kann nicht ins Formular übernommen werden")


@pytest.mark.parametrize(
    "query",
    [{"cc-king": "9"}, {"cc-king": "-1"}, {"cc-queen": "abc"}, {"cc-other": HUGE}],
    ids=["more-kings-than-the-deck", "negative", "text", "huge"],
)
def test_the_card_counter_refuses_impossible_counts_with_a_message(
    query: dict[str, str], counter_url: str
) -> None:
    response = Client().get(counter_url, query)
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False
    assert body["error"]


def test_a_game_without_a_card_counter_has_no_counter_page() -> None:
    response = Client().get(reverse("card_points", args=[make_event("ziege").slug]))
    assert response.status_code == 404


# --- the paper fallback: totals for the round -----------------------------------------------------


def test_totals_adding_up_to_zero_are_saved_and_ranked(scorer: Client) -> None:
    table = make_table()
    data = {"total_0": "30", "total_1": "-10", "total_2": "-20", "total_3": "0"}
    response = scorer.post(reverse("table_totals", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert (hand.kind, hand.data) == (Hand.Kind.TOTALS, {"totals": [30, -10, -20, 0]})
    assert totals_by_seat(table) == [30, -10, -20, 0]
    content = scorer.get(reverse("event_standings", args=[table.round.event.slug])).content
    text = content.decode()
    for total in ("+30", f"{MINUS}10", f"{MINUS}20"):
        assert total in text
    ranked = [e.total for e in Entry.objects.standings(table.round.event)]
    assert ranked == [30, 0, -10, -20]


def test_cego_totals_not_adding_up_to_zero_are_refused(scorer: Client) -> None:
    table = make_table()
    with no_writes():
        data = {"total_0": "30", "total_1": "-10", "total_2": "-10", "total_3": "0"}
        response = scorer.post(reverse("table_totals", args=[table.pk]), data, follow=True)
        assert response.redirect_chain[0][1] == 302
        errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
        assert len(errors) == 1
        assert "10" in errors[0]  # the sum the totals actually add up to
        assert escape(errors[0]) in response.content.decode()


def test_a_stale_correction_is_refused_and_shows_the_game_as_it_is_now(client):
    table = make_table()
    hand = hands.record_hand(table=table, data=cego("halbe", 0, 34))
    hands.edit_hand(hand=hand, data=cego("halbe", 0, 47), reason="first scorer", version=1)
    client.force_login(make_user())
    response = client.post(
        hand.get_absolute_url(),
        {
            "contract": "halbe",
            "declarer": "0",
            "declarer_points": "20",
            "reason": "second scorer, on the old version",
            "version": "1",
            "action": "save",
        },
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "changed by someone else" in text
    assert "47 points" in text  # the game as it is now
    assert 'value="47"' in text  # and the form set to it
    assert Hand.objects.get(pk=hand.pk).data["declarer_points"] == 47


def test_totals_entered_for_the_round_are_corrected_on_the_sheet_with_a_reason(scorer: Client):
    """Issue 43.9: totals entered as the paper fallback could not be corrected (no link on the
    sheet, the game's page not found). They are corrected where they were entered, with a
    reason, and the history keeps the change like a corrected game's."""
    table = make_table()
    sheet = reverse("table", args=[table.pk])
    entering = form_as_shown(scorer.get(sheet), "totals-form")
    entering.update({"total_0": "30", "total_1": "-10", "total_2": "-20", "total_3": "0"})
    scorer.post(reverse("table_totals", args=[table.pk]), entering)
    hand = table.hands.get()
    confirmations.confirm_table(table=table)  # the players signed the paper sheet

    page = scorer.get(sheet).content.decode()
    assert '<a href="#totals">correct</a>' in page
    assert "Correct the totals for the round" in page
    # the game's own address leads to the same form
    assert scorer.get(hand.get_absolute_url()).url == f"{sheet}#totals"
    shown = form_as_shown(page, "totals-form")
    assert [shown[f"total_{i}"] for i in range(4)] == ["30", "-10", "-20", "0"]

    # without a reason nothing changes
    typo = {**shown, "total_1": "-20", "total_2": "-10"}
    refused = scorer.post(reverse("table_totals", args=[table.pk]), typo, follow=True)
    assert "Give a reason for the change; the totals were not changed." in messages_of(refused)
    assert totals_by_seat(table) == [30, -10, -20, 0]

    done = scorer.post(
        reverse("table_totals", args=[table.pk]),
        {**typo, "reason": "Zahlendreher auf der Papierliste"},
        follow=True,
    )
    assert "Totals changed." in messages_of(done)
    assert totals_by_seat(table) == [30, -20, -10, 0]
    assert table.hands.get().data == {"totals": [30, -20, -10, 0]}
    # the players agreed to other totals: they confirm again
    assert "Changed after confirmation: confirm again." in done.content.decode()
    history = scorer.get(reverse("table_history", args=[table.pk])).content.decode()
    assert "Zahlendreher auf der Papierliste" in history
    standings = scorer.get(reverse("event_standings", args=[table.round.event.slug]))
    assert f"{MINUS}20" in standings.content.decode()


def test_a_game_of_a_finished_event_is_corrected_only_after_reopening_it(scorer: Client) -> None:
    """Issue 43.9: a correction after finishing made the sheet's confirmations lapse and marked
    the finished event provisional again. As the handbook says, the event is reopened first."""
    table = make_table(hands_per_round={"*": 1}, rounds_planned=1)
    event = table.round.event
    sheet = reverse("table", args=[table.pk])
    scorer.post(sheet, cego_post())
    scorer.post(reverse("table_confirm", args=[table.pk]), {"action": "confirm"})
    scorer.post(reverse("round_close", args=[event.slug, 1]))
    finished = scorer.post(
        reverse("event_finish", args=[event.slug]), {"action": "finish"}, follow=True
    )
    assert "The event is finished" in " ".join(messages_of(finished))
    edit = reverse("hand_edit", args=[table.pk, 1])
    data = {**form_as_shown(scorer.get(edit), "hand-form"), "declarer_points": "70"}
    data.update({"reason": "Nachgezählt", "action": "save"})
    with no_writes():
        refused = scorer.post(edit, data, follow=True)

        assert (
            "The event is finished: reopen it with a reason (prize table) to correct a result."
            in (messages_of(refused))
        )
    standings = scorer.get(reverse("event_standings", args=[event.slug])).content.decode()
    assert "Provisional" not in standings and 'class="tag provisional"' not in standings
    scorer.post(
        reverse("event_finish", args=[event.slug]), {"action": "reopen", "reason": "Nachzählung"}
    )
    scorer.post(edit, data)
    assert results(table.hands.get()) == [210, -70, -70, -70]


# --- confirming a seat on the player's word (issue 43) --------------------------------------------


def test_the_scorer_confirms_one_seat_on_the_players_word_and_the_history_names_them(
    scorer: Client,
) -> None:
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
    confirmations.submit_table(table=table)
    names = [str(s.entry.player) for s in table.seats.order_by("position")]
    page = scorer.get(reverse("table", args=[table.pk])).content.decode()
    for name in names:
        assert escape(f"Confirm for {name} on their word") in page
    response = scorer.post(
        reverse("table_confirm", args=[table.pk]), {"action": "seat", "position": "2"}, follow=True
    )
    assert f"{names[2]} confirmed on their word; the history names you." in messages_of(response)
    page = response.content.decode()
    assert escape(f"Confirm for {names[2]} on their word") not in page
    assert escape(f"Confirm for {names[0]} on their word") in page
    history = scorer.get(reverse("table_history", args=[table.pk])).content.decode()
    user = response.wsgi_request.user.get_username()
    row = next(r for r in history.split("<tr") if "on the player&#x27;s word" in r)
    assert user in row and escape(names[2]) in row


@pytest.mark.parametrize("position", ["", "abc", "-1", "4", "99999999999"])
def test_a_seat_confirmation_for_no_seat_is_refused_and_saves_nothing(
    scorer: Client, position: str
) -> None:
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
    confirmations.submit_table(table=table)
    with no_writes():
        response = scorer.post(
            reverse("table_confirm", args=[table.pk]), {"action": "seat", "position": position}
        )
        assert response.status_code == 302
        said = " ".join(messages_of(response))
        assert "Choose the player whose seat you confirm." in said or "no such seat" in said


def test_the_scorer_sees_who_has_confirmed_a_handed_in_sheet_and_who_not(scorer: Client) -> None:
    table = make_table(hands_per_round={"4": 1})
    hands.record_hand(table=table, data=cego())
    confirmations.submit_table(table=table)
    names = [str(s.entry.player) for s in table.seats.order_by("position")]
    confirmations.confirm_as_player(entry=table.seats.get(position=0).entry)
    confirmations.confirm_as_player(entry=table.seats.get(position=2).entry)
    page = " ".join(
        unescape(
            re.sub(r"<[^>]+>", " ", scorer.get(f"/tisch/{table.pk}/").content.decode())
        ).split()
    )
    assert f"Confirmed by: {names[0]}, {names[2]} · Still to confirm: {names[1]}, {names[3]}" in (
        page
    )
    # the reason belongs to reopening, in a form of its own
    assert "Reason for reopening" in page
    confirmations.confirm_table(table=table)
    page = scorer.get(f"/tisch/{table.pk}/").content.decode()
    assert "Still to confirm" not in page
