package http

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// The metrics address serves Go's runtime profiles only when asked
// (OVERWATCH_PPROF): the goroutine profile names this test's own
// goroutine; without the setting the path is not found.
func TestMetricsAppProfiles(t *testing.T) {
	for _, on := range []bool{false, true} {
		app := MetricsApp(prometheus.NewRegistry(), slog.New(slog.NewTextHandler(io.Discard, nil)), on)
		resp, err := app.Test(httptest.NewRequest("GET", "/debug/pprof/goroutine?debug=1", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if on && (resp.StatusCode != 200 || !strings.Contains(string(body), "TestMetricsAppProfiles")) {
			t.Errorf("profiles on: %d %.200s", resp.StatusCode, body)
		}
		if !on && resp.StatusCode != 404 {
			t.Errorf("profiles off: %d", resp.StatusCode)
		}
		metrics, err := app.Test(httptest.NewRequest("GET", "/metrics", nil), -1)
		if err != nil || metrics.StatusCode != 200 {
			t.Fatalf("/metrics: %v %v", metrics, err)
		}
	}
}
