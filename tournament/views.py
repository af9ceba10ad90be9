"""Views: access helper → form → service → redirect or render. Reads are public; every write needs a
login and a POST."""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

import scoring
from scoring import cego

from . import exports, imports, services, standings
from . import tables as tables_
from .forms import (
    HAND_FORMS,
    CardCounterForm,
    EventForm,
    PairForm,
    ReasonForm,
    RegisterForm,
    SeasonForm,
    SwapForm,
    TotalsForm,
    UploadForm,
    whole_number,
)
from .models import Entry, Event, Hand, Player, Round, Season, Seat, Table, Team
from .templatetags.tournament import card_points_text, describe_hand

SEED_MAX = 2**62  # draw seeds are stored in a 64-bit column

# --- access helpers: the object and its related rows in one call ------------------------------


def _event(slug: str) -> Event:
    return get_object_or_404(Event.objects.select_related("season"), slug=slug)


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("event__season"), event__slug=slug, number=number
    )


def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__event"), pk=pk)


def _refused(request: HttpRequest, exc: Exception) -> None:
    messages.error(request, str(exc))


# --- public pages -----------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = Event.objects.select_related("season").annotate(players=Count("entries"))
    return render(
        request,
        "tournament/home.html",
        {
            "events": events,
            "seasons": Season.objects.annotate(event_count=Count("events")),
            "games": scoring.GAMES.values(),
        },
    )


@require_GET
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    rounds = list(
        event.rounds.annotate(
            table_count=Count("tables", distinct=True),
            voided=Count("tables", filter=Q(tables__voided=True), distinct=True),
        )
    )
    entries = event.entries.aggregate(
        total=Count("id"), active=Count("id", filter=Q(status=Entry.Status.ACTIVE))
    )
    return render(
        request,
        "tournament/event_detail.html",
        {"event": event, "rounds": rounds, "entries": entries, "rules": event.full_rules()},
    )


@require_GET
def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    rounds = list(event.rounds.all())
    category = request.GET.get("category", "")
    data = Entry.objects.standings(event, rounds)
    if category in Player.Category.values and category:
        data = standings.category_standings(event, rounds, category)
    ranking = tables_.standings_table(event, data, rounds)
    per_page = request.GET.get("per_page")
    paginate: Any = False
    if whole_number(per_page) is not None:
        paginate = {"per_page": max(10, min(whole_number(per_page), 500))}
    RequestConfig(request, paginate=paginate).configure(ranking)
    ties = standings.prize_ties(event, rounds) if request.user.is_authenticated else []
    return render(
        request,
        "tournament/standings.html",
        {
            "event": event,
            "ranking": ranking,
            "rounds": rounds,
            "category": category,
            "categories": [c for c in Player.Category.choices if c[0]],
            "provisional": any(r.status != Round.Status.CLOSED for r in rounds),
            "ties": ties,
        },
    )


@require_GET
def event_teams(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    rows = standings.team_standings(event)
    ranking = tables_.SideTable(rows)
    RequestConfig(request, paginate=False).configure(ranking)
    return render(request, "tournament/teams.html", {"event": event, "ranking": ranking})


@require_GET
def round_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = _round(slug, number)
    seats = list(Seat.objects.for_round(rnd))
    tables: dict[int, list[Seat]] = {}
    sitting_out = []
    for seat in seats:
        if seat.table is None:
            sitting_out.append(seat)
        else:
            tables.setdefault(seat.table.number, []).append(seat)
    alphabetical = sorted(
        (s for s in seats), key=lambda s: (s.entry.player.last_name, s.entry.player.first_name)
    )
    swap_form = None
    if request.user.is_authenticated and rnd.status == Round.Status.SEATED:
        swap_form = SwapForm(
            entries=Entry.objects.filter(seats__round=rnd).select_related("player")
        )
    return render(
        request,
        "tournament/seating.html",
        {
            "event": rnd.event,
            "round": rnd,
            "tables": sorted(tables.items()),
            "sitting_out": sitting_out,
            "alphabetical": alphabetical,
            "swap_form": swap_form,
        },
    )


@require_GET
def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = _round(slug, number)
    return render(
        request,
        "tournament/round_results.html",
        {"event": rnd.event, "round": rnd, "tables": standings.round_tables(rnd)},
    )


@require_GET
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    events, rows = standings.season_standings(season)
    extra = [
        (f"event_{e.pk}", tables_.SignedColumn(verbose_name=e.name, accessor=f"event_{e.pk}"))
        for e in events
    ]
    ranking = tables_.SeasonTable(rows, extra_columns=extra)
    RequestConfig(request, paginate=False).configure(ranking)
    return render(
        request, "tournament/season.html", {"season": season, "events": events, "ranking": ranking}
    )


def _players(table: Table) -> list[str]:
    seats = Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    return [str(s.entry.player) for s in seats]


def _sheet(table: Table) -> dict[str, Any]:
    """The paper sheet on screen: a row per game with each seat's result and running totals."""
    event = table.round.event
    seats = list(
        Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    )
    players = [str(s.entry.player) for s in seats]
    hands = list(Hand.objects.for_table(table))
    running = [0] * table.size
    rows = []
    for hand in hands:
        results = [0] * table.size
        for result in hand.results.all():
            results[result.position] = result.points
        running = [a + b for a, b in zip(running, results, strict=True)]
        rows.append(
            {
                "hand": hand,
                "description": describe_hand(event.game, hand.data, players),
                "results": results,
                "running": list(running),
                "dealer": hand.dealer,
            }
        )
    extra: dict[str, Any] = {}
    if event.game == "ziege":
        extra["matches"] = standings.ziege_matches(event, hands)
    if event.game == "crazy_solo":
        start = event.full_rules()["start_balance"]
        extra["balances"] = [start + r for r in running]
    if event.game == "hennes_sibbe":
        extra["penalty_limit"] = event.full_rules()["penalty_limit"]
        extra["penalties"] = standings.hennes_current_game(
            hands, table.size, extra["penalty_limit"]
        )
    wanted = event.hands_for(table.size)
    return {
        "event": event,
        "round": table.round,
        "table": table,
        "seats": seats,
        "players": players,
        "rows": rows,
        "totals": running,
        "wanted": wanted,
        "next_number": len(hands) + 1,
        "next_dealer": services.dealer_for(len(hands) + 1, table.size) if table.size else 0,
        **extra,
    }


def table_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The table sheet; for a logged-in scorer also the form for the next game."""
    table = _table(pk)
    event = table.round.event
    context = _sheet(table)
    form_class = HAND_FORMS[event.game]
    form = None
    if request.user.is_authenticated:
        if request.method == "POST":
            form = form_class(request.POST, table=table, players=context["players"])
            if form.is_valid():
                if request.POST.get("action") == "preview":
                    context["preview"] = form.result
                else:
                    try:
                        services.record_hand(table=table, data=form.hand, user=request.user)
                    except services.Refused as exc:
                        _refused(request, exc)
                    else:
                        messages.success(request, _("Game saved."))
                        return redirect(table)
        else:
            form = form_class(table=table, players=context["players"])
    elif request.method == "POST":
        return redirect(f"{reverse('login')}?next={request.path}")
    context["form"] = form
    context["counter"] = CardCounterForm(prefix="cc") if event.game == "cego" else None
    context["totals_form"] = (
        TotalsForm(table=table, players=context["players"])
        if request.user.is_authenticated and not context["rows"] and event.game != "ziege"
        else None
    )
    return render(request, "tournament/table.html", context)


# --- director pages ---------------------------------------------------------------------------


@login_required
def season_create(request: HttpRequest) -> HttpResponse:
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = form.save()
        messages.success(request, _("Season created."))
        return redirect(season)
    return render(request, "tournament/form.html", {"form": form, "title": _("New season")})


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form.save()
        messages.success(request, _("Event created. Now register the players."))
        return redirect("event_players", slug=event.slug)
    return render(request, "tournament/event_form.html", {"form": form, "title": _("New event")})


@login_required
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Event saved."))
        return redirect(event)
    return render(
        request, "tournament/event_form.html", {"form": form, "title": event.name, "event": event}
    )


@login_required
def event_players(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
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
            _refused(request, exc)
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


@login_required
@require_POST
def event_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
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
            _refused(request, exc)
    return redirect("event_players", slug=event.slug)


@login_required
@require_POST
def entry_status(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = _event(slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), event=event, pk=pk)
    try:
        if request.POST.get("action") == "reinstate":
            services.reinstate_entry(entry=entry)
            messages.success(request, _("%(player)s is active again.") % {"player": entry.player})
        else:
            services.withdraw_entry(entry=entry)
            messages.success(request, _("%(player)s withdrawn.") % {"player": entry.player})
    except services.Refused as exc:
        _refused(request, exc)
    return redirect("event_players", slug=event.slug)


@login_required
@require_POST
def round_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    try:
        rnd = services.add_round(event=event)
    except services.Refused as exc:
        _refused(request, exc)
        return redirect(event)
    return redirect("round_seating", slug=event.slug, number=rnd.number)


@login_required
@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    rnd = _round(slug, number)
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
            services.draw_round(round=rnd, seed=seed)
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
        _refused(request, exc)
    return redirect("round_seating", slug=slug, number=number)


@login_required
@require_POST
def table_totals(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    form = TotalsForm(request.POST, table=table, players=_players(table))
    if form.is_valid():
        try:
            services.record_totals(table=table, totals=form.totals, user=request.user)
            messages.success(request, _("Totals saved."))
        except services.Refused as exc:
            _refused(request, exc)
    else:
        for error in form.non_field_errors():
            messages.error(request, error)
        for name, errors in form.errors.items():
            if name != "__all__":
                messages.error(request, f"{form.fields[name].label}: {' '.join(errors)}")
    return redirect(table)


@login_required
@require_POST
def table_void(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason."))
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
        _refused(request, exc)
    return redirect(table)


@login_required
def hand_edit(request: HttpRequest, pk: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("table__round__event"), pk=pk)
    table = hand.table
    event = table.round.event
    players = _players(table)
    if hand.kind == Hand.Kind.TOTALS:
        raise Http404
    form_class = HAND_FORMS[event.game]
    reason_form = ReasonForm(request.POST or None)
    if request.method == "POST":
        form = form_class(request.POST, table=table, players=players, number=hand.number)
        if request.POST.get("action") == "delete":
            if reason_form.is_valid():
                try:
                    services.delete_hand(
                        hand=hand, reason=reason_form.cleaned_data["reason"], user=request.user
                    )
                except services.Refused as exc:
                    _refused(request, exc)
                else:
                    messages.success(request, _("Game %(n)s deleted.") % {"n": hand.number})
                    return redirect(table)
        elif form.is_valid() and reason_form.is_valid():
            version = request.POST.get("version", "")
            try:
                services.edit_hand(
                    hand=hand,
                    data=form.hand,
                    reason=reason_form.cleaned_data["reason"],
                    user=request.user,
                    version=whole_number(version),
                )
            except services.Refused as exc:
                _refused(request, exc)
            else:
                messages.success(request, _("Game %(n)s changed.") % {"n": hand.number})
                return redirect(table)
    else:
        form = form_class(
            table=table,
            players=players,
            number=hand.number,
            initial=form_class.initial_from(hand.data),
        )
    history = hand.history.select_related("history_user").order_by("-history_date")
    return render(
        request,
        "tournament/hand_edit.html",
        {
            "event": event,
            "round": table.round,
            "table": table,
            "hand": hand,
            "form": form,
            "reason_form": reason_form,
            "history": history,
            "players": players,
        },
    )


@login_required
@require_POST
def hand_preview(request: HttpRequest, pk: int) -> JsonResponse:
    """Live preview for the hand form: the engine's results, or its reason for refusing."""
    table = _table(pk)
    form_class = HAND_FORMS[table.round.event.game]
    number = request.POST.get("number")
    form = form_class(
        request.POST,
        table=table,
        players=_players(table),
        number=whole_number(number),
    )
    if form.is_valid():
        return JsonResponse({"ok": True, "results": form.result})
    errors = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
    return JsonResponse({"ok": False, "errors": errors})


@require_GET
def card_points(request: HttpRequest) -> JsonResponse:
    """Cego card counter: counts of cards → card points, computed by the engine."""
    form = CardCounterForm(request.GET, prefix="cc")
    if not form.is_valid():
        return JsonResponse({"ok": False, "error": _("Counts are whole numbers of 0 or more.")})
    counts = {k: v for k, v in form.cleaned_data.items() if v}
    try:
        points = cego.card_points(counts)
    except scoring.InvalidHand as exc:
        return JsonResponse({"ok": False, "error": str(exc)})
    return JsonResponse({"ok": True, "points": card_points_text(points), "value": float(points)})


@login_required
@require_POST
def decide_lot(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    ids = [whole_number(i) for i in request.POST.getlist("entry") if whole_number(i) is not None]
    entries = list(Entry.objects.filter(event=event, pk__in=ids))
    try:
        draw = services.decide_by_lot(event=event, entries=entries, user=request.user)
    except services.Refused as exc:
        _refused(request, exc)
    else:
        messages.success(
            request,
            _("Drawn by lot: start numbers %(order)s.")
            % {"order": ", ".join(str(n) for n in draw.entries)},
        )
    return redirect("event_standings", slug=event.slug)


# --- paper and spreadsheets -------------------------------------------------------------------


def _qr_svg(url: str) -> str:
    """The table's page as a QR code, inline SVG (segno), printed on the table sheet."""
    return segno.make(url, error="m").svg_inline(scale=3, border=2)


@require_GET
def print_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table sheet of a round, one A4 page each (or one table with ``?table=<number>``)."""
    rnd = _round(slug, number)
    event = rnd.event
    seats = list(
        Seat.objects.filter(round=rnd, table__isnull=False)
        .select_related("entry__player", "table")
        .order_by("table__number", "position")
    )
    only = request.GET.get("table", "")
    if whole_number(only) is not None:
        seats = [s for s in seats if s.table.number == whole_number(only)]
        if not seats:
            raise Http404
    results: dict[int, dict[int, int]] = {}
    hands: dict[int, list[Hand]] = {}
    for hand in (
        Hand.objects.filter(table__round=rnd).prefetch_related("results").order_by("number")
    ):
        hands.setdefault(hand.table_id, []).append(hand)
        results[hand.pk] = {r.position: r.points for r in hand.results.all()}
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    rules = event.full_rules()
    sheets = []
    for table_seats in by_table.values():
        table = table_seats[0].table
        names = [str(s.entry.player) for s in table_seats]
        played = hands.get(table.pk, [])
        count = max(event.hands_for(table.size) or 24, len(played))
        rows = []
        totals = [0] * table.size
        for number in range(1, count + 1):
            hand = played[number - 1] if number <= len(played) else None
            dealer = services.dealer_for(number, table.size)
            row = {
                "number": number,
                "dealer": names[dealer],
                "description": describe_hand(event.game, hand.data, names) if hand else "",
                "results": [None] * table.size,
            }
            if hand:
                row["results"] = [results[hand.pk].get(p, 0) for p in range(table.size)]
                totals = [a + b for a, b in zip(totals, row["results"], strict=True)]
            rows.append(row)
        sheets.append(
            {
                "table": table,
                "seats": table_seats,
                "rows": rows,
                "totals": totals,
                "has_hands": bool(played),
                "qr": _qr_svg(request.build_absolute_uri(table.get_absolute_url())),
                "penalty_limit": rules.get("penalty_limit"),
                "limit_boxes": range(rules.get("penalty_limit") or 0),
            }
        )
    return render(
        request, "tournament/print/sheets.html", {"event": event, "round": rnd, "sheets": sheets}
    )


@require_GET
def print_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating list for the wall: by table, and by name for players to look themselves up."""
    rnd = _round(slug, number)
    seats = list(Seat.objects.for_round(rnd))
    tables: dict[int, list[Seat]] = {}
    for seat in seats:
        if seat.table is not None:
            tables.setdefault(seat.table.number, []).append(seat)
    alphabetical = sorted(
        seats, key=lambda s: (s.entry.player.last_name, s.entry.player.first_name)
    )
    half = (len(alphabetical) + 1) // 2
    left, right = alphabetical[:half], alphabetical[half:]
    pairs = [(a, right[i] if i < len(right) else None) for i, a in enumerate(left)]
    return render(
        request,
        "tournament/print/seating.html",
        {
            "event": rnd.event,
            "round": rnd,
            "tables": sorted(tables.items()),
            "sitting_out": [s for s in seats if s.table is None],
            "alphabetical_pairs": pairs,
        },
    )


@require_GET
def print_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings on paper: the full list, or (``?prize=1``) the prize places and the last."""
    event = _event(slug)
    rounds = list(event.rounds.all())
    rows = list(Entry.objects.standings(event, rounds))
    prize = request.GET.get("prize") == "1"
    if rows:
        rows[-1].is_last = True
    for row in rows:
        row.round_values = [getattr(row, f"round_{r.number}") for r in rounds]
        row.shown_total = tables_.value_of_total(event, row.total)
    if prize and len(rows) > standings.PRIZE_LIST + 1:
        shown = [r for r in rows if r.rank <= standings.PRIZE_LIST]
        rows[-1].gap = True
        rows = [*shown, rows[-1]]
    heading = {
        "crazy_solo": _("Balance"),
        "hennes_sibbe": _("Penalty cards"),
        "ziege": _("Defeat points"),
    }.get(event.game, _("Total"))
    return render(
        request,
        "tournament/print/standings.html",
        {
            "event": event,
            "rounds": rounds,
            "rows": rows,
            "prize": prize,
            "total_heading": heading,
            "columns": 5 + (0 if prize else len(rounds)),
            "provisional": any(r.status != Round.Status.CLOSED for r in rounds),
        },
    )


def _xlsx_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(
        content,
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def event_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    return _xlsx_response(exports.event_workbook(event).getvalue(), f"{event.slug}.xlsx")


@require_GET
def season_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    return _xlsx_response(exports.season_workbook(season).getvalue(), f"{season.slug}.xlsx")


# --- imports ----------------------------------------------------------------------------------

IMPORT_MAX_AGE = 3600  # a preview must be confirmed within an hour


def _payload_salt(kind: str, pk: int) -> str:
    return f"tournament.import.{kind}.{pk}"


@login_required
def import_players(request: HttpRequest, slug: str) -> HttpResponse:
    """Player list from XLSX or CSV: upload, preview (new / known / rejected), confirm."""
    event = _event(slug)
    context: dict[str, Any] = {"event": event, "form": UploadForm()}
    if request.method == "POST" and request.POST.get("action") == "confirm":
        try:
            rows = signing.loads(
                request.POST.get("payload", ""),
                salt=_payload_salt("players", event.pk),
                max_age=IMPORT_MAX_AGE,
            )
            saved = imports.save_players(event, rows)
        except signing.BadSignature:
            messages.error(request, _("The preview has expired; upload the file again."))
        except services.Refused as exc:
            _refused(request, exc)
        else:
            messages.success(request, _("%(n)s players registered.") % {"n": saved})
            return redirect("event_players", slug=event.slug)
    elif request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                preview = imports.read_players(event, imports.read_table(upload, upload.name))
            except imports.UnreadableFile as exc:
                form.add_error("file", str(exc))
            else:
                context["preview"] = preview
                context["payload"] = signing.dumps(
                    preview.payload(), salt=_payload_salt("players", event.pk), compress=True
                )
    return render(request, "tournament/import_players.html", context)


@login_required
@require_GET
def result_template(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = _round(slug, number)
    content = imports.result_template(rnd).getvalue()
    return _xlsx_response(content, f"{rnd.event.slug}-{_('round')}-{rnd.number}.xlsx")


@login_required
def import_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's results filled in offline: upload, preview (checked like typed entry), confirm."""
    rnd = _round(slug, number)
    context: dict[str, Any] = {"event": rnd.event, "round": rnd, "form": UploadForm()}
    if request.method == "POST" and request.POST.get("action") == "confirm":
        try:
            rows = signing.loads(
                request.POST.get("payload", ""),
                salt=_payload_salt("results", rnd.pk),
                max_age=IMPORT_MAX_AGE,
            )
            saved = imports.save_results(rnd, rows, user=request.user)
        except signing.BadSignature:
            messages.error(request, _("The preview has expired; upload the file again."))
        except services.Refused as exc:
            _refused(request, exc)
        else:
            messages.success(request, _("%(n)s games saved.") % {"n": saved})
            return redirect("round_results", slug=slug, number=number)
    elif request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            try:
                preview = imports.read_results(rnd, form.cleaned_data["file"])
            except imports.UnreadableFile as exc:
                form.add_error("file", str(exc))
            else:
                context["preview"] = preview
                context["payload"] = signing.dumps(
                    preview.payload(), salt=_payload_salt("results", rnd.pk), compress=True
                )
    return render(request, "tournament/import_results.html", context)
