#!/bin/bash
# Put a dump of deploy/backup.sh back as the association's database, with both app servers
# stopped (docs/deployment.md, "Backups", has the commands around it). Run it as the cego user in
# /srv/cego with the app's settings (/etc/cego/cego.env: DATABASE_URL, DJANGO_CACHE_URL, ...).
#
# The restored events carry the versions they had in the dump, and the page cache and the
# phones may hold pages of exactly those versions that are not the dump's data (a page computed
# while a game was being saved keeps the version read before it). So, as its last steps, every
# event and season gets a new version, as a write gives it (tournament/models/versions.py: the
# clock's microseconds, a version nobody has seen: no old ETag gets a 304), and the page cache
# is emptied (the tables' sheets and the players' pages are keyed by what they show, not by the
# event's version). Any failure stops it with a non-zero status; the restore itself is one
# transaction, so a dump that fails halfway leaves the database as it was.
# Usage: deploy/restore.sh DUMP
set -euo pipefail
dump=${1:?"usage: deploy/restore.sh DUMP"}
: "${DATABASE_URL:?"DATABASE_URL is not set: load /etc/cego/cego.env first"}"
dump=$(realpath -- "$dump")
cd "$(dirname -- "$0")/.."
# a file pg_restore cannot read is refused before anything is dropped
pg_restore --list "$dump" >/dev/null
pg_restore --clean --if-exists --no-owner --single-transaction --dbname "$DATABASE_URL" "$dump"
.venv/bin/python manage.py shell -c '
from django.core.cache import cache
from django.db import transaction
from tournament.models import Event, Season, versions
with transaction.atomic(), versions.at_the_end():
    for pk in Event.objects.values_list("pk", flat=True):
        versions.changed(pk)
    for pk in Season.objects.values_list("pk", flat=True):
        versions.season_changed(pk)
cache.clear()
'
echo "restored $dump"
