"""Phones that keep scoring when the hall's Wi-Fi drops (issue 14), on a 360 px phone in Chromium.

The phones reach the laptop by plain http:// in the hall, where a browser allows no service
worker: these tests block service workers, so the queue in the page's own storage is all the
phone has, as in the hall."""

from __future__ import annotations

import re
from typing import Any

import pytest

import scoring
from tests.browser.conftest import HALL_PHONE, PHONE, shoot
from tests.factories import cego, make_entries, make_event, make_round
from tournament.core.formatting import signed
from tournament.models import Entry, Table
from tournament.play import hands, rounds

GAMES = [(1, 47), (2, 50), (3, 35)]  # (declarer, card points) of three Halbe


def started(**event: Any) -> Table:
    game = make_event(**event)
    make_entries(game, 4)
    return make_round(game).tables.get()


def type_game(page: Any, declarer: int, points: int, contract: str = "halbe") -> None:
    page.select_option("select[name=contract]", contract)
    page.select_option("select[name=declarer]", str(declarer))
    page.fill("input[name=declarer_points]", str(points))
    page.click("button[value=save]")


def queued(page: Any, token: str) -> list[dict]:
    return page.evaluate(f"JSON.parse(localStorage.getItem('cego-queue:{token}') || '[]')")


def stored(table: Table) -> list[tuple[int, int, int]]:
    return [
        (h.number, h.data["declarer"], h.data["declarer_points"])
        for h in table.hands.order_by("number")
    ]


def test_three_games_entered_offline_are_stored_once_each_in_order(live_server, hall_phone):
    table = started()
    url = f"{live_server.url}/t/{table.token}/"
    page = hall_phone
    context = page.context
    page.goto(url)
    context.set_offline(True)
    for i, (declarer, points) in enumerate(GAMES):
        type_game(page, declarer, points)
        page.wait_for_function(f"document.querySelectorAll('#queue li.waiting').length === {i + 1}")
    queue = page.inner_text("#queue")
    assert queue.count("noch nicht gesendet") == 3
    assert "wird beim Senden geprüft" in queue  # no results offline: the server's engine decides
    assert "Kein Netz" in queue
    assert page.inner_text(".game-title") == "Spiel 4"  # the table goes on with game 4
    shoot(page, "offline-queue-de-phone")
    assert table.hands.count() == 0
    page.close()  # the phone's browser is closed during the dropout

    context.set_offline(False)
    page = context.new_page()
    page.goto(url)  # opened again once the network is back: the queue goes out by itself
    page.wait_for_selector(".messages li.success")
    page.wait_for_selector("#queue .queue-status.sent")
    assert page.inner_text("#queue .queue-status") == "Alles ist gesendet."
    shoot(page, "offline-sent-de-phone")
    assert queued(page, table.token) == []
    assert stored(table) == [(n + 1, d, p) for n, (d, p) in enumerate(GAMES)]
    # the standings are those of the three games, as the engine scores them
    seats = [s.entry_id for s in table.seats.order_by("position")]
    expected = [0, 0, 0, 0]
    for declarer, points in GAMES:
        hand = {"contract": "halbe", "declarer": declarer, "declarer_points": points}
        for seat, value in enumerate(scoring.score("cego", hand, seats=4)):
            expected[seat] += value
    totals = {e.pk: e.total for e in Entry.objects.standings(table.round.event)}
    assert [totals[pk] for pk in seats] == expected


def test_games_entered_offline_on_the_table_link_of_a_personal_page_are_stored(
    live_server, hall_phone
):
    # issue 43: the personal page opens the table under a key of its own; the queue is the same
    table = started()
    player = table.seats.get(position=0).entry
    page = hall_phone
    context = page.context
    page.goto(f"{live_server.url}{player.get_link_url()}")
    with page.expect_navigation():
        page.click("a.button.primary.big")
    url = page.url
    key = url.rstrip("/").rsplit("/", 1)[1]
    assert key != table.token
    context.set_offline(True)
    for i, (declarer, points) in enumerate(GAMES[:2]):
        type_game(page, declarer, points)
        page.wait_for_function(f"document.querySelectorAll('#queue li.waiting').length === {i + 1}")
    assert len(queued(page, key)) == 2
    assert table.hands.count() == 0
    context.set_offline(False)
    page.wait_for_selector("#queue .queue-status.sent", timeout=30_000)
    assert page.url == url
    assert queued(page, key) == []
    assert stored(table) == [(n + 1, d, p) for n, (d, p) in enumerate(GAMES[:2])]


def test_the_queue_names_a_ticked_box_by_its_label_not_its_field(live_server, hall_phone):
    table = started()
    page = hall_phone
    context = page.context
    page.goto(f"{live_server.url}/t/{table.token}/")
    context.set_offline(True)
    page.select_option("select[name=contract]", "halbe")
    page.select_option("select[name=declarer]", "1")
    page.fill("input[name=declarer_points]", "47")
    page.check("input[name=gegensolo]")
    page.click("button[value=save]")
    page.wait_for_selector("#queue li.waiting")
    queue = page.inner_text("#queue")
    assert "nach Gegensolo" in queue  # what the phone shows beside the box
    assert "gegensolo" not in queue


def test_a_game_whose_answer_was_lost_is_stored_once(live_server, browser):
    table = started()
    # a phone of its own whose clock the test moves on: the queue tries again after 2 seconds,
    # which the test jumps over instead of waiting them out (a clock, once set, stays with its
    # window, so this window is not handed on)
    context = browser.new_context(**HALL_PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.clock.install()
    page.goto(f"{live_server.url}/t/{table.token}/")
    lost: list[int] = []

    def stored_but_unheard(route: Any) -> None:
        # the server receives and stores the game; the phone never hears the answer
        route.fetch()
        lost.append(1)
        route.abort("connectionreset")

    page.route("**/senden/", stored_but_unheard)
    type_game(page, 1, 47)
    page.wait_for_selector("#queue li.waiting")
    assert lost == [1]
    assert stored(table) == [(1, 1, 47)]
    page.unroute("**/senden/")
    # the phone sends it again by itself once its wait is over; the server knows the game's key
    page.clock.fast_forward(30_000)
    page.wait_for_selector(".messages li.success")
    assert queued(page, table.token) == []
    assert stored(table) == [(1, 1, 47)]
    context.close()


def test_a_game_another_phone_entered_meanwhile_is_shown_with_both_versions(
    live_server, hall_phone, second_hall_phone
):
    table = started()
    url = f"{live_server.url}/t/{table.token}/"
    offline = hall_phone
    offline_context = offline.context
    online = second_hall_phone
    offline.goto(url)
    online.goto(url)
    offline_context.set_offline(True)
    type_game(offline, 1, 47)  # game 1 on this phone, kept
    offline.wait_for_selector("#queue li.waiting")
    type_game(online, 2, 50)  # game 1 from the other phone, stored
    online.wait_for_selector(".messages li.success")
    offline_context.set_offline(False)
    offline.wait_for_selector("#queue li.refused", timeout=30_000)
    shown = offline.inner_text("#queue li.refused")
    assert "Spiel 1 steht schon auf der Liste" in shown
    names = [str(s.entry.player) for s in table.seats.order_by("position")]
    server = offline.inner_text("#queue .server-version")
    mine = offline.inner_text("#queue .phone-version")
    assert names[2] in server and "50" in server  # the sheet's game 1
    assert names[1] in mine and "47" in mine  # this phone's game 1
    shoot(offline, "offline-conflict-de-phone")
    assert stored(table) == [(1, 2, 50)]
    # the table agrees it was another game: it goes on the sheet as game 2
    with offline.expect_navigation():
        offline.click("#queue li.refused button.again")
    offline.wait_for_selector(".messages li.success")
    assert stored(table) == [(1, 2, 50), (2, 1, 47)]


def test_a_queued_game_for_a_round_closed_meanwhile_is_refused_visibly(live_server, hall_phone):
    table = started(hands_per_round={"4": 1})
    page = hall_phone
    context = page.context
    page.goto(f"{live_server.url}/t/{table.token}/")
    context.set_offline(True)
    type_game(page, 1, 47)
    page.wait_for_selector("#queue li.waiting")
    # meanwhile the scorer enters the paper sheet's totals and closes the round
    hands.record_totals(table=table, totals=[-60, 20, 20, 20])
    rounds.close_round(round=table.round)
    context.set_offline(False)
    page.wait_for_selector("#queue li.refused", timeout=30_000)
    assert re.search(r"Durchgang 1 ist geschlossen", page.inner_text("#queue li.refused"))
    assert page.locator("#queue li.refused button.again").count() == 0
    assert len(queued(page, table.token)) == 1  # kept on the phone, never dropped silently
    page.reload()  # the link of a closed round has no form; the refused game is still shown
    assert page.locator("#hand-form").count() == 0
    page.wait_for_selector("#queue li.refused")
    assert "Durchgang 1 ist geschlossen" in page.inner_text("#queue li.refused")
    # the director sees the table flagged on the round page
    from tournament.models import TablePhone

    assert TablePhone.objects.get(table=table).refused == 1
    assert [h.kind for h in table.hands.all()] == ["totals"]


@pytest.mark.parametrize("declarer", [1])
def test_a_typing_error_is_shown_at_its_field_as_before(live_server, hall_phone, declarer):
    table = started()
    page = hall_phone
    page.goto(f"{live_server.url}/t/{table.token}/")
    hands.record_hand(table=table, data=cego())  # so that the page is not the first
    page.reload()
    page.select_option("select[name=contract]", "halbe")
    page.select_option("select[name=declarer]", str(declarer))
    page.fill("input[name=declarer_points]", "99")  # more than the 70 card points of a game
    with page.expect_navigation():
        page.click("button[value=save]")
    assert page.locator(".errorlist, .error").count() >= 1
    assert queued(page, table.token) == []
    assert table.hands.count() == 1


def test_over_https_the_page_itself_survives_a_reload_during_the_dropout(live_server, browser):
    # 127.0.0.1 counts as a secure context, as an https:// address does: a service worker runs
    table = started()
    url = f"{live_server.url}/t/{table.token}/"
    context = browser.new_context(viewport=PHONE, locale="de-DE", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()  # the page loads again through the worker (as after every saved game)
    page.wait_for_function(
        "caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
        ".then(c => c.match(location.href))))).then(found => found.some(Boolean))"
    )
    context.set_offline(True)
    page.reload()  # no network: the page comes from the phone
    assert page.locator("#hand-form").count() == 1
    type_game(page, 2, 50)
    page.wait_for_selector("#queue li.waiting")
    assert table.hands.count() == 0
    context.set_offline(False)
    # sent at once on the browser's "online" event, else by the timer, which waits up to 30 s
    # after a failure: a wait of exactly 30 s raced it on a loaded machine
    page.wait_for_selector(".messages li.success", timeout=45_000)
    assert stored(table) == [(1, 2, 50)]
    context.close()


def test_the_service_worker_is_served_for_the_table_links():
    from django.test import Client

    response = Client().get("/t/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    body = response.content.decode()
    assert "/static/js/table_queue.js" in body and 'request.method !== "GET"' in body


def declarers(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "select[name=declarer] option", "options => options.map(o => o.value)"
    )


def test_offline_each_game_offers_its_own_declarers_at_a_five_seat_table(live_server, hall_phone):
    from tests.factories import make_table

    table = make_table(players=5)
    page = hall_phone
    context = page.context
    page.goto(f"{live_server.url}/t/{table.token}/")
    assert declarers(page) == ["", "1", "2", "3", "4"]  # seat 0 deals game 1 and sits out
    context.set_offline(True)
    type_game(page, 2, 40, contract="cego")
    page.wait_for_selector("#queue li.waiting")
    assert declarers(page) == ["", "0", "2", "3", "4"]  # seat 1 deals game 2
    dealer = str(table.seats.get(position=1).entry.player)
    assert page.inner_text(".sitting-out").startswith(f"{dealer} gibt dieses Spiel und setzt aus")
    type_game(page, 3, 41, contract="cego")
    page.wait_for_function("document.querySelectorAll('#queue li.waiting').length === 2")
    assert declarers(page) == ["", "0", "1", "3", "4"]  # seat 2 deals game 3
    context.set_offline(False)
    page.wait_for_selector(".messages li.success", timeout=30_000)
    assert [(h.number, h.data["declarer"]) for h in table.hands.order_by("number")] == [
        (1, 2),
        (2, 3),
    ]


def test_a_phone_online_on_an_old_page_shows_the_sheet_as_it_is_after_a_refusal(
    live_server, hall_phone
):
    """A phone on an old page sends game 1, which the scorer entered meanwhile: the game stays
    on this phone with both versions, and the page shows the sheet as it is now (the scorer's
    game counted, in the totals and the list, the take-back for it, the form for game 2), with
    the form empty and no error before anyone typed, and without blaming a network it had."""
    table = started()
    url = f"{live_server.url}/t/{table.token}/"
    stale = hall_phone
    stale.goto(url)
    scorer = hands.record_hand(table=table, data=cego("solo", 2, 50))  # the scorer's game 1
    type_game(stale, 1, 47)
    stale.wait_for_selector("#queue li.refused")
    previews: list[str] = []  # from here on: the page as loaded after the refusal

    def asked(request: Any) -> None:
        if "/vorschau/" in request.url:
            previews.append(request.url)

    stale.on("request", asked)
    refused = stale.inner_text("#queue li.refused")
    assert "Spiel 1 steht schon auf der Liste" in refused
    assert "Netz" not in refused
    assert "1 von 24 Spielen" in stale.inner_text(".lead")
    names = [str(s.entry.player) for s in table.seats.order_by("position")]
    results = scoring.score("cego", scorer.data, seats=4, rules=table.round.event.full_rules())
    totals = stale.inner_text("#link-totals")
    for name, points in zip(names, results, strict=True):
        assert name in totals
        assert signed(points) in totals
    assert "Spiel 1 zurücknehmen" in stale.inner_text("body")
    assert "Spiel 2" in stale.inner_text("#hand-form .game-title")
    stale.wait_for_timeout(1_000)  # longer than the preview's pause after a change
    stale.wait_for_load_state("networkidle")
    assert previews == []  # nothing asked about the empty form, so nothing to complain about
    form = stale.inner_text("#hand-form")
    assert "erforderlich" not in form, form
    assert stale.locator("#hand-form .live-error").count() == 0
    assert stale.input_value("select[name=contract]") == ""
    assert len(queued(stale, table.token)) == 1  # this phone's game 1, kept with the reason
    stale.remove_listener("request", asked)  # the window goes on to the next test
