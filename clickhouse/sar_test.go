package clickhouse_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch/clickhouse/chtest"
	"overwatch/maritime/sar"
	"overwatch/read"
)

// sarProduct is a synthetic product: a 250 x 170 km IW-like footprint
// centred on (lat, lng).
func sarProduct(name string, rel int, start time.Time, lat, lng float64) sar.Product {
	return sar.Product{Name: name, Type: "GRD_HD", Platform: "S1A", Mode: "IW", Start: start, Stop: start.Add(25 * time.Second),
		AbsoluteOrbit: 1000 + rel, RelativeOrbit: rel, Direction: "ASCENDING", SizeMB: 1650.5, Source: "asf",
		Footprint: sar.Polygon{{Lon: lng - 1.5, Lat: lat - 0.8}, {Lon: lng + 1.5, Lat: lat - 0.8}, {Lon: lng + 1.5, Lat: lat + 0.8},
			{Lon: lng - 1.5, Lat: lat + 0.8}, {Lon: lng - 1.5, Lat: lat - 0.8}}}
}

// The catalogue cache against the real server: products round-trip with
// their footprints, a refetch replaces a product (FINAL), the box filter
// and the time order hold, and the area records answer SARAreaFetched.
func TestSARStore(t *testing.T) {
	db := chtest.DB(t, "sar_store")
	ctx := context.Background()
	day := time.Date(2025, 3, 1, 6, 0, 0, 0, time.UTC)
	rows := []sar.Product{sarProduct("A", 10, day, 50, 0), sarProduct("B", 11, day.Add(48*time.Hour), 50.5, 0.5),
		sarProduct("FAR", 12, day, -30, 100)}
	if err := db.InsertSARProducts(ctx, rows); err != nil {
		t.Fatal(err)
	}
	again := sarProduct("A", 10, day, 50, 0)
	again.SizeMB = 1700
	if err := db.InsertSARProducts(ctx, []sar.Product{again, {Name: "NO FOOTPRINT", Start: day}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.SARProducts(ctx, read.SARQuery{MinLat: 49, MaxLat: 52, MinLon: -1, MaxLon: 2, At: day.Add(47 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "B" || got[1].Name != "A" || got[1].SizeMB != 1700 || len(got[1].Footprint) != 5 ||
		got[1].Footprint[2] != (sar.LonLat{Lon: 1.5, Lat: 50.8}) || !got[1].Start.Equal(day) || got[1].RelativeOrbit != 10 ||
		got[1].AbsoluteOrbit != 1010 || got[1].Direction != "ASCENDING" || got[1].Source != "asf" {
		t.Fatalf("%+v", got)
	}
	if n, err := db.SARRows(ctx); err != nil || n < 3 {
		t.Fatalf("%d rows, %v", n, err)
	}
	if _, ok, err := db.SARAreaFetched(ctx, "49,52,-1,2", day, "asf"); err != nil || ok {
		t.Fatalf("%v %v", ok, err)
	}
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, when := range []time.Time{at.Add(-time.Hour), at} {
		if err := db.RecordSARArea(ctx, "49,52,-1,2", day, "asf", 2, when); err != nil {
			t.Fatal(err)
		}
	}
	if got, ok, err := db.SARAreaFetched(ctx, "49,52,-1,2", day, "asf"); err != nil || !ok || !got.Equal(at) {
		t.Fatalf("%v %v %v", got, ok, err)
	}
	if _, ok, _ := db.SARAreaFetched(ctx, "49,52,-1,2", day, "cdse"); ok {
		t.Fatal("another catalogue's record")
	}
}

type fetchedCatalogue struct{ at time.Time }

func (c fetchedCatalogue) EnsureSAR(context.Context, sar.Area) read.SARStatus {
	return read.SARStatus{Catalogue: "asf", Status: "fetched", FetchedAt: c.at}
}

// BenchmarkSARCoverage times GET /v1/sar-coverage's handler over the real
// server on a busy area (2,000 products: 40 relative orbits over 50
// cycles), answered from the read cache and, for contrast, with no cache.
func BenchmarkSARCoverage(b *testing.B) {
	db := chtest.DB(b, "sar_bench")
	ctx := context.Background()
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	var rows []sar.Product
	for rel := 1; rel <= 40; rel++ {
		for k := 0; k < 50; k++ {
			t := start.Add(time.Duration(k)*sar.Cycle + time.Duration(rel)*sar.Cycle/175)
			rows = append(rows, sarProduct(fmt.Sprintf("P%03d_%02d", rel, k), rel, t, 29+float64(rel%5)*0.2, -89.5+float64(rel%7)*0.2))
		}
	}
	if err := db.InsertSARProducts(ctx, rows); err != nil {
		b.Fatal(err)
	}
	for _, cached := range []bool{true, false} {
		var c *read.Cache
		if cached {
			c = read.NewCache(db, read.CacheOptions{})
		}
		q := read.Cached(c, "sar_products", []string{"sar_products"}, db.SARProducts)
		app := fiber.New()
		app.Get("/sar-coverage", read.SARCoverage(read.SARAnswers(q, c), fetchedCatalogue{at: start}, time.Now))
		name := map[bool]string{true: "cached", false: "uncached"}[cached]
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest("GET", "/sar-coverage?lat=29.95&lng=-90.07&date=2024-06-01T12:00:00Z&radius=100", nil)
				resp, err := app.Test(req, -1)
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != 200 {
					b.Fatalf("%d %s", resp.StatusCode, body)
				}
			}
		})
	}
}
