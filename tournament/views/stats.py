"""Public statistics pages (issue 16): an event's statistics. The player page is in ``public``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import access, stats
from .common import event_or_404


@require_GET
def event_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """What the cards said at an event: contracts, card points, the biggest hand, the spread of
    results per table; for the event's director also how fast each table played."""
    event = event_or_404(slug)
    director = access.can_organise(request.user, event)
    numbers = stats.event_stats(event, director=director)
    return render(
        request,
        "tournament/stats/event.html",
        {"event": event, "stats": numbers, "director": director},
    )
