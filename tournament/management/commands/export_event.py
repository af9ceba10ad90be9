"""``manage.py export_event SLUG [--output FILE]``: an event written as a bundle, one file with
everything the event is (``publish.bundles``, format in ``docs/bundle-format.md``).

The director runs it on the hall's laptop after the day (or any time, as a copy) and takes the file
to the association's server, which reads it with ``import_event``. Example::

    .venv/bin/python manage.py export_event furtwangen-2026 --output furtwangen-2026.cego.json.gz
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event
from tournament.publish import bundles
from tournament.publish.bundles import export


class Command(BaseCommand):
    help = (
        "Write an event bundle: one file with everything the event is (settings, players with "
        "their identifiers, entries, rounds, tables, every game with who entered it when, "
        "confirmations, draws by lot), to be read by import_event on another installation. "
        "The format is described in docs/bundle-format.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument(
            "--output", "-o", help=f"file to write (default: <slug>{bundles.SUFFIX})"
        )

    def handle(self, *args, **options):
        event = Event.objects.select_related("season").filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"No event with the short name {options['event']!r}.")
        output = Path(options["output"] or export.filename(event))
        data = export.bundle_bytes(event)
        output.write_bytes(data)
        self.stdout.write(self.style.SUCCESS(f"Wrote {output} ({len(data):,} bytes)"))
