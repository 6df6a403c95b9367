package app

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"overwatch/testclock"
	"strconv"
	"sync"
	"testing"
	"time"
)

// clockEnv is the environment of a command a test runs in process (run):
// get's variables, and the tests' clock as OVERWATCH_CLOCK_START when
// OVERWATCH_TEST_NOW sets it and get does not, so that the command's
// "now" (a simulation's default start, the receive time of replayed
// messages, the jobs' windows) is the test's.
func clockEnv(get func(string) string) func(string) string {
	if !testclock.Set() {
		return get
	}
	start := testclock.Now().Format(time.RFC3339Nano)
	return func(k string) string {
		if v := get(k); v != "" || k != "OVERWATCH_CLOCK_START" {
			return v
		}
		return start
	}
}

// level is a gauge height at a time.
type level struct {
	at time.Time
	ft float64
}

// riverIVAnswer is a NWIS IV answer for St. Louis (07010000) with the
// levels given: no recorded answer for the Mississippi gauges exists, so
// it is the real recorded answer in sources/river/testdata (sites 01491000
// and 01645000) with its gage-height series of 01491000 renamed to
// 07010000 and its values replaced, the rest of its structure (envelope,
// string values, qualifiers, local offsets) as recorded.
func riverIVAnswer(t *testing.T, levels []level) []byte {
	t.Helper()
	raw, err := os.ReadFile("../sources/river/testdata/nwis_iv_waterml_json_01491000_01645000.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	value := doc["value"].(map[string]any)
	var keep []any
	central := time.FixedZone("CST", -6*3600)
	for _, s := range value["timeSeries"].([]any) {
		ts := s.(map[string]any)
		if ts["name"] != "USGS:01491000:00065:00000" {
			continue
		}
		ts["name"] = "USGS:07010000:00065:00000"
		ts["sourceInfo"].(map[string]any)["siteCode"].([]any)[0].(map[string]any)["value"] = "07010000"
		ts["sourceInfo"].(map[string]any)["siteName"] = "MISSISSIPPI RIVER AT ST. LOUIS, MO"
		var vals []any
		for _, l := range levels {
			vals = append(vals, map[string]any{"value": strconv.FormatFloat(l.ft, 'f', 2, 64), "qualifiers": []string{"P"},
				"dateTime": l.at.In(central).Format("2006-01-02T15:04:05.000-07:00")})
		}
		ts["values"].([]any)[0].(map[string]any)["value"] = vals
		keep = append(keep, ts)
	}
	value["timeSeries"] = keep
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fakeCatalogue serves the real ASF jsonlite answer of the Fairbanks
// granule, or the failure its mode names (429 with Retry-After, an HTML
// page, a truncated body, a 500), and records the queries it was asked.
type fakeCatalogue struct {
	mu      sync.Mutex
	mode    string
	queries []url.Values
	body    []byte
}

func (f *fakeCatalogue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.queries = append(f.queries, r.URL.Query())
	mode := f.mode
	f.mu.Unlock()
	switch mode {
	case "429":
		w.Header().Set("Retry-After", "120")
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
	case "html":
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!DOCTYPE html><html><body>Service Unavailable</body></html>")
	case "500":
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
	case "truncated":
		w.Write(f.body[:len(f.body)/2])
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write(f.body)
	}
}

func (f *fakeCatalogue) set(mode string) {
	f.mu.Lock()
	f.mode = mode
	f.mu.Unlock()
}

func (f *fakeCatalogue) asked() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.queries...)
}

// discardLog is a logger that writes nowhere.
func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
