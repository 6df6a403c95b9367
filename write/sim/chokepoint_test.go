package sim

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/chokepoint"
)

// An injected Suez closure: legs that would reach the canal after the
// start go round the Cape, those that pass it before keep their route,
// and the truth line names what it affects.
func TestChokepointDisruption(t *testing.T) {
	start := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	closed := start.AddDate(0, 0, 20)
	var truth bytes.Buffer
	p, err := NewPlanner(Config{Seed: 3, Vessels: 20, Start: start, Rates: DefaultRates,
		Disruption: Disruption{Chokepoint: chokepoint.Suez, Start: closed}}, newTruthWriter(&truth))
	if err != nil {
		t.Fatal(err)
	}
	before, err := p.legRoute("rotterdam", "shanghai", closed.AddDate(0, 0, -30), 14)
	if err != nil || !slices.Contains(before.Via, "Suez Canal") {
		t.Errorf("before: via %v, %v", before.Via, err)
	}
	after, err := p.legRoute("rotterdam", "shanghai", closed.AddDate(0, 0, -3), 14) // reaches the canal after the start
	if err != nil || slices.Contains(after.Via, "Suez Canal") || !slices.Contains(after.Via, "Cape of Good Hope") {
		t.Errorf("after: via %v, %v", after.Via, err)
	}
	if r, err := p.legRoute("santos", "qingdao", closed, 14); err != nil || slices.Contains(r.Via, "Suez Canal") {
		t.Errorf("a route not through Suez: %v %v", r.Via, err)
	}
	var line Truth
	for _, l := range strings.Split(truth.String(), "\n") {
		if strings.Contains(l, "chokepoint_disruption") {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	d, _ := line.Detail.(map[string]any)
	if line.Start == nil || !line.Start.Equal(closed) || d["chokepoint"] != "suez" || d["alternative"] != "cape-of-good-hope" ||
		!strings.Contains(toJSON(d["affected"]), "bab-el-mandeb") || !strings.Contains(toJSON(d["gaining"]), "cape-of-good-hope") {
		t.Errorf("truth %+v", line)
	}
	// Off: no truth line, the usual routes.
	var none bytes.Buffer
	q, err := NewPlanner(Config{Seed: 3, Vessels: 20, Start: start, Rates: DefaultRates}, newTruthWriter(&none))
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := q.legRoute("rotterdam", "shanghai", closed, 14); !slices.Contains(r.Via, "Suez Canal") || strings.Contains(none.String(), "chokepoint_disruption") {
		t.Errorf("off: via %v", r.Via)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
