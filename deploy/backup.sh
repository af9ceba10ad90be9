#!/bin/bash
# Nightly backup of the association's database (cego-backup.service runs it as the cego user,
# started by cego-backup.timer): a pg_dump in PostgreSQL's custom format, one file a day, the
# newest 30 kept. The dumps hold password hashes and sessions: the folder is the cego user's
# alone (0700) and each dump readable by it alone (0600), whatever umask it is started with.
# Any failure ends it with a non-zero status and no new dump, and the unit reports it
# (OnFailure=cego-backup-failed.service). Restore one with deploy/restore.sh (docs/deployment.md).
# Usage: backup.sh FOLDER   (the unit's is /var/lib/cego-backups; DATABASE_URL from the environment)
set -euo pipefail
umask 077
folder=${1:?"usage: backup.sh FOLDER"}
: "${DATABASE_URL:?"DATABASE_URL is not set (the unit reads it from /etc/cego/cego.env)"}"
mkdir -p "$folder"
chmod 0700 "$folder"  # a folder made before with a looser mode too
file="$folder/cego-$(date +%Y-%m-%d).dump"
part="$file.part"
trap 'rm -f -- "$part"' EXIT  # a dump cut short is never left to look like one
pg_dump --format=custom --file="$part" "$DATABASE_URL"
# a dump of the wrong (empty) database is a failure too, not a backup: it must list the data of
# the app's tables
if [ ! -s "$part" ]; then
  echo "backup.sh: pg_dump wrote an empty file" >&2
  exit 1
fi
listed=$(pg_restore --list "$part")
if ! grep -q "TABLE DATA public tournament_event " <<<"$listed"; then
  echo "backup.sh: the dump holds no tournament tables: is DATABASE_URL the app's database?" >&2
  exit 1
fi
mv -- "$part" "$file"
# keep the newest 30 (the names sort by their date)
find "$folder" -maxdepth 1 -name 'cego-*.dump' -print | sort -r | tail -n +31 | xargs -r rm --
echo "$file"
