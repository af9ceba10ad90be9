"""The registration desk in a real Chromium: a name that is probably a known player's asks
before a second player is created (screenshots on a phone and on a laptop); a player withdrawn
during a round is marked on that round's pages."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fits, log_in, shoot
from tests.factories import cego, make_entries, make_event, make_player, make_round, make_user
from tournament.models import Player
from tournament.play import hands

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "ein-langes-passwort-2026"


@pytest.mark.parametrize(("device", "width"), [("phone", 360), ("desktop", 1366)])
def test_the_desk_is_asked_whether_uwe_meier_is_the_known_uwe_maier(
    live_server, request, device, width
):
    page = request.getfixturevalue(device)
    page.set_viewport_size({"width": width, "height": 800})
    make_user("leiter", PASSWORD)
    known = make_player(first_name="Uwe", last_name="Maier", club="CC Triberg", town="Triberg")
    make_player(first_name="Uwe", last_name="Mayer", club="SV Schonach", town="Schonach")
    event = make_event(name="Herbstturnier Schonach")
    log_in(page, live_server.url, "leiter", PASSWORD)
    page.goto(f"{live_server.url}/turnier/{event.slug}/spieler/")
    page.fill("input[name=first_name]", "Uwe")
    page.fill("input[name=last_name]", "Meier")
    page.click("form.inline-form button.primary")
    question = page.locator("#same-person")
    question.wait_for()
    assert "CC Triberg" in question.inner_text() and "Schonach" in question.inner_text()
    ok, culprits = fits(page, width)
    assert ok, culprits
    shoot(page, f"players-duplicate-question-{width}")
    page.check(f"input[name=same_person][value='{known.pk}']")
    page.click("form.inline-form button.primary")
    page.locator(".messages").wait_for()
    assert list(event.entries.values_list("player_id", flat=True)) == [known.pk]
    assert Player.objects.count() == 2


def test_a_player_withdrawn_during_a_round_is_marked_on_the_round_and_the_table_page(
    live_server, desktop
):
    page = desktop
    make_user("leiter", PASSWORD)
    event = make_event(name="Herbstturnier Schonach")
    make_entries(event, 8)
    table = make_round(event).tables.get(number=1)
    hands.record_hand(table=table, data=cego("halbe", 0, 47))
    leaver = table.seats.select_related("entry__player").get(position=0).entry
    log_in(page, live_server.url, "leiter", PASSWORD)
    page.goto(f"{live_server.url}/turnier/{event.slug}/spieler/")
    row = page.locator("tr", has_text=leaver.player.sort_name)
    row.get_by_role("button", name="Zurückziehen").click()
    assert str(leaver.player) in page.locator(".messages").inner_text()

    page.goto(f"{live_server.url}/turnier/{event.slug}/durchgang/1/")
    card = page.locator(".table-card").first
    assert card.locator("li").first.inner_text().endswith("zurückgezogen")
    assert "zurückgezogen" not in card.locator("li").nth(1).inner_text()
    by_name = page.locator("tr", has_text=leaver.player.sort_name)
    assert "zurückgezogen" in by_name.inner_text()
    shoot(page, "round-withdrawn-player")

    page.goto(f"{live_server.url}/tisch/{table.pk}/")
    heading = page.locator("table.sheet thead th.player").first
    assert heading.inner_text().split() == [*str(leaver.player).split(), "zurückgezogen"]
