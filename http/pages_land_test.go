package http

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"overwatch/maritime/geo"
	"overwatch/web"
)

// The land document is a GeoJSON MultiPolygon of closed rings of a
// sensible size, whose filled area agrees with the mask: sample points
// on land lie inside an odd number of its rings, points at sea an even
// number.
func TestLandGeoJSON(t *testing.T) {
	body, gz := landDoc()
	if len(body) > 3<<20 || len(gz) > 1<<20 {
		t.Fatalf("land document: %d bytes, %d gzipped: too large for a page", len(body), len(gz))
	}
	t.Logf("land document: %d bytes, %d gzipped", len(body), len(gz))
	var doc struct {
		Type     string
		Features []struct {
			Geometry struct {
				Type        string
				Coordinates [][][][2]float64
			}
		}
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Type != "FeatureCollection" || len(doc.Features) != 1 || doc.Features[0].Geometry.Type != "MultiPolygon" {
		t.Fatalf("not one MultiPolygon feature: %+v", doc.Type)
	}
	polys := doc.Features[0].Geometry.Coordinates
	if len(polys) < 500 {
		t.Fatalf("only %d polygons", len(polys))
	}
	for i, p := range polys {
		r := p[0]
		if len(r) < 4 || r[0] != r[len(r)-1] {
			t.Fatalf("polygon %d: ring of %d vertices, not closed", i, len(r))
		}
	}
	inside := func(lat, lon float64) bool {
		odd := false
		for _, p := range polys {
			r := p[0]
			for i := 0; i+1 < len(r); i++ {
				x1, y1, x2, y2 := r[i][0], r[i][1], r[i+1][0], r[i+1][1]
				if (y1 > lat) != (y2 > lat) && lon < x1+(lat-y1)*(x2-x1)/(y2-y1) {
					odd = !odd
				}
			}
		}
		return odd
	}
	// Points well away from any coast (at least 50 km), so that the
	// simplification cannot move them across it.
	agree, total := 0, 0
	for lat := -60.0; lat <= 70; lat += 7.3 {
		for lon := -175.0; lon <= 175; lon += 11.1 {
			if geo.DistanceToShoreKM(lat, lon) < 50 {
				continue
			}
			total++
			if inside(lat, lon) == geo.OnLand(lat, lon) {
				agree++
			}
		}
	}
	if total < 200 || agree != total {
		t.Fatalf("%d of %d sample points agree with the land mask", agree, total)
	}
}

// GET /map/land.geojson answers the document, gzipped when asked, with the
// pages' content security policy; it is not shadowed by the /map/* files.
func TestLandRoute(t *testing.T) {
	app := fiber.New()
	mountLand(app)
	mountPages(app, web.Pages())
	req := httptest.NewRequest("GET", "/map/land.geojson", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/geo+json" ||
		resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Security-Policy") != pageCSP {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := landDoc(); string(got) != string(body) {
		t.Fatalf("gzipped answer differs from the document (%d bytes, want %d)", len(got), len(body))
	}
}
