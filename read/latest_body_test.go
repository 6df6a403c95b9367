package read

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"overwatch"
)

// referenceLatest is the body as encoding/json writes LatestPosition, the
// encoding the lookup answered with before its body was appended by hand.
func referenceLatest(row overwatch.LatestRow, imo string, pub Publisher, now time.Time) ([]byte, error) {
	ts := row.TS.UTC().Format(time.RFC3339)
	fresh := int64(math.Max(0, math.Floor(now.Sub(row.TS).Seconds())))
	var source *string
	if row.Source != overwatch.SourceNone {
		s := string(row.Source)
		source = &s
	}
	return json.Marshal(LatestPosition{
		Context: "https://schema.org", Type: "GeoCoordinates", IMONumber: imo,
		VesselName: row.VesselName, VesselType: row.VesselType, Flag: row.Flag,
		Latitude: *row.Lat, Longitude: *row.Lon, SpeedKt: row.SpeedKt, CourseDeg: row.CourseDeg, DraftM: row.DraftM,
		Destination: row.Destination, NavStatus: row.NavStatus, Timestamp: ts, Source: source, FreshnessSeconds: &fresh,
		Attribution: Attribution{
			Name: pub.Name, URL: pub.URL, License: License,
			CiteAs: fmt.Sprintf("%s. AIS position of IMO %s reported at %s. %s. Licensed %s.", pub.Name, imo, ts, pub.URL, License),
		},
	})
}

// TestLatestBodyAsEncodingJSON: the appended body is byte for byte what
// encoding/json writes, for plain rows, rows without optional fields, and
// text and numbers that encoding/json escapes or writes in exponent form.
func TestLatestBodyAsEncodingJSON(t *testing.T) {
	now := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	full := overwatch.LatestRow{
		IMO: 9321483, Source: overwatch.SourceSpire, TS: now.Add(-90 * time.Second), MMSI: 538001234,
		VesselName: str("OCEAN TRADER"), VesselType: str("Bulk Carrier"), Flag: str("MH"),
		Lat: num(52.0), Lon: num(4.2), SpeedKt: num(11.3), CourseDeg: num(84.5), DraftM: num(12.1),
		Destination: str("CNQDG"), NavStatus: str("Under way using engine"),
	}
	bare := overwatch.LatestRow{IMO: 9321483, TS: now.Add(-time.Hour).In(time.FixedZone("X", 3600)), Lat: num(-33.9), Lon: num(18.4)}
	odd := full
	odd.VesselName = str(`"ÅLESUND" <&> \ ` + "\x01\t\u2028 \xff end")
	odd.Destination = str("")
	odd.Lat, odd.Lon = num(-0.0000001), num(1e-7)
	odd.SpeedKt, odd.CourseDeg, odd.DraftM = num(1e21), num(123456789012345678901.0), num(0)
	odd.TS = now.Add(30 * time.Second) // reported after now: freshness 0
	odd.Source = overwatch.SourceAISHub
	pubs := []Publisher{
		{Name: "Overwatch", URL: "http://localhost:8080"},
		{Name: `Över "watch" <&>`, URL: "https://example.org/a?b=c&d=e"},
	}
	for _, pub := range pubs {
		lb := newLatestBody(pub)
		for i, row := range []overwatch.LatestRow{full, bare, odd} {
			want, err := referenceLatest(row, "9321483", pub, now)
			if err != nil {
				t.Fatal(err)
			}
			got, err := lb.appendLatest([]byte("kept:"), &row, "9321483", now)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "kept:"+string(want) {
				t.Errorf("publisher %q, row %d:\n got %s\nwant kept:%s", pub.Name, i, got, want)
			}
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1)} {
		row := full
		row.SpeedKt = num(f)
		if _, err := referenceLatest(row, "9321483", pubs[0], now); err == nil {
			t.Fatal("encoding/json took a number JSON cannot hold")
		}
		if _, err := newLatestBody(pubs[0]).appendLatest(nil, &row, "9321483", now); err == nil {
			t.Errorf("%v: encoded", f)
		}
	}
}

// TestLatestBodyFloats: every float64 form encoding/json distinguishes.
func TestLatestBodyFloats(t *testing.T) {
	for _, f := range []float64{0, -0.0, 1, -1, 0.1, 52.123456789, -179.99999, 1e-6, 9.99999e-7, 1e-7, 1.5e-300,
		1e20, 1e21, -1e21, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 12.3} {
		want, _ := json.Marshal(f)
		if got := appendJSONFloat(nil, f); string(got) != string(want) {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
}
