"""``manage.py recompute_scores [SLUG]``: every stored per-seat result rebuilt from the stored
hands with the current scoring engine (``play.scores.recompute_scores``), for all events or one.

The administrator runs it after a rules fix in ``scoring`` (then ``compute_ratings``). A stored
hand the engine now rejects stops it, with the game named. Example::

    .venv/bin/python manage.py recompute_scores furtwangen-2026
"""

from django.core.management.base import BaseCommand, CommandError

from tournament.core.errors import Refused
from tournament.models import Event
from tournament.play.scores import recompute_scores


class Command(BaseCommand):
    help = (
        "Rebuild the stored per-seat results from the stored hands with the current scoring engine "
        "(after a rule fix). Optionally only one event."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "event", nargs="?", help="the event's short name (slug) (default: all events)"
        )

    def handle(self, *args, **options):
        event = None
        if options["event"]:
            try:
                event = Event.objects.get(slug=options["event"])
            except Event.DoesNotExist as exc:
                raise CommandError(f"No event with the short name {options['event']!r}.") from exc
        try:
            done = recompute_scores(event=event)
        except Refused as exc:  # a stored game the engine now rejects, named in the message
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Recomputed the results of {done} tables."))
