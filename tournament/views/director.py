"""Director pages: seasons, events, registration, draws and rounds (organisers only)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournament import access
from tournament.access import ORGANISER
from tournament.core import collation, errors
from tournament.core.fields import ReasonForm, whole_number
from tournament.models import Entry, Event, Player, Round, Table
from tournament.money import fees
from tournament.play import events, hands, lots, recovery, rounds
from tournament.play import reads as play_reads
from tournament.play.forms import EventForm, PairSwapForm, SeasonForm, SwapForm
from tournament.register import reads
from tournament.register import services as register_services
from tournament.register.forms import PairForm, PlayerForm, RegisterForm, likely_players
from tournament.results import history, pairs
from tournament.views.common import (
    SEED_MAX,
    corrected_player,
    event_or_404,
    protected,
    refused,
    round_or_404,
    table_or_404,
)


def join_names(items: list[str]) -> str:
    """ "A, B and C" in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


@protected
def season_create(request: HttpRequest) -> HttpResponse:
    access.require_director(request)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = events.create_season(values=form.values())
        except errors.Refused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Season created."))
            return redirect(season)
    return render(request, "tournament/form.html", {"form": form, "title": _("New season")})


@protected
def event_create(request: HttpRequest) -> HttpResponse:
    access.require_director(request)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = events.create_event(values=form.settings(), user=request.user)
        except errors.Refused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Event created. Now register the players."))
            return redirect("event_players", slug=event.slug)
    return render(request, "tournament/event_form.html", {"form": form, "title": _("New event")})


@protected
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    # the form puts the new values on its own copy: the page around it shows the stored event
    form = EventForm(request.POST or None, instance=copy.copy(event))
    effect = None
    changes: list[tuple[str, str, str]] = []
    if request.method == "POST" and form.is_valid():
        # new rule settings rescore the stored games: the organiser first sees how many, and
        # confirms with a reason (issue 10)
        changed = form.instance
        try:
            if changed.full_rules() != event.full_rules():
                effect = play_reads.rule_change_effect(event=changed, rules=changed.rules)
                changes = form.rule_changes(event.full_rules())
            if effect is None or not effect.hands or form.confirmed():
                # more places move the waiting list up, in the same transaction
                with transaction.atomic():
                    done = events.change_event_settings(
                        event=event,
                        values=form.settings(),
                        user=request.user,
                        reason=form.cleaned_data["reason"],
                    )
                    moved = register_services.move_up(event=event, user=request.user)
                if moved:
                    messages.info(
                        request,
                        _("Moved up from the waiting list: %(names)s.")
                        % {"names": ", ".join(str(e.player) for e in moved)},
                    )
                if done.hands:
                    messages.success(
                        request,
                        ngettext(
                            "Event saved; %(games)s game scored again with the new settings.",
                            "Event saved; %(games)s games scored again with the new settings.",
                            done.hands,
                        )
                        % {"games": done.hands},
                    )
                else:
                    messages.success(request, _("Event saved."))
                return redirect("event", slug=changed.slug)
        except errors.Refused as exc:
            form.add_error(None, str(exc))
            effect = None
    return render(
        request,
        "tournament/event_form.html",
        {"form": form, "title": event.name, "event": event, "effect": effect, "changes": changes},
    )


@protected
def event_players(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    form = RegisterForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            # the new player, the team and the entry, or none
            entry = fees.register_entry(
                event=event,
                player=form.get_player(),
                team=form.cleaned_data.get("team") or "",
                fee_status=form.cleaned_data.get("fee") or "",
                consent=form.consent_given(),
                user=request.user,
            )
        except errors.Refused as exc:
            refused(request, exc)
        else:
            messages.success(
                request,
                _("%(player)s registered with start number %(n)s.")
                % {"player": entry.player, "n": entry.start_number},
            )
            return redirect("event_players", slug=event.slug)
    entries = event.entries.select_related("player", "squad", "pair")
    pair_form = PairForm(event=event) if event.in_fixed_pairs else None
    return render(
        request,
        "tournament/players.html",
        {
            "event": event,
            "entries": entries,
            "form": form,
            "pair_form": pair_form,
            # before the first draw an entry made by mistake is removed; after it, withdrawn
            "drawn": event.rounds.exclude(status=Round.Status.DRAFT).exists(),
            "fees": event.fee_categories.exists(),
        },
    )


@protected
@require_GET
def after_restore(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Nach dem Laptopwechsel": per table of the current round, the games the server has, those
    a phone sent again, and the phone's last report, for the director to check each table's
    count against its phone and the paper (issue 45)."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    rnd = recovery.current_round(event)
    checks = recovery.table_checks(rnd) if rnd is not None else []
    return render(
        request,
        "tournament/after_restore.html",
        {"event": event, "round": rnd, "checks": checks},
    )


@protected
@require_POST
def event_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    form = PairForm(request.POST, event=event)
    if not form.is_valid():
        messages.error(request, _("Choose two players who have no partner yet."))
    else:
        try:
            pair = register_services.create_pair(
                event=event,
                name=form.cleaned_data["name"],
                entries=[form.cleaned_data["first"], form.cleaned_data["second"]],
                user=request.user,
            )
            messages.success(request, _("Pair %(name)s registered.") % {"name": pair.name})
        except errors.Refused as exc:
            refused(request, exc)
    return redirect("event_players", slug=event.slug)


@protected
@require_POST
def entry_status(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    entry = get_object_or_404(Entry.objects.select_related("player"), event=event, pk=pk)
    try:
        if request.POST.get("action") == "reinstate":
            register_services.reinstate_entry(entry=entry, user=request.user)
            messages.success(request, _("%(player)s is active again.") % {"player": entry.player})
        else:
            register_services.withdraw_entry(entry=entry, user=request.user)
            messages.success(request, _withdrawn(entry))
    except errors.Refused as exc:
        refused(request, exc)
    return redirect("event_players", slug=event.slug)


def _withdrawn(entry: Entry) -> str:
    """What a withdrawal did, with what it leaves as it was: the player's table in a round being
    played keeps the player, so the director knows what becomes of that table."""
    seat = reads.seat_in_play(entry)
    if seat is None:
        return _("%(player)s withdrawn.") % {"player": entry.player}
    return _(
        "%(player)s withdrawn; later draws leave the player out. At table %(table)s of round "
        "%(round)s, being played now, nothing changes: the player keeps the seat, and the "
        "table's games, those entered and those still to come, count for the player as for the "
        "others."
    ) % {"player": entry.player, "round": seat.round.number, "table": seat.table.number}


def _entry_or_404(event: Event, pk: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), event=event, pk=pk)


def _twins(player: Player) -> list[Player]:
    """Other known players who are probably this person."""
    return [p for p in likely_players(player.first_name, player.last_name) if p.pk != player.pk]


@protected
def player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Correct a registered player's name, club, town and category (for every event: a player is
    one person across events), with the player's history; directors may merge from here."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    entry = _entry_or_404(event, pk)
    player = entry.player
    # a player who also played another organiser's event is corrected by a director: the page
    # says so instead of offering the form, and a form sent anyway changes nothing
    refusal = access.player_correction_refused(request.user, player)
    form = None if refusal else PlayerForm(request.POST or None, instance=player)
    if form is not None and corrected_player(request, form) is not None:
        return redirect("event_players", slug=event.slug)
    may_merge = access.is_director(request.user)
    context = {
        "event": event,
        "entry": entry,
        "player": player,
        "form": form,
        "refusal": refusal,
        "entries": player.entries.select_related("event").order_by("-event__date"),
        "changes": history.for_player(player),
        "may_merge": may_merge,
        "suggested": _twins(player) if may_merge else [],
    }
    status = 403 if refusal and request.method == "POST" else 200
    return render(request, "tournament/player.html", context, status=status)


@protected
def player_merge(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Merge another player into this entry's player, after showing both side by side. Directors
    only: players are shared by every event, so a merge reaches beyond the organiser's event."""
    event = event_or_404(slug)
    access.require_director(request)
    entry = _entry_or_404(event, pk)
    other_id = whole_number(request.POST.get("other") or request.GET.get("other"))
    other = Player.objects.filter(pk=other_id).exclude(pk=entry.player_id).first()
    if other is None:  # first choose the other player
        if request.method == "POST" or request.GET.get("other"):
            messages.error(request, _("Choose the player to merge into this one."))
        others = Player.objects.exclude(pk=entry.player_id)
        return render(
            request,
            "tournament/player_merge.html",
            {
                "event": event,
                "entry": entry,
                "keep": entry.player,
                "suggested": _twins(entry.player),
                "others": others.only("pk", "first_name", "last_name", "club", "town"),
            },
        )
    if request.method == "POST":
        try:
            kept = register_services.merge_players(
                keep=entry.player, remove=other, user=request.user
            )
        except errors.Refused as exc:
            refused(request, exc)
            return redirect("player_edit", slug=event.slug, pk=entry.pk)
        messages.success(
            request,
            _("%(other)s merged into %(player)s.") % {"other": other, "player": kept},
        )
        return redirect("player_edit", slug=event.slug, pk=entry.pk)
    players = []
    for player in (entry.player, other):
        player.event_list = list(player.entries.select_related("event").order_by("-event__date"))
        players.append(player)
    shared = {e.event_id for e in players[0].event_list} & {
        e.event_id for e in players[1].event_list
    }
    return render(
        request,
        "tournament/player_merge.html",
        {
            "event": event,
            "entry": entry,
            "keep": players[0],
            "other": players[1],
            "players": players,
            "shared": shared,
        },
    )


@protected
def entry_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Remove an entry registered by mistake, after a confirmation; only before the first draw."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    entry = _entry_or_404(event, pk)
    if request.method == "POST":
        try:
            register_services.remove_entry(entry=entry, user=request.user)
        except errors.Refused as exc:
            refused(request, exc)
        else:
            messages.success(
                request,
                _("%(player)s removed from the event (start number %(n)s).")
                % {"player": entry.player, "n": entry.start_number},
            )
        return redirect("event_players", slug=event.slug)
    drawn = event.rounds.exclude(status=Round.Status.DRAFT).exists()
    return render(
        request, "tournament/entry_remove.html", {"event": event, "entry": entry, "drawn": drawn}
    )


@protected
@require_POST
def round_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    try:
        rnd = rounds.add_round(event=event)
    except errors.Refused as exc:
        refused(request, exc)
        return redirect(event)
    return redirect("round_seating", slug=event.slug, number=rnd.number)


def round_button(
    view: Callable[[HttpRequest, Round], HttpResponse | None],
) -> Callable[..., HttpResponse]:
    """A director's button on the round page: a POST by the event's organisers, which finds the
    round (404 if there is none) and hands it to ``view``. The view does its one thing and says
    so; it answers nothing (back to the round page) or a page of its own. A refusal is said on the
    round page; a round removed meanwhile (the remove button pressed twice, two tabs) sends the
    director to the event."""

    @wraps(view)
    def button(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        rnd = round_or_404(slug, number)
        access.require(request, rnd.event, ORGANISER)
        try:
            response = view(request, rnd)
        except errors.Refused as exc:
            refused(request, exc)
            response = None
        except Round.DoesNotExist:
            messages.error(request, _("Round %(n)s has been removed.") % {"n": number})
            return redirect(rnd.event)
        if response is None:
            return redirect("round_seating", slug=slug, number=number)
        return response

    return protected(require_POST(button))


@round_button
def round_draw(request: HttpRequest, rnd: Round) -> None:
    """Draw the round's seats, or draw them again, with the seed given (the same tables again)
    or a new one."""
    seed_text = request.POST.get("seed", "").strip()
    seed = whole_number(seed_text, SEED_MAX)
    if seed_text and not seed:
        raise errors.Refused(
            _("The seed is a whole number from 1 to %(max)s; leave it empty for a new draw.")
            % {"max": SEED_MAX}
        )
    rounds.draw_round(round=rnd, seed=seed, user=request.user)
    messages.success(request, _("Seats drawn."))


@round_button
def round_start(request: HttpRequest, rnd: Round) -> None:
    """Start the round: its tables can enter their games."""
    rounds.start_round(round=rnd)
    messages.success(request, _("Round started: the tables can enter their games."))


@round_button
def round_close(request: HttpRequest, rnd: Round) -> HttpResponse | None:
    """Close the round; where tables have not confirmed their sheets, asked once more."""
    unconfirmed = list(
        rnd.tables.filter(voided=False, confirmed_at__isnull=True).order_by("number")
    )
    # asked only where closing can succeed: an unfinished table is refused outright
    ready = rnd.status == Round.Status.PLAYING and not play_reads.unfinished_tables(rnd)
    if unconfirmed and ready and request.POST.get("confirmed") != "1":
        return _ask_to_close(request, rnd, unconfirmed)
    rounds.close_round(round=rnd)
    messages.success(request, _("Round closed."))
    return None


@protected
@require_POST
def round_remove(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Remove a round that has not started, back to the event; with its seats drawn, asked once
    more. Pressed twice, the second press is told the round is gone (not a button of
    ``round_button``: a round that is not there is no 404 here)."""
    rnd = (
        Round.objects.select_related("event__season")
        .filter(event__slug=slug, number=number)
        .first()
    )
    if rnd is None:
        # the button pressed twice: the first press removed it
        event = event_or_404(slug)
        access.require(request, event, ORGANISER)
        messages.info(request, _("Round %(n)s has been removed.") % {"n": number})
        return redirect(event)
    access.require(request, rnd.event, ORGANISER)
    # drawn seats go with the round, and the table links printed on its sheets stop working:
    # asked once more
    if rnd.status == Round.Status.SEATED and request.POST.get("confirmed") != "1":
        return _ask_to_remove(request, rnd)
    try:
        event = rounds.remove_round(round=rnd, user=request.user)
    except errors.Refused as exc:
        refused(request, exc)
        return redirect("round_seating", slug=slug, number=number)
    except Round.DoesNotExist:  # removed meanwhile, in another tab
        messages.error(request, _("Round %(n)s has been removed.") % {"n": number})
        return redirect(rnd.event)
    messages.success(request, _("Round %(n)s removed.") % {"n": number})
    return redirect(event)


@round_button
def round_swap(request: HttpRequest, rnd: Round) -> None:
    """Swap two players' seats in a drawn round."""
    entries = Entry.objects.filter(seats__round=rnd)
    form = SwapForm(request.POST, entries=entries)
    if not form.is_valid():
        raise errors.Refused(_("Choose the two players to swap."))
    rounds.swap_seats(
        round=rnd,
        first=form.cleaned_data["first"],
        second=form.cleaned_data["second"],
        user=request.user,
    )
    messages.success(request, _("Seats swapped."))


@round_button
def round_swap_pairs(request: HttpRequest, rnd: Round) -> None:
    """Swap two fixed pairs' places in a drawn round (a partner never moves alone)."""
    form = PairSwapForm(request.POST, round=rnd)
    if not form.is_valid():
        raise errors.Refused(_("Choose the two pairs to swap."))
    rounds.swap_pairs(
        round=rnd,
        first=form.cleaned_data["first"],
        second=form.cleaned_data["second"],
        user=request.user,
    )
    messages.success(request, _("Pairs swapped."))


def _ask_to_remove(request: HttpRequest, rnd: Round) -> HttpResponse:
    """Removing a round whose seats are drawn: the seating list and table sheets may be printed
    already."""
    question = _(
        "Its seats are drawn: the seating and the table links on sheets printed for it are "
        "removed with it. Remove the round all the same?"
    )
    title = _("Remove round %(n)s?") % {"n": rnd.number}
    return _ask_again(request, rnd, "round_remove", title, question, _("Remove the round"))


def _ask_to_close(request: HttpRequest, rnd: Round, unconfirmed: list[Table]) -> HttpResponse:
    """Closing a round whose sheets the tables have not all confirmed."""
    count = len(unconfirmed)
    question = ngettext(
        "%(count)s table has not confirmed its sheet yet: table %(tables)s. "
        "Close the round all the same?",
        "%(count)s tables have not confirmed their sheets yet: tables %(tables)s. "
        "Close the round all the same?",
        count,
    ) % {"count": count, "tables": ", ".join(str(t.number) for t in unconfirmed)}
    title = _("Close round %(n)s?") % {"n": rnd.number}
    return _ask_again(request, rnd, "round_close", title, question, _("Close the round"))


def _ask_again(
    request: HttpRequest, rnd: Round, button: str, title: str, question: str, confirm: str
) -> HttpResponse:
    """The director says a round's action once more: a page, not a script dialog, so it works
    without JavaScript; it posts to the button's view (its URL name) again with
    ``confirmed=1``."""
    return render(
        request,
        "tournament/confirm.html",
        {
            "event": rnd.event,
            "title": title,
            "question": question,
            "action": reverse(button, args=[rnd.event.slug, rnd.number]),
            "fields": [],
            "confirm": confirm,
            "cancel": reverse("round_seating", args=[rnd.event.slug, rnd.number]),
        },
    )


@protected
@require_POST
def table_void(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    access.require(request, table.round.event, ORGANISER)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        given = request.POST.get("reason", "").strip()
        messages.error(request, " ".join(form.errors["reason"]) if given else _("Give a reason."))
        return redirect(table)
    try:
        if request.POST.get("action") == "restore":
            hands.restore_table(table=table, reason=form.cleaned_data["reason"], user=request.user)
            messages.success(request, _("The table counts again."))
        else:
            hands.void_table(table=table, reason=form.cleaned_data["reason"], user=request.user)
            messages.success(request, _("The table's round is voided and counts nothing."))
    except errors.Refused as exc:
        refused(request, exc)
    return redirect(table)


# the pages a draw by lot is asked on, where the director goes back to
LOT_PAGES = ("event_standings", "prize_table", "prize_giving")


@protected
@require_POST
def decide_lot(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    ids = [whole_number(i) for i in request.POST.getlist("entry") if whole_number(i) is not None]
    entries = collation.by_name(
        Entry.objects.filter(event=event, pk__in=ids).select_related("player"), lambda e: e.player
    )
    # back to the page the lot was asked on: the standings, the prize table or the prize giving
    back = request.POST.get("back", "")
    if back not in LOT_PAGES:
        back = "event_standings"
    # a fixed pair is one unit of the lot: named as registered, once (issue 43.9)
    names = pairs.pair_names(event)
    if len(entries) >= 2 and request.POST.get("confirmed") != "1":
        # a draw by lot is final and recorded with the director's name: asked once more
        return render(
            request,
            "tournament/confirm.html",
            {
                "event": event,
                "title": _("Decide by lot?"),
                "question": _(
                    "Draw lots between %(players)s? The order drawn is final and recorded with "
                    "your name."
                )
                % {"players": join_names(pairs.unit_names(entries, names))},
                "action": reverse("decide_lot", args=[event.slug]),
                "fields": [("entry", e.pk) for e in entries] + [("back", back)],
                "confirm": _("Draw lots"),
                "cancel": reverse(back, args=[event.slug]),
            },
        )
    try:
        draw = lots.decide_by_lot(event=event, entries=entries, user=request.user)
    except errors.Refused as exc:
        refused(request, exc)
    else:
        by_number = {e.start_number: e for e in entries}
        drawn = pairs.unit_names([by_number[n] for n in draw.entries], names)
        messages.success(
            request,
            _("Drawn by lot, in this order: %(order)s.") % {"order": ", ".join(drawn)},
        )
    return redirect(back, slug=event.slug)
