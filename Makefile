# Overwatch: `make run` serves the API on :8080 with local ClickHouse and
# PostgreSQL; `make test` checks that go.mod is tidy, runs vet, the import
# rules and every test against the real local servers, then one iteration of
# every benchmark. Both install and start the servers when missing.
SHELL := /bin/bash
GO    ?= go
BIN   := bin/overwatch

export CLICKHOUSE_URL ?= clickhouse://127.0.0.1:9000/overwatch
export DATABASE_URL   ?= postgres://postgres@127.0.0.1:5432/overwatch?sslmode=disable

.PHONY: all build run services tools web client test test-go test-bench-smoke test-chaos-smoke test-fuzz-smoke test-python test-clock accuracy accuracy-trade accuracy-predictions bench-trade bench-market bench-map bench-exports bench-stream vet tidy lint-arch lint-openapi bench bench-go bench-load bench-ingest bench-predictions bench-area bench-world bench-history bench-sim bench-derive fuzz fuzz-http clean cluster cluster-down chaos soak test-cluster bench-cluster

all: build

build:
	$(GO) build -o $(BIN) ./cmd/overwatch

## services: install (if missing) and start local ClickHouse and PostgreSQL
services:
	@clickhouse/local/up.sh
	@postgres/local/up.sh

## cluster: the local ClickHouse cluster for cluster mode (ZooKeeper and
## 2 shards x 2 replicas, cluster `overwatch`, native ports 9101-9104; see
## clickhouse/local/cluster.sh); cluster-down stops it
cluster:
	@clickhouse/local/cluster.sh up

cluster-down:
	@clickhouse/local/cluster.sh down

## test-cluster: the ingest, derivation and public-contract tests in
## cluster mode (OVERWATCH_CLICKHOUSE_CLUSTER) on the local cluster, which
## it starts (dropping the test databases of earlier runs first), on
## PostgreSQL databases of its own (prefix cluster_): the
## clickhouse package (the only one whose tests talk to ClickHouse besides
## the suites) and the end-to-end tests of ingest, the jobs, the public
## lookup and the shards' balance (CLUSTER_E2E)
CLUSTER_URL = clickhouse://127.0.0.1:9101,127.0.0.1:9102,127.0.0.1:9103,127.0.0.1:9104
CLUSTER_E2E = ^(TestReplayBalancesTheShards|TestPublicLatestPosition|TestPublicErrors|TestReplayServesTheLastPositionOfEveryIMO|TestRunIngestsAFeedAndExposesMetrics|TestAnalyticsEndpoints|TestRunSchedulesJobsAndRefreshes|TestVesselsAndPortPositions)$$
test-cluster: export OVERWATCH_TEST_DB_PREFIX := $(OVERWATCH_TEST_DB_PREFIX)cluster_
test-cluster: cluster
	clickhouse/local/cluster.sh drop-tests
	OVERWATCH_CLICKHOUSE_CLUSTER=overwatch CLICKHOUSE_TEST_SERVER=$(CLUSTER_URL) $(GO) test $(TEST_GO_FLAGS) -count=1 -timeout 10m ./clickhouse/... & ch=$$!; \
	OVERWATCH_CLICKHOUSE_CLUSTER=overwatch CLICKHOUSE_TEST_SERVER=$(CLUSTER_URL) $(GO) test $(TEST_GO_FLAGS) -count=1 -timeout 10m -run '$(CLUSTER_E2E)' ./e2e; e2e=$$?; \
	wait $$ch; ch=$$?; exit $$((ch | e2e))

## chaos: the chaos test of cluster mode (cmd/chaos): a private cluster
## (ports +300; the smoke run +400) and PostgreSQL, two ingest, two serve and two jobs
## processes under a steady feed while a replica, the writers' node,
## ZooKeeper (30 s), PostgreSQL (30 s) and an API instance are killed; then
## every message stored once, lookups 200 or `lookup failed`, limits across
## instances, webhooks once, jobs once per tick (make test: the smoke run)
chaos: build
	OVERWATCH_CHAOS=full OVERWATCH_BIN=$(abspath $(BIN)) $(GO) test -count=1 -timeout 30m -v -run '^TestChaos$$' ./cmd/chaos

## soak: `overwatch run` (demo fleet) under a steady public-lookup load for
## SOAK_DURATION: RSS, heap, goroutines and lookup p50/p99 every
## SOAK_INTERVAL into docs/soak/soak.csv, plotted as docs/soak/soak.svg
SOAK_DURATION ?= 2h
SOAK_INTERVAL ?= 10s
soak: services build
	$(GO) run ./cmd/soak -bin $(BIN) -duration $(SOAK_DURATION) -interval $(SOAK_INTERVAL)

## tools: Debian packages the tests and benchmarks use, as command:package
## (wrk: the load generator; gpsdecode: gpsd's reference AIS decoder;
## pdftotext/pdftoppm: poppler, to check the PDF reports; chromium: the
## headless browser of the pages' tests; py.pandas: the Python module pandas
## of Debian's python3, which the Python client's tests use)
TOOLS := wrk:wrk gpsdecode:gpsd-clients pdftotext:poppler-utils chromium:chromium py.pandas:python3-pandas
tools:
	@missing=""; for t in $(TOOLS); do c=$${t%%:*}; \
	  case $$c in py.*) /usr/bin/python3 -c "import $${c#py.}" 2>/dev/null ;; *) command -v $$c >/dev/null ;; esac || missing="$$missing $${t#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get install -y -q $$missing >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q $$missing >/dev/null; }; \
	fi

## stripe-mock: Stripe's API mock, which the billing tests run on
## loopback (a Go module, installed under .data/bin)
STRIPE_MOCK := .data/bin/stripe-mock
STRIPE_MOCK_VERSION := v0.203.0
export STRIPE_MOCK_BIN := $(CURDIR)/$(STRIPE_MOCK)
$(STRIPE_MOCK):
	GOBIN=$(CURDIR)/.data/bin $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

## run: serve the API, ingest and jobs on :8080
run: services build
	./$(BIN) run

## web: rebuild the pages (/docs, /map, /dashboard) from web/src into
## web/dist with the npm packages pinned by web/package-lock.json; dist is
## committed and embedded, so only a change to the pages needs this
web:
	cd web && npm ci --no-audit --no-fund && npm run build

## client: regenerate the Go client (client/) from the OpenAPI document:
## `overwatch openapi` writes the merged document to client/openapi.json,
## then oapi-codegen (the version go.mod pins) generates client.gen.go;
## run it after changing http/openapi/ (a test fails until then)
client:
	$(GO) generate ./client

vet:
	$(GO) vet ./...

## tidy: fail when `go mod tidy` would change go.mod or go.sum
tidy:
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy and commit"; exit 1; }

## lint-arch: the import rules of docs/architecture.md
lint-arch:
	@.ci/lint-arch

## lint-openapi: the OpenAPI document (client/openapi.json) through an
## outside linter, Redocly CLI's recommended rules; errors fail, warnings
## print (the CLI is an npm package, installed under .data/redocly)
REDOCLY_VERSION := 2.77.0
REDOCLY := .data/redocly/node_modules/.bin/redocly
$(REDOCLY):
	npm install --prefix .data/redocly --no-audit --no-fund --loglevel=error @redocly/cli@$(REDOCLY_VERSION)
lint-openapi: $(REDOCLY)
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(REDOCLY) lint client/openapi.json --format=stylish 2>&1 | grep -v '[║╔╚]'; exit $${PIPESTATUS[0]}

## FUZZ_SMOKE: the fuzz targets `make test` fuzzes for FUZZ_SMOKE_TIME
## executions each (package:target): the parsers of what arrives from
## outside at the edge (an AIS line, an AISHub answer, the client address
## behind a proxy, the Free plan's array clamp), in packages whose
## instrumented builds are small. The HTTP edge's fuzz targets through the
## real server (e2e: FuzzHTTPRead, FuzzHTTPWrite, FuzzHTTPHeaders,
## FuzzHTTPRaw) run their corpora in test-go; fuzzing them needs an
## instrumented build of the whole service (about 5 minutes on two cores,
## 13 under load), so `make fuzz` (every target, FUZZTIME each) and
## `make fuzz-http` fuzz them
FUZZ_SMOKE := ./write/ais:FuzzDecodeLine ./write/feed:FuzzParseAISHub ./http:FuzzClientIP ./http:FuzzClampArrays
## (an execution count, not a duration: Go 1.26's fuzz coordinator can
## report a bare "context deadline exceeded" when a duration ends while a
## worker is busy on a loaded machine, golang/go#75804)
FUZZ_SMOKE_TIME ?= 5000x
## HTTP_FUZZ: the fuzz targets of the HTTP edge through the real server
HTTP_FUZZ     := FuzzHTTPRead FuzzHTTPWrite FuzzHTTPHeaders FuzzHTTPRaw
HTTP_FUZZTIME ?= 5000x
## test: a tidy go.mod, vet, import rules and the OpenAPI lint, then the
## suites, each on databases of its own, in two steps that keep both
## cores busy: unit, integration and end-to-end tests (which run every
## fuzz target's corpus and a short load test) with the accuracy suite's
## smoke runs among them, in one go test (test-go, the packages side by
## side), beside one iteration of every benchmark (test-bench-smoke), the
## Python client (test-python, mostly waiting out a rate-limit window) and
## the chaos smoke run on its private cluster (test-chaos-smoke, mostly
## waiting out its faults); then cluster mode (test-cluster; its test
## databases dropped and the cluster stopped after it: its four idle nodes
## take a third of the machine, and a node restarted over dozens of test
## databases does not come up) beside the FUZZ_SMOKE targets fuzzed for
## FUZZ_SMOKE_TIME each (test-fuzz-smoke)
test: services tools $(STRIPE_MOCK) tidy vet lint-arch lint-openapi build
	@$(MAKE) --no-print-directory -j4 test-go test-bench-smoke test-python test-chaos-smoke TEST_GO_FLAGS=-vet=off
	@$(MAKE) --no-print-directory -j2 test-cluster test-fuzz-smoke TEST_GO_FLAGS=-vet=off; rc=$$?; \
	  clickhouse/local/cluster.sh drop-tests || rc=1; $(MAKE) --no-print-directory cluster-down; exit $$rc

## test-go: every package's tests and the smoke runs of the accuracy
## suites, in one go test, the packages side by side. The end-to-end and
## accuracy suites, the longest packages, are named first: go test builds
## and starts packages in the order they are named, so the others fill the
## cores while the end-to-end suite runs its serial tests. Benchmarks run
## in test-bench-smoke: with -bench, go test runs its packages one after
## the other (cmd/go serialises test binaries when benchmarking).
## TEST_GO_FLAGS: more go test flags (`make test` passes -vet=off: its
## vet step has just run every analyzer on every package)
TEST_GO_FLAGS ?=
test-go: services tools $(STRIPE_MOCK)
	OVERWATCH_ACCURACY=smoke OVERWATCH_ACCURACY_TRADE=smoke OVERWATCH_ACCURACY_TRADE_SEEDS=41 OVERWATCH_ACCURACY_PREDICTIONS=smoke $(GO) test $(TEST_GO_FLAGS) -count=1 -timeout 30m ./e2e ./accuracy ./...

## test-bench-smoke: one iteration of every benchmark (no tests), on test
## databases of its own (prefix bench_), so that it can run beside test-go
test-bench-smoke: export OVERWATCH_TEST_DB_PREFIX := $(OVERWATCH_TEST_DB_PREFIX)bench_
test-bench-smoke: services
	$(GO) test $(TEST_GO_FLAGS) -count=1 -timeout 15m -run '^$$' -bench . -benchtime 1x ./...

## test-chaos-smoke: the chaos test's smoke run (see chaos)
test-chaos-smoke: build
	OVERWATCH_CHAOS=smoke $(GO) test -count=1 -timeout 10m -run '^TestChaos$$' ./cmd/chaos

## test-fuzz-smoke: the FUZZ_SMOKE targets fuzzed for FUZZ_SMOKE_TIME each
test-fuzz-smoke:
	@for pt in $(FUZZ_SMOKE); do \
	  pkg=$${pt%%:*}; f=$${pt#*:}; \
	  echo "== fuzz $$pkg $$f for $(FUZZ_SMOKE_TIME)"; \
	  $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZ_SMOKE_TIME) $$pkg || exit 1; \
	done

## fuzz-http: the HTTP edge's fuzz targets through the real server
## (HTTP_FUZZ) for HTTP_FUZZTIME each, on databases of their own (prefix
## fuzz_)
fuzz-http: export OVERWATCH_TEST_DB_PREFIX := $(OVERWATCH_TEST_DB_PREFIX)fuzz_
fuzz-http: services
	@for f in $(HTTP_FUZZ); do \
	  echo "== fuzz $$f for $(HTTP_FUZZTIME)"; \
	  $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(HTTP_FUZZTIME) ./e2e || exit 1; \
	done

## test-python: the Python client (clients/python) end to end: bin/overwatch
## serves a free loopback port on its own databases (python_client_e2e, the
## prefix from OVERWATCH_TEST_DB_PREFIX), a 12-vessel simulated fleet is
## loaded through the ingest pipeline, a Pro key created, and Debian's
## python3 runs the unittest suite with pandas, then with pandas hidden
test-python: build
	BIN=$(BIN) PYTHON=/usr/bin/python3 clients/python/tests/e2e.sh

## test-clock: `go test ./...` with the tests' clock (OVERWATCH_TEST_NOW,
## read by overwatch/testclock; the servers the tests start follow it)
## set to each of TEST_CLOCK_INSTANTS: a Saturday 23:50 UTC (the week's
## pipeline nearly over), a Sunday 23:58 (crossing into Monday during the
## run), 31 December 23:50 (crossing into the new year) and 29 February;
## not part of `make test` (four runs of the suite)
TEST_CLOCK_INSTANTS ?= 2026-12-05T23:50:00Z 2026-12-06T23:58:00Z 2026-12-31T23:50:00Z 2028-02-29T12:00:00Z
test-clock: services tools $(STRIPE_MOCK)
	@for at in $(TEST_CLOCK_INSTANTS); do \
	  echo "== go test ./... at OVERWATCH_TEST_NOW=$$at"; \
	  OVERWATCH_TEST_NOW=$$at $(GO) test -count=1 -timeout 30m ./... || exit 1; \
	done

## accuracy: every detector against the simulator's ground truth through
## the API, 3 seeds x 3 settings (default rates, doubled, sparse sampling);
## prints the precision/recall table and writes it as markdown to
## ACCURACY_OUT (bin/accuracy.md), for the table
## docs/risk-detectors.md keeps (make test runs the smoke run: one seed, a
## small fleet); then accuracy-trade (the trade analytics and
## the voyage earnings) and the chokepoint signals; then
## accuracy-predictions
ACCURACY_OUT ?= bin/accuracy.md
accuracy: services tools
	@mkdir -p $(dir $(ACCURACY_OUT))
	OVERWATCH_ACCURACY=full OVERWATCH_ACCURACY_OUT=$(abspath $(ACCURACY_OUT)) $(GO) test -count=1 -timeout 120m -v -run '^TestAccuracy$$' ./accuracy
	$(MAKE) accuracy-trade
	OVERWATCH_ACCURACY_CHOKEPOINT=full $(GO) test -count=1 -timeout 10m -v -run '^TestAccuracyChokepoint$$' ./accuracy
	$(MAKE) accuracy-predictions

## accuracy-predictions: the next-port and ETA predictions against the
## simulator's truth (800 vessels over 30 days, default and sparse
## sampling, as of 3 and 7 days before the end) next to both baselines;
## prints the table and writes it as markdown to ACCURACY_PREDICTIONS_OUT
## (bin/accuracy-predictions.md), for docs/predictions.md
ACCURACY_PREDICTIONS_OUT ?= bin/accuracy-predictions.md
accuracy-predictions: services
	@mkdir -p $(dir $(ACCURACY_PREDICTIONS_OUT))
	OVERWATCH_ACCURACY_PREDICTIONS=full OVERWATCH_ACCURACY_OUT=$(abspath $(ACCURACY_PREDICTIONS_OUT)) $(GO) test -count=1 -timeout 60m -v -run '^TestAccuracyPredictions$$' ./accuracy

## accuracy-trade: the trade analytics (route shifts,
## deceptions, each anomaly type, flow tonnes, forecasts) and the voyage
## earnings against the truths
## the simulator injects, through the API: 800 vessels over two simulated
## years with seasons, cheap older history and injected trade truths, once
## per seed of OVERWATCH_ACCURACY_TRADE_SEEDS (by default 977 1201 2718,
## never used to tune anything), in sequence, 7-10 min each on 2 cores
## (OVERWATCH_ACCURACY_TRADE_VESSELS / _DAYS / _SEED change it); prints the
## tables and writes a summary per goal and a table per seed as markdown to
## ACCURACY_TRADE_OUT (bin/accuracy-trade.md), for docs/trade-accuracy.md
## (make test runs the smoke run: 100 vessels over 420 days, seed 41)
ACCURACY_TRADE_OUT ?= bin/accuracy-trade.md
OVERWATCH_ACCURACY_TRADE_SEEDS ?= 977 1201 2718
accuracy-trade: services
	@mkdir -p $(dir $(ACCURACY_TRADE_OUT))
	OVERWATCH_ACCURACY_TRADE=full OVERWATCH_ACCURACY_TRADE_SEEDS="$(OVERWATCH_ACCURACY_TRADE_SEEDS)" OVERWATCH_ACCURACY_OUT=$(abspath $(ACCURACY_TRADE_OUT)) $(GO) test -count=1 -timeout 150m -v -run '^TestAccuracyTrade$$' ./accuracy

## bench: Go benchmarks and the load tests (see docs/benchmarks.md)
bench: services tools bench-go bench-load bench-ingest bench-history bench-sim bench-derive bench-trade bench-market bench-map bench-tracks bench-predictions bench-exports bench-stream

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

bench-load: build
	$(GO) run ./cmd/loadtest lookup -bin $(BIN) -anchor-rounds 3

## bench-sim: the simulator's 30-day backfill of 800 vessels into ClickHouse
bench-sim: build
	$(GO) run ./cmd/loadtest sim -bin $(BIN)

## bench-derive: every derivation over bench-sim's 30 days (from scratch,
## then incrementally), each analytics endpoint's p99, and the port-call
## accuracy against the simulator's truth at full scale
bench-derive: build
	@[ -n "$$(clickhouse-client -q "EXISTS TABLE overwatch_bench_sim.positions" 2>/dev/null | grep 1)" ] || $(GO) run ./cmd/loadtest sim -bin $(BIN)
	$(GO) run ./cmd/loadtest derive -bin $(BIN)
	OVERWATCH_EVAL_FULL=1 $(GO) test -count=1 -timeout 30m -run TestPortCallsAgainstGroundTruth -v ./e2e | grep -v 'level=INFO'

## bench-trade: the trade derivations from scratch and daily
## on a simulated store of two years of 800 vessels (filled once into
## overwatch_bench_trade), then each trade endpoint's p99 under load
bench-trade: build
	$(GO) run ./cmd/loadtest trade -bin $(BIN)

## bench-market: the market imports' memory on growing files (flat: they
## stream) and each market endpoint's p99 under load
bench-market: build
	$(GO) run ./cmd/loadtest market -bin $(BIN)

## bench-map: /map with 10,000 vessels in headless Chromium: time to first
## render and frame times while panning (make test runs it with 300)
bench-map:
	OVERWATCH_MAP_BENCH_VESSELS=10000 $(GO) test -count=1 -timeout 15m -run '^TestMapBench$$' -v ./browser

## bench-tracks: one vessel's year of fixes (100,000) through the real
## server: the JSON track's p50 and p99, the streamed CSV's rows per second
## (targets: p99 under 100 ms, 1,000,000 rows/s), and the store's read rate
bench-tracks:
	OVERWATCH_TRACK_BENCH_FIXES=100000 $(GO) test -count=1 -timeout 15m -run '^TestFixesReadRate$$' -v ./clickhouse
	OVERWATCH_TRACK_BENCH_FIXES=100000 $(GO) test -count=1 -timeout 15m -run '^TestTrackBench$$' -v ./e2e

## bench-predictions: a fleet of 20,000 vessels (1,000 simulated over 12
## days, copied 20 times under other IMOs, filled once into
## overwatch_bench_fleet): the predictions refresh as the scheduler runs it
## (target < 30 s), then the p99 of /v1/vessels/{imo}/prediction (< 20 ms)
## and of /v1/area/vessels over the last day (< 300 ms), 8 clients;
## bench-area: the same store, the area presence summary derived, the
## endpoints from 1 client, then 8; cmd/loadtest's TestFleetSmoke runs it
## on 180 vessels in make test
bench-predictions: build
	$(GO) run ./cmd/loadtest fleet -bin $(BIN)

bench-area: build
	$(GO) run ./cmd/loadtest fleet -bin $(BIN) -refreshes 0 -clients 1,8

## bench-world: a world fleet in accelerated time: 20,000 vessels (a
## position report a second under way, every 3 min at anchor, a static
## report every 6 min: about 19,000 messages/s) for 2 simulated hours at
## 5x real time (24 min), as tagged AIVDM through a pipe into `overwatch
## replay` while `overwatch jobs` runs the job table on the same store
## (overwatch_bench_world): how far the feed fell behind, each job's runs
## and longest run against its interval, every process's CPU, bytes per
## stored position (goal <= 35); cmd/loadtest's TestWorldSmoke runs 300
## vessels for a simulated minute in make test
bench-world: build
	$(GO) run ./cmd/loadtest world -bin $(BIN)

## bench-exports: a bulk CSV.gz export of 10 million positions through the
## real server against clickhouse-client writing the same rows (CSVWithNames
## through gzip) in the same run (target within 2×), and the server's peak
## RSS (target < 200 MB); EXPORT_ROWS for another size
EXPORT_ROWS ?= 10000000
bench-exports: build
	$(GO) run ./cmd/loadtest exports -bin $(BIN) -rows $(EXPORT_ROWS)

## bench-stream: GET /v1/stream under a 20,000 lines/s replay of the AISHub
## sample (170,000 lines): the ingest rate without subscribers, then with 100
## WebSocket subscribers each with its own box, and the delivery p99 (go
## test runs it at a smoke size: 20,000 lines, 20 subscribers, no bounds)
bench-stream:
	OVERWATCH_STREAM_BENCH_LINES=170000 $(GO) test -count=1 -timeout 15m -run '^TestStreamBench$$' -v ./e2e

## bench-ingest: replay 10 million AIS messages into ClickHouse (messages/s, peak RSS)
bench-ingest: build
	$(GO) run ./cmd/loadtest ingest -bin $(BIN)

## bench-history: import a 1,000,000-row MarineCadastre file, against
## clickhouse-client inserting the same rows as TSV (rows/s, peak RSS)
bench-history: build
	$(GO) run ./cmd/loadtest history -bin $(BIN)

## bench-cluster: the single server against the local cluster in one run
## (clickhouse/capacity_test.go): ingest rows/s through WriteBatch, per-vessel
## and latest read p50/p99, compressed bytes per position row; then the bytes
## per row of each table after a real AIS replay (the 3-minute AISHub capture)
## into the single server
BENCH_ROWS ?= 1000000
bench-cluster: services cluster build
	OVERWATCH_BENCH_CAPACITY=1 OVERWATCH_BENCH_ROWS=$(BENCH_ROWS) $(GO) test -count=1 -timeout 30m -v -run '^TestCapacity$$' ./clickhouse
	clickhouse-client -q "DROP DATABASE IF EXISTS overwatch_bench_bytes"
	spool=$$(mktemp -d) && CLICKHOUSE_URL=clickhouse://127.0.0.1:9000/overwatch_bench_bytes OVERWATCH_SPOOL_DIR=$$spool OVERWATCH_LOG_LEVEL=warn \
	  $(BIN) replay --source aishub write/ais/testdata/ais_aishub_3min_live_sample_gpsd_contrib.log; rm -rf $$spool
	clickhouse-client -q "OPTIMIZE TABLE overwatch_bench_bytes.positions FINAL"
	clickhouse-client -q "SELECT table, sum(rows) AS rows, sum(data_compressed_bytes) AS compressed, round(compressed / rows, 1) AS bytes_per_row \
	  FROM system.parts WHERE active AND database = 'overwatch_bench_bytes' GROUP BY table ORDER BY rows DESC FORMAT PrettyCompact"
	clickhouse-client -q "SELECT name, data_compressed_bytes, data_uncompressed_bytes FROM system.columns \
	  WHERE database = 'overwatch_bench_bytes' AND table = 'positions' ORDER BY data_compressed_bytes DESC FORMAT PrettyCompact"

## fuzz: run every fuzz target for FUZZTIME each (default 2m)
FUZZTIME ?= 2m
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin
