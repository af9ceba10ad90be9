"""The table link's sheet on a 360 px phone, as the players read it: every column heading tells
its player apart from the others at the table, and none is cut off."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, fits, shoot
from tests.factories import make_table
from tournament.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

# what the phone shows of each heading, and whether the cell cuts it off
HEADINGS = """() => [...document.querySelectorAll('table.phone-sheet thead th')].map(th => {
  const shown = th.querySelector('[aria-hidden=true]') || th;
  return [shown.innerText.trim(), th.scrollWidth > th.clientWidth];
})"""


def test_two_egons_are_told_apart_in_the_sheets_headings(live_server, phone):
    table = make_table("crazy_solo", 6)
    names = [
        ("Egon", "Maier"),
        ("Egon", "Müller"),
        ("Anna", "Huber"),
        ("Anna", "Hummel"),
        ("Bert", "Vogt"),
        ("Gisela", "Ketterer-Schwörer"),
    ]
    for seat, (first, last) in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.entry.player_id).update(first_name=first, last_name=last)
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    headings = phone.evaluate(HEADINGS)
    shoot(phone, "phone-sheet-headings-de-phone")
    assert [text for text, _cut in headings] == [
        "Egon Ma.",
        "Egon Mü.",
        "Anna Hub.",
        "Anna Hum.",
        "Bert V.",
        "Gisela K.",
    ]
    assert not [text for text, cut in headings if cut]
    # a screen reader hears each player's whole name
    assert phone.eval_on_selector_all(
        "table.phone-sheet thead th .visually-hidden", "spans => spans.map(s => s.textContent)"
    ) == [f"{first} {last}" for first, last in names]
    ok, culprits = fits(phone, PHONE["width"])
    assert ok, culprits
