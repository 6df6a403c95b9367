package app

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"overwatch/write/ingest"
)

// NewMetrics returns a registry with the Go runtime's and the process's
// collectors; the parts of the service add theirs.
func NewMetrics() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// registerIngest exposes the pipeline's counters and gauges.
func registerIngest(reg *prometheus.Registry, p *ingest.Pipeline) {
	counter := func(name, help string, f func(ingest.Stats) uint64) {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "overwatch", Subsystem: "ingest", Name: name, Help: help},
			func() float64 { return float64(f(p.Stats())) }))
	}
	gauge := func(name, help string, f func(ingest.Stats) float64) {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "overwatch", Subsystem: "ingest", Name: name, Help: help},
			func() float64 { return f(p.Stats()) }))
	}
	counter("received_total", "Lines or records received from the feeds.", func(s ingest.Stats) uint64 { return s.Received })
	counter("decoded_total", "Reports decoded from what the feeds received.", func(s ingest.Stats) uint64 { return s.Decoded })
	counter("invalid_total", "Input rejected as invalid (bad checksum or payload, garbage).", func(s ingest.Stats) uint64 { return s.Invalid })
	reg.MustRegister(invalidByReason{p: p, desc: prometheus.NewDesc("overwatch_ingest_invalid_reason_total",
		"Input rejected as invalid, by reason: garbage, tag_block, checksum, payload (NMEA lines), record (AISHub), message (aisstream.io).",
		[]string{"reason"}, nil)})
	reg.MustRegister(tagBlockSums{p: p, desc: prometheus.NewDesc("overwatch_ingest_tag_block_checksum_mismatch_total",
		"NMEA lines kept although a tag block's checksum is wrong, because the sentence's own checksum holds, by reason: without_group (the checksum of the block without its g: parameter), mismatch, missing.",
		[]string{"reason"}, nil)})
	counter("dropped_total", "Reports dropped because the queue was full (UDP only).", func(s ingest.Stats) uint64 { return s.Dropped })
	counter("duplicate_total", "Reports dropped as exact duplicates of recent ones.", func(s ingest.Stats) uint64 { return s.Duplicates })
	counter("unattributed_total", "Class A positions stored without an IMO after the attribution window.", func(s ingest.Stats) uint64 { return s.Unattributed })
	counter("reattributed_total", "MMSIs whose positions stored without an IMO a later static report claimed for its IMO.", func(s ingest.Stats) uint64 { return s.Reattributed })
	counter("batches_total", "Batches flushed.", func(s ingest.Stats) uint64 { return s.Batches })
	counter("written_total", "Reports written to ClickHouse.", func(s ingest.Stats) uint64 { return s.Written })
	counter("spooled_total", "Reports written to the disk spool while ClickHouse was unreachable.", func(s ingest.Stats) uint64 { return s.Spooled })
	counter("replayed_total", "Spooled reports written to ClickHouse after it came back.", func(s ingest.Stats) uint64 { return s.Replayed })
	counter("write_errors_total", "Failed batch writes.", func(s ingest.Stats) uint64 { return s.WriteErrors })
	counter("invalid_imo_total", "Static reports whose IMO field fails the IMO check digit.", func(s ingest.Stats) uint64 { return s.InvalidIMO })
	gauge("queued", "Reports waiting in the queue.", func(s ingest.Stats) float64 { return float64(s.Queued) })
	gauge("pending_attribution", "Class A positions waiting for their IMO.", func(s ingest.Stats) float64 { return float64(s.Pending) })
	gauge("spool_files", "Batches in the disk spool.", func(s ingest.Stats) float64 { return float64(s.SpoolFiles) })
	gauge("spool_bytes", "Bytes in the disk spool.", func(s ingest.Stats) float64 { return float64(s.SpoolBytes) })
	gauge("store_down", "1 while ClickHouse does not take batches.", func(s ingest.Stats) float64 {
		if s.StoreDown {
			return 1
		}
		return 0
	})
}

// invalidByReason exposes the pipeline's invalid input by reason, read at
// each scrape.
type invalidByReason struct {
	p    *ingest.Pipeline
	desc *prometheus.Desc
}

func (c invalidByReason) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c invalidByReason) Collect(ch chan<- prometheus.Metric) {
	for reason, n := range c.p.Stats().InvalidByReason {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(n), reason)
	}
}

// tagBlockSums exposes the NMEA lines kept despite a wrong tag-block
// checksum, by reason, read at each scrape.
type tagBlockSums struct {
	p    *ingest.Pipeline
	desc *prometheus.Desc
}

func (c tagBlockSums) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c tagBlockSums) Collect(ch chan<- prometheus.Metric) {
	for reason, n := range c.p.Stats().TagBlockSums {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(n), reason)
	}
}
