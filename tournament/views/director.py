"""Director pages: seasons, events, registration, draws and rounds (organisers only)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access, services
from ..access import ORGANISER
from ..forms import (
    EventForm,
    PairForm,
    ReasonForm,
    RegisterForm,
    SeasonForm,
    SwapForm,
    whole_number,
)
from ..models import Entry, Event, EventRole, Team
from .common import SEED_MAX, event_or_404, protected, refused, round_or_404, table_or_404


@protected
def season_create(request: HttpRequest) -> HttpResponse:
    access.require_director(request)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = form.save()
        messages.success(request, _("Season created."))
        return redirect(season)
    return render(request, "tournament/form.html", {"form": form, "title": _("New season")})


@protected
def event_create(request: HttpRequest) -> HttpResponse:
    access.require_director(request)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form.save()
        EventRole.objects.get_or_create(
            event=event, user=request.user, defaults={"role": EventRole.Role.ORGANISER}
        )
        messages.success(request, _("Event created. Now register the players."))
        return redirect("event_players", slug=event.slug)
    return render(request, "tournament/event_form.html", {"form": form, "title": _("New event")})


@protected
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Event saved."))
        return redirect(event)
    return render(
        request, "tournament/event_form.html", {"form": form, "title": event.name, "event": event}
    )


@protected
def event_players(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            squad = None
            if form.cleaned_data.get("team"):
                squad, _created = Team.objects.get_or_create(
                    event=event, kind=Team.Kind.SQUAD, name=form.cleaned_data["team"].strip()
                )
            entry = services.register_player(event=event, player=form.get_player(), squad=squad)
        except services.Refused as exc:
            refused(request, exc)
        else:
            messages.success(
                request,
                _("%(player)s registered with start number %(n)s.")
                % {"player": entry.player, "n": entry.start_number},
            )
            return redirect("event_players", slug=event.slug)
    entries = event.entries.select_related("player", "squad", "pair")
    pair_form = (
        PairForm(event=event)
        if event.game == "ziege" and event.pairing == Event.Pairing.FIXED
        else None
    )
    return render(
        request,
        "tournament/players.html",
        {"event": event, "entries": entries, "form": form, "pair_form": pair_form},
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
            pair = services.create_pair(
                event=event,
                name=form.cleaned_data["name"],
                entries=[form.cleaned_data["first"], form.cleaned_data["second"]],
            )
            messages.success(request, _("Pair %(name)s registered.") % {"name": pair.name})
        except services.Refused as exc:
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
            services.reinstate_entry(entry=entry)
            messages.success(request, _("%(player)s is active again.") % {"player": entry.player})
        else:
            services.withdraw_entry(entry=entry)
            messages.success(request, _("%(player)s withdrawn.") % {"player": entry.player})
    except services.Refused as exc:
        refused(request, exc)
    return redirect("event_players", slug=event.slug)


@protected
@require_POST
def round_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    try:
        rnd = services.add_round(event=event)
    except services.Refused as exc:
        refused(request, exc)
        return redirect(event)
    return redirect("round_seating", slug=event.slug, number=rnd.number)


@protected
@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    rnd = round_or_404(slug, number)
    access.require(request, rnd.event, ORGANISER)
    try:
        if action == "draw":
            seed_text = request.POST.get("seed", "").strip()
            seed = whole_number(seed_text, SEED_MAX)
            if seed_text and not seed:
                raise services.Refused(
                    _(
                        "The seed is a whole number from 1 to %(max)s; "
                        "leave it empty for a new draw."
                    )
                    % {"max": SEED_MAX}
                )
            services.draw_round(round=rnd, seed=seed, user=request.user)
            messages.success(request, _("Seats drawn."))
        elif action == "start":
            services.start_round(round=rnd)
            messages.success(request, _("Round started: the tables can enter their games."))
        elif action == "close":
            services.close_round(round=rnd)
            messages.success(request, _("Round closed."))
        elif action == "swap":
            entries = Entry.objects.filter(seats__round=rnd)
            form = SwapForm(request.POST, entries=entries)
            if not form.is_valid():
                raise services.Refused(_("Choose the two players to swap."))
            services.swap_seats(
                round=rnd, first=form.cleaned_data["first"], second=form.cleaned_data["second"]
            )
            messages.success(request, _("Seats swapped."))
        else:
            raise Http404
    except services.Refused as exc:
        refused(request, exc)
    return redirect("round_seating", slug=slug, number=number)


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
            services.restore_table(
                table=table, reason=form.cleaned_data["reason"], user=request.user
            )
            messages.success(request, _("The table counts again."))
        else:
            services.void_table(table=table, reason=form.cleaned_data["reason"], user=request.user)
            messages.success(request, _("The table's round is voided and counts nothing."))
    except services.Refused as exc:
        refused(request, exc)
    return redirect(table)


@protected
@require_POST
def decide_lot(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    ids = [whole_number(i) for i in request.POST.getlist("entry") if whole_number(i) is not None]
    entries = list(Entry.objects.filter(event=event, pk__in=ids))
    try:
        draw = services.decide_by_lot(event=event, entries=entries, user=request.user)
    except services.Refused as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            _("Drawn by lot: start numbers %(order)s.")
            % {"order": ", ".join(str(n) for n in draw.entries)},
        )
    return redirect("event_standings", slug=event.slug)
