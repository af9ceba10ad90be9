"""The rule card of an event: one A5 card, printed twice on an A4 sheet, for every table."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.paper import rulecard
from tournament.views.common import event_or_404


@require_GET
def rule_card(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(slug)
    context = {"event": event, "card": rulecard.rule_card(event), "copies": range(COPIES)}
    return render(request, "tournament/print/rule_card.html", context)


COPIES = 2  # two A5 cards on one A4 sheet
