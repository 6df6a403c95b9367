package jobs

import (
	"context"
	"testing"
	"time"

	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
)

type fakeRisk []risk.Event

func (f fakeRisk) RiskEvents(context.Context, time.Time, time.Time) ([]risk.Event, error) {
	return f, nil
}

type testSource []AlertEvent

func (testSource) Name() string { return "test" }

func (s testSource) Events(context.Context, time.Time, time.Time) ([]AlertEvent, error) {
	return s, nil
}

// memSink keeps alerts once per account and event key, as Postgres does.
type memSink struct {
	watchers []Watcher
	alerts   map[[2]any]Alert
}

func (m *memSink) Watchers(context.Context) ([]Watcher, error) { return m.watchers, nil }

func (m *memSink) RaiseAlerts(_ context.Context, as []Alert) (int, error) {
	n := 0
	for _, a := range as {
		k := [2]any{a.AccountID, a.EventKey}
		if _, ok := m.alerts[k]; !ok {
			m.alerts[k] = a
			n++
		}
	}
	return n, nil
}

// The mapping of the risk events to alert types and severities
// (docs/alerts.md).
func TestRiskAlertsMapping(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	from := now.Add(-24 * time.Hour)
	start := now.Add(-2 * time.Hour)
	sanction := func(sub string) risk.Event {
		return risk.Event{Type: risk.EventSanctions, Subtype: sub, IMO: 9074729, Start: start, Severity: risk.TierCritical,
			Detail: map[string]any{"list_source": "OFAC SDN", "sanctioned_entity": "SHADOW " + sub}}
	}
	events := fakeRisk{
		sanction(sanctions.MatchIMO), sanction(sanctions.MatchMMSI), sanction(sanctions.MatchName),
		{Type: risk.EventGap, Subtype: "intentional", IMO: 9321483, Start: start, Severity: risk.TierCritical},
		{Type: risk.EventGap, Subtype: "", IMO: 9321483, Start: start, Severity: risk.TierHigh}, // not intentional: no alert
		{Type: risk.EventSTS, Subtype: "proximity", IMO: 9176187, Other: 9074729, Start: start, Severity: risk.TierHigh},
		{Type: risk.EventSpoofing, IMO: 9176187, Start: start, Severity: risk.TierMedium},
		{Type: risk.EventLoitering, Subtype: "stationary", IMO: 9176187, Start: start, Severity: risk.TierHigh},
		{Type: risk.EventIdentity, Subtype: "flag", IMO: 9176187, Start: start, Severity: risk.TierHigh},
		{Type: risk.EventGap, Subtype: "intentional", IMO: 9321483, Start: from.Add(-time.Hour), Severity: risk.TierCritical}, // started before the window
	}
	got, err := RiskAlerts{Store: events}.Events(context.Background(), from, now)
	if err != nil {
		t.Fatal(err)
	}
	type ts struct{ typ, sev, imo string }
	want := []ts{
		{AlertSanctions, SeverityCritical, "9074729"},
		{AlertSanctions, SeverityWarning, "9074729"},
		{AlertSanctions, SeverityWarning, "9074729"},
		{AlertDarkFleet, SeverityCritical, "9321483"},
		{AlertDarkFleet, SeverityWarning, "9176187"}, // the transfer, both vessels
		{AlertDarkFleet, SeverityWarning, "9074729"},
		{AlertDarkFleet, SeverityInfo, "9176187"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d alert events, want %d: %+v", len(got), len(want), got)
	}
	keys := map[string]bool{}
	for i, w := range want {
		g := got[i]
		if g.Type != w.typ || g.Severity != w.sev || g.IMO != w.imo || g.Title == "" || g.Message == "" || !g.At.Equal(start) {
			t.Errorf("event %d: %+v, want %+v", i, g, w)
		}
		if keys[g.Key] {
			t.Errorf("event %d: key %q repeats", i, g.Key)
		}
		keys[g.Key] = true
	}
}

// The job raises an alert for every watcher of the vessel or port, once
// per account and event, from every source.
func TestAlertsJobOncePerAccountAndEvent(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	sink := &memSink{alerts: map[[2]any]Alert{}, watchers: []Watcher{
		{AccountID: 1, Vessels: map[string]bool{"9321483": true}, Ports: map[string]bool{}},
		{AccountID: 2, Vessels: map[string]bool{"9321483": true}, Ports: map[string]bool{"rosario": true}},
		{AccountID: 3, Vessels: map[string]bool{"9074729": true}, Ports: map[string]bool{}},
	}}
	risk := RiskAlerts{Store: fakeRisk{{Type: risk.EventGap, Subtype: "intentional", IMO: 9321483, Start: now.Add(-time.Hour), Severity: risk.TierHigh}}}
	river := testSource{{Key: "river/rosario/1", Type: AlertRiverLevel, Severity: SeverityInfo, Port: "rosario", At: now, Title: "low", Message: "low water"}}
	run := Alerts(sink, func() time.Time { return now }, risk, river)
	res, err := run(context.Background(), State{})
	if err != nil || res.Rows != 3 || !res.Watermark.Equal(now) || !res.From.Equal(now.Add(-AlertLookback)) {
		t.Fatalf("first run: %+v %v", res, err)
	}
	res, err = run(context.Background(), State{Watermark: res.Watermark})
	if err != nil || res.Rows != 0 {
		t.Fatalf("second run: %+v %v", res, err)
	}
	for k, a := range sink.alerts {
		switch {
		case a.AccountID == 3:
			t.Errorf("account 3 watches neither: %+v", a)
		case a.Type == AlertRiverLevel && a.AccountID != 2:
			t.Errorf("river alert for %v", k)
		}
	}
}

// countingSource counts how often it is read.
type countingSource struct{ reads *int }

func (countingSource) Name() string { return "counting" }

func (c countingSource) Events(context.Context, time.Time, time.Time) ([]AlertEvent, error) {
	*c.reads++
	return nil, nil
}

// With no watchers the job reads no source and still advances.
func TestAlertsJobWithoutWatchers(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	reads := 0
	run := Alerts(&memSink{alerts: map[[2]any]Alert{}}, func() time.Time { return now }, countingSource{&reads})
	res, err := run(context.Background(), State{})
	if err != nil || res.Rows != 0 || !res.Watermark.Equal(now) || reads != 0 {
		t.Errorf("%+v %v, %d reads", res, err, reads)
	}
}
