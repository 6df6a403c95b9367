package e2e

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	sarsource "overwatch/sources/sar"
	"overwatch/sources/sourcetest"
	"sort"
	"strings"
	"testing"
	"time"
)

// The coverage endpoint against a local catalogue serving the real ASF
// answer: the products near Fairbanks on the granule's day, one catalogue
// request per area and day, the pass predicted 26 cycles later, a 429
// respected (the cache answers, no request made while its Retry-After
// holds), the 400s naming the parameter, cached answers under 50 ms.
func TestSARCoverageEndToEnd(t *testing.T) {
	body, err := os.ReadFile("../sources/sar/samples/asf_searchapi_Fairbanks_SLC_jsonlite.json")
	if err != nil {
		t.Fatal(err)
	}
	cat := &sourcetest.Catalogue{Body: body}
	srv := httptest.NewServer(cat)
	defer srv.Close()
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "sar_e2e"), "DATABASE_URL": pgtest.URL(t, "sar_e2e"),
		"OVERWATCH_SAR_URL": srv.URL + "/services/search/param", "OVERWATCH_SAR_MIN_INTERVAL": "10ms"})
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	get := func(query string, status int) read.SARCoverageAnswer {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: "/v1/sar-coverage?" + query, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", query, resp.StatusCode, resp.Body, status)
		}
		var a read.SARCoverageAnswer
		if status == 200 {
			apptest.MustUnmarshal(t, resp.Body, &a)
		}
		return a
	}

	// The granule's day at Fairbanks: the product, 3.34 h after midnight.
	a := get("lat=64.8378&lng=-147.7164&date=2021-01-02", 200)
	if !a.HasCoverage || len(a.Products) != 1 || a.ClosestPassHours == nil || *a.ClosestPassHours != 3.34 ||
		a.VerificationPotential != "high" || a.ClosestPass.Predicted || a.Source.Status != "fetched" || a.Source.Catalogue != "asf" ||
		a.RadiusKm != 50 || a.Note != read.SARNote {
		t.Fatalf("%+v", a)
	}
	p := a.Products[0]
	if p.Name != "S1B_IW_SLC__1SDV_20210102T032031_20210102T032058_024970_02F8C3_C081" || p.Start != "2021-01-02T03:20:31Z" ||
		p.SizeMB == nil || *p.SizeMB != 3999.4 || p.RelativeOrbit != 94 || p.DistanceKm != 0 || p.Source != "asf" {
		t.Fatalf("%+v", p)
	}
	q := cat.Asked()
	if len(q) != 1 || q[0].Get("platform") != "SENTINEL-1" || q[0].Get("output") != "jsonlite" ||
		q[0].Get("intersectsWith") != "POLYGON((-149 64,-146 64,-146 66,-149 66,-149 64))" ||
		q[0].Get("start") != "2020-12-27T00:00:00Z" || q[0].Get("end") != "2021-01-09T00:00:00Z" {
		t.Fatalf("queries %v", q)
	}
	// The same area and day (another point, time and radius in it): no
	// new request.
	a = get("lat=64.9&lng=-147.5&date=2021-01-02T20:00:00Z&radius=20", 200)
	if len(cat.Asked()) != 1 || !a.HasCoverage || a.VerificationPotential != "medium" {
		t.Fatalf("%d queries; %+v", len(cat.Asked()), a)
	}

	// 26 cycles later, while the catalogue answers 429: the cache answers
	// and the pass is predicted from the known one, within seconds of the
	// real acquisition (2021-11-10T03:20:39Z, ASF's GeoJSON sample).
	cat.Set("429")
	a = get("lat=64.8378&lng=-147.7164&date=2021-11-10T03:00:00Z", 200)
	if a.Source.Status != "cached" || a.HasCoverage || a.ClosestPass == nil || !a.ClosestPass.Predicted ||
		a.ClosestPass.Time != "2021-11-10T03:20:31Z" || a.VerificationPotential != "high" {
		t.Fatalf("%+v", a)
	}
	n := len(cat.Asked())
	// Its Retry-After (120 s) holds: another area is answered from the
	// cache without a request.
	a = get("lat=10&lng=10&date=2021-01-02", 200)
	if len(cat.Asked()) != n || a.Source.Status != "cached" || a.HasCoverage || a.ClosestPass != nil ||
		a.ClosestPassHours != nil || a.VerificationPotential != "none" || a.Products == nil {
		t.Fatalf("%d queries (want %d); %+v", len(cat.Asked()), n, a)
	}
	resp, err := http.Get(s.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`overwatch_sar_catalogue_fetches_total{result="ok"} 1`, `overwatch_sar_catalogue_fetches_total{result="failed"} 1`,
		`overwatch_sar_catalogue_fetches_total{result="rate_limited"}`} {
		if !strings.Contains(string(m), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	// 400s name the parameter.
	for query, param := range map[string]string{"lng=10": "lat", "lat=91&lng=0": "lat", "lat=0&lng=-181": "lng", "lat=0&lng=x": "lng",
		"lat=0&lng=0&radius=0": "radius", "lat=0&lng=0&radius=501": "radius", "lat=0&lng=0&radius=-3": "radius",
		"lat=0&lng=0&date=yesterday": "date", "lat=NaN&lng=0": "lat"} {
		resp := s.Do(t, apptest.Request{Path: "/v1/sar-coverage?" + query, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != 400 || !strings.Contains(string(resp.Body), param) {
			t.Errorf("%s: %d %s, want a 400 naming %s", query, resp.StatusCode, resp.Body, param)
		}
	}
	if resp := s.Do(t, apptest.Request{Path: "/v1/sar-coverage?lat=0&lng=0", IP: apptest.FreshIP()}); resp.StatusCode != 401 {
		t.Errorf("no key: %d", resp.StatusCode)
	}

	// Answers from the cache: well under 50 ms each.
	var took []time.Duration
	for i := 0; i < 40; i++ {
		start := time.Now()
		get("lat=64.8378&lng=-147.7164&date=2021-01-02", 200)
		took = append(took, time.Since(start))
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	t.Logf("cached answers: median %v, p95 %v, max %v", took[len(took)/2], took[len(took)*95/100], took[len(took)-1])
	if took[len(took)/2] > 50*time.Millisecond {
		t.Errorf("median cached answer %v, want under 50 ms", took[len(took)/2])
	}
}

// Out of the box (no catalogue reachable, OVERWATCH_SAR_URL=off): the
// bundled real samples answer, at their real acquisition times, and
// today's pass over the STAC item's place is predicted from its 2021
// acquisition by whole 12-day cycles.
func TestSARCoverageSamplesOffline(t *testing.T) {
	t.Parallel() // its own databases
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "sar_e2e_off"), "DATABASE_URL": pgtest.URL(t, "sar_e2e_off"),
		"OVERWATCH_SAR_URL": "off"})
	sarsource.LoadSamples(context.Background(), s.Ch, slog.New(slog.NewTextHandler(io.Discard, nil)))
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	get := func(query string) read.SARCoverageAnswer {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: "/v1/sar-coverage?" + query, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, resp.StatusCode, resp.Body)
		}
		var a read.SARCoverageAnswer
		apptest.MustUnmarshal(t, resp.Body, &a)
		return a
	}
	// The ASF GeoJSON sample's own day at Fairbanks: its product, and the
	// January one's orbit predicting it.
	a := get("lat=64.8378&lng=-147.7164&date=2021-11-10T03:00:00Z")
	if !a.HasCoverage || a.Source.Status != "off" || a.Source.Catalogue != "" || a.Source.FetchedAt != nil ||
		a.Products[0].Source != "sample:asf" || a.Products[0].Start != "2021-11-10T03:20:39Z" || a.VerificationPotential != "high" {
		t.Fatalf("%+v", a)
	}
	// Today over the STAC item's footprint (S1A, relative orbit 59).
	a = get("lat=45.49&lng=3.37")
	known := time.Date(2021, 8, 9, 17, 39, 53, 0, time.UTC)
	if a.ClosestPass == nil || !a.ClosestPass.Predicted || a.ClosestPass.Platform != "S1A" || a.ClosestPass.RelativeOrbit != 59 {
		t.Fatalf("%+v", a)
	}
	at, err := time.Parse(time.RFC3339, a.ClosestPass.Time)
	if err != nil || at.Sub(known)%sarCycle != 0 || *a.ClosestPassHours > 6*24 {
		t.Fatalf("predicted %v (%v), %v h: not whole cycles from %v", at, err, *a.ClosestPassHours, known)
	}
}

// sarCycle is the Sentinel-1 repeat cycle.
const sarCycle = 12 * 24 * time.Hour
