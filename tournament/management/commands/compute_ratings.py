"""``manage.py compute_ratings [GAME]``: every player's rating recomputed from the closed rounds'
results, in one transaction (``results.rating``).

The administrator runs it after ``recompute_scores`` (a rules fix changes results the rating was
computed from); otherwise the rating page recomputes a game by itself when its results changed.
Example::

    .venv/bin/python manage.py compute_ratings cego
"""

from django.core.management.base import BaseCommand, CommandError

from tournament import games
from tournament.results.rating import compute_ratings


class Command(BaseCommand):
    help = (
        "Recompute the players' ratings from the stored results of every closed round, "
        "in one transaction: the same hands always give the same numbers. Optionally one game. "
        "Run it after recompute_scores; the rating page also recomputes by itself when the "
        "results it reads have changed."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", nargs="?", help="key of one game, e.g. cego (default: all)")

    def handle(self, *args, **options):
        game = options["game"]
        if game is not None and games.find(game) is None:
            keys = ", ".join(g.key for g in games.all_games())
            raise CommandError(f"No game {game!r}; the games are {keys}.")
        done = compute_ratings(game=game)
        self.stdout.write(self.style.SUCCESS(f"Rated {done} players."))
