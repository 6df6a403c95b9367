package history

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"overwatch/write/ingest"
)

// TestGenericCSV checks rows of the generic CSVs: the Norwegian semicolon
// export (lon before lat, a bare IMO, length only), the BarentsWatch API
// dump ("None"), Stone Soup (milliseconds, COG 360).
func TestGenericCSV(t *testing.T) {
	t.Parallel()
	// mmsi;imo_nr;length;date_time_utc;lon;lat;sog;cog;true_heading;nav_status;message_nr
	// 209318000;9754446;131;2022-09-01 12:55:35;5.32934;59.3159;12.1;355.7;355;0;1
	reps, _ := readAll(t, sample("simula_damast_kystverket_style_semicolon.csv"), Auto)
	at := ts(t, "2022-09-01T12:55:35Z")
	want := []ingest.Report{
		{Source: "test", MMSI: 209318000, Type: 5, TS: at, ReceivedAt: at, Has: ingest.HasIMO | ingest.HasDimensions,
			IMO: 9754446, ToBow: 131},
		{Source: "test", MMSI: 209318000, Type: 1, TS: at, ReceivedAt: at,
			Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasHeading | ingest.HasNavStatus,
			Lat: 59.3159, Lon: 5.32934, SOG: 12.1, COG: 355.7, Heading: 355},
	}
	if got := find(reps, 209318000); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("209318000:\n got %+v\nwant %+v", got, want)
	}
	// 230666000 reports ten times: one static report.
	if got := find(reps, 230666000); len(got) != 10 || got[0].Type != 5 || got[1].Type != 1 || got[9].Type != 1 {
		t.Errorf("230666000: %+v", got)
	}

	// courseOverGround,latitude,longitude,name,rateOfTurn,shipType,speedOverGround,trueHeading,navigationalStatus,mmsi,msgtime,stream
	// None,70.981065,25.970162,SARNES 3,None,60,0,None,0,257027430,2026-06-30T05:49:19+00:00,terra
	reps, _ = readAll(t, sample("simula_damast_barentswatch_api.csv"), CSV)
	if len(reps) != 4 || reps[0].Name != "SARNES 3" || reps[0].ShipType != 60 ||
		reps[1].Has != ingest.HasPosition|ingest.HasSOG|ingest.HasNavStatus || reps[1].Lat != 70.981065 {
		t.Errorf("api dump: %+v", reps)
	}

	// Time,MMSI,Latitude_degrees,Longitude_degrees,COG_degrees,SOG_knots
	// 2016-01-12 13:02:11.327,235031618,50.7345,-1.213,221,0.2
	reps, _ = readAll(t, sample("stonesoup_solent_ais_20160112_130211.csv.gz"), Auto)
	at = ts(t, "2016-01-12T13:02:11Z")
	w := ingest.Report{Source: "test", MMSI: 235031618, Type: 1, TS: at, ReceivedAt: at,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG, Lat: 50.7345, Lon: -1.213, SOG: 0.2, COG: 221}
	if reps[2] != w {
		t.Errorf("third\n got %+v\nwant %+v", reps[2], w)
	}
	// The gzipped copy holds the published bytes.
	if sum := fmt.Sprintf("%x", sha256.Sum256(readSample(t, "stonesoup_solent_ais_20160112_130211.csv.gz"))); sum != "53adaa090db13bd5b0867daf3459e3d96faf5c87ce429f3b4072c7444b5e88d1" {
		t.Errorf("sha256 %s", sum)
	}
}

// TestGenericOddities: tabs, unix times, a class column, null words.
func TestGenericOddities(t *testing.T) {
	t.Parallel()
	in := "MMSI\tTimestamp\tLatitude\tLongitude\tSOG\tClass\tName\tIMO\n" +
		"257000001\t1325394060\t60.1\t5.2\tNaN\tB\tSMALL ONE\tnull\n" +
		"257000002\tsoon\t60.1\t5.2\t1\tA\t\t\n" +
		"257000003\t01/06/2018 00:00:00\tNone\tNone\t1\tA\tBIG ONE\t9221322\n"
	r, err := NewReader(strings.NewReader(in), "tabs.tsv", Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	checkReports(t, reps)
	s := r.Stats()
	if r.Format() != CSV || len(reps) != 3 || reps[0].Type != 24 || reps[1].Type != 18 || reps[1].Has != ingest.HasPosition ||
		reps[2].Type != 5 || reps[2].IMO != 9221322 || reps[2].TS != ts(t, "2018-06-01T00:00:00Z") {
		t.Fatalf("reports %+v", reps)
	}
	if s.Skipped[SkipBadTime] != 1 || s.Quirks[QuirkPositionUnavailableStaticKept] != 1 || s.Quirks[QuirkClassB] != 1 {
		t.Errorf("stats %v: skipped %v quirks %v", s, s.Skipped, s.Quirks)
	}
}
