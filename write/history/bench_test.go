package history

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// benchRows is the size of the generated MarineCadastre file.
const benchRows = 200_000

// marineCadastreBench builds a MarineCadastre CSV of n rows from the real
// samples: their 550 rows repeated, each copy with shifted MMSIs (so that
// static reports keep coming for new vessels, as in a real day of 20,000
// MMSIs) and times a minute later.
func marineCadastreBench(tb testing.TB, n int) []byte {
	tb.Helper()
	var rows [][]byte
	var header []byte
	for _, f := range []string{"noaa_marinecadastre_2022-03-31_51rows.csv", "noaa_marinecadastre_2024-01-01_499rows.csv"} {
		b, err := os.ReadFile("testdata/" + f)
		if err != nil {
			tb.Fatal(err)
		}
		lines := bytes.Split(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"))
		header = lines[0]
		for _, l := range lines[1:] {
			if len(l) > 0 {
				rows = append(rows, l)
			}
		}
	}
	var out bytes.Buffer
	out.Write(header)
	out.WriteByte('\n')
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		row := rows[i%len(rows)]
		copyNo := i / len(rows)
		comma := bytes.IndexByte(row, ',')
		mmsi, _ := strconv.Atoi(string(row[:comma]))
		mmsi = 100_000_000 + (mmsi+copyNo%40*7919)%900_000_000
		rest := row[comma+1:]
		comma2 := bytes.IndexByte(rest, ',')
		ts := base.Add(time.Duration(copyNo) * time.Minute).Add(time.Duration(i%37) * time.Second)
		fmt.Fprintf(&out, "%d,%s%s\n", mmsi, ts.Format("2006-01-02T15:04:05"), rest[comma2:])
	}
	return out.Bytes()
}

// BenchmarkMarineCadastre reads a generated 200,000-row MarineCadastre
// file from memory and reports rows/s.
func BenchmarkMarineCadastre(b *testing.B) {
	data := marineCadastreBench(b, benchRows)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var rows uint64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), "bench.csv", Auto, "bench")
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		s := r.Stats()
		if s.Rows != benchRows || s.Kept != benchRows {
			b.Fatalf("rows %d kept %d, want %d", s.Rows, s.Kept, benchRows)
		}
		rows += s.Rows
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(rows), "allocs/row")
}
