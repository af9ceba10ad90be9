#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL cluster on the loopback, the way .ci/run starts one:
#   bench/with_postgres.sh <command> ...   (the command gets --database postgres://...)
# The cluster lives in a temporary folder and is stopped and removed afterwards, whatever happens.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
  echo "PostgreSQL is not installed (Debian: apt-get install postgresql)" >&2
  exit 2
fi
dir=$(mktemp -d /tmp/cego-bench-pg.XXXXXX)
port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
as_owner() {
  # initdb and postgres refuse to run as root: the cluster then belongs to the postgres user
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$dir"
cleanup() {
  as_owner "$bin/pg_ctl -D $dir/data -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
as_owner "$bin/initdb -D $dir/data -U bench --auth=trust" >/dev/null
as_owner "$bin/pg_ctl -D $dir/data -o '-p $port -k $dir -c listen_addresses=127.0.0.1' -l $dir/log -w start" >/dev/null
as_owner "$bin/createdb -h 127.0.0.1 -p $port -U bench bench"
"$@" --database "postgres://bench@127.0.0.1:$port/bench"
