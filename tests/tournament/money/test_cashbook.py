"""The cash book: fees in (cash in the box, paid ahead in the bank), prize money out of the box,
the organiser's items, the balance to the cent; the signable report and the "Kasse" sheet."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import make_entries, make_event, make_round, make_user
from tests.helpers.money import played, prize
from tournament.core.formatting import euros
from tournament.models import CashItem, Event, FeeCategory, Player, PrizeAssignment
from tournament.money import cashbook, fees
from tournament.paper import exports

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    client.force_login(make_user())
    return client


def day():
    """A finished event of eight: fees 15 € and 12,50 €, three paid cash, two ahead, one waived,
    two open; 150 € and 50 € prize money; hall rent 80 € from the box, 100 € sponsor money into
    the bank."""
    event, entries = played([60, 20, -30, -50], [50, 10, -20, -40])
    full = FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)
    reduced = FeeCategory.objects.create(event=event, name="Mitglied", amount_cents=1250)
    statuses = ["cash", "cash", "ahead", "waived", "cash", "ahead", "open", "open"]
    for entry, status in zip(entries, statuses, strict=True):
        fees.set_entry_fee(entry=entry, category=full)
        fees.set_entry_fee(entry=entry, status=status)
    fees.set_entry_fee(entry=entries[1], status="open")
    fees.set_entry_fee(entry=entries[1], category=reduced)
    fees.set_entry_fee(entry=entries[1], status="cash")
    prize(event, 1, 15000)
    prize(event, 3, 5000)
    prize(event, 2, goods="Präsentkorb")
    cashbook.add_cash_item(
        event=event, description="Hallenmiete", direction="out", via="box", amount_cents=8000
    )
    cashbook.add_cash_item(
        event=event, description="Sponsor Brauerei", direction="in", via="bank", amount_cents=10000
    )
    return event, entries


def test_the_balance_adds_up_to_the_cent():
    event, _entries = day()
    book = cashbook.cash_book(event)
    # box: 15 + 12,50 + 15 fees in cash, 200 prize money and 80 rent out
    assert book.box_cents == 1500 + 1250 + 1500 - 20000 - 8000
    # bank: two fees paid ahead and the sponsor's 100
    assert book.bank_cents == 1500 + 1500 + 10000
    # the sum lines the cash book page, the report and the "Kasse" sheet show
    income, expenses, balance = book.income_total, book.expenses_total, book.balance
    assert income.total_cents == 1500 + 1250 + 1500 + 1500 + 1500 + 10000
    assert expenses.total_cents == -20000 - 8000
    assert balance.total_cents == income.total_cents + expenses.total_cents == -10750
    assert (balance.box_cents, balance.bank_cents) == (book.box_cents, book.bank_cents)
    assert (book.open_fees, book.open_cents) == (2, 3000)
    assert not book.provisional


def test_a_fee_paid_at_nothing_is_no_payment_in_the_box_or_the_bank(organiser):
    event = make_event()
    FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)
    FeeCategory.objects.create(event=event, name="Jugend", amount_cents=0, player_category="jugend")
    adult = make_entries(event, 1)[0]
    juniors = make_entries(event, 2, category=Player.Category.JUNIORS)
    # at the desk every one of them is tapped "paid cash", one junior "paid ahead"
    for entry, status in ((adult, "cash"), (juniors[0], "cash"), (juniors[1], "ahead")):
        url = reverse("fee_set", args=[event.slug, entry.pk])
        assert organiser.post(url, {"status": status}).status_code == 302
    for name in ("cash_book", "print_cash_report"):
        page = organiser.get(reverse(name, args=[event.slug])).content.decode()
        assert "Entry fees paid in cash <small>(1 player)</small>" in page
        assert "Entry fees paid ahead <small>(0 players)</small>" in page
    fees_page = organiser.get(reverse("fee_list", args=[event.slug])).content.decode()
    assert "1 paid cash (" + euros(1500) + ")" in fees_page
    assert "0 paid ahead (" + euros(0) + ")" in fees_page
    assert "2 free" in fees_page
    book = cashbook.cash_book(event)
    assert (book.box_cents, book.bank_cents) == (1500, 0)


def test_prize_money_counts_each_prize_handed_out_once():
    event, _entries = played([60, 20, -40, -40])
    prize(event, 1, 15000)
    prize(event, 9, 1000)  # more prizes than players: not handed out
    prize(event, 1, 500, ranking="last")  # a tie for the last place shares one prize
    book = cashbook.cash_book(event)
    assert book.expenses[0].box_cents == -15500


def test_cash_book_items_are_added_and_removed_with_their_history(organiser):
    event = make_event()
    url = reverse("cash_book", args=[event.slug])
    data = {"description": "Hallenmiete", "direction": "out", "via": "box", "amount": "80,00"}
    assert organiser.post(url, data).status_code == 302
    item = CashItem.objects.get(event=event)
    assert (item.amount_cents, item.direction, item.via) == (8000, "out", "box")
    organiser.post(reverse("cash_item_remove", args=[event.slug, item.pk]))
    assert not CashItem.objects.filter(event=event).exists()
    assert [h.history_type for h in CashItem.history.filter(id=item.pk)] == ["-", "+"]


def test_a_cash_item_without_an_amount_is_refused_with_a_message(organiser):
    event = make_event()
    url = reverse("cash_book", args=[event.slug])
    response = organiser.post(
        url, {"description": "Miete", "direction": "out", "via": "box", "amount": "0"}
    )
    assert response.status_code == 200
    assert b"Give an amount above zero." in response.content
    assert not CashItem.objects.exists()


def test_the_cash_report_prints_the_balance_and_lines_to_sign(organiser):
    event, _entries = day()
    page = organiser.get(reverse("print_cash_report", args=[event.slug])).content.decode()
    assert "−107.50\u00a0€" in page or "−€107.50" in page
    # the income and expense totals the balance is the sum of
    assert "172.50\u00a0€" in page or "€172.50" in page
    assert "−280.00\u00a0€" in page or "−€280.00" in page
    for line in ("Cash box counted", "Treasurer", "Auditor", "Place, date"):
        assert line in page


def test_the_cash_report_is_the_organisers_only(client):
    event = make_event()
    response = client.get(reverse("print_cash_report", args=[event.slug]))
    assert response.status_code == 302
    assert "/anmelden/" in response["Location"]


def test_the_workbook_has_a_cash_sheet_with_euro_numbers_for_the_organiser(organiser):
    event, _entries = day()
    content = organiser.get(reverse("event_xlsx", args=[event.slug])).content
    workbook = load_workbook(BytesIO(content))
    sheet = workbook["Cash box"]
    rows = {row[0].value: row for row in sheet.iter_rows() if row[0].value}
    balance = rows["Balance"]
    # numbers, not text: box, bank, total in euros
    assert [c.value for c in balance[2:5]] == [-237.5, 130, -107.5]
    assert "€" in balance[2].number_format
    assert rows["Hallenmiete"][2].value == -80


def test_the_public_workbook_leaves_the_cash_book_out(client):
    event, _entries = day()
    workbook = load_workbook(BytesIO(client.get(reverse("event_xlsx", args=[event.slug])).content))
    assert "Cash box" not in workbook.sheetnames


def _event_of(players: int):
    event = make_event(hands_per_round={"*": 1})
    entries = make_entries(event, players)
    category = FeeCategory.objects.create(event=event, name="Voll", amount_cents=1500)
    for entry in entries:
        fees.set_entry_fee(entry=entry, status="cash", category=category)
    make_round(event)
    prize(event, 1, 15000)
    prize(event, 1, 3000, ranking="damen")
    prize(event, 1, goods="Pokal", ranking="teams")
    CashItem.objects.create(event=event, description="Miete", amount_cents=100)
    return event


def test_the_cash_book_costs_the_same_queries_for_8_players_and_40():
    counts = []
    for players in (8, 40):
        event = _event_of(players)
        with CaptureQueriesContext(connection) as queries:
            cashbook.cash_book(event)
        counts.append(len(queries))
    # fees: categories, entries with their fees; prizes: prizes, settings, standings, teams (no
    # squad here, so no second query for the members); the items
    assert counts == [7, 7]


def test_the_workbook_cash_sheet_costs_no_query_per_player():
    counts = []
    for players in (8, 40):
        event = _event_of(players)
        with CaptureQueriesContext(connection) as queries:
            exports.event_workbook(event, with_cash=True)
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_an_event_is_finished_from_the_prize_page_once_every_round_is_closed(organiser):
    event, _e = played([60, 20, -30, -50], finish=False)
    response = organiser.post(
        reverse("event_finish", args=[event.slug]), {"action": "finish"}, follow=True
    )
    assert b"The event is finished" in response.content
    event.refresh_from_db()
    assert event.status == "finished"
    response = organiser.post(
        reverse("event_finish", args=[event.slug]),
        {"action": "reopen", "reason": "Tisch 1 falsch"},
        follow=True,
    )
    event.refresh_from_db()
    assert event.status == "running"
    assert Event.history.filter(id=event.pk).first().history_change_reason == "Tisch 1 falsch"


@pytest.mark.parametrize("name", ["fee_list", "cash_book", "print_cash_report", "prize_giving"])
def test_the_money_pages_cost_the_same_queries_for_8_players_and_40(organiser, name):
    counts = []
    for players in (8, 40):
        event = _event_of(players)
        url = reverse(name, args=[event.slug])
        organiser.get(url)  # the session and the user, read once
        with CaptureQueriesContext(connection) as queries:
            assert organiser.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_an_event_ends_with_fewer_rounds_than_planned_only_when_the_director_says_so(organiser):
    event, _e = played([60, 20, -30, -50], finish=False)
    Event.objects.filter(pk=event.pk).update(rounds_planned=2)
    url = reverse("event_finish", args=[event.slug])
    page = organiser.get(reverse("prize_table", args=[event.slug])).content.decode()
    assert "1 of 2 planned rounds have been played." in page
    assert 'name="fewer_rounds"' in page
    refused = organiser.post(url, {"action": "finish"}, follow=True)
    assert "1 of the 2 planned rounds has been played" in refused.content.decode()
    assert "tick “End with fewer rounds”" in refused.content.decode()
    event.refresh_from_db()
    assert event.status == "running" and not PrizeAssignment.objects.filter(event=event).exists()
    organiser.post(url, {"action": "finish", "fewer_rounds": "1"})
    event.refresh_from_db()
    assert event.status == "finished"


def test_an_event_that_played_its_planned_rounds_finishes_without_being_asked(organiser):
    event, _e = played([60, 20, -30, -50], finish=False)
    page = organiser.get(reverse("prize_table", args=[event.slug])).content.decode()
    assert 'name="fewer_rounds"' not in page
    organiser.post(reverse("event_finish", args=[event.slug]), {"action": "finish"})
    event.refresh_from_db()
    assert event.status == "finished"
