"""Browser tests: Debian's Chromium (/usr/bin/chromium) driven by Playwright against the live test
server. Marked ``browser``: ``pytest -m browser`` runs exactly them. Without Chromium they are
skipped, except where REQUIRE_BROWSER is set (CI), where a missing browser fails the run.

With ``SCREENSHOTS=1`` (``make screenshots``) the tests write a picture of each main page they
visit into ``screenshots/``, for a person to look at (see docs/testing.md); no test reads them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}

# Playwright's sync API keeps an event loop in this thread; the tests' own ORM calls are plain
# synchronous calls between browser steps.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing; .ci/run installs Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def windows(browser):
    """The test process's open browser windows (Playwright pages), one of each kind, handed from
    one test to the next (``window``): a new window with its first page costs Chromium several
    times a page load in an open one (docs/testing.md)."""
    opened: dict[str, Any] = {}
    yield opened
    for page in opened.values():
        page.context.close()


# what a page of the origin keeps beyond its cookies: its storages and its service worker
_FORGET = """async () => {
  sessionStorage.clear();
  localStorage.clear();
  if (navigator.serviceWorker) {
    for (const registration of await navigator.serviceWorker.getRegistrations()) {
      await registration.unregister();
    }
  }
}"""


def _handed_back(page: Any, options: dict[str, Any]) -> bool:
    """The window made as a new one would be: no other page, no cookie, nothing stored for the
    sites it opened, no route, online, its own size and screen media, a blank page. False where
    the browser refused a step of it."""
    from playwright.sync_api import Error

    try:
        _hand_back(page, options)
    except Error:
        return False
    return True


def _hand_back(page: Any, options: dict[str, Any]) -> None:
    context = page.context
    for other in context.pages:
        if other is not page:
            other.close()
    parts = urlsplit(page.url)
    if parts.scheme in ("http", "https"):
        origin = f"{parts.scheme}://{parts.netloc}"
        page.evaluate(_FORGET)
        session = context.new_cdp_session(page)
        session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        session.detach()
    context.clear_cookies()
    context.unroute_all()
    page.unroute_all()
    context.set_offline(False)
    page.set_viewport_size(options["viewport"])
    page.emulate_media(media="null")
    page.goto("about:blank")


@contextmanager
def window(
    windows: dict[str, Any], browser: Any, kind: str, init_script: str = "", **options: Any
) -> Iterator[Any]:
    """A browser window of this kind (the options of ``browser.new_context``, and a script
    every page of it runs first, if any), as a new one: the one this process has open, handed
    back clean after the test (``_handed_back``), or a new one. A test that listens to the window
    removes its listener at its end; a test that listens to or routes every page of its window
    (the published site from the disk), or whose phones keep their games across two servers
    (the laptop that dies), opens a context of its own."""
    page = windows.get(kind)
    if page is None or page.is_closed():
        context = browser.new_context(**options)
        if init_script:
            context.add_init_script(path=init_script)
        page = context.new_page()
        windows[kind] = page
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        # a window the test closed (a phone switched off), or left in a state that cannot be
        # cleaned, goes with its context; the next test of its kind gets a new one
        if page.is_closed() or not _handed_back(page, options):
            del windows[kind]
            page.context.close()


@pytest.fixture
def desktop(browser, windows):
    with window(
        windows, browser, "desktop", viewport=DESKTOP, locale="de-DE", accept_downloads=True
    ) as page:
        yield page


@pytest.fixture
def phone(browser, windows):
    with window(
        windows,
        browser,
        "phone",
        viewport=PHONE,
        locale="de-DE",
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    ) as page:
        yield page


# the hall's phones: plain http:// on the hall's network, where no service worker runs
HALL_PHONE = {
    "viewport": PHONE,
    "locale": "de-DE",
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "service_workers": "block",
}


@pytest.fixture
def hall_phone(browser, windows):
    """A phone at a table in the hall, whose games wait in its own storage while the network is
    away (``static/js/table_queue.js``)."""
    with window(windows, browser, "hall-phone", **HALL_PHONE) as page:
        yield page


@pytest.fixture
def second_hall_phone(browser, windows):
    """Another phone at the same table, open at the same time as ``hall_phone``."""
    with window(windows, browser, "second-hall-phone", **HALL_PHONE) as page:
        yield page


# resolves once the browser has painted the page twice: a capture asked for before the first
# frame is painted is what Chromium refuses with "Unable to capture screenshot"
_PAINTED = """() => new Promise(done =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"""


def screenshots_wanted() -> bool:
    """Whether this run writes pictures for a person into ``screenshots/`` (``SCREENSHOTS=1``)."""
    return os.environ.get("SCREENSHOTS") == "1"


def shoot(page, name: str) -> None:
    """A full-page screenshot of what the page shows now, for a person to look at, where
    ``SCREENSHOTS=1`` asks for them; without it the test only waits until the page has painted,
    as it does before a picture, so that a test runs the same steps either way. Chromium now
    and then refuses a capture outright ("Unable to capture screenshot", a protocol error, not
    a page's fault) and takes the same picture when asked again a moment later: that one error
    earns one more try after the page has painted again; any other error, or a second refusal,
    fails the test."""
    from playwright.sync_api import Error

    page.evaluate(_PAINTED)
    if not screenshots_wanted():
        return
    SCREENSHOTS.mkdir(exist_ok=True)
    path = str(SCREENSHOTS / f"{name}.png")
    try:
        page.screenshot(path=path, full_page=True)
    except Error as refused:
        if "Unable to capture screenshot" not in str(refused):
            raise
        page.wait_for_timeout(250)
        page.evaluate(_PAINTED)
        page.screenshot(path=path, full_page=True)


def next_phone(page) -> None:
    """The page becomes the next person's phone as the server tells phones apart: it keeps no
    cookie of the one before (no session, form token or table link phone id). For a person who
    opens a link and taps on it; a phone whose own storage matters (the queue of games typed
    offline, its service worker) gets a window of its own. A new window (a Playwright context)
    with its first page costs Chromium as much as several page loads in one that is open."""
    page.context.clear_cookies()


def log_in(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/anmelden/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button.primary")
    page.wait_for_url(lambda url: "/anmelden/" not in url)


# the elements whose right edge lies beyond the window, widest first, for a failure's message
_STICKING_OUT = """() => [...document.body.querySelectorAll('*')]
  .map(e => [e, Math.round(e.getBoundingClientRect().right)])
  .filter(([e, right]) => right > window.innerWidth)
  .sort((a, b) => b[1] - a[1]).slice(0, 5)
  .map(([e, right]) => `<${e.tagName.toLowerCase()} class="${e.className}"> ends at ${right} px`)"""


def page_width(page) -> int:
    """How wide the page is once it has loaded (styles and scripts applied), as a person sees it:
    ``document.documentElement.scrollWidth``. A page that is wider than the window names the
    elements that stick out in the failure's message (``fits``)."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth")


def fits(page, width: int) -> tuple[bool, list[str]]:
    """Whether nothing of the loaded page sticks out sideways beyond ``width``, and if something
    does, what: ``ok, culprits = fits(page, 360); assert ok, culprits``."""
    wide = page_width(page)
    if wide <= width:
        return True, []
    return False, [f"{wide} px wide", *page.evaluate(_STICKING_OUT)]
