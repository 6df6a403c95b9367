#!/bin/bash
# Bytes per stored row after a real ingest: the 3-minute live AISHub
# capture, each line stamped with a tag block at the capture's own rate
# (85,187 lines over 180 s, so that reports share seconds as a live feed's
# do), replayed through the real decoder and pipeline into a fresh
# database, merged (OPTIMIZE ... FINAL), then system.parts read.
#
#   clickhouse/local/bytes-per-position.sh [BIN] [DATABASE]
set -euo pipefail
bin=${1:-bin/overwatch}
db=${2:-overwatch_bench_bytes}
server=${CLICKHOUSE_SERVER:-clickhouse://127.0.0.1:9000}
capture=$(mktemp --suffix .nmea)
trap 'rm -f "$capture"' EXIT
python3 - "$capture" <<'PY'
import sys
src = 'write/ais/testdata/ais_aishub_3min_live_sample_gpsd_contrib.log'
lines = open(src, encoding='latin-1').read().splitlines()
with open(sys.argv[1], 'w', encoding='latin-1') as out:
    for i, line in enumerate(lines):
        body = 'c:%d' % (1767225600 + i * 180 // len(lines))
        cs = 0
        for ch in body:
            cs ^= ord(ch)
        out.write('\\%s*%02X\\%s\n' % (body, cs, line))
PY
clickhouse-client -q "DROP DATABASE IF EXISTS $db"
CLICKHOUSE_URL="$server/$db" OVERWATCH_LOG_LEVEL=warn "$bin" replay --source aishub "$capture" >/dev/null
for t in positions port_positions static_reports; do
  clickhouse-client -q "OPTIMIZE TABLE $db.$t FINAL"
done
clickhouse-client -q "SELECT table, sum(rows) AS rows, sum(data_compressed_bytes) AS bytes,
  round(bytes / rows, 1) AS per_row FROM system.parts
  WHERE database = '$db' AND active AND table IN ('positions', 'port_positions', 'static_reports')
  GROUP BY table ORDER BY table FORMAT PrettyCompact"
clickhouse-client -q "SELECT name, round(data_compressed_bytes / (SELECT count() FROM $db.positions), 2) AS per_row
  FROM system.columns WHERE database = '$db' AND table = 'positions' ORDER BY per_row DESC FORMAT TSV" | tr '\t\n' ': '
echo
