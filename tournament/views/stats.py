"""Public statistics pages (issue 16): an event's statistics. The player page is in ``public``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament import access
from tournament.pagecache.pages import Page
from tournament.results import event_stats
from tournament.views.common import event_or_404


@require_GET
def event_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """What the cards said at an event: contracts, card points, the biggest hand, the spread of
    results per table; for the event's director also how fast each table played. The public
    part is computed once per version of the event (``tournament.pagecache``): after the
    prize-giving the whole hall looks at it."""
    event = event_or_404(slug)
    page = Page(request, "statistics", event.pk, event.version)

    def build() -> HttpResponse:
        body = page.body(
            "tournament/stats/event_body.html",
            lambda: {"event": event, "stats": event_stats.event_stats(event)},
        )
        director = access.can_organise(request.user, event)
        return render(
            request,
            "tournament/stats/event.html",
            {
                "event": event,
                "body": body,
                "director": director,
                "pace": event_stats.table_pace(event) if director else [],
            },
        )

    return page.serve(build)
