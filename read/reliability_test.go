package read

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/route"
)

// fakeReliability is a ReliabilityStore: it records the requests it was
// asked and returns the rows it was given.
type fakeReliability struct {
	err  error
	rows []portstats.Reliability
	reqs recorder[ReliabilityRequest]
}

func (f *fakeReliability) DestinationReliability(_ context.Context, r ReliabilityRequest) ([]portstats.Reliability, error) {
	f.reqs.add(r)
	return f.rows, f.err
}

// reliabilityOf is the GET /destination-reliability handler on the store,
// uncached.
func reliabilityOf(t *testing.T, s ReliabilityStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { reliabilityRoutes(r, s, nil, fixedNow) })
}

func TestReliabilityParams(t *testing.T) {
	t.Parallel()
	store := &fakeReliability{}
	expectErrors(t, reliabilityOf(t, store).get("/destination-reliability"), "/v1/destination-reliability", map[string]errCase{
		"vessel=123":                   {400, "vessel must be a 7-digit IMO number"},
		"vessel=abcdefg":               {400, "vessel must be a 7-digit IMO number"},
		"vessel=9321484":               {400, "vessel is not an IMO number (its check digit fails)"},
		"tier=great":                   {400, "tier must be one of reliable, moderate, unreliable"},
		"limit=-1":                     {400, "limit must be a positive integer (at most"},
		"vessel=9321483":               {404, "no destination reliability for vessel 9321483"},
		"vessel=9321483&tier=moderate": {404, "no destination reliability for vessel 9321483 in tier moderate"},
	})
	// Only the two 404s were asked of the store.
	if n := store.reqs.count(); n != 2 {
		t.Errorf("%d store calls, want 2", n)
	}
}

func TestReliabilityBody(t *testing.T) {
	t.Parallel()
	last := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	store := &fakeReliability{rows: []portstats.Reliability{
		{IMO: 9321483, Name: "EVER GIVEN", Flag: "PA", ShipType: 70, Category: "cargo", Calls: 12, Declared: 11, Matched: 10, Share: 10.0 / 12, Tier: "reliable", LastCall: last},
		{IMO: 1234567, ShipType: 84, Calls: 3, Share: 0, Tier: "unreliable", LastCall: last},
		{IMO: 7654321, Calls: 1, Tier: "unreliable", LastCall: last},
	}}
	h := reliabilityOf(t, store).get("/destination-reliability")
	status, body, _ := serve(t, overwatch.PlanStarter, h, "/v1/destination-reliability?tier=reliable&vessel=9321483&limit=500")
	want := `{"reliability":[{"imo":"9321483","name":"EVER GIVEN","flag":"PA","vessel_type":"cargo","calls":12,"declared":11,"matched":10,"share":0.833,"tier":"reliable","last_call":"2026-03-01T08:00:00Z"},` +
		`{"imo":"1234567","name":null,"flag":null,"vessel_type":"tanker","calls":3,"declared":0,"matched":0,"share":0,"tier":"unreliable","last_call":"2026-03-01T08:00:00Z"},` +
		`{"imo":"7654321","name":null,"flag":null,"vessel_type":null,"calls":1,"declared":0,"matched":0,"share":0,"tier":"unreliable","last_call":"2026-03-01T08:00:00Z"}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r, want := store.reqs.last(t), (ReliabilityRequest{IMO: 9321483, Tier: "reliable", Since: testNow.AddDate(0, 0, -90), Limit: 100}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanPro, h, "/v1/destination-reliability")
	if r, want := store.reqs.last(t), (ReliabilityRequest{Limit: 100}); r != want {
		t.Errorf("Pro request %+v, want %+v", r, want)
	}
}
