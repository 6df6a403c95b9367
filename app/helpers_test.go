package app

import (
	"encoding/json"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"overwatch/jobs"
	"overwatch/sources/gdelt"
	marketsource "overwatch/sources/market"
)

func netTCPAddr(a netip.Addr) *net.TCPAddr {
	return net.TCPAddrFromAddrPort(netip.AddrPortFrom(a, 40000))
}

func readFile(t interface {
	Helper()
	Fatal(...any)
}, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustUnmarshal(t interface {
	Helper()
	Fatalf(string, ...any)
}, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// sourceJobs are the refresh jobs of the job table that the sources given
// turn on, as newScheduler builds them.
func sourceJobs(s jobs.Sources) []jobs.Job {
	var out []jobs.Job
	for _, j := range jobs.All(jobs.Deps{Sources: s}) {
		if j.Kind == jobs.Refresh && j.Off == "" {
			out = append(out, j)
		}
	}
	return out
}

// refreshJob is the one refresh job of the table that the sources given
// turn on.
func refreshJob(t testing.TB, s jobs.Sources) jobs.Job {
	t.Helper()
	on := sourceJobs(s)
	if len(on) != 1 {
		t.Fatalf("%d refresh jobs on, want 1", len(on))
	}
	return on[0]
}

// marketJobs are the market refreshes of the table that the configuration
// turns on.
func marketJobs(cfg marketsource.Config, prices marketsource.PriceWriter, rates marketsource.RateWriter) []jobs.Job {
	p, tr := marketSources(cfg, prices, rates)
	return sourceJobs(jobs.Sources{Prices: p, Transport: tr})
}

// newsJobs are the news refreshes of the table that the configuration
// turns on.
func newsJobs(cfg newsConfig, store newsStore) []jobs.Job {
	n, p := newsSources(cfg, store)
	return sourceJobs(jobs.Sources{News: n, PortWatch: p})
}

// newsJob is the GDELT refresh of the table, asking base for subjects at
// most once per interval.
func newsJob(t testing.TB, store gdelt.Writer, base string, subjects []gdelt.Subject, interval time.Duration) jobs.Job {
	return refreshJob(t, jobs.Sources{News: jobs.SourceRefresh{Refresh: gdelt.News(store, gdelt.Client{Base: base}, subjects, interval), Every: time.Hour}})
}
