package ingest

import (
	"testing"
	"time"

	"overwatch"
)

// lastVessel returns the newest registry row written for the IMO.
func lastVessel(t *testing.T, store *memStore, imo overwatch.IMO) VesselRow {
	t.Helper()
	var out VesselRow
	found := false
	for _, b := range store.snapshot() {
		for _, v := range b.Vessels {
			if v.IMO == imo {
				out, found = v, true
			}
		}
	}
	if !found {
		t.Fatalf("no registry row for %v", imo)
	}
	return out
}

// TestStaticOrderByReportTime: a vessel's data is its newest static
// report's by report time, whatever the order of arrival (captures and
// archives arrive out of order, an archive is imported after live data);
// an older report only fills in what is still unknown.
func TestStaticOrderByReportTime(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, _ := attributionPipeline(t, store)
	const mmsi = 244000001
	imo := validIMO(931234)
	newer := static5(mmsi, imo, "NEW NAME", t0.Add(time.Hour))
	newer.Destination, newer.CallSign, newer.Has = "ROTTERDAM", "", newer.Has&^HasCallSign|HasDestination
	older := static5(mmsi, imo, "OLD NAME", t0)
	older.Destination, older.CallSign, older.Has = "HAMBURG", "PDAB", older.Has|HasDestination|HasCallSign
	submit(t, p, newer, older)
	flush(t, p)
	v := lastVessel(t, store, imo)
	if v.Name != "NEW NAME" || v.Destination != "ROTTERDAM" || v.CallSign != "PDAB" || !v.StaticAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("registry row %+v: want the newer name and destination, the older call sign", v)
	}
	// A registry loaded from the store remembers the time.
	store2 := newMemStore(v)
	p2, _ := attributionPipeline(t, store2)
	older.Name = "OLDER STILL"
	latest := static5(mmsi, imo, "NEWEST", t0.Add(2*time.Hour))
	submit(t, p2, older)
	flush(t, p2)
	for _, b := range store2.snapshot() {
		for _, r := range b.Vessels {
			if r.Name != "NEW NAME" {
				t.Errorf("an older report renamed the loaded vessel: %+v", r)
			}
		}
	}
	submit(t, p2, latest)
	flush(t, p2)
	if v := lastVessel(t, store2, imo); v.Name != "NEWEST" {
		t.Errorf("a newer report did not rename the vessel: %+v", v)
	}
}
