#!/usr/bin/env bash
# The Python client's end-to-end run (make test-python): bin/overwatch on a
# free loopback port against its own databases (python_ prefix, or
# OVERWATCH_TEST_DB_PREFIX), a small simulated fleet loaded through the ingest
# pipeline, a Pro key (and a Free one), then the unittest suite twice: with pandas and with
# pandas hidden (OVERWATCH_NO_PANDAS=1). The server is stopped by its PID.
set -euo pipefail
cd "$(dirname "$0")/../../.."
BIN=${BIN:-bin/overwatch}
PYTHON=${PYTHON:-/usr/bin/python3}
prefix=${OVERWATCH_TEST_DB_PREFIX:-python_}
db="${prefix}client_e2e"
export CLICKHOUSE_URL="clickhouse://127.0.0.1:9000/${db}"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/${db}?sslmode=disable"
get() { "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5).close()' "$1" 2>/dev/null; }
free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
export OVERWATCH_ADDR="127.0.0.1:${port}"
export OVERWATCH_METRICS_ADDR="127.0.0.1:$(free_port)"
export OVERWATCH_LOG_LEVEL=warn
export OVERWATCH_SIMULATE=false
# The public lookup's per-IP limit is small so the retry test meets a 429
# quickly; the keyed per-IP limit is large enough for both runs of the suite.
export OVERWATCH_PUBLIC_LIMIT_PER_MINUTE=4
export OVERWATCH_KEYED_LIMIT_PER_MINUTE=10000
# The servers the tests start follow the tests' clock (overwatch/testclock).
if [ -n "${OVERWATCH_TEST_NOW:-}" ]; then export OVERWATCH_CLOCK_START="$OVERWATCH_TEST_NOW"; fi
tmp=$(mktemp -d)
export OVERWATCH_SPOOL_DIR="$tmp/spool" OVERWATCH_DATA_DIR="$tmp/data"
pid=""
spid="" feeder=""
cleanup() {
  for p in $pid $spid $feeder; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# Fresh databases each run.
clickhouse-client -q "DROP DATABASE IF EXISTS \`${db}\`"
PGOPTIONS=--client-min-messages=warning psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS \"${db}\"" >/dev/null
"$BIN" migrate >/dev/null

"$BIN" serve >"$tmp/server.log" 2>&1 &
pid=$!
base="http://127.0.0.1:${port}"
for _ in $(seq 1 150); do
  if get "$base/v1/health"; then break; fi
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/server.log"; exit 1; }
  sleep 0.2
done
# Open the public lookup's minute window now, so the retry test waits out
# what is left of it rather than a whole minute.
get "$base/v1/ais/any/9074729/location/latest" || true

# 12 vessels over 2 days through the ingest pipeline (the simulator's
# sentences are decoded as a real feed's).
"$BIN" simulate --seed 5 --vessels 12 --days 2 --sanctioned 0 --dark-fleet 0 >"$tmp/simulate.log" 2>&1 \
  || { cat "$tmp/simulate.log"; exit 1; }
key=$("$BIN" keys create --email python-client@example.com --plan pro 2>/dev/null)
free_key=$("$BIN" keys create --email python-client-free@example.com --plan free 2>/dev/null)

# The live stream's server: `overwatch run` (the stream is served by the
# process that runs ingest) on its own databases, its NMEA feed a capture
# of 3 simulated vessels from 20 minutes ago on, served by feeder.py.
sdb="${prefix}client_stream"
clickhouse-client -q "DROP DATABASE IF EXISTS \`${sdb}\`"
PGOPTIONS=--client-min-messages=warning psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS \"${sdb}\"" >/dev/null
"$BIN" simulate --seed 7 --vessels 3 --days 1 --start "$(date -u -d '-20 min' +%Y-%m-%dT%H:%M:%SZ)" --sanctioned 0 --dark-fleet 0 \
  --out "$tmp/stream.nmea" >"$tmp/simstream.log" 2>&1 || { cat "$tmp/simstream.log"; exit 1; }
feedport=$(free_port)
"$PYTHON" clients/python/tests/feeder.py "$feedport" "$tmp/stream.nmea" &
feeder=$!
sport=$(free_port)
stream_env=(CLICKHOUSE_URL="clickhouse://127.0.0.1:9000/${sdb}" DATABASE_URL="postgres://postgres@127.0.0.1:5432/${sdb}?sslmode=disable")
env "${stream_env[@]}" OVERWATCH_ADDR="127.0.0.1:${sport}" OVERWATCH_METRICS_ADDR="127.0.0.1:$(free_port)" \
  OVERWATCH_SPOOL_DIR="$tmp/stream-spool" OVERWATCH_FEEDS="aishub=tcp://127.0.0.1:${feedport}" "$BIN" run >"$tmp/stream.log" 2>&1 &
spid=$!
sbase="http://127.0.0.1:${sport}"
for _ in $(seq 1 300); do
  if get "$sbase/v1/health"; then break; fi
  kill -0 "$spid" 2>/dev/null || { cat "$tmp/stream.log"; exit 1; }
  sleep 0.2
done
stream_key=$(env "${stream_env[@]}" "$BIN" keys create --email python-stream@example.com --plan pro 2>/dev/null)
export OVERWATCH_STREAM_BASE_URL="$sbase" OVERWATCH_STREAM_API_KEY="$stream_key"

export OVERWATCH_BASE_URL="$base" OVERWATCH_API_KEY="$key" OVERWATCH_FREE_API_KEY="$free_key"
echo "== python client tests, with pandas"
"$PYTHON" -c 'import pandas' 2>/dev/null || { echo "pandas is missing: make tools installs python3-pandas"; exit 1; }
OVERWATCH_CLIENT_RETRY_TEST=1 "$PYTHON" -m unittest discover -s clients/python/tests -t clients/python
# The retry test runs once: waiting out another minute window would test
# the same code (retries do not touch pandas).
echo "== python client tests, pandas hidden (OVERWATCH_NO_PANDAS=1)"
OVERWATCH_NO_PANDAS=1 "$PYTHON" -m unittest discover -s clients/python/tests -t clients/python
