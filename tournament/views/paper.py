"""Paper and spreadsheets: print pages, Excel downloads, and imports."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from tournament import access, games
from tournament.access import ORGANISER, SCORER
from tournament.core import addresses, collation, errors, reading
from tournament.core.fields import UploadForm, whole_number
from tournament.core.qr import qr_svg
from tournament.models import Entry, Player, Round, Season, Seat
from tournament.paper import exports
from tournament.play import imports as play_imports
from tournament.play.sheets import dealer_for, read_sheets
from tournament.register import imports
from tournament.results import standings
from tournament.views.common import (
    event_or_404,
    protected,
    refused,
    round_or_404,
    season_category,
    xlsx_response,
)


@require_GET
def print_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table sheet of a round, one A4 page each (or one table with ``?table=<number>``).

    For the event's organisers and scorers each sheet carries its table link as a QR code and as
    text, at the address phones in the hall use (``addresses``); the public sheets have neither,
    since a table link enters and confirms games without a login. A sheet lies on its table for
    the hall to read, whoever printed it: it names the players as far as their consent reaches
    (``core.shown``), as the seating list on the wall does."""
    rnd = round_or_404(slug, number)
    event = rnd.event
    with_links = access.can_score(request.user, event)
    origin = addresses.public_origin(request, event) if with_links else ""
    tables = rnd.tables.select_related("round__event").order_by("number")
    only = request.GET.get("table", "")
    if whole_number(only) is not None:
        tables = tables.filter(number=whole_number(only))
        if not tables:
            raise Http404
    game, rules = event.game_type, event.full_rules()
    sheets = []
    for sheet in read_sheets(tables, public=True):
        table = sheet.table
        # a line for every hand of the round, filled in as far as the sheet goes
        count = max(event.hands_for(table.size) or 24, len(sheet.rows))
        rows = []
        for number in range(1, count + 1):
            entered = sheet.rows[number - 1] if number <= len(sheet.rows) else None
            dealer: int | None = dealer_for(number, table.size)
            if game.dealer_follows_results:
                # the penalty card's taker deals next (Hennes Sibbe): known for the games
                # entered and the next one; the table writes in the others
                dealer = (
                    entered.dealer
                    if entered
                    else sheet.next_dealer
                    if number == len(sheet.rows) + 1
                    else None
                )
            known = dealer is not None and dealer < len(sheet.players)
            rows.append(
                {
                    "number": number,
                    "dealer": sheet.players[dealer] if known else "",
                    "dealer_seat": dealer + 1 if known else "",
                    "description": entered.description if entered else "",
                    "results": entered.results if entered else [None] * table.size,
                }
            )
        link = origin + table.get_link_url() if with_links else ""
        sheets.append(
            {
                "table": table,
                "seats": [
                    (seat, game.seat_group(seat.position), name)
                    for seat, name in zip(sheet.seats, sheet.players, strict=True)
                ],
                "rows": rows,
                "totals": sheet.totals,
                "has_hands": bool(sheet.rows),
                "link": link,
                "qr": qr_svg(link) if link else "",
                "dealing_order": game.dealing_order(),
                "notes": game.sheet_notes(table.size),
                "tally": game.print_tally(rules),
            }
        )
    return render(
        request,
        "tournament/print/sheets.html",
        {
            "event": event,
            "game": game,
            "round": rnd,
            "sheets": sheets,
            "origin": origin,
            "loopback": with_links and addresses.is_loopback(origin),
            "not_served": with_links and not addresses.is_served(origin),
            "may_organise": with_links and access.can_organise(request.user, event),
        },
    )


@require_GET
def print_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating list for the wall: by table, and by name for players to look themselves up."""
    rnd = round_or_404(slug, number)
    seats = list(Seat.objects.for_round(rnd))
    tables: dict[int, list[Seat]] = {}
    for seat in seats:
        if seat.table is not None:
            tables.setdefault(seat.table.number, []).append(seat)
    alphabetical = collation.by_name(seats, lambda s: s.entry.player)
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
    event = event_or_404(slug)
    rounds = standings.rounds_of(event)
    rows = list(Entry.objects.standings(event, rounds))
    voided = standings.voided_entries(rounds)
    prize = request.GET.get("prize") == "1"
    game, rules = event.game_type, event.full_rules()
    standings.mark_last_place(rows)
    for row in rows:
        # None where the player's table was voided that round: printed "—", not 0
        row.round_values = [
            None if row.pk in voided.get(r.number, ()) else getattr(row, f"round_{r.number}")
            for r in rounds
        ]
        row.shown_total = game.shown_total(row.total, rules)
    deciding = game.deciding()
    for row in rows:
        row.deciding = [
            (row.shown_total if f.name == "total" else getattr(row, f.name), f) for f in deciding
        ]
    if prize:
        rows = standings.prize_list(rows)
    return render(
        request,
        "tournament/print/standings.html",
        {
            "event": event,
            "rounds": rounds,
            "rows": rows,
            "prize": prize,
            "deciding": deciding,
            "columns": 4 + len(deciding) + (0 if prize else len(rounds)),
            "provisional": any(r.status != Round.Status.CLOSED for r in rounds),
        },
    )


@require_GET
def print_season(request: HttpRequest, slug: str) -> HttpResponse:
    """The season standings on paper (landscape): a numbered column per event, with a key."""
    season = get_object_or_404(Season, slug=slug)
    category = season_category(request)
    events, rows = standings.season_standings(season, category=category)
    # each event's result, their sum and the season's other deciding figures, as the season
    # page writes them (the game's result figure: Ziege's matches won, no plus)
    result, *others = standings.season_figures(games.get(season.game))
    for row in rows:
        row["values"] = [result.text(row[f"event_{e.pk}"]) for e in events]
        row["total_text"] = result.text(row["total"])
        row["figures"] = [f.text(row[f.name]) for f in others]
    return render(
        request,
        "tournament/print/season.html",
        {
            "season": season,
            "events": events,
            "running": standings.running_events(events, rows),
            "rows": rows,
            "result": result,
            "others": others,
            "columns": 4 + len(events) + len(others),
            "category_name": dict(Player.Category.choices).get(category, "") if category else "",
            "category": category,
        },
    )


@require_GET
def event_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    # the cash book is the organiser's (issue 17); everyone else gets the results
    cash = access.can_organise(request.user, event)
    workbook = exports.event_workbook(event, with_cash=cash)
    return xlsx_response(workbook.getvalue(), f"{event.slug}.xlsx")


@require_GET
def season_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    return xlsx_response(exports.season_workbook(season).getvalue(), f"{season.slug}.xlsx")


IMPORT_MAX_AGE = 3600  # a preview must be confirmed within an hour


def _payload_salt(kind: str, pk: int) -> str:
    return f"tournament.import.{kind}.{pk}"


def _sign(kind: str, pk: int, preview: imports.PlayerImport | play_imports.ResultImport) -> str:
    """The preview's rows and its key, signed for the confirm button."""
    return signing.dumps(
        {"key": preview.key, "rows": preview.payload()}, salt=_payload_salt(kind, pk), compress=True
    )


def _unsign(request: HttpRequest, kind: str, pk: int) -> tuple[str, list[dict[str, Any]]]:
    """The key and rows of a confirmed preview (``signing.BadSignature`` if it is not one)."""
    data = signing.loads(
        request.POST.get("payload", ""), salt=_payload_salt(kind, pk), max_age=IMPORT_MAX_AGE
    )
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise signing.BadSignature("not a preview")
    return str(data.get("key") or ""), data["rows"]


@protected
def import_players(request: HttpRequest, slug: str) -> HttpResponse:
    """Player list from XLSX or CSV: upload, preview (new / known / rejected), confirm."""
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    context: dict[str, Any] = {"event": event, "form": UploadForm()}
    if request.method == "POST" and request.POST.get("action") == "confirm":
        try:
            key, rows = _unsign(request, "players", event.pk)
            saved = imports.save_players(
                event,
                rows,
                user=request.user if request.user.is_authenticated else None,
                key=key,
                decisions=_decisions(request, rows),
            )
        except signing.BadSignature:
            messages.error(request, _("The preview has expired; upload the file again."))
        except reading.AlreadyImported as exc:
            messages.warning(request, str(exc))
            return redirect("event_players", slug=event.slug)
        except errors.Refused as exc:
            refused(request, exc)
        else:
            messages.success(
                request,
                ngettext("%(n)s player registered.", "%(n)s players registered.", saved)
                % {"n": saved},
            )
            return redirect("event_players", slug=event.slug)
    elif request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                preview = imports.read_players(event, reading.read_table(upload, upload.name))
            except reading.UnreadableFile as exc:
                form.add_error("file", str(exc))
            else:
                context["preview"] = preview
                context["payload"] = _sign("players", event.pk, preview)
                context["candidates"] = imports.candidates_of(preview)
    return render(request, "tournament/import_players.html", context)


def _decisions(request: HttpRequest, rows: list[dict[str, Any]]) -> dict[int, str]:
    """The preview's answers, line by line: a known player's id (same person) or "new"."""
    lines = {row.get("line") for row in rows if isinstance(row, dict)}
    return {
        line: request.POST.get(imports.decision_field(line), "")[:20]
        for line in lines
        if isinstance(line, int)
    }


@protected
@require_GET
def result_template(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(slug, number)
    access.require(request, rnd.event, SCORER)
    content = play_imports.result_template(rnd).getvalue()
    return xlsx_response(content, f"{rnd.event.slug}-{_('round')}-{rnd.number}.xlsx")


@protected
def import_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's results filled in offline: upload, preview (checked like typed entry), confirm."""
    rnd = round_or_404(slug, number)
    access.require(request, rnd.event, SCORER)
    context: dict[str, Any] = {"event": rnd.event, "round": rnd, "form": UploadForm()}
    if request.method == "POST" and request.POST.get("action") == "confirm":
        try:
            key, rows = _unsign(request, "results", rnd.pk)
            saved = play_imports.save_results(rnd, rows, user=request.user, key=key)
        except signing.BadSignature:
            messages.error(request, _("The preview has expired; upload the file again."))
        except reading.AlreadyImported as exc:
            messages.warning(request, str(exc))
            return redirect("round_results", slug=slug, number=number)
        except errors.Refused as exc:
            refused(request, exc)
        else:
            messages.success(
                request,
                ngettext("%(n)s game saved.", "%(n)s games saved.", saved) % {"n": saved},
            )
            return redirect("round_results", slug=slug, number=number)
    elif request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            try:
                preview = play_imports.read_results(rnd, form.cleaned_data["file"])
            except reading.UnreadableFile as exc:
                form.add_error("file", str(exc))
            else:
                context["preview"] = preview
                context["payload"] = _sign("results", rnd.pk, preview)
    return render(request, "tournament/import_results.html", context)
