"""The player's day (issue 29) as the hall lives it, in a real browser, every step on the pages a
person uses: the director opens registration on the event form; 12 players register online on
their own phones, two land on the waiting list and the first moves up when somebody cancels on
their personal link; two desks check players in at the same time (one player tapped at both), a
walk-in is added, two registered players never come and the director removes them on the draw
page; the draw seats exactly the players present; each player opens the QR code of the printed
start card (read from the PDF with pdftoppm and zxing-cpp), sees table and seat, and the table's
players confirm the handed-in sheet each from a phone of their own, not the one that entered the
games; a reissued link stops the old one. And as a thief would try it (issue 43): one person with
their own personal link cannot confirm the other seats through the table link it reveals, whatever
phone id they send; a scorer confirms a seat on the player's word and the history names them; a
reissued personal link takes the table link it revealed away from its old holder."""

from __future__ import annotations

import os
import re
import shutil
from typing import Any

import pytest

from tests.browser.conftest import PHONE, log_in, next_phone, shoot
from tests.browser.test_day import enter_game, read_qr_codes
from tests.factories import make_event, make_player, make_role, make_round, make_user
from tournament.models import Entry, Event, Player, Seat
from tournament.register import services as register_services

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "ein-langes-passwort-2026"
SLUG = "fruehjahrsturnier-furtwangen"
# twelve players who register online; the capacity is ten. The smallest hall that still has
# everything of the day: a waiting list of two, start cards on more than one page (eight to an A4
# page: the nine who play), and a table of four in the draw (nine players: a four and a five)
ONLINE = [
    ("Anna", "Kaltenbach"), ("Bernd", "Faller"), ("Clara", "Dold"), ("Dieter", "Kienzler"),
    ("Erika", "Wehrle"), ("Franz", "Hettich"), ("Gerda", "Scherzinger"), ("Hubert", "Ketterer"),
    ("Irma", "Duffner"), ("Josef", "Rombach"), ("Karin", "Blessing"), ("Lothar", "Fehrenbach"),
]  # fmt: skip
CAPACITY = 10
WALK_IN = ("Walter", "Spontan")
GAMES = [
    {"contract": "halbe", "declarer": 0, "declarer_points": 45},
    {"contract": "halbe", "declarer": 1, "declarer_points": 60},
]


def new_phone(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def register_online(page: Any, base: str, first: str, last: str) -> str:
    """One player registers on their own phone; the personal link the page sends them to."""
    next_phone(page)
    page.goto(f"{base}/turnier/{SLUG}/")
    page.click(f"a[href$='/turnier/{SLUG}/anmeldung/']")
    page.fill("input[name=first_name]", first)
    page.fill("input[name=last_name]", last)
    page.fill("input[name=club]", "CC Furtwangen")
    page.check("input[name=consent]")
    with page.expect_navigation():
        page.click("form.card button.primary")
    assert re.search(r"/m/[\w-]+/$", page.url), page.url
    return page.url


def counters(page: Any) -> dict[str, int]:
    items = page.eval_on_selector_all("ul.counters li", "lis => lis.map(li => li.innerText.trim())")
    return {text.split(" ", 1)[1]: int(text.split(" ", 1)[0]) for text in items}


def search(page: Any, base: str, query: str) -> None:
    page.goto(f"{base}/turnier/{SLUG}/checkin/")
    page.fill("#checkin-q", query)
    with page.expect_navigation():
        page.press("#checkin-q", "Enter")


def tap_check_in(page: Any) -> str:
    with page.expect_navigation():
        page.click(".checkin-row form.actions button.primary")
    return page.inner_text(".messages")


def test_registration_check_in_draw_start_cards_and_personal_links(
    live_server, browser, desktop, phone, tmp_path
):
    if not shutil.which("pdftoppm"):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("pdftoppm is missing; .ci/run installs Debian's poppler-utils package")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    base = live_server.url
    make_user("leiterin", PASSWORD)
    desk = desktop
    log_in_desk(desk, base)

    # 1. The director creates the event and opens registration: 18 places and a waiting list
    desk.goto(f"{base}/turnier/neu/")
    desk.fill("input[name=name]", "Frühjahrsturnier Furtwangen")
    desk.fill("input[name=date]", "2027-03-13")
    desk.select_option("select[name=game]", "cego")
    desk.select_option("select[name=table_policy]", "mixed")
    desk.fill("input[name=hands_per_round]", str(len(GAMES)))
    desk.check("input[name=registration_open]")
    desk.fill("input[name=capacity]", str(CAPACITY))
    desk.check("input[name=waiting_list]")
    desk.click("#event-form button.primary")
    desk.wait_for_url(re.compile(rf"/turnier/{SLUG}/"))

    # 2. Twelve players register on their phones: ten places, then the waiting list in order
    # (``next_phone``: one player's phone after the other's, as the server tells phones apart)
    page = phone
    links = {name: register_online(page, base, *name) for name in ONLINE}
    next_phone(page)
    page.goto(f"{base}/turnier/{SLUG}/teilnehmer/")
    shoot(page, "player-day-participants-de-phone")
    listed = page.inner_text("main")
    assert all(f"{first} {last}" in listed for first, last in ONLINE)
    first_waiting, second_waiting = ONLINE[CAPACITY], ONLINE[CAPACITY + 1]
    page.goto(links[first_waiting])
    assert "Warteliste, Platz 1" in page.inner_text("main")
    page.goto(links[second_waiting])
    assert "Warteliste, Platz 2" in page.inner_text("main")

    # one registered player cancels on their own link: the first on the waiting list moves up
    cancelling = ONLINE[3]
    page.goto(links[cancelling])
    page.click("details summary:has-text('Meine Anmeldung absagen')")
    page.check("input[name=sure]")
    with page.expect_navigation():
        page.click("details button.danger")
    assert "Diese Anmeldung ist abgesagt oder zurückgezogen." in page.inner_text("main")
    page.goto(links[first_waiting])
    assert "Warteliste" not in page.inner_text("main")
    assert "Sie sind angemeldet." in page.inner_text("main")
    page.goto(links[second_waiting])
    assert "Warteliste, Platz 1" in page.inner_text("main")

    # 3. The morning: two desks check in at once; two registered players never come
    registered = [name for name in ONLINE[: CAPACITY + 1] if name != cancelling]
    assert len(registered) == CAPACITY
    never_come = registered[-2:]
    coming = registered[:-2]
    second_context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    second_desk = second_context.new_page()
    second_desk.set_default_timeout(15_000)
    log_in_desk(second_desk, base)
    # the first player is found on both desks and tapped on both: one check-in, and the desk
    # that tapped second is told so
    first, last = coming[0]
    search(desk, base, last)
    search(second_desk, base, f"{first} {last}")
    assert f"{first} {last} (" in tap_check_in(second_desk)
    assert "war schon eingecheckt (an einem anderen Platz)" in tap_check_in(desk)
    search(desk, base, last)
    assert desk.locator(".checkin-row.present").count() == 1
    # the others, at whichever desk is free
    for i, (first, last) in enumerate(coming[1:]):
        at = desk if i % 2 else second_desk
        search(at, base, last)
        assert f"{first} {last}" in tap_check_in(at)
    # a walk-in is registered from the same box: nobody found, the walk-in form opens filled in
    search(desk, base, f"{WALK_IN[0]} {WALK_IN[1]}")
    walk_in = desk.locator("details[open]:has-text('Nachmeldung: ein neuer Spieler')")
    assert walk_in.locator("input[name=last_name]").input_value() == WALK_IN[1]
    with desk.expect_navigation():
        walk_in.locator("button.primary").click()
    assert "angemeldet und eingecheckt" in desk.inner_text(".messages")
    second_desk.goto(f"{base}/turnier/{SLUG}/checkin/")
    shoot(second_desk, "player-day-checkin-de-desktop")
    assert counters(second_desk) == {
        "angemeldet": len(registered) + 1,  # the walk-in is registered too
        "anwesend": len(coming) + 1,
        "fehlen": 2,
        "Nachmeldungen": 1,
        "Warteliste": 1,
    }
    second_context.close()

    # 4. The draw: the page names who did not come; the director removes them, then draws
    desk.goto(f"{base}/turnier/{SLUG}/")
    desk.click("form[action$='/durchgang/neu/'] button")
    desk.wait_for_url(re.compile(r"/durchgang/1/$"))
    missing = desk.inner_text("#missing")
    assert all(f"{f} {la}" in missing for f, la in never_come)
    with desk.expect_navigation():
        desk.click("form[action$='/checkin/fehlende/'] button")
    with desk.expect_navigation():
        desk.click("form[action$='/draw/'] button")
    seated = set(
        Seat.objects.filter(round__event__slug=SLUG, table__isnull=False).values_list(
            "entry__player__last_name", flat=True
        )
    )
    assert seated == {last for _f, last in coming} | {WALK_IN[1]}
    with desk.expect_navigation():
        desk.click("form[action$='/start/'] button")

    # 5. The start cards: every QR code, read from the printed PDF, is one present player's link
    desk.goto(f"{base}/turnier/{SLUG}/startkarten/")
    pdf = desk.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    printed = read_qr_codes(pdf, tmp_path)
    assert [len(codes) for codes in printed] == [8, 1]  # eight cards to an A4 page
    decoded = [code for page_codes in printed for code in page_codes]
    event = Event.objects.get(slug=SLUG)
    present = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
    assert sorted(decoded) == sorted(f"{base}{e.get_link_url()}" for e in present)
    assert len(decoded) == len(coming) + 1
    # each player opens their code on a phone and reads their table and seat
    by_link = {f"{base}{e.get_link_url()}": e for e in present}
    for code in decoded:
        next_phone(page)
        page.goto(code)
        seat = Seat.objects.get(entry=by_link[code], round__number=1)
        heading = page.inner_text("#seat-heading")
        assert heading == f"Durchgang 1: Tisch {seat.table.number}, Platz {seat.position + 1}"
        assert page.locator("ol.mates li").count() == seat.table.seats.count()

    # 6. One phone enters the table's games through the link on a player's own page ...
    # (a table of four: the games below are four-player Cego games)
    table = next(
        seat.table
        for seat in Seat.objects.filter(round__number=1, round__event=event, table__isnull=False)
        .select_related("table")
        .order_by("table__number")
        if seat.table.seats.count() == 4
    )
    players = [s.entry for s in table.seats.order_by("position").select_related("entry")]
    entering_context, entering = new_phone(browser)
    entering.goto(f"{base}{players[0].get_link_url()}")
    entering.click("a.button.primary.big")
    for game in GAMES:
        enter_game(entering, game)
    with entering.expect_navigation():
        entering.click("form.hand-in button")
    # ... and each player confirms on a phone of their own, through their personal link
    for i, player in enumerate(players):
        next_phone(page)
        page.goto(f"{base}{player.get_link_url()}")
        with page.expect_navigation():
            page.click("form[action$='/confirm/'] button")
        done = "Von allen Spielern bestätigt." if i == len(players) - 1 else "Sie haben diese"
        assert done in page.inner_text("main")
        if i == len(players) - 1:
            shoot(page, "player-day-personal-de-phone")
    entering_context.close()

    # 7. A lost phone: the desk reissues the link; the old one stops, the new card works
    lost = players[1]
    old = f"{base}{lost.get_link_url()}"
    search(desk, base, lost.player.last_name)
    desk.click(".checkin-row details summary")
    with desk.expect_navigation():
        desk.click("button[name=action][value=reissue]")
    assert "alte" in desk.inner_text(".messages")
    next_phone(page)
    assert page.goto(old).status == 404
    desk.goto(f"{base}/turnier/{SLUG}/startkarten/?entry={lost.pk}")
    pdf = desk.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    (tmp_path / "one").mkdir()
    [[new]] = read_qr_codes(pdf, tmp_path / "one")
    assert new != old
    assert page.goto(new).status == 200
    assert page.inner_text("h1") == str(lost.player)


def log_in_desk(page: Any, base: str) -> None:
    from tests.browser.conftest import log_in

    log_in(page, base, "leiterin", PASSWORD)


def test_a_known_name_typed_online_waits_for_the_desk_and_the_desk_joins_the_real_player(
    live_server, desktop, phone
):
    """Issue 43.1 and 43.2 as the public, the player and a thief live it: a stranger who types a
    known player's name, club and town gets a registration of their own and learns nothing about
    the known player; the real player, who leaves the town empty and gives a category, registers
    at the first try; the desk sees the real player and joins the registration to the known
    player, whose page then lists both events and the category."""
    base = live_server.url
    make_user("leiterin", PASSWORD)
    known = Player.objects.create(
        first_name="Egon", last_name="Meier", club="CC Furtwangen", town="Furtwangen"
    )
    earlier = make_event(name="Herbstturnier Triberg", slug="herbst")
    Entry.objects.create(event=earlier, player=known, start_number=1)
    event = make_event(name="Wintercup", slug="wintercup", registration_open=True)

    def register_as(town: str, category: str) -> tuple[str, str]:
        page = phone
        next_phone(page)
        page.goto(f"{base}/turnier/{event.slug}/anmeldung/")
        page.fill("input[name=first_name]", "Egon")
        page.fill("input[name=last_name]", "Meier")
        page.fill("input[name=club]", "CC Furtwangen")
        page.fill("input[name=town]", town)
        if category:
            page.select_option("select[name=category]", category)
        page.check("input[name=consent]")
        seen = page.content()
        with page.expect_navigation():
            page.click("form.card button.primary")
        assert re.search(r"/m/[\w-]+/$", page.url), page.url  # registered at the first send
        seen += page.content()
        shown = page.inner_text("main")
        assert str(known.uid) not in seen  # nobody's identifier handed out
        return page.url, shown

    # the thief types everything the public lists and pages show
    _thief_link, thief_sees = register_as("Furtwangen", "")
    assert "Herbstturnier Triberg" not in thief_sees
    assert "Am Check-in fragt" in thief_sees  # the desk will ask who they are
    # the real player leaves the town empty and registers as a senior: no question, no refusal
    _link, _shown = register_as("", "senioren")
    assert known.entries.count() == 1  # the known player is entered by nobody yet

    desk = desktop
    log_in_desk(desk, base)
    search_event = f"{base}/turnier/{event.slug}/checkin/"
    desk.goto(search_event)
    desk.fill("#checkin-q", "Meier")
    with desk.expect_navigation():
        desk.press("#checkin-q", "Enter")
    rows = desk.locator(".checkin-row")
    assert rows.count() == 2
    shoot(desk, "checkin-known-name-de-desktop")
    # the desk asks the person in front of it: the one who typed no town is the known player
    real = rows.filter(has_text="Senioren").first
    real.locator(f"input[name=known][value='{known.uid}']").check()
    with desk.expect_navigation():
        real.locator("button.primary").click()
    assert "ist eingecheckt" in desk.inner_text(".messages")
    # the stranger never came: still waiting for the desk, not checked in, not the known player
    stranger = Entry.objects.get(event=event, present_at__isnull=True)
    assert stranger.identity_pending and stranger.player != known

    # the known player in the register: both events, one person, the category typed online
    desk.goto(f"{base}/spielerverzeichnis/{known.uid}/")
    shown = desk.inner_text("main")
    assert "Herbstturnier Triberg" in shown and "Wintercup" in shown
    assert desk.locator("select[name=category]").input_value() == "senioren"


# --- issue 43: one person cannot confirm every seat; a reissue takes the table away -------------

TABLE = [("Agathe", "Kaltenbach"), ("Benno", "Faller"), ("Cilli", "Dold"), ("Dominik", "Kienzler")]


def table_of_four(games: int) -> tuple[Any, Any, list[Entry]]:
    """An event whose first round is being played at one table of four named players."""
    event = make_event(hands_per_round={"4": games})
    for first, last in TABLE:
        player = make_player(first_name=first, last_name=last)
        register_services.register_player(event=event, player=player)
    table = make_round(event).tables.get()
    seated = [s.entry for s in table.seats.order_by("position").select_related("entry__player")]
    return event, table, seated


def confirm_by_hand(page: Any, position: int) -> str:
    """What a person who knows the old form sends to the table link: a confirmation of a seat,
    with the form token the page gives; the message the page shows after it."""
    with page.expect_navigation():
        page.evaluate(
            """position => {
              const form = document.createElement("form");
              form.method = "post";
              form.action = location.pathname + "confirm/";
              for (const [name, value] of [
                ["csrfmiddlewaretoken",
                 document.querySelector("[name=csrfmiddlewaretoken]").value],
                ["position", String(position)],
              ]) {
                const input = document.createElement("input");
                input.type = "hidden";
                input.name = name;
                input.value = value;
                form.appendChild(input);
              }
              document.body.appendChild(form);
              form.submit();
            }""",
            position,
        )
    return page.inner_text(".messages")


def test_one_person_cannot_confirm_the_other_seats_each_confirms_their_own_or_the_scorer(
    live_server, browser, desktop, phone
):
    base = live_server.url
    event, table, seated = table_of_four(games=len(GAMES))
    scorer = make_role(event, "scorer", "schreiberin")
    scorer.set_password(PASSWORD)
    scorer.save()
    names = [str(entry.player) for entry in seated]

    # the thief: one person with their own personal link opens the table link it reveals,
    # enters the games and hands the sheet in, as a table does
    thief_context, thief = new_phone(browser)
    thief.goto(f"{base}{seated[0].get_link_url()}")
    with thief.expect_navigation():
        thief.click("a.button.primary.big")
    table_url = thief.url
    assert table.token not in table_url  # the personal page's own key, not the table's token
    for game in GAMES:
        enter_game(thief, game)
    with thief.expect_navigation():
        thief.click("form.hand-in button")
    confirm_card = thief.inner_text(".confirm")
    assert "Ich bin" not in confirm_card  # the table link offers no seat to confirm
    assert "über seinen persönlichen Link" in confirm_card
    # ... and tries to confirm the other three seats, a new phone id (fresh cookies) each time
    for position in (1, 2, 3):
        thief_context.clear_cookies()
        thief.goto(table_url)
        said = confirm_by_hand(thief, position)
        assert "Der Tisch-Link bestätigt keinen Platz." in said, said
        assert "persönlichen Link" in said
    assert thief.locator(".confirm p.confirmed").count() == 0
    thief_context.close()

    # each of three players confirms their own seat on their own personal link
    page = phone
    for position in (0, 1, 2):
        next_phone(page)
        page.goto(f"{base}{seated[position].get_link_url()}")
        with page.expect_navigation():
            page.click("form[action$='/confirm/'] button")
        assert "Sie haben diese Liste bestätigt." in page.inner_text("main")

    # the fourth has no phone: the scorer confirms the seat on the player's word
    log_in(desktop, base, "schreiberin", PASSWORD)
    desktop.goto(f"{base}/tisch/{table.pk}/")
    assert desktop.locator(".confirm-seat button").count() == 1
    with desktop.expect_navigation():
        desktop.click(f".confirm-seat button:has-text('Für {names[3]} auf Zusage bestätigen')")
    assert f"{names[3]} auf Zusage bestätigt" in desktop.inner_text(".messages")
    assert "Bestätigt" in desktop.inner_text(".banner.ok")
    # the history says who vouched for the fourth seat
    desktop.goto(f"{base}/tisch/{table.pk}/verlauf/")
    row = desktop.locator("table.history tr", has_text="auf Zusage des Spielers")
    assert row.count() == 1
    assert "schreiberin" in row.inner_text()
    assert names[3] in row.inner_text()
    for name in names[:3]:
        mine = desktop.locator("table.history tr", has_text=f"Bestätigung von {name}")
        assert "persönlicher Link" in mine.first.inner_text()
    # and the table's phones say the sheet is confirmed
    next_phone(page)
    page.goto(f"{base}{table.get_link_url()}")
    assert "Von allen Spielern bestätigt." in page.inner_text(".banner.ok")


def test_a_reissued_personal_link_takes_the_table_away_from_its_old_holder(
    live_server, browser, desktop, phone
):
    base = live_server.url
    event, table, seated = table_of_four(games=3)
    desk_user = make_role(event, "organiser", "kasse")
    desk_user.set_password(PASSWORD)
    desk_user.save()
    lost, other = seated[0], seated[1]

    # the holder of the lost link opens the table from it and enters a game
    holder_context, holder = new_phone(browser)
    holder.goto(f"{base}{lost.get_link_url()}")
    with holder.expect_navigation():
        holder.click("a.button.primary.big")
    revealed = holder.url
    enter_game(holder, GAMES[0])

    # the desk reissues the lost link
    log_in(desktop, base, "kasse", PASSWORD)
    desktop.goto(f"{base}/turnier/{event.slug}/checkin/?q={lost.player.last_name}")
    desktop.click(".checkin-row details summary")
    with desktop.expect_navigation():
        desktop.click("button[name=action][value=reissue]")
    assert "alte" in desktop.inner_text(".messages")

    # the old holder's table link admits them no more, on the same phone or a fresh one
    response = holder.goto(revealed)
    assert response.status == 403
    said = holder.inner_text("main")
    assert "Dieser Tisch-Link stammt von einem persönlichen Link, der ersetzt worden ist" in said
    assert holder.locator("#hand-form").count() == 0
    holder_context.close()
    page = phone
    assert page.goto(revealed).status == 403

    # the other players' access works as before: their own page's table link, and the printed one
    next_phone(page)
    page.goto(f"{base}{other.get_link_url()}")
    with page.expect_navigation():
        page.click("a.button.primary.big")
    assert "Spiel 2 gespeichert" in enter_game(page, GAMES[1])
    page.goto(f"{base}{table.get_link_url()}")
    assert page.locator("#hand-form").count() == 1
