package app

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"overwatch/write/history"
)

// registerImports exposes the history imports at /metrics: the ledger
// (history_imports) sums every `overwatch import history` run, wherever it
// ran, read from ClickHouse at each scrape.
func registerImports(reg *prometheus.Registry, totals func(context.Context) (history.Totals, error)) {
	reg.MustRegister(importCollector{totals: totals})
}

type importCollector struct {
	totals func(context.Context) (history.Totals, error)
}

var (
	importFilesDesc   = prometheus.NewDesc("overwatch_history_import_files", "Files in the import ledger, by status (running, complete, failed, interrupted).", []string{"status"}, nil)
	importRowsDesc    = prometheus.NewDesc("overwatch_history_import_rows_total", "Rows read from imported history files.", nil, nil)
	importReportsDesc = prometheus.NewDesc("overwatch_history_import_reports_total", "Reports (positions and static reports) imported history files gave.", nil, nil)
	importSkipDesc    = prometheus.NewDesc("overwatch_history_import_skipped_total", "Rows of imported history files that gave no report, by reason.", []string{"reason"}, nil)
	importQuirkDesc   = prometheus.NewDesc("overwatch_history_import_quirks_total", "Rows of imported history files kept after a fix-up, by reason.", []string{"reason"}, nil)
	importUpDesc      = prometheus.NewDesc("overwatch_history_import_ledger_up", "1 when the import ledger could be read at this scrape.", nil, nil)
)

func (c importCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{importFilesDesc, importRowsDesc, importReportsDesc, importSkipDesc, importQuirkDesc, importUpDesc} {
		ch <- d
	}
}

func (c importCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	t, err := c.totals(ctx)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(importUpDesc, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(importUpDesc, prometheus.GaugeValue, 1)
	for _, s := range []history.Status{history.Running, history.Complete, history.Failed, history.Interrupted} {
		ch <- prometheus.MustNewConstMetric(importFilesDesc, prometheus.GaugeValue, float64(t.Files[s]), string(s))
	}
	ch <- prometheus.MustNewConstMetric(importRowsDesc, prometheus.CounterValue, float64(t.Rows))
	ch <- prometheus.MustNewConstMetric(importReportsDesc, prometheus.CounterValue, float64(t.Reports))
	for r, n := range t.Skipped {
		ch <- prometheus.MustNewConstMetric(importSkipDesc, prometheus.CounterValue, float64(n), string(r))
	}
	for r, n := range t.Quirks {
		ch <- prometheus.MustNewConstMetric(importQuirkDesc, prometheus.CounterValue, float64(n), string(r))
	}
}
