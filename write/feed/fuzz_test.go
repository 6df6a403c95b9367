package feed

import (
	"testing"
	"time"

	"overwatch"
	"overwatch/write/ingest"
)

func FuzzParseAISStream(f *testing.F) {
	now := time.Unix(1700000000, 0)
	for _, r := range []ingest.Report{
		{MMSI: 366999999, Type: 1, TS: now, Has: ingest.HasPosition | ingest.HasSOG, Lat: 1, Lon: 2, SOG: 3},
		{MMSI: 366999999, Type: 5, TS: now, Has: ingest.HasIMO | ingest.HasName | ingest.HasETA, IMO: 9321483, Name: "X", ETA: now},
		{MMSI: 366999999, Type: 24, Part: 1, TS: now, Has: ingest.HasCallSign, CallSign: "AB"},
		{MMSI: 366999999, Type: 27, TS: now, Has: ingest.HasPosition, Lat: 1, Lon: 2},
	} {
		f.Add(aisstreamJSON(r))
	}
	f.Add([]byte(`{"MessageType":"PositionReport","Message":{"PositionReport":{"Latitude":"x"}}}`))
	f.Add([]byte(`{"MessageType":"PositionReport","Message":{}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		reports, err := ParseAISStream(data, overwatch.SourceAISStream, now)
		if err != nil {
			return
		}
		for _, r := range reports {
			checkReport(t, r)
		}
	})
}

func FuzzParseAISHub(f *testing.F) {
	now := time.Unix(1700000000, 0)
	f.Add([]byte(`[{"ERROR":false,"RECORDS":1},[{"MMSI":366999999,"TIME":"2024-03-01 10:15:02 GMT","LONGITUDE":-74.0,"LATITUDE":40.7,"COG":12.5,"SOG":3.2,"HEADING":11,"NAVSTAT":0,"IMO":9321483,"NAME":"X","CALLSIGN":"Y","TYPE":70,"A":100,"B":20,"C":10,"D":10,"DRAUGHT":9.1,"DEST":"NYC","ETA":"03-02 10:00"}]]`), 1)
	f.Add([]byte(`[{"ERROR":false},[{"MMSI":"366999999","LONGITUDE":"-44400000","LATITUDE":"24420000","ETA":612000}]]`), 0)
	f.Add([]byte(`[{"ERROR":true,"ERROR_MESSAGE":"Too frequent requests!"}]`), 0)
	f.Add([]byte(`{}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, format int) {
		reports, records, invalid, err := ParseAISHub(data, format&1, overwatch.SourceAISHub, now)
		if err != nil {
			return
		}
		if invalid > records {
			t.Fatalf("%d invalid of %d records", invalid, records)
		}
		for _, r := range reports {
			checkReport(t, r)
		}
	})
}

// checkReport holds every report to what the pipeline relies on.
func checkReport(t *testing.T, r ingest.Report) {
	t.Helper()
	if r.MMSI == 0 || r.Has == 0 {
		t.Fatalf("empty report %+v", r)
	}
	if r.Has&ingest.HasPosition != 0 && (r.Lat < -90 || r.Lat > 90 || r.Lon < -180 || r.Lon > 180 || r.Lat != r.Lat || r.Lon != r.Lon) {
		t.Fatalf("position out of range %+v", r)
	}
	if r.Has&ingest.HasSOG != 0 && !(r.SOG >= 0 && r.SOG < 103) {
		t.Fatalf("SOG out of range %+v", r)
	}
	if r.Has&ingest.HasCOG != 0 && !(r.COG >= 0 && r.COG < 360) {
		t.Fatalf("COG out of range %+v", r)
	}
	if r.Has&ingest.HasHeading != 0 && r.Heading >= 360 {
		t.Fatalf("heading out of range %+v", r)
	}
	if r.Has&ingest.HasNavStatus != 0 && r.NavStatus > 14 {
		t.Fatalf("status out of range %+v", r)
	}
}
