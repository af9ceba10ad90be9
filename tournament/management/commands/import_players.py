"""``manage.py import_players SLUG FILE [--dry-run]``: the players of an XLSX or CSV list
registered for an event, every row checked first (``register.imports``; a list with a rejected
row saves nothing).

The same import as the players page's *Import players from a file*, for a director or
administrator with the club's list as a file before the day. Example::

    .venv/bin/python manage.py import_players furtwangen-2026 anmeldungen.xlsx --dry-run
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.core import errors, reading
from tournament.models import Event
from tournament.register import imports


class Command(BaseCommand):
    help = (
        "Register the players of an XLSX or CSV file for an event (columns Vorname, Nachname, "
        "Verein, Ort, Kategorie or their English names). Every row is checked first; a file with "
        "a rejected row saves nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("file", help="the .xlsx or .csv file")
        parser.add_argument("--dry-run", action="store_true", help="check only, save nothing")

    def handle(self, *args, **options):
        try:
            event = Event.objects.get(slug=options["event"])
        except Event.DoesNotExist as exc:
            raise CommandError(f"No event with the short name {options['event']!r}.") from exc
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No file {path}.")
        try:
            with path.open("rb") as handle:
                checked = imports.read_players(event, reading.read_table(handle, path.name))
        except reading.UnreadableFile as exc:
            raise CommandError(str(exc)) from exc
        for row in checked.rows:
            if row.rejected:
                self.stdout.write(f"line {row.line}: rejected: {row.reason}")
        counts = checked.counts
        self.stdout.write(
            f"{counts['new']} new, {counts['matched']} known, {counts['rejected']} rejected"
        )
        if not checked.ok:
            raise CommandError("Nothing was saved: correct the rejected rows first.")
        if options["dry_run"]:
            self.stdout.write("Dry run: nothing saved.")
            return
        try:
            saved = imports.save_players(event, checked.payload())
        except errors.Refused as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Registered {saved} players."))
