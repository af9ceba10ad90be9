"""Entry fees: categories per event, the default fee by player category, one tap per status at
the desk, the list of who has not paid, and the history of every change."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import make_entries, make_event, make_player, make_round, make_user
from tests.helpers.db import run_in_threads
from tournament.core import errors
from tournament.core.formatting import euros
from tournament.models import EntryFee, FeeCategory, Player
from tournament.money import cashbook
from tournament.money import fees as money_fees
from tournament.play import hands, rounds
from tournament.register import services

pytestmark = pytest.mark.django_db


def fees(event) -> tuple[FeeCategory, FeeCategory, FeeCategory]:
    full = FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500, position=0)
    members = FeeCategory.objects.create(
        event=event, name="Mitglied", amount_cents=1000, position=1
    )
    juniors = FeeCategory.objects.create(
        event=event, name="Jugend", amount_cents=0, player_category="jugend", position=2
    )
    return full, members, juniors


@pytest.fixture
def organiser(client):
    client.force_login(make_user())
    return client


def marked_unpaid(page: str) -> set[int]:
    """The entries the fee list marks as owing: the coloured bar of the row (``fee-open``) and
    the pressed "not paid" button, which must go together."""
    marked = set()
    for row in page.split('<tr id="entry-')[1:]:
        pk, rest = row.split('"', 1)
        bar = re.match(r' class="[^"]*\bfee-open\b', rest) is not None
        pressed = 'value="open" aria-pressed="true"' in row.split("</tr>")[0]
        assert bar == pressed, f"entry {pk}: bar {bar}, pressed {pressed}"
        if bar:
            marked.add(int(pk))
    return marked


def summary_unpaid(page: str) -> tuple[int, str]:
    """The count and sum the fee list's summary gives as not paid."""
    found = re.search(r"<strong>\s*(\d+) not paid \(([^)]*)\)", page)
    assert found, "no summary of who has not paid"
    return int(found[1]), found[2]


def fee_page(client, event, query: str = "") -> str:
    return client.get(reverse("fee_list", args=[event.slug]) + query).content.decode()


def test_a_junior_starts_on_the_free_fee_and_everyone_else_on_the_first():
    event = make_event()
    full, _members, juniors = fees(event)
    adult = make_entries(event, 1)[0]
    junior = services.register_player(
        event=event, player=make_player(category=Player.Category.JUNIORS)
    )
    rows = {r.entry.pk: r for r in money_fees.fee_rows(event)}
    assert rows[adult.pk].category == full
    assert rows[adult.pk].due_cents == 1500
    assert rows[junior.pk].category == juniors
    assert not rows[junior.pk].unpaid


def test_one_tap_marks_a_fee_paid_in_cash_at_the_amount_of_its_fee(organiser):
    event = make_event()
    fees(event)
    entry = make_entries(event, 1)[0]
    response = organiser.post(reverse("fee_set", args=[event.slug, entry.pk]), {"status": "cash"})
    assert response.status_code == 302
    fee = EntryFee.objects.get(entry=entry)
    assert (fee.status, fee.paid_cents) == ("cash", 1500)
    page = organiser.get(reverse("fee_list", args=[event.slug])).content.decode()
    assert "1 paid cash (15.00\u00a0€)" in page or "1 paid cash (€15.00)" in page.replace(
        "\u00a0", " "
    )


def test_the_unpaid_list_shows_only_who_still_owes(organiser):
    event = make_event()
    _full, members, _juniors = fees(event)
    paid, waived, reduced, owing = make_entries(event, 4)
    money_fees.set_entry_fee(entry=paid, status="ahead")
    money_fees.set_entry_fee(entry=waived, status="waived")
    money_fees.set_entry_fee(entry=reduced, category=members)
    page = organiser.get(reverse("fee_list", args=[event.slug]) + "?offen=1").content.decode()
    assert str(owing.player.sort_name) in page
    assert str(reduced.player.sort_name) in page
    assert str(paid.player.sort_name) not in page
    assert str(waived.player.sort_name) not in page
    totals = money_fees.fee_totals(money_fees.fee_rows(event))
    assert (totals["open_count"], totals["open"]) == (2, 2500)


def test_a_paid_fee_keeps_its_amount_when_the_fee_changes_later():
    event = make_event()
    full, _m, _j = fees(event)
    entry = make_entries(event, 1)[0]
    money_fees.set_entry_fee(entry=entry, status="cash")
    money_fees.save_fee_categories(
        event=event,
        categories=[{"pk": full.pk, "name": "Voll", "amount_cents": 2000, "player_category": ""}]
        + [
            {"pk": c.pk, "name": c.name, "amount_cents": c.amount_cents, "player_category": ""}
            for c in FeeCategory.objects.filter(event=event).exclude(pk=full.pk)
        ],
    )
    assert EntryFee.objects.get(entry=entry).paid_cents == 1500


def test_the_fee_of_a_player_who_has_paid_is_not_changed_silently():
    event = make_event()
    _full, members, _j = fees(event)
    entry = make_entries(event, 1)[0]
    money_fees.set_entry_fee(entry=entry, status="cash")
    with pytest.raises(errors.Refused, match="has paid already"):
        money_fees.set_entry_fee(entry=entry, category=members)


def test_every_change_of_a_fee_is_kept_in_its_history():
    event = make_event()
    fees(event)
    entry = make_entries(event, 1)[0]
    user = make_user()
    money_fees.set_entry_fee(entry=entry, status="cash", user=user)
    money_fees.set_entry_fee(entry=entry, status="open", user=user)
    history = EntryFee.objects.get(entry=entry).history.order_by("history_date")
    assert [(h.status, h.paid_cents, h.history_user_id) for h in history] == [
        ("cash", 1500, user.pk),
        ("open", 0, user.pk),
    ]


def test_a_fee_used_by_players_cannot_be_removed():
    event = make_event()
    fees(event)
    entry = make_entries(event, 1)[0]
    money_fees.set_entry_fee(entry=entry, status="cash")
    with pytest.raises(errors.Refused, match="change their fee first"):
        money_fees.save_fee_categories(event=event, categories=[])
    assert FeeCategory.objects.filter(event=event).count() == 3


def fees_form(*rows: tuple[str, ...]) -> dict[str, str]:
    """The fees page's form as sent: a row per fee (name, amount as typed, default category)."""
    data = {"fee-TOTAL_FORMS": str(len(rows)), "fee-INITIAL_FORMS": "0"}
    for i, (name, amount, *category) in enumerate(rows):
        data |= {f"fee-{i}-name": name, f"fee-{i}-amount": amount}
        if category:
            data[f"fee-{i}-player_category"] = category[0]
    return data


def test_the_fees_page_saves_amounts_typed_in_euros(organiser):
    event = make_event()
    url = reverse("fee_categories", args=[event.slug])
    form = organiser.get(url)
    assert b"Juniors (free)" in form.content
    data = fees_form(("Voll", "15"), ("Mitglied", "12,50"), ("Jugend", "0", "jugend"))
    assert organiser.post(url, data).status_code == 302
    assert list(FeeCategory.objects.filter(event=event).values_list("name", "amount_cents")) == [
        ("Voll", 1500),
        ("Mitglied", 1250),
        ("Jugend", 0),
    ]


def test_an_amount_with_a_thousands_mark_is_refused_with_a_message(organiser):
    event = make_event()
    data = fees_form(("Voll", "1.500"))
    response = organiser.post(reverse("fee_categories", args=[event.slug]), data)
    assert response.status_code == 200
    assert b"no thousands separator" in response.content
    assert not FeeCategory.objects.filter(event=event).exists()


def test_a_suggested_fee_left_without_an_amount_is_not_saved_as_free(organiser):
    """The page suggests "Members (reduced)" without an amount: saved as it is, it would be a
    free fee that nobody chose."""
    event = make_event()
    data = fees_form(
        ("Full fee", "15"), ("Members (reduced)", ""), ("Juniors (free)", "0", "jugend")
    )
    url = reverse("fee_categories", args=[event.slug])
    response = organiser.post(url, data)
    assert response.status_code == 200
    assert (
        "Give the amount of “Members (reduced)” (0 for a free fee), or clear its name to leave "
        "it out." in response.content.decode()
    )
    assert not FeeCategory.objects.filter(event=event).exists()
    # cleared: the event does not charge it
    assert organiser.post(url, {**data, "fee-1-name": ""}).status_code == 302
    assert list(FeeCategory.objects.filter(event=event).values_list("name", "amount_cents")) == [
        ("Full fee", 1500),
        ("Juniors (free)", 0),
    ]


def test_an_unknown_fee_status_is_refused_without_a_change(organiser):
    event = make_event()
    fees(event)
    entry = make_entries(event, 1)[0]
    response = organiser.post(
        reverse("fee_set", args=[event.slug, entry.pk]), {"status": "stolen"}, follow=True
    )
    assert b"Unknown fee status" in response.content
    assert not EntryFee.objects.filter(entry=entry).exists()


def test_a_scorer_cannot_see_or_set_fees(client):
    from tests.factories import make_role

    event = make_event()
    entry = make_entries(event, 1)[0]
    client.force_login(make_role(event, "scorer"))
    assert client.get(reverse("fee_list", args=[event.slug])).status_code == 403
    assert (
        client.post(reverse("fee_set", args=[event.slug, entry.pk]), {"status": "cash"}).status_code
        == 403
    )


def test_the_fee_is_taken_with_the_registration(organiser):
    event = make_event()
    fees(event)
    url = reverse("event_players", args=[event.slug])
    assert b'name="fee"' in organiser.get(url).content
    organiser.post(url, {"first_name": "Anna", "last_name": "Furtwängler", "fee": "cash"})
    fee = EntryFee.objects.get(entry__player__last_name="Furtwängler")
    assert (fee.status, fee.paid_cents) == ("cash", 1500)


def test_a_fee_paid_at_registration_before_the_fees_are_set_registers_nobody(organiser):
    event = make_event()
    url = reverse("event_players", args=[event.slug])
    response = organiser.post(
        url, {"first_name": "Anna", "last_name": "Furtwängler", "fee": "cash"}, follow=True
    )
    assert b"Set up the event&#x27;s fees first." in response.content
    assert not event.entries.exists()


def test_two_fees_can_swap_their_names():
    event = make_event()
    full, members, _juniors = fees(event)
    rows = [
        {"pk": full.pk, "name": "Mitglied", "amount_cents": 1500},
        {"pk": members.pk, "name": "Voll", "amount_cents": 1000},
    ]
    money_fees.save_fee_categories(event=event, categories=rows)
    assert dict(FeeCategory.objects.filter(event=event).values_list("pk", "name")) == {
        full.pk: "Mitglied",
        members.pk: "Voll",
    }


@pytest.mark.django_db(transaction=True)
def test_taps_on_the_same_row_at_once_make_one_fee_with_its_history():
    event = make_event()
    fees(event)
    entry = make_entries(event, 1)[0]
    # four different statuses: each tap is a change (the same status again writes nothing)
    statuses = ["cash", "ahead", "waived", "open"]

    def tap(i: int) -> None:
        money_fees.set_entry_fee(entry=entry, status=statuses[i])

    assert run_in_threads(tap, count=len(statuses)) == []
    fee = EntryFee.objects.get(entry=entry)
    last = fee.history.order_by("-history_date", "-history_id").first()
    assert fee.history.count() == len(statuses)
    assert (last.status, last.paid_cents) == (fee.status, fee.paid_cents)


def test_before_any_fee_is_set_nobody_is_marked_or_counted_as_not_paid(organiser):
    event = make_event()
    make_entries(event, 3)
    page = fee_page(organiser, event)
    assert marked_unpaid(page) == set()
    assert summary_unpaid(page) == (0, euros(0))
    assert page.count("nothing to pay") == 3


def test_a_junior_on_a_free_fee_is_neither_marked_nor_counted_as_not_paid(organiser):
    event = make_event()
    fees(event)
    adults = make_entries(event, 2)
    juniors = make_entries(event, 2, category=Player.Category.JUNIORS)
    page = fee_page(organiser, event)
    assert marked_unpaid(page) == {e.pk for e in adults}
    assert summary_unpaid(page) == (2, euros(3000))
    assert page.count("nothing to pay") == len(juniors)
    # the list of who has not paid yet leaves them out as well
    assert marked_unpaid(fee_page(organiser, event, "?offen=1")) == {e.pk for e in adults}


def test_the_rows_marked_not_paid_are_the_ones_the_summary_and_the_cash_book_count(organiser):
    event = make_event()
    _full, members, _juniors = fees(event)
    cash, ahead, waived, reduced, owing = make_entries(event, 5)
    free, free_paid = make_entries(event, 2, category=Player.Category.JUNIORS)
    money_fees.set_entry_fee(entry=cash, status="cash")
    money_fees.set_entry_fee(entry=ahead, status="ahead")
    money_fees.set_entry_fee(entry=waived, status="waived")
    money_fees.set_entry_fee(entry=reduced, category=members)
    money_fees.set_entry_fee(entry=free_paid, status="cash")
    page = fee_page(organiser, event)
    assert marked_unpaid(page) == {reduced.pk, owing.pk}
    assert summary_unpaid(page) == (2, euros(1000 + 1500))
    assert page.count("nothing to pay") == 1
    # the junior marked paid at 0 € handed over no money: free, not a payment in cash
    assert "1 paid cash (" + euros(1500) + ")" in page
    assert "2 free" in page
    book = cashbook.cash_book(event)
    assert (book.open_fees, book.open_cents) == (2, 2500)
    unpaid_list = fee_page(organiser, event, "?offen=1")
    assert marked_unpaid(unpaid_list) == {reduced.pk, owing.pk}
    assert str(free.player.sort_name) not in unpaid_list


def fee_form_as_shown(page: str) -> dict[str, str]:
    """The fees-and-amounts form as the browser sends it unchanged: every input with its value,
    every select with its chosen option."""
    form = page.split('<form method="post" class="card form">', 1)[1].split("</form>", 1)[0]
    data = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form))
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options)
        data[name] = chosen[1] if chosen else ""
    return data


def test_pressing_paid_again_after_the_fee_went_up_keeps_the_amount_paid(organiser):
    event = make_event()
    fees(event)
    entry = make_entries(event, 1)[0]
    paid = reverse("fee_set", args=[event.slug, entry.pk])
    organiser.post(paid, {"status": "cash"})
    # the organiser raises the full fee from 15 to 20 euros on the fees page
    url = reverse("fee_categories", args=[event.slug])
    data = fee_form_as_shown(organiser.get(url).content.decode())
    assert data["fee-0-name"] == "Voll"
    data["fee-0-amount"] = "20,00"
    assert organiser.post(url, data).status_code == 302
    assert FeeCategory.objects.get(event=event, name="Voll").amount_cents == 2000
    # and at the desk "paid cash" is pressed again on the player who paid 15 euros
    assert organiser.post(paid, {"status": "cash"}).status_code == 302
    assert organiser.post(paid, {"status": "ahead"}).status_code == 302  # paid, by bank
    assert organiser.post(paid, {"status": "cash"}).status_code == 302
    page = fee_page(organiser, event)
    assert "1 paid cash (" + euros(1500) + ")" in page
    row = page.split(f'<tr id="entry-{entry.pk}"')[1].split("</tr>")[0]
    assert euros(1500) in row and euros(2000) not in row
    report = organiser.get(reverse("print_cash_report", args=[event.slug])).content.decode()
    assert "Entry fees paid in cash <small>(1 player)</small>" in report
    assert euros(2000) not in report
    # one payment in the history; the second "cash" tap wrote nothing, the corrections
    # (ahead, back to cash) kept the 15 euros
    history = EntryFee.objects.get(entry=entry).history.order_by("history_date")
    assert [(h.status, h.paid_cents) for h in history] == [
        ("cash", 1500),
        ("ahead", 1500),
        ("cash", 1500),
    ]


def test_a_fee_that_becomes_paid_again_after_not_paid_takes_the_amount_of_now(organiser):
    event = make_event()
    full, _members, _juniors = fees(event)
    entry = make_entries(event, 1)[0]
    url = reverse("fee_set", args=[event.slug, entry.pk])
    organiser.post(url, {"status": "cash"})
    organiser.post(url, {"status": "open"})  # a mistake: the money is handed back
    FeeCategory.objects.filter(pk=full.pk).update(amount_cents=2000)
    organiser.post(url, {"status": "cash"})
    assert EntryFee.objects.get(entry=entry).paid_cents == 2000


# --- who takes no part owes nothing (issue 43.9) -----------------------------------------------


def test_a_cancelled_player_and_the_no_shows_removed_before_the_draw_owe_no_fee(organiser):
    event = make_event()
    fees(event)
    cancelled, *present, late, absent = make_entries(event, 8)
    # a player cancels on the personal link; the desk checks five in; the director adds round 1
    # and removes the two who did not come, as the draw page offers
    response = organiser.post(reverse("personal_cancel", args=[cancelled.token]), {"sure": "1"})
    assert response.status_code == 302
    for entry in present:
        organiser.post(
            reverse("checkin", args=[event.slug]), {"action": "check_in", "entry": entry.pk}
        )
    organiser.post(reverse("round_add", args=[event.slug]))
    organiser.post(reverse("remove_missing", args=[event.slug]), {"round": "1"})
    gone = {cancelled.pk, late.pk, absent.pk}
    assert set(event.entries.filter(status="withdrawn").values_list("pk", flat=True)) == gone

    page = fee_page(organiser, event)
    assert marked_unpaid(page) == {e.pk for e in present}
    assert summary_unpaid(page) == (5, euros(7500))
    assert "3 cancelled, not come or waiting: nothing to pay" in page
    unpaid_only = fee_page(organiser, event, "?offen=1")
    assert all(e.player.sort_name not in unpaid_only for e in (cancelled, late, absent))
    assert all(e.player.sort_name in unpaid_only for e in present)
    book = organiser.get(reverse("cash_book", args=[event.slug])).content.decode()
    assert f"5 players have not paid yet ({euros(7500)})" in book


def test_a_player_withdrawn_after_playing_a_round_still_owes_the_fee():
    event = make_event(hands_per_round={"*": 1})
    fees(event)
    entries = make_entries(event, 4)
    rnd = make_round(event)
    table = rnd.tables.get()
    hands.record_totals(table=table, totals=[30, 10, -10, -30])
    rounds.close_round(round=rnd)
    services.withdraw_entry(entry=entries[0])
    rows = {r.entry.pk: r for r in money_fees.fee_rows(event)}
    assert rows[entries[0].pk].unpaid and rows[entries[0].pk].due_cents == 1500
