package risk

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/vessel"
	"overwatch/testclock"
)

// An identity change is placed at the vessel's fix nearest in time to it,
// within IdentityFixWindow; with none that near (or no track) it has no
// position, never 0,0.
func TestPlaceIdentityChanges(t *testing.T) {
	t0 := testclock.Today().Add(-10 * 24 * time.Hour)
	rows := []vessel.Identity{
		{IMO: 9321483, ValidFrom: t0, MMSI: 636012345, Name: "OCEAN STAR", Flag: "LR"},
		{IMO: 9321483, ValidFrom: t0.Add(24 * time.Hour), MMSI: 636012345, Name: "OCEAN STAR", Flag: "PA"}, // near a fix
		{IMO: 9321483, ValidFrom: t0.Add(72 * time.Hour), MMSI: 636012345, Name: "SEA STAR", Flag: "PA"},   // in a silence
		{IMO: 9321483, ValidFrom: t0.Add(120 * time.Hour), MMSI: 352001234, Name: "SEA STAR", Flag: "PA"},  // after the track
	}
	track := []vessel.TrackPoint{
		{TS: t0.Add(23 * time.Hour), Lat: 12.5, Lon: 55.25, SOG: 11, Draft: 14},
		{TS: t0.Add(24*time.Hour + 20*time.Minute), Lat: 12.6, Lon: 55.4, SOG: 11, Draft: 14},
		{TS: t0.Add(25 * time.Hour), Lat: math.NaN(), Lon: 55.5, SOG: 11, Draft: 14}, // not on Earth: ignored
		{TS: t0.Add(70 * time.Hour), Lat: 13, Lon: 57, SOG: 11, Draft: 14},
		{TS: t0.Add(74*time.Hour + 30*time.Minute), Lat: 13.5, Lon: 58, SOG: 11, Draft: 14},
		{TS: t0.Add(100 * time.Hour), Lat: 14, Lon: 59, SOG: 11, Draft: 14},
	}
	events := IdentityChanges(rows)
	if len(events) != 3 {
		t.Fatalf("%d changes, want 3: %+v", len(events), events)
	}
	for _, e := range events {
		if e.HasPosition || e.HasEndPosition {
			t.Errorf("%s change placed before its track was read: %+v", e.Subtype, e)
		}
	}
	PlaceIdentityChanges(events, 9321483, track)
	want := map[string][]float64{IdentityFlag: {12.6, 55.4}, IdentityName: nil, IdentityMMSI: nil}
	for _, e := range events {
		w := want[e.Subtype]
		switch {
		case w == nil && (e.HasPosition || e.HasEndPosition):
			t.Errorf("%s change at %s placed at %v,%v with no fix within %s", e.Subtype, e.Start, e.Lat, e.Lon, IdentityFixWindow)
		case w != nil && !(e.HasPosition && e.HasEndPosition && e.Lat == w[0] && e.Lon == w[1] && e.EndLat == w[0] && e.EndLon == w[1]):
			t.Errorf("%s change placed at %+v, want the nearest fix %v", e.Subtype, e, w)
		}
	}
	// Another vessel's track places nothing.
	other := IdentityChanges(rows)
	PlaceIdentityChanges(other, 9074729, track)
	for _, e := range other {
		if e.HasPosition {
			t.Errorf("placed from another vessel's track: %+v", e)
		}
	}
}
