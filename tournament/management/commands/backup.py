"""``manage.py backup FILE``: a consistent copy of the SQLite database, written while the app
keeps running (SQLite's online backup).

The director runs it on the hall's laptop at lunch and before the prize-giving (onto a USB stick),
the administrator before an update. On PostgreSQL it refuses and names ``pg_dump`` (the server's
nightly backup is ``deploy/backup.sh``). Example::

    .venv/bin/python manage.py backup /media/usb/furtwangen-2026-lunch.sqlite3
"""

import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the SQLite database to FILE while the app keeps running "
        "(SQLite's online backup). To restore: stop the server, delete db.sqlite3-wal and "
        "db.sqlite3-shm, copy the file to db.sqlite3 and start the server again (or point "
        "DATABASE_URL at it). For PostgreSQL use pg_dump instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write the copy")

    def handle(self, *args, **options):
        if connection.vendor != "sqlite":
            raise CommandError(
                "This database is PostgreSQL: back it up with pg_dump, e.g. "
                'pg_dump --format=custom --file=backup.dump "$DATABASE_URL".'
            )
        target = Path(options["file"])
        if target.exists():
            raise CommandError(f"{target} exists already; choose a new file name.")
        connection.ensure_connection()
        # The backup API copies page by page under SQLite's locks: a consistent snapshot even
        # while scorers keep writing (they wait a moment, they are not refused).
        with sqlite3.connect(target) as copy:
            connection.connection.backup(copy)
        copy.close()
        self.stdout.write(self.style.SUCCESS(f"Backup written to {target}"))
