#!/usr/bin/env bash
# Makes sure PostgreSQL answers on 127.0.0.1:$PGPORT (5432) with trust
# authentication for loopback TCP connections, and that the overwatch
# database exists. A server already listening is reused. Otherwise
# PostgreSQL 15 is installed from Debian's packages if missing, and the
# cluster on that port (or a new one) is started with pg_ctlcluster.
set -euo pipefail

port=${PGPORT:-5432}
database=${POSTGRES_DATABASE:-overwatch}
psqlc() { psql -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 -X -q "$@"; }
listening() { pg_isready -h 127.0.0.1 -p "$port" -q 2>/dev/null; }
usable() { psqlc -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; }

install() {
  echo "postgres: installing postgresql-15 from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q postgresql-15 postgresql-client-15 >/dev/null; then
    apt-get update -q >/dev/null
    apt-get install -y -q postgresql-15 postgresql-client-15 >/dev/null
  fi
}

# cluster prints "<version> <name>" of the cluster configured for the port.
cluster() { pg_lsclusters -h 2>/dev/null | awk -v p="$port" '$3 == p { print $1, $2; exit }'; }

# trust_local lets the postgres role connect over loopback TCP without a
# password, as the local DATABASE_URL expects.
trust_local() {
  local ver name hba
  read -r ver name < <(cluster)
  hba="/etc/postgresql/$ver/$name/pg_hba.conf"
  [ -f "$hba" ] || return 0
  if ! grep -q 'overwatch-local' "$hba"; then
    echo "postgres: allowing trust authentication on loopback in $hba"
    { echo "host all all 127.0.0.1/32 trust # overwatch-local"
      echo "host all all ::1/128 trust # overwatch-local"
      cat "$hba"; } > "$hba.new"
    chown --reference="$hba" "$hba.new"
    chmod --reference="$hba" "$hba.new"
    mv "$hba.new" "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" reload || true
}

if listening; then
  echo "postgres: reusing the server on 127.0.0.1:$port"
else
  command -v pg_ctlcluster >/dev/null && command -v psql >/dev/null || install
  if [ -z "$(cluster)" ]; then
    if [ "$port" = 5432 ] && [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
      install # the package creates the main cluster on 5432
    fi
    if [ -z "$(cluster)" ]; then
      ver=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
      echo "postgres: creating cluster $ver/overwatch on port $port"
      pg_createcluster "$ver" overwatch --port "$port" >/dev/null
    fi
  fi
  read -r ver name < <(cluster)
  echo "postgres: starting cluster $ver/$name on port $port"
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start || true
  for _ in $(seq 1 60); do
    listening && break
    sleep 0.5
  done
  listening || { echo "postgres: the server did not start; see /var/log/postgresql/" >&2; exit 1; }
fi
usable || trust_local
for _ in $(seq 1 20); do
  usable && break
  sleep 0.5
done
usable || { echo "postgres: cannot connect as postgres on 127.0.0.1:$port without a password" >&2; exit 1; }
if [ "$(psqlc -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
  psqlc -d postgres -c "CREATE DATABASE $database"
fi
echo "postgres: ready ($(psqlc -d postgres -tAc 'SHOW server_version'), database $database) on port $port"
