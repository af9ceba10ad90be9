"""Settlement pages for money games (issue 17): a table's round in money, public like the table's
sheet; the whole event's, for its organisers, printable."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament import access
from tournament.access import ORGANISER
from tournament.money import settlement
from tournament.views.common import event_or_404, protected, table_or_404


@require_GET
def table_settlement(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    event = table.round.event
    # public like the table's sheet: the players as far as their consent reaches, whoever reads
    found = (
        settlement.table_settlement(table, public=True) if settlement.is_money_game(event) else None
    )
    return render(
        request,
        "tournament/settlement_table.html",
        {"event": event, "round": table.round, "table": table, "settlement": found},
    )


@protected
@require_GET
def event_settlement(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    access.require(request, event, ORGANISER)
    money = settlement.is_money_game(event)
    return render(
        request,
        "tournament/print/settlement.html",
        {
            "event": event,
            "settlement": settlement.event_settlement(event) if money else None,
            "rounds": settlement.tables_settlements(event) if money else [],
        },
    )
