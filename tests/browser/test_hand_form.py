"""The hand form's script in a real Chromium: Berg clears and locks the card points, the five-seat
dealer is never offered, and Hennes Sibbe cards are tapped in with buttons."""

from __future__ import annotations

import pytest

import scoring
from tests.browser.conftest import PHONE, fits, log_in, shoot
from tests.factories import cego, make_table, make_user
from tournament.core.formatting import signed
from tournament.models import Player
from tournament.play import hands

pytestmark = pytest.mark.django_db(transaction=True)


def declarer_options(page) -> list[str]:
    return page.eval_on_selector_all(
        "select[name=declarer] option", "options => options.map(o => o.value)"
    )


def test_ticking_berg_clears_the_typed_points_and_locks_the_field(live_server, phone):
    table = make_table()
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    phone.select_option("select[name=contract]", "halbe")
    phone.select_option("select[name=declarer]", "1")
    points = phone.locator("input[name=declarer_points]")
    points.fill("34")
    phone.check("input[name=berg]")
    assert points.input_value() == ""
    assert points.is_disabled()
    assert "disabled" in phone.get_attribute(".field[data-field=declarer_points]", "class")
    # the live preview shows the Berg: the declarer of a Halbe pays 2 × 40 to each of three
    phone.wait_for_function("document.querySelector('#preview').textContent.includes('240')")
    shoot(phone, "hand-form-berg-de-phone")
    phone.uncheck("input[name=berg]")
    assert points.is_enabled()
    points.fill("50")
    phone.check("input[name=berg]")
    phone.click("button[value=save]")
    phone.wait_for_selector(".messages li.success")
    hand = table.hands.get()
    assert hand.data == {"contract": "halbe", "declarer": 1, "declarer_took_trick": False}


def test_the_five_seat_dealer_is_not_offered_after_each_game(live_server, phone):
    table = make_table(players=5)
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    assert declarer_options(phone) == ["", "1", "2", "3", "4"]  # seat 0 deals game 1
    phone.select_option("select[name=contract]", "raeuber")
    assert phone.locator("input[name=points_0]").count() == 0
    assert phone.locator("input[name=points_4]").is_visible()
    shoot(phone, "hand-form-five-seats-de-phone")
    phone.select_option("select[name=contract]", "cego")
    phone.select_option("select[name=declarer]", "2")
    phone.fill("input[name=declarer_points]", "40")
    phone.click("button[value=save]")
    phone.wait_for_selector(".messages li.success")
    assert declarer_options(phone) == ["", "0", "2", "3", "4"]  # seat 1 deals game 2
    ok, culprits = fits(phone, PHONE["width"])
    assert ok, culprits


def test_hennes_sibbe_cards_are_tapped_in_with_buttons(live_server, phone):
    table = make_table("hennes_sibbe", 3)
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    phone.select_option("select[name=claimant]", "0")
    phone.select_option("select[name=challenger]", "1")
    phone.fill("input[name=claim_count]", "3")
    phone.select_option("select[name=claim_colour]", "rot")
    shoot(phone, "hand-form-hennes-de-phone")
    first = phone.locator(".field[data-field=hand_0] .card-buttons")
    first.locator("button[data-word=rot]").click()
    first.locator("button[data-word=rot]").click()
    first.locator("button[data-word=lila]").click()
    first.locator("button.card-back").click()  # a wrong tap is taken back
    phone.locator(".field[data-field=hand_2] .card-buttons button[data-word=bock]").click()
    assert phone.input_value("input[name=hand_0]") == "rot rot"
    assert phone.input_value("input[name=hand_2]") == "bock"
    # drillings are colours only: no joker buttons there
    drillings = phone.locator(".field[data-field=drillings] .card-buttons")
    assert drillings.locator("button[data-word=bock]").count() == 0
    assert drillings.locator("button[data-word=rot]").count() == 1
    ok, culprits = fits(phone, PHONE["width"])
    assert ok, culprits
    shoot(phone, "hand-form-hennes-de-phone")
    phone.click("button[value=save]")
    phone.wait_for_selector(".messages li.success")
    hand = table.hands.get()
    assert hand.data["reveal"]["hands"] == [["rot", "rot"], [], ["goat"]]
    # 2 Rot and a ball goat: 3, the claim was right; the challenger takes the penalty card
    points = list(hand.results.order_by("position").values_list("points", flat=True))
    assert points == [0, 1, 0]


def test_the_scorers_sheet_of_a_five_seat_table_at_desktop_width(live_server, desktop):
    table = make_table(players=5)
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    make_user("leiter", "ein-langes-passwort-2026")
    log_in(desktop, live_server.url, "leiter", "ein-langes-passwort-2026")
    desktop.goto(f"{live_server.url}/tisch/{table.pk}/")
    assert declarer_options(desktop) == ["", "0", "2", "3", "4"]
    shoot(desktop, "table-five-seats-de-desktop")


def test_the_live_result_shows_every_player_on_a_phone(live_server, phone):
    """The table checks the result before saving: on a 360 px phone every player's name and
    points are on the screen, also at a table of five with long names, nothing to swipe."""
    table = make_table(players=5)
    long_names = ["Gisela Ketterer-Schwörer", "Hans-Jörg Kienzler", "Doris Dold", "Georg Hummel"]
    for seat, name in zip(table.seats.order_by("position")[1:], long_names, strict=True):
        first, last = name.split(" ", 1)
        Player.objects.filter(pk=seat.entry.player_id).update(first_name=first, last_name=last)
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    phone.select_option("select[name=contract]", "solo")
    phone.select_option("select[name=declarer]", "1")
    phone.fill("input[name=declarer_points]", "50")
    phone.wait_for_selector("#preview .preview-results li")
    items = phone.locator("#preview .preview-results li")
    assert items.count() == 5
    names = [str(s.entry.player) for s in table.seats.order_by("position")]
    # seat 0 deals game 1 and sits out
    game = cego("solo", 1, 50, sitting_out=0)
    results = scoring.score("cego", game, seats=5, rules=table.round.event.full_rules())
    for i in range(5):
        item = items.nth(i)
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], names[i]
        text = item.inner_text()
        assert names[i] in text.replace("\n", " ")
        points = results[i]
        assert signed(points) in text
    ok, culprits = fits(phone, PHONE["width"])
    assert ok, culprits
    shoot(phone, "hand-form-live-result-de-phone")


def test_a_correction_shows_the_stored_games_result_at_once_and_as_it_changes(live_server, desktop):
    table = make_table()
    hands.record_hand(table=table, data=cego("halbe", 0, 34))
    make_user("leiter", "ein-langes-passwort-2026")
    log_in(desktop, live_server.url, "leiter", "ein-langes-passwort-2026")
    desktop.goto(f"{live_server.url}/tisch/{table.pk}/spiel/1/")
    rules = table.round.event.full_rules()
    lost = scoring.score("cego", cego("halbe", 0, 34), seats=4, rules=rules)
    won = scoring.score("cego", cego("halbe", 0, 44), seats=4, rules=rules)
    first = desktop.locator("#preview .preview-results li").first
    first.wait_for()
    assert lost[0] < 0 and signed(lost[0]) in first.inner_text()  # the Halbe as stored: lost
    desktop.fill("input[name=declarer_points]", "44")
    desktop.wait_for_function(
        f"document.querySelector('#preview li strong').textContent === '{signed(won[0])}'"
    )


def test_crazy_solo_asks_trumps_only_where_the_bidder_names_them(live_server, phone):
    table = make_table("crazy_solo", 4)
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    trump = phone.locator(".field[data-field=trump]")
    for contract, asked in [
        ("herz_solo", False),
        ("alleingang_herz", False),
        ("solo", True),
        ("alleingang", True),
    ]:
        phone.select_option("select[name=contract]", contract)
        assert trump.is_visible() is asked, contract
    # hearts are no Solo's trumps: they make it a Herz-Solo
    offered = phone.eval_on_selector_all(
        "select[name=trump] option", "options => options.map(o => o.value)"
    )
    assert offered == ["", "kreuz", "pik", "karo"]
    phone.select_option("select[name=contract]", "solo")
    phone.select_option("select[name=bidder]", "0")
    phone.select_option("select[name=partner]", "2")
    phone.fill("input[name=soloist_points]", "70")
    # the trumps change no payout: a deal without them is saved (issue 43), named ones are kept
    phone.click("button[value=save]")
    phone.wait_for_selector(".messages li.success")
    assert "trump" not in table.hands.get().data
    phone.select_option("select[name=contract]", "solo")
    phone.select_option("select[name=bidder]", "0")
    phone.select_option("select[name=partner]", "2")
    phone.fill("input[name=soloist_points]", "70")
    phone.select_option("select[name=trump]", "pik")
    phone.click("button[value=save]")
    for _try in range(50):
        if table.hands.count() == 2:
            break
        phone.wait_for_timeout(100)
    assert table.hands.get(number=2).data["trump"] == "pik"


def test_crazy_solo_at_three_offers_no_solo_and_no_partner(live_server, phone):
    table = make_table("crazy_solo", 3)
    phone.goto(f"{live_server.url}{table.get_link_url()}")
    offered = phone.eval_on_selector_all(
        "select[name=contract] option", "options => options.map(o => o.value)"
    )
    assert offered == ["alleingang", "alleingang_herz"]
    assert phone.locator("select[name=partner]").count() == 0
    phone.select_option("select[name=contract]", "alleingang_herz")
    phone.select_option("select[name=bidder]", "1")
    phone.fill("input[name=soloist_points]", "50")
    phone.click("button[value=save]")
    phone.wait_for_selector(".messages li.success")
    assert table.hands.get().data == {
        "contract": "alleingang_herz",
        "bidder": 1,
        "soloist_points": 50,
    }


def test_the_card_counter_says_why_it_does_not_carry_a_half_point(live_server, desktop):
    table = make_table(players=3)
    make_user("zaehler", "ein-langes-passwort-2026")
    log_in(desktop, live_server.url, "zaehler", "ein-langes-passwort-2026")
    desktop.goto(f"{live_server.url}/tisch/{table.pk}/")
    desktop.select_option("select[name=contract]", "halbe")
    desktop.select_option("select[name=declarer]", "0")
    desktop.click("#card-counter summary")
    # four of each face card and five other cards: 48 + 2½ = 50½
    for name, count in [("king", 4), ("queen", 4), ("cavall", 4), ("jack", 4), ("other", 5)]:
        desktop.fill(f"input[name=cc-{name}]", str(count))
    desktop.wait_for_function("document.querySelector('#counter-result').textContent == '50½'")
    desktop.click("#counter-use")
    note = desktop.locator("#counter-note")
    note.wait_for(state="visible")
    assert "50½ kann nicht ins Formular übernommen werden" in note.inner_text()
    # nothing rounded into the form
    assert desktop.input_value("input[name=declarer_points]") == ""
    # a whole count is carried
    desktop.fill("input[name=cc-other]", "4")
    desktop.wait_for_function("document.querySelector('#counter-result').textContent == '50'")
    desktop.click("#counter-use")
    assert desktop.input_value("input[name=declarer_points]") == "50"
    assert note.is_hidden()


def test_a_slow_card_count_is_shown_though_the_form_changed_while_it_was_on_its_way(
    live_server, desktop
):
    # The hall's Wi-Fi is slow: the counter's answer takes most of a second, and meanwhile the
    # scorer picks another declarer (which asks the server for the game's preview). The count
    # that comes back is still the answer to the counter's latest question and is shown.
    table = make_table(players=3)
    make_user("zaehler", "ein-langes-passwort-2026")
    log_in(desktop, live_server.url, "zaehler", "ein-langes-passwort-2026")
    desktop.goto(f"{live_server.url}/tisch/{table.pk}/")
    desktop.evaluate(
        """() => {
          const real = window.fetch;
          window.fetch = (url, options) => String(url).includes("kartenpunkte")
            ? new Promise((done) => setTimeout(done, 900)).then(() => real(url, options))
            : real(url, options);
        }"""
    )
    desktop.select_option("select[name=contract]", "halbe")
    desktop.select_option("select[name=declarer]", "0")
    desktop.click("#card-counter summary")
    for name, count in [("king", 4), ("queen", 4), ("cavall", 4), ("jack", 4), ("other", 4)]:
        desktop.fill(f"input[name=cc-{name}]", str(count))
    desktop.select_option("select[name=declarer]", "1")
    desktop.wait_for_function("document.querySelector('#counter-result').textContent == '50'")
    desktop.click("#counter-use")
    assert desktop.input_value("input[name=declarer_points]") == "50"
