"""``manage.py publish_season SLUG --output DIR``: a season written as a static website (plain
HTML and CSS, German and English) into a folder (``publish.season``).

The same pages as the season page's *Publish* (a zip), for the administrator who keeps the
association's web host up to date after each event day. Publishing again into the folder
replaces its own pages and removes only those it no longer writes. Example::

    .venv/bin/python manage.py publish_season schwarzwaldmeisterschaft-2026-27 --output site/
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Season
from tournament.publish.season import FolderNotOurs, PublishError, publish_season


class Command(BaseCommand):
    help = (
        "Write a static website of a season (season standings with side rankings, every event's "
        "standings and results by table, a page per player; German and English) into a folder: "
        "plain HTML and CSS that any web host serves, or a browser opens from the disk. It keeps "
        "a list of what it wrote (.published.json) and on publishing again removes only those of "
        "its files no longer published: a file put there by hand (an imprint page) stays."
    )

    def add_arguments(self, parser):
        parser.add_argument("season", help="the season's short name (slug)")
        parser.add_argument("--output", "-o", required=True, help="folder to write into")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="write over files of the publication's names that no earlier publication wrote "
            "(a folder published by an older version of the app); other files stay",
        )

    def handle(self, *args, **options):
        try:
            season = Season.objects.get(slug=options["season"])
        except Season.DoesNotExist as exc:
            raise CommandError(f"No season with the short name {options['season']!r}.") from exc
        output = Path(options["output"])
        if output.exists() and not output.is_dir():
            raise CommandError(f"{output} is a file, not a folder.")
        try:
            written, removed = publish_season(
                season=season, output=output, replace=options["replace"]
            )
        except FolderNotOurs as exc:
            raise CommandError(str(exc)) from exc
        except PublishError as exc:
            raise CommandError(f"The season could not be published: {exc}") from exc
        pages = sum(1 for name in written if name.endswith(".html"))
        if removed:
            self.stdout.write(f"Removed {len(removed)} pages no longer published: {removed[:5]}")
        self.stdout.write(
            self.style.SUCCESS(f"Wrote {pages} pages to {output}; open {output / 'index.html'}")
        )
