"""``manage.py export_xlsx SLUG [--output FILE] [--language de|en]``: an event's Excel workbook
(standings, a sheet per round, every game, the seating), the same as the event page's download
(``paper.exports``).

For a director or administrator who wants the workbook without a browser, e.g. in a script that
keeps a copy of each event. Example::

    .venv/bin/python manage.py export_xlsx furtwangen-2026 --output furtwangen-2026.xlsx
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournament.models import Event
from tournament.paper.exports import event_workbook


class Command(BaseCommand):
    help = (
        "Write an event's Excel workbook (standings, one sheet per round, every game, seating) "
        "to a file."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("--output", "-o", help="file to write (default: <slug>.xlsx)")
        parser.add_argument("--language", default="de", help="sheet and column names (de or en)")

    def handle(self, *args, **options):
        try:
            event = Event.objects.get(slug=options["event"])
        except Event.DoesNotExist as exc:
            raise CommandError(f"No event with the short name {options['event']!r}.") from exc
        output = Path(options["output"] or f"{event.slug}.xlsx")
        with translation.override(options["language"]), output.open("wb") as handle:
            event_workbook(event, handle)
        self.stdout.write(self.style.SUCCESS(f"Wrote {output}"))
