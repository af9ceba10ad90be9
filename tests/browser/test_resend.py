"""Every phone is a replica of its table (issue 45), on a 360 px phone in Chromium: the laptop is
restored from a copy that lacks the table's last games, and the phone that had them
acknowledged sends them again, once each, marked on the sheet.

The restored copy is simulated: the lost games are taken back and their history rows deleted
(``tests.helpers.play.lose_games``), so that the server knows nothing of them, as a copy made
before they arrived."""

from __future__ import annotations

from typing import Any

from tests.browser.test_offline import queued, started, stored, type_game
from tests.helpers.play import lose_games
from tournament.models import Table
from tournament.play import rounds

GAMES = [(1, 47), (2, 50), (3, 35), (0, 40), (1, 55)]  # (declarer, card points) of Halbe


def held(page: Any, key: str) -> list[int]:
    """The numbers of the games the phone holds as acknowledged."""
    return page.evaluate(
        f"(JSON.parse(localStorage.getItem('cego-held:{key}')) || {{games: []}})"
        ".games.map(g => g.number)"
    )


def enter_online(page: Any, games: list[tuple[int, int]]) -> None:
    for declarer, points in games:
        with page.expect_navigation():  # stored: the page loads the server's sheet
            type_game(page, declarer, points)
        page.wait_for_selector(".messages li.success")


def resent(table: Table) -> list[int]:
    return list(table.hands.filter(resent_at__isnull=False).values_list("number", flat=True))


def marks(page: Any) -> list[str]:
    """The sheet's rows that say a game came back from the phone: each game's number."""
    return page.eval_on_selector_all(
        "#link-sheet tr.desc:has(.resent) strong", "cells => cells.map(c => c.textContent)"
    )


def test_a_phone_sends_again_the_games_a_restored_server_lost_once_each(live_server, hall_phone):
    table = started(hands_per_round={"4": 4})
    url = f"{live_server.url}/t/{table.token}/"
    page = hall_phone
    page.goto(url)
    enter_online(page, GAMES[:4])
    assert held(page, table.token) == [1, 2, 3, 4]
    lose_games(table, 3, 4)  # the laptop restored from a copy made after game 2
    assert [n for n, _d, _p in stored(table)] == [1, 2]

    page.reload()  # the phone opens the page of the new server: it sends games 3 and 4 again
    page.wait_for_selector("#queue .queue-status.sent", timeout=30_000)
    assert stored(table) == [(n + 1, d, p) for n, (d, p) in enumerate(GAMES[:4])]
    assert resent(table) == [3, 4]
    assert marks(page) == ["4", "3"]  # the phone's sheet lists the newest game first
    assert page.locator("#link-sheet .resent").first.inner_text() == "vom Handy erneut gesendet"
    assert queued(page, table.token) == []
    assert held(page, table.token) == [1, 2, 3, 4]

    # loaded again, the phone finds every game on the sheet and sends nothing
    sent: list[str] = []

    def sending(request: Any) -> None:
        if "/senden/" in request.url:
            sent.append(request.url)

    page.on("request", sending)
    page.reload()
    page.wait_for_load_state("networkidle")
    assert sent == []
    page.remove_listener("request", sending)  # the window goes on to the next test
    assert table.hands.count() == 4

    # once the round is closed the phone forgets its games
    rounds.close_round(round=table.round)
    page.reload()
    assert page.evaluate(f"localStorage.getItem('cego-held:{table.token}')") is None


def test_a_phone_that_stayed_open_sends_the_lost_games_before_its_next_one(live_server, hall_phone):
    table = started()
    page = hall_phone
    page.goto(f"{live_server.url}/t/{table.token}/")
    enter_online(page, GAMES[:3])
    lose_games(table, 2, 3)  # the laptop was changed while the page stayed open on game 4
    # game 4 reaches a sheet of one game: refused, the page loads, games 2 and 3 go again first
    type_game(page, *GAMES[3])
    page.wait_for_selector("#queue .queue-status.sent", timeout=30_000)
    assert stored(table) == [(n + 1, d, p) for n, (d, p) in enumerate(GAMES[:4])]
    assert resent(table) == [2, 3]
    assert marks(page) == ["3", "2"]
    assert page.locator("#queue li").count() == 0
