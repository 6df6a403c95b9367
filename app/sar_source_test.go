package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	sarsource "overwatch/sources/sar"
	"overwatch/sources/sourcetest"
	"strings"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/maritime/sar"
	"overwatch/read"
)

// The catalogue client against the real ClickHouse: a failed fetch (an
// HTML page, a truncated body, a 500) keeps the cache and is counted, an
// area is fetched again only once FreshFor has passed (and never for a
// day whose window closed before the fetch).
func TestSARCatalogueFailuresKeepCache(t *testing.T) {
	db := chtest.DB(t, "sar_source")
	body, err := os.ReadFile("../sources/sar/samples/asf_searchapi_Fairbanks_SLC_jsonlite.json")
	if err != nil {
		t.Fatal(err)
	}
	cat := &sourcetest.Catalogue{Body: body}
	srv := httptest.NewServer(cat)
	defer srv.Close()
	now := time.Date(2021, 1, 3, 12, 0, 0, 0, time.UTC)
	c := sarsource.NewCatalogue(db, sarsource.Config{URL: srv.URL, Catalogue: "asf", MinInterval: time.Millisecond, FreshFor: time.Hour,
		Now: func() time.Time { return now }}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()
	area := sar.AreaAround(64.8378, -147.7164, 50, time.Date(2021, 1, 2, 0, 0, 0, 0, time.UTC))
	count := func() int {
		products, err := db.SARProducts(ctx, read.SARQuery{MinLat: area.MinLat, MaxLat: area.MaxLat, MinLon: area.MinLon, MaxLon: area.MaxLon, At: area.Day})
		if err != nil {
			t.Fatal(err)
		}
		return len(products)
	}
	if st := c.EnsureSAR(ctx, area); st.Status != "fetched" || st.FetchedAt.IsZero() || count() != 1 {
		t.Fatalf("%+v, %d products", st, count())
	}
	for _, mode := range []string{"html", "truncated", "500"} {
		cat.Set(mode)
		now = now.Add(2 * time.Hour) // stale: fetched again
		st := c.EnsureSAR(ctx, area)
		if st.Status != "cached" || st.FetchedAt.IsZero() || count() != 1 {
			t.Errorf("%s: %+v, %d products", mode, st, count())
		}
		// Within a minute of the failure: not asked again.
		n := len(cat.Asked())
		if st := c.EnsureSAR(ctx, area); st.Status != "cached" || len(cat.Asked()) != n {
			t.Errorf("%s: asked again within a minute (%+v)", mode, st)
		}
	}
	// A new client (another process) reads the cache state from the
	// store: an answer fetched after the window closed stands for good.
	cat.Set("")
	c2 := sarsource.NewCatalogue(db, sarsource.Config{URL: srv.URL, Catalogue: "asf", MinInterval: time.Millisecond, FreshFor: time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	n := len(cat.Asked())
	if st := c2.EnsureSAR(ctx, area); st.Status != "fetched" || len(cat.Asked()) != n+1 {
		t.Fatalf("%+v, %d queries", st, len(cat.Asked()))
	}
	c3 := sarsource.NewCatalogue(db, sarsource.Config{URL: srv.URL, Catalogue: "asf", MinInterval: time.Millisecond, FreshFor: time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if st := c3.EnsureSAR(ctx, area); st.Status != "fetched" || len(cat.Asked()) != n+1 {
		t.Fatalf("%+v, %d queries", st, len(cat.Asked()))
	}
}

// The CDSE catalogue: the OData query, the real page read (its two
// Sentinel-2 products skipped) and its next page followed on the same
// host only.
func TestSARCatalogueCDSE(t *testing.T) {
	db := chtest.DB(t, "sar_cdse")
	page, err := os.ReadFile("../sources/sar/testdata/cdse_odata_products_search_s2_2results_nextlink.json")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.RawQuery)
		// The real page, its nextLink pointed at this server once.
		b := page
		if len(paths) == 1 {
			b = bytes.ReplaceAll(page, []byte("https://catalogue.dataspace.copernicus.eu"), []byte(srv.URL))
		}
		w.Write(b)
	}))
	defer srv.Close()
	c := sarsource.NewCatalogue(db, sarsource.Config{URL: srv.URL + "/odata/v1/Products", Catalogue: "cdse", MinInterval: time.Millisecond, FreshFor: time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	area := sar.AreaAround(45.5, 3.4, 50, time.Date(2021, 8, 9, 0, 0, 0, 0, time.UTC))
	if st := c.EnsureSAR(context.Background(), area); st.Status != "fetched" {
		t.Fatalf("%+v", st)
	}
	if len(paths) != 2 || !strings.Contains(paths[0], "Collection%2FName+eq+%27SENTINEL-1%27") ||
		!strings.Contains(paths[0], "OData.CSC.Intersects%28area%3Dgeography%27SRID%3D4326%3BPOLYGON%28%282+45%2C") ||
		!strings.Contains(paths[0], "ContentDate%2FStart+gt+2021-08-03T00%3A00%3A00Z") || !strings.Contains(paths[1], "%24skip=2") {
		t.Fatalf("%q", paths)
	}
}

// The bundled samples load into an empty cache (only then) and answer:
// the STAC item's product in France, the KML's products worldwide.
func TestLoadSARSamples(t *testing.T) {
	db := chtest.DB(t, "sar_samples")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()
	sarsource.LoadSamples(ctx, db, log)
	n, err := db.SARRows(ctx)
	if err != nil || n < 100 {
		t.Fatalf("%d rows, %v", n, err)
	}
	sarsource.LoadSamples(ctx, db, log)
	if m, _ := db.SARRows(ctx); m != n {
		t.Fatalf("loaded twice: %d then %d rows", n, m)
	}
	at := time.Date(2021, 8, 9, 12, 0, 0, 0, time.UTC)
	area := sar.AreaAround(45.49, 3.37, 50, at)
	products, err := db.SARProducts(ctx, read.SARQuery{MinLat: area.MinLat, MaxLat: area.MaxLat, MinLon: area.MinLon, MaxLon: area.MaxLon, At: at})
	if err != nil {
		t.Fatal(err)
	}
	cov := sar.CoverageAt(products, 45.49, 3.37, 50, at)
	if len(cov.Products) != 1 || cov.Products[0].Source != "sample:stac" || cov.Products[0].RelativeOrbit != 59 ||
		len(cov.Products[0].Footprint) != 5 || cov.Potential != sar.High {
		t.Fatalf("%+v", cov)
	}
}

func TestSARConfig(t *testing.T) {
	cfg, err := LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SAR != (sarConfig{URL: "https://api.daac.asf.alaska.edu/services/search/param", Catalogue: "asf", MinInterval: time.Second, FreshFor: time.Hour}) {
		t.Errorf("defaults: %+v", cfg.SAR)
	}
	env := map[string]string{"OVERWATCH_SAR_URL": "off", "OVERWATCH_SAR_CATALOGUE": "stac", "OVERWATCH_SAR_MIN_INTERVAL": "0s", "OVERWATCH_SAR_FRESH": "soon"}
	cfg, err = LoadConfig(func(k string) string { return env[k] })
	for _, name := range []string{"OVERWATCH_SAR_CATALOGUE", "OVERWATCH_SAR_MIN_INTERVAL", "OVERWATCH_SAR_FRESH"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v does not name %s", err, name)
		}
	}
	if cfg.SAR.URL != "" || newSARCatalogue(nil, cfg.SAR, nil, nil, nil) != nil {
		t.Errorf("off: %+v", cfg.SAR)
	}
}
