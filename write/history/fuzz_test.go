package history

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// seed adds the first lines of samples to a fuzz corpus: small inputs
// keep executions fast and the minimisation of new inputs short (run
// with -fuzzminimizetime 2s all the same).
func seed(f *testing.F, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile(sample(n))
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		f.Add(bytes.Join(lines[:min(len(lines), 8)], nil))
	}
}

// fuzzRead reads data as format f and checks what must always hold: no
// panic, only FileErrors, every row accounted for, sane reports.
func fuzzRead(t *testing.T, data []byte, f Format) {
	r, err := NewReader(bytes.NewReader(data), "fuzz", f, "fuzz")
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("NewReader: %v is not a FileError", err)
		}
		return
	}
	reps, err := drain(r)
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("Next: %v is not a FileError", err)
		}
		if _, again := r.Next(); again != err {
			t.Fatalf("Next after %v: %v", err, again)
		}
	}
	s := r.Stats()
	if s.Rows != s.Kept+s.SkippedTotal() {
		t.Fatalf("rows %d != kept %d + skipped %v", s.Rows, s.Kept, s.Skipped)
	}
	if s.Reports != uint64(len(reps)) || s.Reports < s.Kept || s.Reports > 2*s.Kept {
		t.Fatalf("reports %d (returned %d) for %d kept rows", s.Reports, len(reps), s.Kept)
	}
	for q, n := range s.Quirks {
		if n > s.Kept {
			t.Fatalf("quirk %s counted %d times for %d kept rows", q, n, s.Kept)
		}
	}
	if s.Kept > 0 && (s.First.IsZero() || s.Last.Before(s.First) || s.MMSIs == 0) {
		t.Fatalf("span %v-%v, %d MMSIs", s.First, s.Last, s.MMSIs)
	}
	for i := range reps {
		if p := reportProblem(&reps[i]); p != "" {
			t.Fatalf("report %+v: %s", reps[i], p)
		}
		if reps[i].TS.Before(s.First) || reps[i].TS.After(s.Last) {
			t.Fatalf("report at %v outside %v-%v", reps[i].TS, s.First, s.Last)
		}
	}
	r.Close()
}

func FuzzReaderMarineCadastre(f *testing.F) {
	seed(f, "noaa_marinecadastre_2022-03-31_51rows.csv", "noaa_marinecadastre_2024-01-01_499rows.csv")
	f.Add([]byte("MMSI,BaseDateTime,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType,Status,Length,Width,Draft,Cargo\n" +
		"366999712,2017-01-01T00:00:00,47.5,-122.3,0.0,-196.9,511.0,\"SEA, LION\",IMO9221322,WX1,1025,0.0,208.0,32.0,9.1,70.0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, MarineCadastre)
		fuzzRead(t, data, Auto)
	})
}

func FuzzReaderDMA(f *testing.F) {
	seed(f, "dma_aisdk_constructed_2018_22col.csv", "dma_aisdk_constructed_2023_26col.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, DMA)
	})
}

func FuzzReaderBarentsWatch(f *testing.F) {
	seed(f, "barentswatch_kystverket_get_ais_20230220.ndjson", "barentswatch_kystverket_combined_full_20230217.ndjson")
	f.Add([]byte(`{"type":"Staticdata","messageType":5,"mmsi":257000003,"msgtime":"2023-02-20T13:13:57Z","imoNumber":0,"eta":"03212460","draught":255,"reportClass":"A"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, BarentsWatch)
	})
}

func FuzzReaderGFW(f *testing.F) {
	seed(f, "gfw_gpsdio_segment_263576000.ndjson", "gfw_gpsdio_segment_338013000.ndjson",
		"gfw_gpsdio_segment_416000000.ndjson", "gfw_gpsdio_types.ndjson")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, GFW)
	})
}

func FuzzReaderNMEA(f *testing.F) {
	seed(f, "gfw_gpsdio_types_uscg.nmea", "dma_aislib_replay_dump_20130318_pghp.nmea",
		"dma_aislib_stream_example_20100611_pghp.nmea")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, NMEA)
		fuzzRead(t, data, Auto)
	})
}

func FuzzReaderCSV(f *testing.F) {
	seed(f, "simula_damast_kystverket_style_semicolon.csv", "simula_damast_barentswatch_api.csv")
	f.Add([]byte("Time,MMSI,Latitude_degrees,Longitude_degrees,COG_degrees,SOG_knots\n" +
		"2016-01-12 13:02:11.218,235070762,50.7730133333333,-1.092935,157.8,5.9\n" +
		"2016-01-12 13:02:11.327,235013375,50.7766666666667,-1.10866666666667,360,19.8\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, CSV)
		fuzzRead(t, data, Auto)
	})
}
