"""The table link: the players' own page for their table, opened from the sheet's QR code.

It needs no login; the unguessable token is the permission (``access.link_may_enter``). While
the round is played and the sheet is not handed in, it enters the table's games; after the last
game it offers to hand in the sheet. From then on the page shows the sheet read-only, and who has
confirmed it: it confirms no seat (issue 43). Each player confirms their own seat on their
personal link, or with a scorer on their word.

The link comes in two kinds: the table's own token, printed as the sheet's QR code, and the key a
player's personal page hands out (``access.personal_table_key``), bound to the personal link's
current token and checked on every request, so that a reissued personal link takes the table away
from whoever holds the old one. The page links back to itself under the key it was opened with.

Each phone gets a random id in a long-lived cookie the first time it opens a link; the history
names the phone that entered a game.

The sheet (its totals, its games and what the page needs to know of them) is the same on every
phone of the table and on its players' personal pages: it is computed once per version of the
table's sheet (``play.reads.table_state``) and kept in the page cache (``common.table_sheet``).
Until the sheet is handed in the whole page is kept too (``link_page``), and only the form token
and the game form's one-time key are made per request; after, which seat this phone confirmed
is.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import access
from tournament.core import errors as core_errors
from tournament.core.fields import ReasonForm, whole_number
from tournament.games.words import describe_hand
from tournament.models import Confirmation, Entry, Hand, Round, Table
from tournament.pagecache.pages import Page, part
from tournament.play import confirmations, hands
from tournament.play.forms import hand_form_class
from tournament.play.reads import TableState, table_state
from tournament.play.sheets import dealer_for, stored_results
from tournament.views.common import (
    SHEET_FACTS,
    enter_hand,
    refused,
    row_values,
    table_players,
    table_sheet,
)


class LinkReplaced(Exception):
    """A table key from a personal link that has been reissued since: it admits nobody."""


def _replaced_message() -> str:
    return _(
        "This table link came from a personal link that has been replaced, so it no longer "
        "works. Open your table from your new personal link, or scan the QR code on the table's "
        "sheet."
    )


def _replaced(request: HttpRequest) -> HttpResponse:
    context = {"message": _replaced_message()}
    return render(request, "tournament/link_replaced.html", context, status=403)


def _replaced_json() -> JsonResponse:
    """For the phone's queue (static/js/table_queue.js): a refusal it keeps with the game and
    shows, then it loads the page, which says the same."""
    refusal = {"ok": False, "kind": "refused", "message": _replaced_message()}
    return JsonResponse(refusal, status=403)


# read for every request of a table link, every saved game too
def _link_table(request: HttpRequest, token: str) -> Table:
    """The table of a link, by the table's own token or a personal page's key; the request
    remembers it, the key it came by and the phone, so the page links under the same key and
    the history names table and phone. Raises ``LinkReplaced`` for a key of a reissued personal
    link (two queries for a key, one for a token)."""
    parts = access.personal_key_parts(token)
    if parts is not None:
        table_id, entry_id, mac = parts
        table = Table.objects.select_related("round__event").filter(pk=table_id).first()
        # the entry's current token, if the entry sits at that table
        held = (
            Entry.objects.filter(pk=entry_id, seats__table_id=table_id)
            .values_list("token", flat=True)
            .first()
        )
        if table is None or held is None:
            raise Http404
        if not access.personal_key_holds(table_id, entry_id, mac, held):
            raise LinkReplaced
    else:
        table = (
            Table.objects.select_related("round__event").filter(token=token).first()
            if 16 <= len(token) <= 64
            else None
        )
        if table is None:
            raise Http404
    request.table_link = table
    request.link_key = token
    request.link_device = access.link_device(request)
    return table


def _with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Give a phone its id the first time it opens a table link, and keep it a year from then."""
    if not request.link_device:
        response.set_cookie(
            access.LINK_DEVICE_COOKIE,
            access.new_device_id(),
            max_age=access.LINK_DEVICE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


def read_only_reason(table: Table) -> str:
    """Why the link takes no games (the template says it in words), or "" while it does."""
    if table.confirmed_at is not None:
        return "confirmed"
    if table.voided:
        return "voided"
    if table.round.status == Round.Status.CLOSED:
        return "closed"
    if table.submitted_at is not None:
        return "handed_in"
    if table.round.status != Round.Status.PLAYING:
        return "not_started"
    return ""


# what the page kept whole holds in place of what is made for each request: the form token and
# the game form's one-time key (``link_page``)
CSRF_MARK = "form-token-of-this-request"
SUBMISSION_MARK = "submission-key-of-this-request"


def link_page(request: HttpRequest, table: Table, state: TableState) -> Page:
    """The table link's page while its sheet is not handed in, kept whole per version of what it
    shows (the sheet, the table's, round's and event's rows) and language: every phone of the
    table reloads it after each game, and rendering the game form's inputs was most of its
    cost (issue 29). What belongs to the one request goes in for each one: a form token, and a
    new one-time key for the next game, so that two phones never send the same key."""
    event = table.round.event
    shown = (
        state.version,
        row_values(table),
        row_values(table.round),
        row_values(event),
        request.link_key,  # the page's addresses name it
    )
    return Page(
        request,
        "table_link",
        table.pk,
        shown,  # the page's key is a digest of it
        live={CSRF_MARK: get_token(request), SUBMISSION_MARK: str(uuid.uuid4())},
    )


def table_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        table = _link_table(request, token)
    except LinkReplaced:
        return _replaced(request)
    may_enter = access.link_may_enter(table)
    if request.method == "POST" and not may_enter:
        messages.error(request, _("This table cannot enter games now."))
        return redirect(request.path)
    form_context: dict[str, Any] = {}
    state = table_state(table)  # the players' names, and the sheet's version if it is shown
    # before a sheet is handed in the page is the same on every phone but for the form's token
    # and key; after, it shows who has confirmed
    page = (
        link_page(request, table, state)
        if request.method == "GET" and table.submitted_at is None
        else None
    )
    if page is not None and (ready := page.ready()) is not None:
        return _with_device(request, ready)
    if may_enter:
        # a saved game answers with a redirect at once: the sheet is read only to be shown
        players = [seat.name for seat in state.seats]
        response = enter_hand(request, table, players, form_context)
        if response is not None:
            return response
    sheet = table_sheet(table, state)
    context = {
        "event": table.round.event,
        "round": table.round,
        "table": table,
        "link_key": request.link_key,
        **{name: sheet[name] for name in SHEET_FACTS},
        "totals_html": mark_safe(sheet["totals"]),  # our own templates rendered it
        "sheet_html": mark_safe(sheet["sheet"]),
        **form_context,
    }
    complete = context["complete"]
    context["may_enter"] = may_enter
    # after the round's last game the page asks to hand in the sheet instead of offering a form
    # for a game the round does not have (issue 10)
    context["show_form"] = may_enter and not context["form_done"]
    # a round without a fixed number of games (Hennes Sibbe) is handed in between two games,
    # when the round's time is up
    context["may_hand_in"] = may_enter and sheet["last_hand"] is not None and complete
    context["read_only"] = read_only_reason(table)
    context["may_confirm"] = access.player_may_confirm(table)
    # only a handed-in sheet is confirmed: before, there is nothing to read
    confirmed = (
        set(Confirmation.objects.filter(table_id=table.pk).values_list("position", flat=True))
        if table.submitted_at is not None
        else set()
    )
    context["seat_rows"] = [
        {"position": i, "name": name, "confirmed": i in confirmed}
        for i, name in enumerate(context["players"])
    ]
    context["last_hand"] = sheet["last_hand"]
    # absent from a sheet kept by a release before it: the phone then sends nothing again
    context["stored_games"] = sheet.get("stored")
    context["undo_form"] = ReasonForm()
    context["dealers"] = _dealers(
        table, context["players"], context["next_number"], context["next_dealer"]
    )
    if page is None:
        if context["show_form"]:
            context["forms_ahead"] = _forms_ahead(table, context["players"], context["next_number"])
        return _with_device(request, render(request, "tournament/link.html", context))
    # rendered with the marks, which the page puts this request's token and key in place of
    context["csrf_token"] = CSRF_MARK
    if context["show_form"]:
        context["form_parts"] = _form_parts(
            table, context["form"], context["players"], context["next_number"]
        )
    return _with_device(
        request, page.serve(lambda: render(request, "tournament/link.html", context))
    )


def _form_parts(table: Table, form: Any, players: list[str], first: int) -> dict[str, str]:
    """The game form's inputs as a phone gets them for the table's next game, and those of the
    games after it (``_forms_ahead``). They change with the players, the rules and, where the
    dealer sits out, with the game's number, but not with each game saved: rendered once per
    table and language and kept in the page cache, with the one-time key's mark in place of a
    key (rendering them was most of a new version's page, issue 29)."""
    event = table.round.event
    by_number = _dealer_sits_out(table)
    version = (
        tuple(players),
        event.game,
        event.rules,
        table.size,
        (form.game_number(), first) if by_number else None,
        # the inputs the form has now (Hennes Sibbe asks only the seats holding penalty cards)
        tuple(form.fields),
    )

    def compute() -> dict[str, str]:
        form.initial["submission"] = SUBMISSION_MARK
        return {
            "fields": render_to_string(
                "tournament/includes/hand_fields.html", {"form": form, "players": players}
            ),
            "ahead": render_to_string(
                "tournament/includes/inputs_ahead.html",
                {"forms_ahead": _forms_ahead(table, players, first)},
            ),
        }

    parts = part("link_form", table.pk, version, compute, get_language())
    return {name: mark_safe(html) for name, html in parts.items()}  # our own templates rendered


def _dealers(table: Table, players: list[str], first: int, dealer: int | None) -> dict[int, str]:
    """Who deals each of the next games, for a phone that enters games offline (issue 14).
    Where the deal follows the game before (Hennes Sibbe: the penalty card's taker deals), only
    the next game's dealer is known: the later ones say "—" rather than a wrong name."""
    wanted = table.round.event.hands_for(table.size) or first + 50
    game = table.round.event.game_type
    if game.dealer_follows_results:
        shown = {first: players[dealer] if dealer is not None else "—"}
        return shown | dict.fromkeys(range(first + 1, wanted + 2), "—")
    return {n: players[dealer_for(n, table.size)] for n in range(first, wanted + 2)}


def _forms_ahead(table: Table, players: list[str], first: int) -> list[tuple[int, Any]]:
    """The hand form's inputs for the games after this one, where they differ from game to game
    (five-seat Cego: the dealer sits out and is offered neither as declarer nor for Räuber
    points), so that a phone entering games offline shows each game's own form. The deal goes
    round the table: a table of n seats needs n forms."""
    if not _dealer_sits_out(table):
        return []
    game = table.round.event.game_type
    numbers = range(first + 1, first + table.size + 1)
    return [(n, hand_form_class(game)(table=table, players=players, number=n)) for n in numbers]


def _dealer_sits_out(table: Table) -> bool:
    """Whether the game form differs from game to game at this table: the deal goes round the
    table, and at some seat counts (five-seat Cego) the dealer sits out of the game."""
    game = table.round.event.game_type
    return any(game.sitting_out(table.size, n) is not None for n in range(1, table.size + 1))


@require_POST
def link_send(request: HttpRequest, token: str) -> JsonResponse:
    """A game from the phone's queue (static/js/table_queue.js), as JSON: stored once however
    often it is sent (its one-time key), as the game number it was entered as, or refused with
    the reason and, for a number taken meanwhile, the sheet's own game of that number. The phone
    says how many games it still holds unsent and how many were refused; the round page shows
    it to the director. ``resend=1``: a game the server had acknowledged and the phone found
    missing from the sheet (a laptop restored from its copy, issue 45), stored marked as sent
    again; one taken back since is answered ``taken_back``, and the phone forgets it. The answer
    to a stored game carries the sheet's games (``stored``: number and key of each), which the
    phone compares with what it holds."""
    try:
        table = _link_table(request, token)
    except LinkReplaced:
        return _replaced_json()
    players = table_players(table)
    # a game the phone had acknowledged and sends again: the server no longer has it (issue 45)
    resend = request.POST.get("resend") == "1"
    waiting = whole_number(request.POST.get("waiting"), 10_000) or 0
    held_refused = whole_number(request.POST.get("refused"), 10_000) or 0
    sent_number = request.POST.get("number", "").strip()
    number = whole_number(sent_number, 100_000)

    def refuse(kind: str, message: str, status: int, **extra: Any) -> JsonResponse:
        hands.note_phone(table=table, waiting=waiting, refused=held_refused + 1, refusal=message)
        return JsonResponse({"ok": False, "kind": kind, "message": message, **extra}, status=status)

    if sent_number and not number:
        # a game number the phone mangled ("abc", "-1", "1e3", eleven digits) is no game number:
        # stored as the next game, it would be a game the table did not enter as that number
        return refuse(
            "invalid",
            _("The phone sent no valid game number (%(sent)s); nothing was stored.")
            % {"sent": sent_number[:20]},
            422,
        )
    if not access.link_may_enter(table):
        return refuse("closed", _link_closed(table), 409)
    form = hand_form_class(table.round.event.game_type)(request.POST, table=table, players=players)
    if not form.is_valid():
        errors = [str(e) for field in form.errors.values() for e in field]
        return refuse("invalid", " ".join(errors), 422)
    try:
        hand = hands.record_hand(
            table=table,
            data=form.hand,
            submission_key=form.cleaned_data.get("submission"),
            number=number,
            resent=resend,
        )
    except hands.TakenBack as exc:
        if not resend:
            return refuse("taken_back", str(exc), 409)
        # the server had the game and it was taken back since: the phone forgets it, and it is
        # no refusal for the director to walk to
        hands.note_phone(table=table, waiting=max(waiting - 1, 0), refused=held_refused)
        return JsonResponse({"ok": False, "kind": "taken_back", "message": str(exc)}, status=409)
    except hands.NumberTaken as exc:
        stored = exc.stored
        server = (
            {
                "number": stored.number,
                "game": describe_hand(table.round.event.game, stored.data, players),
                "results": stored_results(stored, players, table.round.event.game_type),
            }
            if stored is not None
            else None
        )
        return refuse("conflict", str(exc), 409, server=server, next_number=exc.next_number)
    except core_errors.Refused as exc:
        return refuse("refused", str(exc), 409)
    hands.note_phone(table=table, waiting=max(waiting - 1, 0), refused=held_refused)
    results = stored_results(hand, players, table.round.event.game_type)
    # shown by the page the phone loads once nothing is waiting any more
    messages.success(
        request, _("Game %(n)s saved: %(results)s") % {"n": hand.number, "results": results}
    )
    return JsonResponse(
        {
            "ok": True,
            "number": hand.number,
            "game": describe_hand(table.round.event.game, hand.data, players),
            "results": results,
            **_sheet_parts(request, table),
        }
    )


def _sheet_parts(request: HttpRequest, table: Table) -> dict[str, Any]:
    sheet = table_sheet(table)
    parts = {name: sheet[name] for name in ("next_number", "totals", "sheet")}
    return parts | {"stored": sheet.get("stored")}


def service_worker(request: HttpRequest) -> HttpResponse:
    """The table link's service worker (templates/tournament/js/table_sw.js), at /t/sw.js so that
    it may serve the pages under /t/. Its cache is named after the app's static files: a new
    release replaces the pages and assets it keeps."""
    response = render(
        request,
        "tournament/js/table_sw.js",
        {"version": _assets_version()},
        content_type="application/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@functools.cache
def _assets_version() -> str:
    """A short digest of the assets the service worker keeps, read once per process."""
    digest = hashlib.blake2b(digest_size=6)
    for name in ("css/app.css", "js/hand_form.js", "js/table_queue.js"):
        path = finders.find(name)
        if path:
            digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _link_closed(table: Table) -> str:
    """Why the table link takes no games now, in words for the table."""
    reason = read_only_reason(table)
    if reason == "closed":
        return _("Round %(n)s is closed; this game was not stored. Give it to the scorer.") % {
            "n": table.round.number
        }
    if reason == "handed_in":
        return _(
            "The sheet was handed in meanwhile; this game was not stored. Give it to the scorer."
        )
    if reason == "voided":
        return _("This table's round is voided; nothing is stored for it.")
    if reason == "confirmed":
        return _("The sheet is confirmed already; this game was not stored. Ask the scorer.")
    return _("Games can be entered once the director starts the round.")


@require_POST
def link_preview(request: HttpRequest, token: str) -> JsonResponse:
    try:
        table = _link_table(request, token)
    except LinkReplaced:
        return _replaced_json()
    if not access.link_may_enter(table):
        return JsonResponse({"ok": False, "errors": {"__all__": [_("Closed.")]}}, status=403)
    form = hand_form_class(table.round.event.game_type)(
        request.POST, table=table, players=table_players(table)
    )
    if form.is_valid():
        return JsonResponse({"ok": True, "results": form.result})
    return JsonResponse(
        {"ok": False, "errors": {k: [str(e) for e in v] for k, v in form.errors.items()}}
    )


def link_button(view: Callable[[HttpRequest, Table], None]) -> Callable[..., HttpResponse]:
    """A button of the table link's page: a POST under the table's token or a personal page's
    key (a replaced key gets the page that says so), which hands the table to ``view``; the view
    does its one thing and says so, a refusal is said, and the phone is back on the link's page
    under the key it came by."""

    @functools.wraps(view)
    def button(request: HttpRequest, token: str) -> HttpResponse:
        try:
            table = _link_table(request, token)
        except LinkReplaced:
            return _replaced(request)
        try:
            view(request, table)
        except core_errors.Refused as exc:
            refused(request, exc)
        return _with_device(request, redirect("table_link", token=request.link_key))

    return require_POST(button)


@link_button
def link_undo(request: HttpRequest, table: Table) -> None:
    """Take back the game the page showed as the last one (naming it, with a reason), and only
    if it still is."""
    if not access.link_may_enter(table):
        raise core_errors.Refused(_("This table cannot change its games now."))
    form = ReasonForm(request.POST)
    pk = whole_number(request.POST.get("hand"))
    hand = Hand.objects.filter(table=table, pk=pk).first() if pk is not None else None
    if hand is None:
        raise core_errors.Refused(
            _("That game is no longer on the sheet; nothing was taken back. Check the sheet.")
        )
    if not form.is_valid():
        raise core_errors.Refused(_("Give a reason to take back the last game."))
    hands.delete_hand(
        hand=hand, reason=form.cleaned_data["reason"], by_scorer=False, last_only=True
    )
    messages.success(request, _("Game %(n)s taken back.") % {"n": hand.number})


@link_button
def link_submit(request: HttpRequest, table: Table) -> None:
    """Hand in the sheet: from now on every player confirms it."""
    if not access.link_may_enter(table):
        raise core_errors.Refused(_("This sheet cannot be handed in now."))
    confirmations.submit_table(table=table)
    messages.success(request, _("Sheet handed in. Now every player confirms it."))


@link_button
def link_confirm(request: HttpRequest, table: Table) -> None:
    """A confirmation sent to the table link (a page kept from before issue 43, or a hand-made
    request): refused, with where a player confirms instead."""
    raise core_errors.Refused(
        _(
            "The table link confirms no seat. Confirm your own seat on your personal "
            "link (the QR code on your start card), or ask the scorer to confirm it on "
            "your word."
        )
    )
