#!/bin/bash
# Put a dump of deploy/backup.sh back as the association's database, with both app servers
# stopped (docs/deployment.md, "Backups", has the commands around it). Run it as the cego user in
# /srv/cego with the app's settings (/etc/cego/cego.env: DATABASE_URL, DJANGO_CACHE_URL, ...).
#
# The restored events carry the versions they had in the dump, and the page cache and the
# phones may hold pages of exactly those versions that are not the dump's data. So, as its last
# step, `manage.py renew_versions` gives every event and season a new version (no old ETag gets
# a 304) and empties the page cache (no kept page outlives the restore). Any failure stops it with a non-zero status; the restore itself is one
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
.venv/bin/python manage.py renew_versions
echo "restored $dump"
