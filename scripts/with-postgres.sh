#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster: initdb into a temporary folder, listen on
# a unix socket there and on a free loopback port, export CALLTAPE_TEST_POSTGRES_URL for the
# PostgreSQL tests, and stop and delete the cluster on exit (also when the command fails).
#   scripts/with-postgres.sh npx vitest run src/stores
# initdb refuses to run as root, so as root the cluster belongs to an unprivileged user.
set -euo pipefail
bin="${CALLTAPE_POSTGRES_BIN:-}"
if [ -z "$bin" ]; then
  for candidate in /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ]; then bin="$candidate"; fi
  done
fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: no initdb found (install Debian's postgresql, or set CALLTAPE_POSTGRES_BIN)" >&2
  exit 3
fi
dir="$(mktemp -d "${TMPDIR:-/tmp}/calltape-pg.XXXXXX")"
as_owner=()
if [ "$(id -u)" = "0" ]; then
  owner="postgres"
  id -u "$owner" > /dev/null 2>&1 || owner="nobody"
  chown "$owner" "$dir"
  as_owner=(runuser -u "$owner" --)
fi
stop() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
# A signal (a cancelled CI job, Ctrl-C) exits through the EXIT trap too.
trap 'exit 130' INT
trap 'exit 143' TERM
port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U calltape --auth=trust -E UTF8 --no-locale > "$dir/initdb.log"
# fsync off: a throwaway cluster trades durability for test speed.
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start > /dev/null
export CALLTAPE_TEST_POSTGRES_URL="postgres://calltape@127.0.0.1:$port/postgres"
export CALLTAPE_TEST_POSTGRES_BIN="$bin" CALLTAPE_TEST_POSTGRES_DATA="$dir/data"
"$@"
