package app

import (
	"encoding/json"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"overwatch/jobs"
	"overwatch/jobs/jobstest"
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

// marketJobs are the market refreshes of the table that the configuration
// turns on.
func marketJobs(cfg marketsource.Config, prices marketsource.PriceWriter, rates marketsource.RateWriter) []jobs.Job {
	p, tr := marketSources(cfg, prices, rates)
	return jobstest.SourceJobs(jobs.Sources{Prices: p, Transport: tr})
}

// newsJobs are the news refreshes of the table that the configuration
// turns on.
func newsJobs(cfg newsConfig, store newsStore) []jobs.Job {
	n, p := newsSources(cfg, store)
	return jobstest.SourceJobs(jobs.Sources{News: n, PortWatch: p})
}

// newsJob is the GDELT refresh of the table, asking base for subjects at
// most once per interval.
func newsJob(t testing.TB, store gdelt.Writer, base string, subjects []gdelt.Subject, interval time.Duration) jobs.Job {
	return jobstest.RefreshJob(t, jobs.Sources{News: jobs.SourceRefresh{Refresh: gdelt.News(store, gdelt.Client{Base: base}, subjects, interval), Every: time.Hour}})
}
