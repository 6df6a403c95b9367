package app

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// The sources' failed fetches reach /metrics by source.
func TestSourceFailuresMetric(t *testing.T) {
	reg := prometheus.NewRegistry()
	f := registerSourceFailures(reg)
	f.Add("fred")
	f.Add("fred")
	f.Add("usgs_river")
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, fam := range fams {
		if fam.GetName() != "overwatch_source_fetch_failures_total" {
			continue
		}
		for _, m := range fam.GetMetric() {
			got[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		}
	}
	if got["fred"] != 2 || got["usgs_river"] != 1 || len(got) != 2 {
		t.Errorf("overwatch_source_fetch_failures_total: %v", got)
	}
}
