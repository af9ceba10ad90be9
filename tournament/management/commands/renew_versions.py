"""``manage.py renew_versions``: after a restore, every event and season gets a new version and
the page cache is emptied.

A restored database (``deploy/restore.sh`` on the association's server, ``manage.py
restore_replica`` on the hall's second laptop) carries the versions its events had when the copy
was made, and the page cache and the phones may hold pages of exactly those versions that are
not the copy's data: a page computed while a game was being saved keeps the version read before
the game. A new version, as a write gives it (``tournament/models/versions.py``: one nobody has
seen), means no old ETag gets a 304; the emptied cache means no kept page outlives the restore
(the tables' sheets and the players' pages are keyed by what they show, not by the version).
"""

from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.models import Event, Season, versions


class Command(BaseCommand):
    help = (
        "After a restore: give every event and season a new version and empty the page cache, "
        "so that no page or ETag from before the restore is served."
    )

    def handle(self, *args, **options):
        with transaction.atomic(), versions.at_the_end():
            for pk in Event.objects.values_list("pk", flat=True):
                versions.changed(pk)
            for pk in Season.objects.values_list("pk", flat=True):
                versions.season_changed(pk)
        cache.clear()
        self.stdout.write("Every event and season has a new version; the page cache is empty.")
