package read

import (
	"testing"
	"time"

	"overwatch"
)

func TestReliabilityParams(t *testing.T) {
	expectErrors(t, DestinationReliability(&fakeAnalytics{}, fixedNow), "/v1/destination-reliability", map[string]errCase{
		"vessel=123":                   {400, "vessel must be a 7-digit IMO number"},
		"vessel=abcdefg":               {400, "vessel must be a 7-digit IMO number"},
		"tier=great":                   {400, "tier must be one of reliable, moderate, unreliable"},
		"limit=-1":                     {400, "limit must be a positive integer"},
		"vessel=9321483":               {404, "no destination reliability for vessel 9321483"},
		"vessel=9321483&tier=moderate": {404, "no destination reliability for vessel 9321483 in tier moderate"},
	})
}

func TestReliabilityBody(t *testing.T) {
	last := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	store := &fakeAnalytics{reliability: []ReliabilityRow{
		{IMO: 9321483, Name: "EVER GIVEN", Flag: "PA", ShipType: 70, Category: "cargo", Calls: 12, Declared: 11, Matched: 10, Share: 10.0 / 12, Tier: "reliable", LastCall: last},
		{IMO: 1234567, ShipType: 84, Calls: 3, Share: 0, Tier: "unreliable", LastCall: last},
		{IMO: 7654321, Calls: 1, Tier: "unreliable", LastCall: last},
	}}
	status, body, _ := serve(t, overwatch.PlanStarter, DestinationReliability(store, fixedNow), "/v1/destination-reliability?tier=reliable&vessel=9321483&limit=1000")
	want := `{"reliability":[{"imo":"9321483","name":"EVER GIVEN","flag":"PA","vessel_type":"cargo","calls":12,"declared":11,"matched":10,"share":0.833,"tier":"reliable","last_call":"2026-03-01T08:00:00Z"},` +
		`{"imo":"1234567","name":null,"flag":null,"vessel_type":"tanker","calls":3,"declared":0,"matched":0,"share":0,"tier":"unreliable","last_call":"2026-03-01T08:00:00Z"},` +
		`{"imo":"7654321","name":null,"flag":null,"vessel_type":null,"calls":1,"declared":0,"matched":0,"share":0,"tier":"unreliable","last_call":"2026-03-01T08:00:00Z"}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if f := store.relFilter; f.IMO != 9321483 || f.Tier != "reliable" || f.Limit != 100 || !f.Since.Equal(testNow.AddDate(0, 0, -90)) {
		t.Errorf("filter %+v", f)
	}
	serve(t, overwatch.PlanPro, DestinationReliability(store, fixedNow), "/v1/destination-reliability")
	if f := store.relFilter; f.IMO != 0 || f.Tier != "" || f.Limit != 100 || !f.Since.IsZero() {
		t.Errorf("Pro filter %+v", f)
	}
}
