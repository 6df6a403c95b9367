package read

import (
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/emissions"
	"overwatch/route"
)

// fakeEmissions is an EmissionsStore serving fixed voyages, newest
// arrival first; it records the requests it was asked.
type fakeEmissions struct {
	rows []StoredVoyage

	voyageReqs recorder[EmissionsVoyagesRequest]
	factorReqs recorder[EmissionsFilter]
}

func (f *fakeEmissions) EmissionsVoyages(_ context.Context, r EmissionsVoyagesRequest) ([]StoredVoyage, error) {
	f.voyageReqs.add(r)
	var out []StoredVoyage
	for _, v := range f.rows {
		if !v.Result.Arrival.Before(r.From) && v.Result.Arrival.Before(r.To) {
			if !r.WithInput {
				v.Input = nil
			}
			v.Result.Factors = nil
			out = append(out, v)
		}
	}
	return out, nil
}

func (f *fakeEmissions) EmissionsFactorNames(_ context.Context, flt EmissionsFilter) ([]string, error) {
	f.factorReqs.add(flt)
	seen := map[string]bool{}
	var out []string
	for _, r := range f.rows {
		for _, n := range r.Result.Factors {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// lastFilter is the filter of the latest voyages request.
func (f *fakeEmissions) lastFilter(t *testing.T) EmissionsFilter {
	t.Helper()
	return f.voyageReqs.last(t).EmissionsFilter
}

func emNowFunc() time.Time { return emNow }

// emissionsOf mounts the emissions routes on the store, through the cache
// (nil: uncached).
func emissionsOf(t *testing.T, s EmissionsStore, c *Cache) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { emissionsRoutes(r, s, c, emNowFunc) })
}

var emNow = time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)

// fakeVoyages makes n voyages, one ending every 6 hours before emNow, some
// two by two at the same time (so that the IMO orders them).
func fakeVoyages(t *testing.T, n int) *fakeEmissions {
	t.Helper()
	f := &fakeEmissions{}
	for i := 0; i < n; i++ {
		arr := emNow.Add(-time.Duration(1+i/2*6) * time.Hour)
		in := emissions.VoyageInput{IMO: overwatch.IMO(9200000 + i), Name: fmt.Sprintf("VESSEL %d", i), ShipType: 70,
			From: "santos", To: []string{"rotterdam", "qingdao"}[i%2], Departure: arr.Add(-200 * time.Hour), Arrival: arr,
			Commodity: []string{"grain", "iron_ore", "coal"}[i%3], DWT: 40000 + 1000*float64(i), TrackDistanceNM: 2400, TrackCoverage: 0.95,
			MeanSpeedKnots: 12, HoursAtSea: 200, CargoTonnes: 30000, CargoQuality: emissions.CargoMedium}
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		f.rows = append(f.rows, StoredVoyage{ID: fmt.Sprintf("%s-%d", in.IMO, in.Departure.Unix()), Input: raw, Result: emissions.ComputeVoyage(in)})
	}
	return f
}

func TestEmissionsPagesAndTotals(t *testing.T) {
	t.Parallel()
	store := fakeVoyages(t, 45)
	h := emissionsOf(t, store, nil).get("/emissions")
	var all EmissionsResponse
	status, body, _ := serve(t, overwatch.PlanPro, h, "/?limit=500")
	if status != 200 || json.Unmarshal([]byte(body), &all) != nil || len(all.Voyages) != 45 || all.Pagination.HasMore || all.Pagination.NextCursor != nil {
		t.Fatalf("%d %s", status, body)
	}
	want := emissions.Sum(func() []emissions.Voyage {
		var out []emissions.Voyage
		for _, r := range store.rows {
			out = append(out, r.Result)
		}
		return out
	}())
	if r, want := store.voyageReqs.last(t), (EmissionsVoyagesRequest{EmissionsFilter: EmissionsFilter{To: emNow}}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	if all.Fleet.Voyages != 45 || math.Abs(all.Fleet.TTW.Central-want.TTW.Central) > 1e-6 {
		t.Errorf("fleet %+v", all.Fleet)
	}
	// A walk of pages of 8 sees every voyage once, in order.
	var ids []string
	next := "/?limit=8"
	for next != "" {
		var p EmissionsResponse
		_, body, _ := serve(t, overwatch.PlanStarter, h, next)
		if err := json.Unmarshal([]byte(body), &p); err != nil || p.Fleet.Voyages != 45 || len(p.Voyages) > 8 {
			t.Fatalf("page %s: %s", next, body)
		}
		for _, v := range p.Voyages {
			ids = append(ids, v.ID)
		}
		next = ""
		if p.Pagination.HasMore {
			next = "/?limit=8&cursor=" + url.QueryEscape(*p.Pagination.NextCursor)
		}
	}
	if len(ids) != 45 {
		t.Fatalf("walk saw %d voyages", len(ids))
	}
	for i, v := range all.Voyages {
		if ids[i] != v.ID {
			t.Errorf("walk %d: %s, want %s", i, ids[i], v.ID)
		}
	}
	// Free: 20 per call, 7 days of history.
	var free EmissionsResponse
	_, body, _ = serve(t, overwatch.PlanFree, h, "/?limit=500")
	if err := json.Unmarshal([]byte(body), &free); err != nil || len(free.Voyages) != 20 || !store.lastFilter(t).From.Equal(emNow.Add(-7*24*time.Hour)) {
		t.Errorf("free: %d voyages, from %s", len(free.Voyages), store.lastFilter(t).From)
	}
	// Overrides recompute every voyage.
	var ov EmissionsResponse
	_, body, _ = serve(t, overwatch.PlanPro, h, "/?limit=500&distance_nm=1000&fuel_type=mgo&speed_knots=10&group_by=commodity")
	if err := json.Unmarshal([]byte(body), &ov); err != nil || ov.Fleet.DistanceNM != 45000 || len(ov.Grouped) != 3 {
		t.Fatalf("overrides: %s", body)
	}
	for _, v := range ov.Voyages {
		if v.Fuel != emissions.FuelMGO || v.DistanceNM != 1000 || v.SpeedSource != "override" {
			t.Errorf("override voyage %+v", v)
		}
	}
	// Overrides read the stored inputs; the stored results do not.
	if r := store.voyageReqs.last(t); !r.WithInput {
		t.Errorf("overrides without inputs: %+v", r)
	}
	if store.factorReqs.count() != 0 {
		t.Error("GET /emissions read the factor names")
	}
}

func TestEmissionsParameterErrors(t *testing.T) {
	t.Parallel()
	store := fakeVoyages(t, 3)
	h := emissionsOf(t, store, nil).get("/emissions")
	for query, want := range map[string]string{
		"cursor=abc!": "cursor",
		"cursor=" + base64.RawURLEncoding.EncodeToString([]byte("em1|1782820800|12|x")): "cursor",
		"fuel_type=hfo":                   "fuel_type",
		"distance_nm=0":                   "distance_nm",
		"distance_nm=40000":               "distance_nm",
		"speed_knots=NaN":                 "speed_knots",
		"speed_knots=1e-7":                "speed_knots",
		"distance_nm=0.5":                 "distance_nm",
		"format=csv&group_by=imo":         "group_by",
		"group_by=month":                  "group_by",
		"format=pdf":                      "format",
		"limit=-1":                        "limit",
		"imo=12345678":                    "imo",
		"end=2026-01-01&start=2026-02-01": "end",
	} {
		status, body, _ := serve(t, overwatch.PlanPro, h, "/?"+query)
		if status != 400 || !strings.Contains(body, want) {
			t.Errorf("%s: %d %s, want 400 naming %s", query, status, body, want)
		}
	}
	if status, body, _ := serve(t, overwatch.PlanFree, h, "/?format=csv"); status != 403 ||
		body != `{"error":"the Starter plan or higher is needed for CSV export; this key's plan is Free"}` {
		t.Errorf("free CSV: %d %s", status, body)
	}
	if status, _, _ := serve(t, overwatch.PlanPro, h, "/?port=nowhere"); status != 400 {
		t.Errorf("unknown port: %d", status)
	}
	if n := store.voyageReqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
}

// The report's JSON, CSV and PDF carry the same numbers.
func TestEmissionsReportFormatsAgree(t *testing.T) {
	t.Parallel()
	store := fakeVoyages(t, 30)
	h := emissionsOf(t, store, nil).get("/emissions/report")
	var rep struct {
		Report struct {
			Entity       string
			VoyagesTotal int `json:"voyages_total"`
			Totals       struct {
				Voyages int
				TTW     struct{ Low, Central, High float64 } `json:"ttw_t_co2e"`
			}
			Voyages []any
			Factors []struct{ Name string }
		}
		Voyages    []EmissionsReportLine
		Pagination Pagination
	}
	status, body, _ := serve(t, overwatch.PlanStarter, h, "/?entity=Acme&limit=10")
	if status != 200 || json.Unmarshal([]byte(body), &rep) != nil {
		t.Fatalf("%d %s", status, body)
	}
	if rep.Report.Entity != "Acme" || rep.Report.Totals.Voyages != 30 || rep.Report.VoyagesTotal != 30 || rep.Report.Voyages != nil ||
		len(rep.Voyages) != 10 || !rep.Pagination.HasMore || strings.Contains(body, `"report":{"voyages"`) {
		t.Fatalf("report JSON: %+v", rep.Report)
	}
	// The 365 days before now, cut to Starter's 90 days of history; the
	// factors are those the stored voyages used.
	period := EmissionsFilter{From: emNow.AddDate(0, 0, -90), To: emNow}
	if r := store.voyageReqs.last(t); r != (EmissionsVoyagesRequest{EmissionsFilter: period}) {
		t.Errorf("voyages request %+v, want %+v", r, period)
	}
	if f := store.factorReqs.last(t); f != period || len(rep.Report.Factors) == 0 {
		t.Errorf("factor names request %+v, want %+v; %d factors", f, period, len(rep.Report.Factors))
	}
	// The CSV's rows name no entity, and the files start at the newest
	// voyage: those parameters are refused there.
	for q, name := range map[string]string{"entity=Acme&format=csv": "entity", "format=csv&cursor=x": "cursor", "format=pdf&cursor=x": "cursor"} {
		if status, body, _ := serve(t, overwatch.PlanStarter, h, "/?"+q); status != 400 || !strings.Contains(body, name+" does not apply") {
			t.Errorf("%s: %d %s", q, status, body)
		}
	}
	status, body, hdr := serve(t, overwatch.PlanStarter, h, "/?format=csv")
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if status != 200 || err != nil || len(recs) != 31 || !strings.HasSuffix(hdr.Get("Content-Disposition"), `.csv"`) {
		t.Fatalf("CSV: %d %v %d records", status, err, len(recs))
	}
	var sum float64
	for _, r := range recs[1:] {
		v, _ := strconv.ParseFloat(r[14], 64)
		sum += v
	}
	if math.Abs(sum-rep.Report.Totals.TTW.Central) > 0.0005*30 {
		t.Errorf("CSV rows add to %.3f t, JSON total %.3f t", sum, rep.Report.Totals.TTW.Central)
	}
	status, body, hdr = serve(t, overwatch.PlanStarter, h, "/?entity=Acme&format=pdf")
	if status != 200 || !strings.HasPrefix(body, "%PDF-") || hdr.Get("Content-Type") != "application/pdf" {
		t.Errorf("PDF: %d %q", status, hdr)
	}
	if status, _, _ := serve(t, overwatch.PlanFree, h, "/?format=pdf"); status != 403 {
		t.Errorf("free PDF: %d", status)
	}
}

// Through a real cache, the pages of a query and the report of the same
// filter share one computation: the store is read once per request and
// set of assumptions, until the voyages table changes.
func TestEmissionsCached(t *testing.T) {
	t.Parallel()
	store := fakeVoyages(t, 20)
	versions := &fakeVersions{}
	cache := NewCache(versions, CacheOptions{Check: time.Hour})
	routes := emissionsOf(t, store, cache)
	h := routes.get("/emissions")
	next, pages := "/?limit=5", 0
	for next != "" {
		var p EmissionsResponse
		_, body, _ := serve(t, overwatch.PlanPro, h, next)
		decode(t, body, &p)
		pages++
		next = ""
		if p.Pagination.HasMore {
			next = "/?limit=5&cursor=" + url.QueryEscape(*p.Pagination.NextCursor)
		}
	}
	if pages != 4 || store.voyageReqs.count() != 1 {
		t.Errorf("%d pages read the store %d times, want 4 pages, once", pages, store.voyageReqs.count())
	}
	serve(t, overwatch.PlanPro, h, "/?limit=5&fuel_type=mgo")
	serve(t, overwatch.PlanPro, h, "/?limit=5&fuel_type=mgo&group_by=port")
	if n := store.voyageReqs.count(); n != 2 {
		t.Errorf("one set of overrides: %d store calls, want 2", n)
	}
	// The report of the same period shares the stored voyages.
	report := routes.get("/emissions/report")
	if status, body, _ := serve(t, overwatch.PlanPro, report, "/?start=1970-01-01T00:00:00Z"); status != 200 {
		t.Fatalf("report: %d %s", status, body)
	}
	serve(t, overwatch.PlanPro, report, "/?start=1970-01-01T00:00:00Z&format=csv")
	if n, m := store.voyageReqs.count(), store.factorReqs.count(); n != 2 || m != 1 {
		t.Errorf("the report: %d voyage and %d factor reads, want 2 and 1", n, m)
	}
	versions.bump(tableEmissions)
	cache.Invalidate()
	serve(t, overwatch.PlanPro, h, "/?limit=5")
	if n := store.voyageReqs.count(); n != 3 {
		t.Errorf("after the voyages changed: %d store calls, want 3", n)
	}
}
