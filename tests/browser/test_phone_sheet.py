"""The table link's sheet on a phone, as the players read it: every column heading tells its
player apart from the others at the table, and none is cut off; at every table size of every
game, on a 360 and a 390 px phone, the sheet and the check before handing in neither scroll the
page sideways, nor break a name inside a word, nor run numbers together."""

from __future__ import annotations

import random
from importlib import import_module

import pytest
from django.utils.module_loading import import_string

from tests.browser.conftest import PHONE, fits, shoot
from tests.factories import make_table
from tournament import games
from tournament.models import Player
from tournament.play import hands
from tournament.play.sheets import read_sheet

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


# Every game at every table size it allows (tournament.games: min_seats to max_seats)
TABLE_SIZES = [
    (game.key, size)
    for game in (import_module(path).GAME for path in games.BUILT_IN)
    for size in range(game.min_seats, game.max_seats + 1)
]
# the narrowest phone of the outside tryout and a common one (issue 43.8: "Wolfgan / g H." at 390)
WIDTHS = (360, 390)
# long first names, and two pairs the sheet tells apart by more than one letter
NAMES = [
    ("Wolfgang", "Hummel"),
    ("Maximilian", "Fehrenbach"),
    ("Hans-Jürgen", "Ketterer-Schwörer"),
    ("Annemarie", "Bräunlinger"),
    ("Egon", "Maier"),
    ("Egon", "Müller"),
    ("Christiane", "Wehrle"),
    ("Friedhelm", "Dold"),
    ("Roswitha", "Duffner"),
    ("Bernhard", "Faller"),
    ("Adelheid", "Kirner"),
    ("Gisela", "Kienzler"),
]

# What a person sees wrong on the table link, one line each: the page scrolling sideways, a table
# wider than the page that does not scroll inside its own labelled region, a word of a player's
# name broken inside (a break after a hyphen is a break between words), a cell's text spilling
# out of its cell into the next one, and a game's line cut off at the region's edge.
WHAT_IS_WRONG = """() => {
  const wrong = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > root.clientWidth) {
    wrong.push(`the page scrolls sideways: ${root.scrollWidth} px in ${root.clientWidth} px`);
  }
  const shown = el => {
    const nodes = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode;
      if (node.data.trim() && !node.parentElement.closest('.visually-hidden')) nodes.push(node);
    }
    return nodes;
  };
  const rects = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return [...range.getClientRects()].filter(r => r.width > 0);
  };
  const text = el => shown(el).map(n => n.data.trim()).join(' ');
  for (const el of document.querySelectorAll('table.phone-sheet thead th, .totals-strip .who')) {
    for (const node of shown(el)) {
      for (const word of node.data.matchAll(/[^\\s-]+-?/g)) {
        const lines = new Set(rects(node, word.index, word.index + word[0].length)
          .map(r => Math.round(r.bottom)));
        if (lines.size > 1) wrong.push(`"${word[0]}" is broken inside in "${text(el)}"`);
      }
    }
  }
  const box = el => {
    const all = shown(el).flatMap(n => rects(n, 0, n.data.length));
    if (!all.length) return null;
    return {left: Math.min(...all.map(r => r.left)), right: Math.max(...all.map(r => r.right)),
            top: Math.min(...all.map(r => r.top)), bottom: Math.max(...all.map(r => r.bottom))};
  };
  const rows = [...document.querySelectorAll('table.phone-sheet tr')]
    .map(tr => [...tr.children]);
  document.querySelectorAll('.totals-strip').forEach(strip => rows.push([...strip.children]));
  for (const cells of rows) {
    const boxes = cells.map(cell => [cell, box(cell), cell.getBoundingClientRect()]);
    for (const [cell, inner, outer] of boxes) {
      if (inner && (inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5)) {
        wrong.push(`"${text(cell)}" spills out of its cell`);
      }
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i][1], boxes[j][1]];
        if (a && b && a.left < b.right - 0.5 && b.left < a.right - 0.5
            && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
          wrong.push(`"${text(boxes[i][0])}" runs into "${text(boxes[j][0])}"`);
        }
      }
    }
  }
  for (const sheet of document.querySelectorAll('table.phone-sheet')) {
    const edge = sheet.parentElement.getBoundingClientRect();
    if (sheet.getBoundingClientRect().right <= root.clientWidth) continue;
    const region = sheet.closest('[role=region]:is([aria-label], [aria-labelledby])');
    if (!region || region.scrollWidth <= region.clientWidth) {
      wrong.push('the sheet is wider than the page and scrolls in no labelled region of its own');
      continue;
    }
    const seen = region.getBoundingClientRect();
    for (const td of sheet.querySelectorAll('tr.desc td')) {
      const line = box(td);
      if (line && line.right > seen.right + 0.5) wrong.push(`"${text(td)}" is cut off at the edge`);
    }
  }
  return wrong;
}"""


# how far the sheet's columns scroll sideways inside their region (0: every column in view)
HIDDEN = """() => {
  const sheet = document.querySelector('table.phone-sheet');
  const region = sheet.closest('[role=region]') || sheet.parentElement;
  return region.scrollWidth - region.clientWidth;
}"""


@pytest.fixture(scope="module")
def sheet_phone(browser):
    """One phone for every game and table size: the cases only read pages, each table's and
    player's under an address of its own (the table's token, the player's key), and each state
    opens them with the cookies cleared, as a phone that comes to the link for the first time.
    A fresh phone per case cost more than the case's own pages (a browser window and its first
    page)."""
    context = browser.new_context(
        viewport={"width": WIDTHS[0], "height": PHONE["height"]},
        locale="de-DE",
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _play(table, numbers) -> None:
    simulate = import_string(table.round.event.game_type.simulator)
    rng = random.Random(table.size)
    for number in numbers:
        hands.record_hand(table=table, data=simulate(rng, table.size, number))


def _play_to_the_end(table, number: int) -> None:
    """The round's games from ``number`` on; without a fixed number of games (Hennes Sibbe) up
    to the first moment between two games, when the sheet may be handed in."""
    wanted = table.round.event.hands_for(table.size)
    if wanted is not None:
        _play(table, range(number, wanted + 1))
        return
    while not read_sheet(table).complete:
        _play(table, [number])
        number += 1


def _what_is_wrong(page, size: int) -> list[str]:
    """What a person sees wrong on the page; a table of four (every Ziege table, most Cego
    tables) shows all its columns at once, even with long first names."""
    wrong = page.evaluate(WHAT_IS_WRONG)
    hidden = page.evaluate(HIDDEN)
    if size <= 4 and hidden > 0:
        wrong.append(f"the sheet of a table of {size} scrolls sideways by {hidden} px")
    return wrong


@pytest.mark.parametrize(("game", "size"), TABLE_SIZES, ids=[f"{g}-{n}" for g, n in TABLE_SIZES])
def test_the_sheet_and_the_check_before_handing_in_read_on_any_phone(
    live_server, sheet_phone, game, size
):
    """Issue 43.8: the table link as the table's phone opens it, at 360 and 390 px, for every game
    and table size: while the games are entered, and when the players check the sheet before
    handing it in; and a player's own page, which shows the same sheet.

    Each page is loaded once on the 360 px phone and then looked at on the 390 px one by
    widening the window: what these checks read is the layout, which the browser lays out anew
    for the new width (nothing on these pages is laid out by a script that reads the width; a
    fresh load at 390 px gave every element the same box, to the hundredth of a pixel, at every
    game and table size)."""
    table = make_table(game, size)
    for seat, (first, last) in zip(table.seats.order_by("position"), NAMES, strict=False):
        Player.objects.filter(pk=seat.entry.player_id).update(first_name=first, last_name=last)
    _play(table, range(1, size + 1))
    url = f"{live_server.url}{table.get_link_url()}"
    personal = f"{live_server.url}{table.seats.get(position=0).entry.get_link_url()}"
    page = sheet_phone
    seen = {}
    for state in ("sheet", "check"):
        if state == "check":
            _play_to_the_end(table, size + 1)
        page.context.clear_cookies()  # a phone that opens the link for the first time
        # while games are entered the game form is shown; for the check, the hand-in button;
        # a player's own page shows the same sheet, inside a card
        shown = "form#hand-form" if state == "sheet" else "form.hand-in"
        for where, address, expected in (
            ("", url, shown),
            ("personal page, ", personal, "table.phone-sheet"),
        ):
            page.set_viewport_size({"width": WIDTHS[0], "height": PHONE["height"]})
            page.goto(address)
            page.wait_for_load_state("load")
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": PHONE["height"]})
                assert page.evaluate("window.innerWidth") == width
                assert page.locator(expected).count() == 1, (state, width)
                name = "personal" if where else "phone"
                shoot(page, f"{name}-{state}-{game}-{size}-{width}")
                seen[f"{where}{state} at {width} px"] = _what_is_wrong(page, size)
    wrong = {where: found for where, found in seen.items() if found}
    assert wrong == {}, "\n".join(
        f"{where}: {line}" for where, lines in wrong.items() for line in lines
    )
