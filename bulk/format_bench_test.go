package bulk

import (
	"io"
	"testing"
)

// benchmarkFormat writes b.N positions rows in the format to io.Discard:
// the writers' own cost per row, without the store (make bench-exports
// measures the whole export against clickhouse-client).
func benchmarkFormat(b *testing.B, f Format) {
	vals := scanDest(Positions)
	w, err := newRowWriter(f, Positions, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		*vals[0].(*int64) = int64(9000000 + i%4000)
		*vals[1].(*int64) = int64(244000000 + i%4000)
		*vals[2].(*int64) = int64(1764547200 + i*15)
		*vals[3].(*float64) = -60 + float64(i%1200000)/10000
		*vals[4].(*float64) = -180 + float64(i*7%3600000)/10000
		*vals[5].(*float64) = float64(i%200) / 10
		*vals[6].(*float64) = float64(i%3600) / 10
		*vals[7].(*float64) = float64(i % 360)
		*vals[9].(*string) = "aisstream"
		*vals[10].(*int64) = int64(1764547202 + i*15)
		if err := w.Write(vals); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkPositionsCSV(b *testing.B)     { benchmarkFormat(b, CSV) }
func BenchmarkPositionsCSVGzip(b *testing.B) { benchmarkFormat(b, CSVGzip) }
func BenchmarkPositionsParquet(b *testing.B) { benchmarkFormat(b, Parquet) }
func BenchmarkPositionsGeoJSON(b *testing.B) { benchmarkFormat(b, GeoJSON) }
