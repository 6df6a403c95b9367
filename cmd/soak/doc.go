// Command soak runs `overwatch run` (API, ingest of the simulated demo fleet
// and the jobs, in one process) for a long time under a steady load of
// public lookups, and every interval records the process's resident memory,
// Go heap and goroutines (from /proc and /metrics) and the lookups' latency
// percentiles into a CSV, then renders the series as an SVG plot. `make
// soak` runs it for SOAK_DURATION (default 2h); docs/soak.md shows a run.
//
//	go run ./cmd/soak -bin bin/overwatch [-duration 2h] [-interval 10s] [-rate 20] [-out docs/soak]
//	go run ./cmd/soak -plot docs/soak/soak.csv     (render the SVG of a CSV again)
package main
