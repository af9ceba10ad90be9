#!/bin/sh
# Nightly backup of the association's database (cego-backup.timer runs it as the cego user):
# a pg_dump in PostgreSQL's custom format, one file a day, the last 30 kept.
#   restore: pg_restore --clean --if-exists --dbname "$DATABASE_URL" /var/backups/cego/cego-DATE.dump
# Usage: backup.sh [FOLDER]   (default /var/backups/cego; DATABASE_URL from the environment)
set -eu
folder=${1:-/var/backups/cego}
mkdir -p "$folder"
file="$folder/cego-$(date +%Y-%m-%d).dump"
pg_dump --format=custom --file="$file.part" "$DATABASE_URL"
mv "$file.part" "$file"
# keep the newest 30
ls -1t "$folder"/cego-*.dump | tail -n +31 | xargs -r rm --
echo "$file"
