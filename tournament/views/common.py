"""Request and response glue shared by the views: fetching an object with what its page needs,
access, the hand form of a sheet (the scorer's page and the table link), the table's sheet as its
phones show it, and the query parameters several pages read. No view module imports another;
what two of them share is here or in a domain module (tests/test_layers.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import access
from tournament.core import errors
from tournament.games.words import describe_hand
from tournament.models import Event, Hand, Player, Round, Seat, Table
from tournament.pagecache.pages import part
from tournament.play import hands
from tournament.play.forms import hand_form_class
from tournament.play.reads import TableState, table_state
from tournament.play.sheets import read_sheet, stored_results
from tournament.register import services as register_services

SEED_MAX = 2**62  # draw seeds are stored in a 64-bit column


def event_or_404(slug: str) -> Event:
    return get_object_or_404(Event.objects.select_related("season"), slug=slug)


def event_by_id_or_404(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("season"), pk=pk)


def event_version_or_404(slug: str) -> tuple[int, int, int | None]:
    """The event's id, version and the version before: all a cached page needs to know whether
    it is ready."""
    found = Event.objects.filter(slug=slug).values_list("id", "version", "previous_version")
    if (row := found.first()) is None:
        raise Http404("No event with this address.")
    return row


def round_or_404(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("event__season"), event__slug=slug, number=number
    )


def table_or_404(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__event__season"), pk=pk)


def protected(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Send an anonymous visitor of a page that needs a login to the login page; a logged-in user
    without the role gets 403 (the checks themselves are in ``access``)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except access.LoginRequired:
            return access.login_redirect(request)

    return wrapper


def refused(request: HttpRequest, exc: Exception) -> None:
    messages.error(request, str(exc))


def table_players(table: Table) -> list[str]:
    seats = Seat.objects.filter(table_id=table.pk).select_related("entry__player")
    return [str(s.entry.player) for s in seats.order_by("position")]


# what any game in the hall changes, which a page kept per row does not show
CHANGED_BY_EVERY_GAME = frozenset({"version", "previous_version", "last_result_at"})


def row_values(instance: Any) -> tuple[Any, ...]:
    """What a row holds but for what every game changes: part of the version of a page kept
    whole that shows it (the personal link, the table link)."""
    return tuple(
        getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.name not in CHANGED_BY_EVERY_GAME
    )


def xlsx_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(
        content,
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def corrected_player(request: HttpRequest, form: Any) -> Any:
    """A player form sent: the player corrected (for every event, kept in the history) with a
    message, or None with the refusal on the form. Nothing is done for a GET or an invalid form;
    a user who may not correct this player (``access.player_correction_refused``) changes nothing.
    """
    if request.method != "POST":
        return None
    if (refusal := access.player_correction_refused(request.user, form.instance)) is not None:
        form.add_error(None, refusal)
        return None
    if not form.is_valid():
        return None
    try:
        player = register_services.correct_player(
            player=form.instance, values=form.values(), user=request.user
        )
    except errors.Refused as exc:
        form.add_error(None, str(exc))
        return None
    messages.success(request, _("%(player)s saved.") % {"player": player})
    return player


def season_category(request: HttpRequest) -> str:
    """The side ranking asked for (``?category=damen``), or "" for everybody: the season's page
    and its print."""
    category = request.GET.get("category", "")
    return category if category and category in Player.Category.values else ""


# --- a table's sheet: the scorer's page, the table link and the personal page ------------------


def enter_hand(
    request: HttpRequest, table: Table, players: list[str], context: dict[str, Any]
) -> HttpResponse | None:
    """The hand form of a sheet (scorer's page or table link): preview, or save once.

    Returns a redirect after a saved game, or None to render the page with ``context["form"]``.
    """
    form_class = hand_form_class(table.round.event.game_type)
    if request.method != "POST":
        context["form"] = form_class(table=table, players=players)
        return None
    form = form_class(request.POST, table=table, players=players)
    context["form"] = form
    if not form.is_valid():
        return None
    if request.POST.get("action") == "preview":
        context["preview"] = form.result
        return None
    try:
        hand = hands.record_hand(
            table=table,
            data=form.hand,
            user=request.user,
            submission_key=form.cleaned_data.get("submission"),
        )
    except hands.AlreadySaved as exc:
        # the stored game, never the values just sent; and a fresh form (a new key), so saving
        # the other values is a new, deliberate game and not the same send once more
        messages.error(request, f"{exc} {_stored_hand(exc.hand, table, players)}")
        context["form"] = form_class(table=table, players=players)
        return None
    except errors.Refused as exc:
        refused(request, exc)
        return None
    # the results as stored: for a form sent twice they are those of the first send
    messages.success(
        request,
        _("Game %(n)s saved: %(results)s")
        % {"n": hand.number, "results": stored_results(hand, players, table.round.event.game_type)},
    )
    return redirect(request.path)


def _stored_hand(hand: Hand, table: Table, players: list[str]) -> str:
    return _("Stored as game %(n)s: %(game)s (%(results)s).") % {
        "n": hand.number,
        "game": describe_hand(table.round.event.game, hand.data, players),
        "results": stored_results(hand, players, table.round.event.game_type),
    }


# what the table link and the personal pages take of a sheet besides its rendered parts
SHEET_FACTS = (
    "players",
    "wanted",
    "hands_played",
    "games_finished",
    "totals_entered",
    "complete",
    "form_done",
    "next_number",
    "next_title",
    "title_pattern",
    "next_dealer",
)


# how much of a game's one-time key the sheet tells the phones: "xxxxxxxx-xxxx" of a UUID4
KEY_SHOWN = 13


def table_sheet(table: Table, state: TableState | None = None) -> dict[str, Any]:
    """The table's sheet as every phone of the table shows it (the table link, its players'
    personal pages): the totals strip and the games rendered (``totals``, ``sheet``), the facts
    the page decides by (``SHEET_FACTS``), the last game (``last_hand``: its id and number) and
    the stored games' numbers and the start of their one-time keys (``stored``).
    Computed once per version of the sheet and of the event's rules, in the active language;
    ``state``, if the caller has read it."""
    state = state if state is not None else table_state(table)
    event = table.round.event
    # the token: a table of another database (the demo loaded again) with the same id and the
    # same players' names is another key
    version = (state.version, table.token, event.game, event.rules, event.hands_per_round)

    def compute() -> dict[str, Any]:
        context = read_sheet(table).context()
        last = context["rows"][-1].hand if context["rows"] else None
        return {
            "totals": render_to_string("tournament/includes/link_totals.html", context),
            "sheet": render_to_string("tournament/includes/link_sheet.html", context),
            "last_hand": {"pk": last.pk, "number": last.number} if last is not None else None,
            # each stored game's number and the start of its one-time key: a phone compares
            # them with the games it had acknowledged and sends again those a restored server
            # lacks (issue 45). The first 48 random bits tell a table's games apart; the page
            # hands out no whole key, and a form sent again gets a fresh one
            "stored": [
                [row.hand.number, str(row.hand.submission_key or "")[:KEY_SHOWN]]
                for row in context["rows"]
            ],
            **{name: context[name] for name in SHEET_FACTS},
        }

    return part("table_sheet", table.pk, version, compute, get_language())
