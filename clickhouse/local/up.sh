#!/usr/bin/env bash
# Makes sure a ClickHouse server answers on 127.0.0.1:$CLICKHOUSE_PORT (9000)
# and that the overwatch database exists. A server already listening is
# reused. Otherwise clickhouse-server is installed from Debian's packages if
# missing and started as a daemon with the project-local configuration and
# data directory under .data/clickhouse (never through systemd).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
data="$root/.data/clickhouse"
port=${CLICKHOUSE_PORT:-9000}
http_port=${CLICKHOUSE_HTTP_PORT:-8123}
database=${CLICKHOUSE_DATABASE:-overwatch}

client() { clickhouse-client --host 127.0.0.1 --port "$port" "$@"; }
answers() { command -v clickhouse-client >/dev/null && client -q 'SELECT 1' >/dev/null 2>&1; }

install() {
  echo "clickhouse: installing clickhouse-server and clickhouse-client from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q clickhouse-server clickhouse-client >/dev/null; then
    apt-get update -q >/dev/null
    apt-get install -y -q clickhouse-server clickhouse-client >/dev/null
  fi
}

if answers; then
  echo "clickhouse: reusing the server on 127.0.0.1:$port"
else
  command -v clickhouse-server >/dev/null && command -v clickhouse-client >/dev/null || install
  mkdir -p "$data/data" "$data/tmp" "$data/log" "$data/user_files"
  sed -e "s#@DATA@#$data#g" -e "s#@TCP_PORT@#$port#g" -e "s#@HTTP_PORT@#$http_port#g" \
    "$root/clickhouse/local/config.xml" > "$data/config.xml"
  cp "$root/clickhouse/local/users.xml" "$data/users.xml"
  pidfile="$data/clickhouse.pid"
  if [ -f "$pidfile" ] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    rm -f "$pidfile"
  fi
  if [ ! -f "$pidfile" ]; then
    echo "clickhouse: starting a local server on 127.0.0.1:$port (data in .data/clickhouse)"
    (cd "$data" && clickhouse-server --config-file="$data/config.xml" --pid-file="$pidfile" --daemon)
  fi
  for _ in $(seq 1 120); do
    answers && break
    sleep 0.5
  done
  if ! answers; then
    echo "clickhouse: the server did not answer within 60 s; see $data/log/error.log" >&2
    tail -n 20 "$data/log/error.log" >&2 || true
    exit 1
  fi
fi
client -q "CREATE DATABASE IF NOT EXISTS $database"
echo "clickhouse: ready ($(client -q 'SELECT version()'), database $database)"
