"""Public pages: events, standings, seating, results and the season. Read-only, no login."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

import scoring
from tournament import access, games
from tournament.core import collation, replica, shown
from tournament.core.fields import whole_number
from tournament.games.words import explain
from tournament.models import (
    Entry,
    Event,
    Hand,
    Player,
    Round,
    Season,
    Seat,
    TablePhone,
    provisional_entries,
)
from tournament.pagecache.pages import Page, Uses, any_value, one_of, sort_of
from tournament.play import draw as drawing
from tournament.play import reads
from tournament.play.forms import PairSwapForm, SwapForm, card_counter_class, rule_settings
from tournament.register import checkin, online
from tournament.results import pairs, player_stats, standings
from tournament.results import tables as tables_
from tournament.views.common import (
    event_by_id_or_404,
    event_or_404,
    event_version_or_404,
    round_or_404,
    season_category,
)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    # newest first, by date (several events on one day by name)
    events = (
        Event.objects.select_related("season")
        .annotate(players=Count("entries"))
        .order_by("-date", "name", "pk")
    )
    return render(
        request,
        "tournament/home.html",
        {
            "events": events,
            # the order asked for: a GROUP BY query leaves the model's default ordering out
            "seasons": Season.objects.annotate(event_count=Count("events")).order_by("-id"),
            "games": games.all_games(),
        },
    )


@require_GET
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    rounds = list(
        event.rounds.annotate(
            table_count=Count("tables", distinct=True),
            voided=Count("tables", filter=Q(tables__voided=True), distinct=True),
        ).order_by("number")  # asked for: a GROUP BY query leaves the model's ordering out
    )
    entries = event.entries.aggregate(
        total=Count("id"), active=Count("id", filter=Q(status=Entry.Status.ACTIVE))
    )
    # the public way to register before the day, while it is open or once players registered
    registration = None
    if event.registration_open or event.entries.filter(source=Entry.Source.ONLINE).exists():
        registration = {"open": not online.closed_reason(event), "places": online.places(event)}
    return render(
        request,
        "tournament/event_detail.html",
        {
            "event": event,
            "rounds": rounds,
            "entries": entries,
            "rules": rule_settings(event),
            "registration": registration,
            # the live copy of the laptop's database: the director's to look after
            "replica": replica.here() if access.is_director(request.user) else None,
        },
    )


@require_GET
def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    page = _standings_page(request, *event_version_or_404(slug))

    def build() -> HttpResponse:
        event = event_by_id_or_404(page.owner)
        top, _mark, table = page.body(*_standings_of(request, event)).partition(PERSONAL)
        # the organiser's part, never cached: the ties on prize places with their lot buttons
        ties: list[tuple[list[Entry], list[str]]] = []
        if access.can_organise(request.user, event):
            groups = standings.prize_ties(event)
            # a fixed pair is named as registered, its partners after it (issue 43.9)
            names = pairs.pair_names(event) if groups else {}
            ties = [(group, pairs.unit_names(group, names, members=True)) for group in groups]
        return render(
            request,
            "tournament/standings.html",
            {
                "event": event,
                "above_ties": mark_safe(top),
                "below_ties": mark_safe(table),
                "ties": ties,
            },
        )

    return page.serve(build)


# where a cached body leaves room for what differs from user to user
PERSONAL = "<!--personal-->"


def _standings(request: HttpRequest, event: Event) -> dict[str, Any]:
    rounds = standings.rounds_of(event)
    category = request.GET.get("category", "")
    entries = Entry.objects.all()
    if category in Player.Category.values and category:
        entries = entries.filter(player__category=category)
    # a round's column joined only to sort by it; the page reads its rows' rounds at once
    sort = request.GET.get("sort", "").removeprefix("-")
    rows = entries.standings(event, [r for r in rounds if sort == f"round_{r.number}"])
    provisional = provisional_entries(event)
    ranking = tables_.standings_table(
        event,
        rows,
        rounds,
        provisional=provisional,
        voided=standings.voided_entries(rounds),
        last=entries.last_place(event),
    )
    # a page of 100 rows; ?per_page=all for everybody on screen, the print page for paper.
    # RequestConfig reads page and per_page from the address, which QueryMiddleware has made
    # safe (a page number in range, 10 to 500 rows).
    paginate: Any = {"per_page": STANDINGS_PAGE}
    if request.GET.get("per_page") == "all":
        paginate = False
    RequestConfig(request, paginate=paginate).configure(ranking)
    return {
        "event": event,
        "ranking": ranking,
        "rounds": rounds,
        "category": category,
        "categories": [c for c in Player.Category.choices if c[0]],
        "provisional": bool(provisional),
        "rounds_open": any(r.status != Round.Status.CLOSED for r in rounds),
    }


@require_GET
def event_teams(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    page = Page(
        request,
        "teams",
        event.pk,
        event.version,
        uses={"sort": sort_of(*tables_.SideTable.base_columns)},
    )

    def context() -> dict[str, Any]:
        ranking = tables_.SideTable(standings.team_standings(event))
        RequestConfig(request, paginate=False).configure(ranking)
        return {"event": event, "ranking": ranking}

    def build() -> HttpResponse:
        body = page.body("tournament/cached/teams.html", context)
        return render(
            request,
            "tournament/teams.html",
            {"event": event, "body": body, "fixed_pairs": event.in_fixed_pairs},
        )

    return page.serve(build)


@require_GET
def event_pairs(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking of fixed Ziege pairs (an event without fixed pairs has none: 404)."""
    event = event_or_404(slug)
    if not event.in_fixed_pairs:
        raise Http404
    page = Page(request, "pairs", event.pk, event.version)

    def context() -> dict[str, Any]:
        return {
            "event": event,
            "headings": pairs.headings(event),
            "rows": pairs.pair_standings(event),
        }

    def build() -> HttpResponse:
        body = page.body("tournament/cached/pairs.html", context)
        return render(request, "tournament/pairs.html", {"event": event, "body": body})

    return page.serve(build)


@require_GET
def round_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(slug, number)
    seats = list(Seat.objects.for_round(rnd))
    tables: dict[int, list[Seat]] = {}
    sitting_out = []
    for seat in seats:
        if seat.table is None:
            sitting_out.append(seat)
        else:
            tables.setdefault(seat.table.number, []).append(seat)
    alphabetical = collation.by_name(seats, lambda s: s.entry.player)
    swap_form = None
    can_organise = access.can_organise(request.user, rnd.event)
    # fixed Ziege pairs move whole: a single partner is never offered for a swap
    fixed_pairs = rnd.event.in_fixed_pairs
    if can_organise and rnd.status == Round.Status.SEATED:
        swap_form = (
            PairSwapForm(round=rnd)
            if fixed_pairs
            else SwapForm(entries=Entry.objects.filter(seats__round=rnd).select_related("player"))
        )
    # a round added by mistake (or one more than the day has time for) can go while not started
    removable = can_organise and reads.removal_refused(rnd) is None
    # before a draw, who registered and did not come to the check-in: the director decides
    missing = (
        checkin.missing(rnd.event)
        if can_organise and rnd.status in (Round.Status.DRAFT, Round.Status.SEATED)
        else []
    )
    return render(
        request,
        "tournament/seating.html",
        {
            "removable": removable,
            "missing": missing,
            "event": rnd.event,
            "round": rnd,
            "tables": sorted(tables.items()),
            "sitting_out": sitting_out,
            "alphabetical": alphabetical,
            "swap_form": swap_form,
            "swap_pairs": fixed_pairs,  # whole pairs change places (round_swap_pairs)
            "draw_explanation": drawing.explain(rnd.draw_basis, rnd.event.game_type)
            if rnd.draw_basis
            else "",
            "can_organise": can_organise,
            "can_score": access.can_score(request.user, rnd.event),
            "reports": _table_reports(rnd) if access.can_score(request.user, rnd.event) else {},
        },
    )


def _table_reports(rnd: Round) -> dict[int, dict[str, Any]]:
    """Per table of a round being played, for the director: when its last game arrived and what
    its phone reported with the last game it sent (games still waiting on it, games refused)."""
    if rnd.status != Round.Status.PLAYING:
        return {}
    reports: dict[int, dict[str, Any]] = {}
    hands = (
        Hand.objects.filter(table__round=rnd)
        .values("table_id")
        # when the latest game was entered, not when a game was last corrected
        .annotate(last=Max("entered_at"), games=Count("id"))
    )
    for row in hands:
        reports[row["table_id"]] = {"last": row["last"], "games": row["games"]}
    for phone in TablePhone.objects.filter(table__round=rnd):
        reports.setdefault(phone.table_id, {})["phone"] = phone
    return reports


@require_GET
def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(slug, number)
    event = rnd.event
    page = Page(request, "round_results", event.pk, event.version, rnd.number)

    def build() -> HttpResponse:
        body = page.body(
            "tournament/cached/round_results.html",
            lambda: {"event": event, "round": rnd, "tables": standings.round_tables(rnd)},
        )
        return render(
            request,
            "tournament/round_results.html",
            {"event": event, "round": rnd, "body": body},
        )

    return page.serve(build)


@require_GET
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    page = Page(
        request,
        "season",
        season.pk,
        season.version,
        uses={
            "category": one_of(Player.Category.values),
            "sort": sort_of(*tables_.SeasonTable.base_columns, pattern=r"event_[0-9]{1,9}"),
        },
    )

    def context() -> dict[str, Any]:
        category = season_category(request)
        events, rows = standings.season_standings(season, category=category)
        # an event's finish changes its version and so the season's: never a stale mark
        running = standings.running_events(events, rows)
        ranking = tables_.season_table(games.get(season.game), events, rows, running)
        RequestConfig(request, paginate=False).configure(ranking)
        return {
            "season": season,
            "events": events,
            "running": running,
            "ranking": ranking,
            "category": category,
            "categories": [c for c in Player.Category.choices if c[0]],
        }

    def build() -> HttpResponse:
        body = page.body("tournament/cached/season.html", context)
        return render(request, "tournament/season.html", {"season": season, "body": body})

    return page.serve(build)


@require_GET
def player_page(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """A player's public page: every event played, across seasons, with rank and result; each
    season's course as a chart; per game the hands played and what the cards said (issue 16).
    Only for a player the public pages may name (issue 46): for any other, whoever asks, the
    page is not found, as if the player were unknown; a director finds them in the register."""
    player = get_object_or_404(Player, uid=uid)
    if not player.has_public_page:
        raise Http404
    return render(
        request,
        "tournament/player_page.html",
        {"player": player, "stats": player_stats.player_stats(player)},
    )


@require_GET
def privacy(request: HttpRequest) -> HttpResponse:
    """The privacy notice (DSGVO Art. 13): who answers for the players' data (``settings``'
    ``PRIVACY_CONTROLLER``), what is kept and shown, why, and the players' rights."""
    return render(request, "tournament/privacy.html", {"controller": settings.PRIVACY_CONTROLLER})


@require_GET
def card_points(request: HttpRequest, slug: str) -> JsonResponse:
    """The game's card counter (Cego): counts of cards → card points, computed by the engine."""
    event = event_or_404(slug)
    counter = card_counter_class(event.game_type)
    if counter is None:
        raise Http404
    form = counter(request.GET, prefix="cc")
    if not form.is_valid():
        return JsonResponse({"ok": False, "error": _("Counts are whole numbers of 0 or more.")})
    try:
        text, value = form.card_points()
    except scoring.InvalidHand as exc:
        return JsonResponse({"ok": False, "error": explain(exc)})
    carry = form.carry_refused(text, value)
    return JsonResponse({"ok": True, "points": text, "value": value, "carry_refused": carry})


STANDINGS_PAGE = 100
PROJECTOR_REFRESH = 15  # seconds between two looks at the standings


def _current_round(event: Event) -> Round | None:
    """The round players are sitting in now: the latest one that has been drawn."""
    return event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings for the projector: large type, refreshed in place, scrolling by itself."""
    event = event_or_404(slug)
    refresh = whole_number(request.GET.get("refresh"), 120) or PROJECTOR_REFRESH
    page = _rows_page(request, event.pk, event.version, event.previous_version)
    return render(
        request,
        "tournament/projector.html",
        {
            "event": event,
            "refresh_ms": max(refresh, 2) * 1000,
            "rows": json.loads(page.text(lambda: _projector_json(request, event))),
            "rows_etag": page.etag,
        },
    )


@require_GET
def projector_rows(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's lines as JSON, fetched every few seconds by the projector's script with
    the ETag of the lines it shows: 304 Not Modified while nothing changed."""
    page = _rows_page(request, *event_version_or_404(slug))

    def build() -> HttpResponse:
        event = event_by_id_or_404(page.owner)
        text = page.text(lambda: _projector_json(request, event))
        return HttpResponse(text, content_type="application/json")

    return page.serve(build)


def _standings_uses() -> Uses:
    """What the standings read of their address: a side ranking, the page, its size, a column
    to sort by (the table's own, a game's figures, a round's)."""
    columns = [*tables_.StandingsTable.base_columns]
    columns += [figure.name for game in games.all_games() for figure in game.figures]
    return {
        "category": one_of(Player.Category.values),
        "page": any_value,
        "per_page": any_value,
        "sort": sort_of(*columns, pattern=r"round_[0-9]{1,4}"),
    }


# The two pages every phone and the projector ask for again and again: whether the page is ready
# is told from the event's id and version alone (one query), and while one request computes a
# new version the others get the version before (``Page``: ``previous``).
def _standings_page(request: HttpRequest, event_id: int, version: int, before: Any) -> Page:
    uses = _standings_uses()
    return Page(request, "standings", event_id, version, uses=uses, previous=before)


def _rows_page(request: HttpRequest, event_id: int, version: int, before: Any) -> Page:
    # the rows alone: the same for everybody, so that a logged-in projector gets its 304s too
    return Page(request, "projector_rows", event_id, version, fragment=True, previous=before)


def _standings_of(request: HttpRequest, event: Event) -> tuple[str, Callable[[], dict[str, Any]]]:
    return "tournament/cached/standings.html", lambda: _standings(request, event)


def _projector_json(request: HttpRequest, event: Event) -> str:
    """Every ranked player's line as the projector shows it, as JSON for its script: rank, name,
    club, the one figure the game puts there (as the standings page writes it) and the marks
    after the name; with the header's status line and the words the script writes."""
    game, rules = event.game_type, event.full_rules()
    figure = game.figure(game.projector_figure)
    provisional = provisional_entries(event)
    fields = ("pk", "rank", "status", "start_number", "player__first_name", "player__last_name")
    fields += ("player__club", "player__public_lists", "player__public_season")
    found = list(Entry.objects.standings(event).values_list(*fields, figure.name))
    last = found[-1][1] if found else 1  # the rows come in rank order
    total = figure.name == "total"
    lines = []
    for pk, rank, status, number, first_name, last_name, club, lists, on_site, value in found:
        marks = [
            mark
            for mark, shown in (
                ("marked", pk in provisional),
                ("withdrawn", status != Entry.Status.ACTIVE),
                ("last", last > 1 and rank == last),
            )
            if shown
        ]
        value = game.shown_total(value, rules) if total else value
        consent = {"lists": lists, "season": on_site}  # as far as it reaches (``core.shown``)
        name = shown.name(first_name, last_name, number=number, **consent)
        lines.append([rank, name, shown.club(club, **consent), figure.text(value), marks])
    status = render_to_string(
        "tournament/includes/projector_status.html",
        {"provisional": bool(provisional), **_projector_status(event)},
        request,
    )
    unconfirmed = _("includes results not yet confirmed by the table")
    return json.dumps(
        {
            "lines": lines,
            "status": " ".join(status.split()),
            "empty": _("Nobody has played yet."),
            # a mark after a name: its class, its text, its explanation
            "marks": {
                "marked": ["tag provisional", "*", unconfirmed],
                "withdrawn": ["tag", f"({_('withdrawn')})", ""],
                "last": ["tag last", _("last place"), ""],
            },
        },
        ensure_ascii=False,
    )


def _projector_status(event: Event) -> dict[str, Any]:
    """The projector's header line: the round played and when the last result came in."""
    return {"last_result": event.last_result_at, "current_round": _current_round(event)}


@require_GET
def where_do_i_sit(request: HttpRequest, slug: str) -> HttpResponse:
    """A player types part of their name, or their start number, and sees table and seat of the
    current round. A name finds only players who agreed to be named in the public lists (issue
    46): otherwise anyone could learn by guessing a name that a person plays and their start
    number; a player without that consent finds their seat by the start number."""
    event = event_or_404(slug)
    rnd = _current_round(event)
    query = request.GET.get("q", "").strip()[:100]
    seats: list[Seat] = []
    if rnd and (len(query) >= 2 or query.isdigit()):
        words = query.split()
        found = Seat.objects.for_round(rnd)
        for word in words:
            if word.isdigit():
                found = found.filter(entry__start_number=int(word[:9]))
                continue
            found = found.filter(
                Q(entry__player__last_name__icontains=word)
                | Q(entry__player__first_name__icontains=word),
                entry__player__public_lists=True,
            )
        found = found.order_by("entry__player__last_name", "entry__player__first_name")[:20]
        seats = collation.by_name(found, lambda s: s.entry.player)
    return render(
        request,
        "tournament/where.html",
        {"event": event, "round": rnd, "query": query, "seats": seats},
    )
