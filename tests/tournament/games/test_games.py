"""The games registry (tournament.games): every game offered, also to the first requests of a
threaded server, which arrive together."""

from __future__ import annotations

import threading
import time
from importlib import import_module

import pytest

from tournament import games


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch):
    """The registry as a newly started server process has it: nothing loaded yet, and importing a
    game module takes a moment (as it does the first time)."""
    monkeypatch.setattr(games, "_registry", {})
    monkeypatch.setattr(games, "_loaded", False)

    def slow_import(path: str):
        time.sleep(0.01)
        return import_module(path)

    monkeypatch.setattr(games, "import_module", slow_import)


def test_requests_arriving_together_on_a_fresh_server_all_find_their_game(fresh_registry):
    start = threading.Barrier(16)
    found: list[str] = []
    failed: list[BaseException] = []

    def request() -> None:
        start.wait()
        try:
            found.append(games.get("cego").name)
        except BaseException as exc:  # a KeyError here was a server error on the table link
            failed.append(exc)

    threads = [threading.Thread(target=request) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert found == ["Cego"] * 16


def test_the_registry_offers_the_four_games_in_the_forms_order():
    assert games.choices() == [
        ("cego", "Cego"),
        ("ziege", "Ziege"),
        ("crazy_solo", "Crazy Solo"),
        ("hennes_sibbe", "Hennes Sibbe"),
    ]
    assert games.default() == "cego"
    assert games.find("skat") is None
    with pytest.raises(KeyError):
        games.get("skat")
