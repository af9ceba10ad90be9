"""The browser tests' windows are handed from one test to the next (``window`` in
``tests/browser/conftest.py``): what one test leaves in a window, the next does not find. The
two tests run in this order, in one process (``--dist loadfile``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_window_is_left_with_storage_cookies_a_size_and_print_media(live_server, phone):
    phone.goto(f"{live_server.url}/")
    phone.evaluate(
        "localStorage.setItem('queue', '1'); sessionStorage.setItem('sent', '2');"
        " document.cookie = 'left=3; path=/'"
    )
    phone.set_viewport_size({"width": 800, "height": 600})
    phone.emulate_media(media="print")
    phone.context.set_offline(True)
    assert phone.evaluate("localStorage.getItem('queue')") == "1"


def test_the_next_test_gets_it_as_a_new_window(live_server, phone):
    phone.goto(f"{live_server.url}/")
    assert phone.evaluate("localStorage.getItem('queue')") is None
    assert phone.evaluate("sessionStorage.getItem('sent')") is None
    assert "left=3" not in phone.evaluate("document.cookie")
    assert phone.viewport_size == {"width": 360, "height": 740}
    assert phone.evaluate("matchMedia('print').matches") is False
    assert phone.context.pages == [phone]
