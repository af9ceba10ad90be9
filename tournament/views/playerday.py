"""The player's own way through the day (issue 29): online registration before it, the check-in
desk in the morning, start cards, and one personal link per player (``/m/<token>/``) from the
seat to the prize.

The personal link needs no login: its unguessable token is the permission, as for a table
link. It shows the player's own entry and, while a round is played, the player's table with a
link to enter its games; it confirms the player's own seat of a handed-in sheet, whichever phone
opens it. Every player's phone polls it every 15 seconds while every game saved in the hall
changes the event: the page is made for each request from the player's own lines, and what it
shows that is the same for others (the table's sheet, the event's ranking) comes from the page
cache (``personal_link``). Its two writes (``personal_confirm``, ``personal_cancel``) take no form
token: a site that could forge them would have to know the token, which is the permission
itself.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tournament import access
from tournament.access import ORGANISER
from tournament.core import addresses, errors
from tournament.core.fields import whole_number
from tournament.core.qr import qr_svg
from tournament.middleware import client_address
from tournament.models import Confirmation, Entry, Event, Round, Seat
from tournament.money import desk
from tournament.money.fees import fee_rows
from tournament.money.prizes import prize_giving
from tournament.pagecache.pages import Page, part
from tournament.play import confirmations
from tournament.play.reads import table_state
from tournament.register import checkin, online
from tournament.register.forms import OnlineRegistrationForm, RegisterForm
from tournament.results import standings
from tournament.views.common import event_or_404, protected, refused, row_values, table_sheet

# --- online registration ----------------------------------------------------------------------


def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    """The public registration form of an event."""
    event = event_or_404(slug)
    closed = online.closed_reason(event)
    form = OnlineRegistrationForm(request.POST or None)
    status = 200
    if request.method == "POST" and not closed:
        try:
            online.note_attempt(client_address(request) or "", event)
            if form.is_valid():
                entry = online.register_online(
                    event=event,
                    player=form.get_player(),
                    submission_key=form.cleaned_data["submission"],
                    consent=form.consent_given(),
                )
                if entry.is_waiting:
                    messages.success(request, _("You are on the waiting list."))
                else:
                    messages.success(
                        request,
                        _("You are registered with start number %(n)s.")
                        % {"n": entry.start_number},
                    )
                if entry.identity_pending:
                    messages.info(
                        request,
                        _(
                            "Played with us before? At the check-in the desk asks you once "
                            "which player of the register you are, so that your results of "
                            "earlier events and of this one are counted together."
                        ),
                    )
                return redirect("personal_link", token=entry.token)
            status = 422
        except online.TooMany as exc:
            form.add_error(None, str(exc))
            status = 429
        except errors.Refused as exc:
            form.add_error(None, str(exc))
            status = 409
    return render(
        request,
        "tournament/register/online.html",
        {
            "event": event,
            "form": form,
            "closed": closed,
            "places": online.places(event),
        },
        status=status,
    )


@require_GET
def event_participants(request: HttpRequest, slug: str) -> HttpResponse:
    """Who is registered, and the waiting list in its order: name and club, nothing else."""
    event = event_or_404(slug)
    registered, waiting = online.public_list(event)
    return render(
        request,
        "tournament/register/participants.html",
        {
            "event": event,
            "registered": registered,
            "waiting": waiting,
            "places": online.places(event),
            "closed": online.closed_reason(event),
        },
    )


# --- the check-in desk ------------------------------------------------------------------------


@protected
def checkin_desk(request: HttpRequest, slug: str) -> HttpResponse:
    """Find, tap, done: the desk's one page. GET ?q= searches; POST checks in, takes back a
    check-in, registers a walk-in or reissues a personal link, then comes back to the search.
    What the page shows and says is the desk's (``register.checkin``)."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    if request.method == "POST" and request.POST.get("action") != "walk_in":
        return _tap(request, event)
    query = _query(request.POST if request.method == "POST" else request.GET)
    walk_in_form = None
    if request.method == "POST":
        walk_in_form = RegisterForm(request.POST, event=event)
        if (response := _walk_in(request, event, walk_in_form)) is not None:
            return response
    shown = checkin.look_up(event, query)
    fees = {row.entry.pk: row for row in fee_rows(event)} if shown.found else {}
    for entry in shown.found:
        entry.fee_row = fees.get(entry.pk)
    if walk_in_form is None:
        walk_in_form = RegisterForm(
            initial={"first_name": shown.first_name, "last_name": shown.last_name}, event=event
        )
    return render(
        request,
        "tournament/register/checkin.html",
        {
            "event": event,
            "query": query,
            "found": shown.found,
            "known": shown.known,
            "counters": checkin.counters(event),
            "walk_in_form": walk_in_form,
            "has_fees": event.fee_categories.exists(),
        },
    )


def _query(data: Any) -> str:
    """What the desk's box holds (a name or a start number), as sent with a search or a tap."""
    return data.get("q", "").strip()[:100]


def _walk_in(request: HttpRequest, event: Event, form: RegisterForm) -> HttpResponse | None:
    """A walk-in registered, present and (if the desk says so) paid, back to the search for the
    new player; None to show the form again, with its errors or the refusal."""
    if not form.is_valid():
        return None
    try:
        entry = desk.walk_in(
            event=event,
            player=form.get_player(),
            fee_status=_desk_fee(request),
            consent=form.consent_given(),
            user=request.user,
        )
    except errors.Refused as exc:
        refused(request, exc)
        return None
    messages.success(
        request,
        _("%(player)s registered with start number %(n)s and checked in.")
        % {"player": entry.player, "n": entry.start_number},
    )
    return _back(event, entry.player.last_name)


# Django's message levels by the names ``checkin.Told`` uses
LEVELS = {"success": messages.SUCCESS, "info": messages.INFO, "warning": messages.WARNING}


def _tap(request: HttpRequest, event: Event) -> HttpResponse:
    """A button on a found player: check in (``reinstate``: back in the event and check in),
    not here after all (``undo``), or a new personal link (``reissue``); then back to the search,
    emptied after a check-in for the next person."""
    query = _query(request.POST)
    action = request.POST.get("action", "")
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        event=event,
        pk=whole_number(request.POST.get("entry")) or 0,
    )
    try:
        if action in (checkin.CHECK_IN, checkin.REINSTATE):
            typed, was_withdrawn = entry.player, entry.is_withdrawn
            entry, done = desk.check_in(
                entry=entry,
                fee_status=_desk_fee(request),
                user=request.user,
                reinstate=action == checkin.REINSTATE,
                known=request.POST.get("known") or None,
            )
            told = checkin.told_after_check_in(
                entry, typed=typed, was_withdrawn=was_withdrawn, done=done
            )
            for line in told:
                messages.add_message(request, LEVELS[line.level], line.text)
            return _back(event, "")
        if action == checkin.UNDO:
            checkin.undo_check_in(entry=entry, user=request.user)
            messages.success(
                request, _("%(player)s is no longer checked in.") % {"player": entry.player}
            )
        elif action == "reissue":
            checkin.reissue_link(entry=entry, user=request.user)
            messages.success(
                request,
                _(
                    "%(player)s has a new personal link; the old one no longer works. "
                    "Print the new start card."
                )
                % {"player": entry.player},
            )
        else:
            raise Http404
    except errors.Refused as exc:
        refused(request, exc)
    return _back(event, query)


def _desk_fee(request: HttpRequest) -> str:
    fee = request.POST.get("fee", "")
    return fee if fee in desk.DESK_FEES else ""


def _back(event: Event, query: str) -> HttpResponse:
    url = reverse("checkin", args=[event.slug])
    if query:
        url += "?" + urlencode({"q": query})
    return redirect(url)


# --- start cards --------------------------------------------------------------------------------


@protected
def start_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """A start card per player (A7, eight on an A4 page): name, start number and the personal
    link as a QR code, at the address phones in the hall open. ``?entry=<id>`` prints one card
    (a reissued link). Organisers only: a card's link is that player's permission."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    entries = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).select_related("player")
    one = request.GET.get("entry", "")
    if one:
        entries = entries.filter(pk=int(one) if one.isdigit() else 0)
        if not entries:
            raise Http404
    origin = addresses.public_origin(request, event)
    cards = []
    for entry in sorted(entries, key=lambda e: (e.player.last_name, e.player.first_name)):
        link = origin + entry.get_link_url()
        cards.append({"entry": entry, "link": link, "qr": qr_svg(link)})
    pages = [cards[i : i + 8] for i in range(0, len(cards), 8)]
    return render(
        request,
        "tournament/print/start_cards.html",
        {
            "event": event,
            "pages": pages,
            "origin": origin,
            "loopback": addresses.is_loopback(origin),
        },
    )


# --- the personal link --------------------------------------------------------------------------


# the reads of every personal page, polled by every player's phone: their SQL written once
def _personal_entry(token: str) -> Entry:
    """The entry of a personal link, with its player, event and season. One query."""
    if not 16 <= len(token) <= 64:
        raise Http404("No such personal link.")
    # get, not first: first would order by the key, one more clause for the ORM to build
    return get_object_or_404(Entry.objects.select_related("player", "event__season"), token=token)


STANDING_MARK = "<!--personal-standing-->"


def personal_link(request: HttpRequest, token: str) -> HttpResponse:
    """The player's page. Its own lines are read for each request (a few indexed reads); what
    it shows that others see too comes from the page cache: the table's sheet per version of the
    sheet (``common.table_sheet``) and the ranking per version of the event (``standings.ranking``).
    The page is then kept whole per version of what it shows (``_personal``'s digest), not of
    the event: a game saved at another table that moves neither the player's rank nor total
    leaves it as it was, and a phone that holds it gets 304."""
    entry = _personal_entry(token)
    context, shown = _personal(request, entry)
    # the rank line goes in for each request: a game anywhere in the hall moves the ranks of most
    # players, and with it every player's page would be computed again (issue 29's hall at ten
    # times the rate); what is kept is the page around it, per version of the player's own things
    standing = context.pop("standing")
    context["standing"] = standing is not None
    context["standing_line"] = mark_safe(STANDING_MARK)
    line = (
        render_to_string("tournament/includes/personal_standing.html", {"standing": standing})
        if standing is not None
        else ""
    )
    page = Page(request, "personal", entry.pk, shown, live={STANDING_MARK: line})
    if (ready := page.ready()) is not None:
        return ready
    if context.pop("sheet_version", None) is not None:
        sheet = table_sheet(context["table"], context["state"])
        context["sheet_totals"] = mark_safe(sheet["totals"])  # our own templates rendered it
        context["sheet_rows"] = mark_safe(sheet["sheet"])
    if context["round"] is None:
        context["qr"] = qr_svg(context["link"])
    return page.serve(lambda: render(request, "tournament/personal.html", context))


def _personal(request: HttpRequest, entry: Entry) -> tuple[dict[str, Any], str]:
    """What the player's page shows (the registration, the seat and the table, the running
    total and rank, the result and the prize; the table's sheet by its version), and a digest
    of all of it: the page's version."""
    event = entry.event
    rnd = (
        Round.objects.filter(event_id=event.pk)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    context: dict[str, Any] = {
        "event": event,
        "entry": entry,
        "player": entry.player,
        "waiting_place": online.waiting_place(entry),
        # once the seats are drawn the player cannot cancel here (online.cancel_refused)
        "cancel_refused": online.cancel_refused(entry)
        if entry.source == Entry.Source.ONLINE and rnd is None
        else "-",
        "round": rnd,
        "link": addresses.public_url(request, event, entry.get_link_url()),
    }
    seat = None
    if rnd is not None:  # one seat at most per entry and round (a unique constraint)
        seats = Seat.objects.filter(round_id=rnd.pk, entry_id=entry.pk).select_related("table")
        seat = next(iter(seats.order_by()), None)
    table = seat.table if seat is not None and seat.table_id is not None else None
    context["seat"] = seat
    context["table"] = table
    shown: list[Any] = []
    if table is not None:
        rnd.event = event
        table.round = rnd
        state = table_state(table)
        context["state"] = state
        context["mates"] = state.seats
        # only a handed-in sheet is confirmed: before, there is nothing to read
        confirmed = (
            set(Confirmation.objects.filter(table_id=table.pk).values_list("position", flat=True))
            if table.submitted_at is not None
            else set()
        )
        context["confirmed"] = seat.position in confirmed
        context["confirmed_count"] = len(confirmed)
        context["may_confirm"] = access.player_may_confirm(table) and seat.position not in confirmed
        context["may_enter"] = access.link_may_enter(table)
        # the table's link under a key of this personal link's own, never the table's token:
        # a reissued personal link revokes it (issue 43); the key follows from the rows below
        context["table_key"] = access.personal_table_key(entry, table)
        if rnd.status in (Round.Status.PLAYING, Round.Status.CLOSED):
            context["sheet_version"] = state.version
        shown += [row_values(table), state.version, seat.position, sorted(confirmed)]
    ranking = part("ranking", event.pk, event.version, lambda: standings.ranking(event))
    context["standing"] = standings.standing_in(ranking, entry, event.game_type)
    if event.status == Event.Status.FINISHED:
        giving = prize_giving(event)
        context["prizes"] = [
            award for award in giving.awards if any(w.entry_id == entry.pk for w in award.winners)
        ]
        shown += [(str(a.heading), a.prize.amount_cents, a.prize.goods) for a in context["prizes"]]
    # everything the page shows: the rows it reads (the event's but for its version, which every
    # game anywhere changes) and what is worked out of them
    shown += [
        row_values(entry),
        row_values(entry.player),
        row_values(event),
        event.season_id and row_values(event.season),
        context["link"],
        context["waiting_place"],
        context["cancel_refused"],
        rnd is not None and row_values(rnd),
        context["standing"] is not None,
    ]
    return context, _digest(shown)


def _digest(values: Any) -> str:
    return hashlib.blake2b(repr(values).encode(), digest_size=12).hexdigest()


@csrf_exempt
@require_POST
def personal_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Confirm my seat of the handed-in sheet."""
    entry = _personal_entry(token)
    try:
        confirmations.confirm_as_player(entry=entry)
    except errors.Refused as exc:
        refused(request, exc)
    else:
        messages.success(request, _("Thank you, confirmed."))
    return redirect("personal_link", token=token)


@csrf_exempt
@require_POST
def personal_cancel(request: HttpRequest, token: str) -> HttpResponse:
    """Cancel my registration (before the draw), the box ticked to say so."""
    entry = _personal_entry(token)
    try:
        if request.POST.get("sure") != "1":
            raise errors.Refused(_("Tick the box to cancel your registration."))
        online.cancel(entry=entry)
    except errors.Refused as exc:
        refused(request, exc)
    else:
        messages.success(request, _("Your registration is cancelled."))
    return redirect("personal_link", token=token)


@protected
@require_POST
def remove_missing(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's decision on the draw page: who registered and did not come is withdrawn."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    number = request.POST.get("round", "")
    try:
        with transaction.atomic():
            gone = checkin.withdraw_missing(event=event, user=request.user)
        messages.success(
            request,
            _("Withdrawn, did not come: %(names)s.")
            % {"names": ", ".join(str(e.player) for e in gone) or "—"},
        )
    except errors.Refused as exc:
        refused(request, exc)
    if number.isdigit():
        return redirect("round_seating", slug=event.slug, number=int(number))
    return redirect(event)
