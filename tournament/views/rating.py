"""The rating page (issue 16): each game's rating list, beside the official standings. Public:
it names the players as far as their consent reaches (``Player.public_name``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament import games
from tournament.results import rating, standings


@require_GET
def rating_page(request: HttpRequest, game: str | None = None) -> HttpResponse:
    """One game's ratings, best first (``/wertung/`` shows the first game offered). The
    ratings are recomputed first when a closed round's results changed (``rating.current``)."""
    offered = games.all_games()
    chosen = offered[0] if game is None else games.find(game)
    if chosen is None:
        raise Http404
    basis = rating.current(chosen.key)
    rows = list(rating.ratings(chosen.key))
    for row, rank in zip(
        rows, standings.shared_ranks([rating.shown(r.ordinal) for r in rows]), strict=True
    ):
        row.rank = rank
        row.shown = rating.shown(row.ordinal)
        row.provisional = row.tables < rating.PROVISIONAL_TABLES
    return render(
        request,
        "tournament/rating.html",
        {
            "game": chosen,
            "games": offered,
            "rows": rows,
            "basis": basis,
            "provisional_tables": rating.PROVISIONAL_TABLES,
            "z": int(rating.Z),
        },
    )
