package e2e

import (
	"context"
	"io"
	"log/slog"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/jobs/jobstest"
	"overwatch/maritime/crop"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cropsource "overwatch/sources/crop"
	"overwatch/sources/sourcetest"
)

// cropAPI is the JSON of the crop endpoints.
type cropAPI struct {
	Regions     []read.CropRegion     `json:"regions"`
	Assessments []read.CropAssessment `json:"assessments"`
	Forecasts   []read.CropForecast   `json:"forecasts"`
}

// The crop endpoints on the real USDA files: `overwatch import crop`
// loads the bundled PSD and WASDE samples, the server answers the
// official view (spot-checked against the files), filters, tier clamps
// and 400s naming the parameter; every answer is validated against the
// OpenAPI document by s.do.
func TestCropEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "crop_e2e"), pgtest.URL(t, "crop_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	getenv := func(k string) string { return env[k] }
	files, err := filepath.Glob("../sources/crop/samples/*.csv")
	if err != nil || len(files) != 4 {
		t.Fatalf("samples: %v %v", files, err)
	}
	out := &apptest.SyncWriter{}
	if err := app.Run(context.Background(), append([]string{"overwatch", "import", "crop"}, files...), apptest.ClockEnv(getenv), out, io.Discard); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	t.Logf("imported:\n%s", out)
	if err := app.Run(context.Background(), []string{"overwatch", "import", "crop", "../sources/market/samples/README.md"}, apptest.ClockEnv(getenv), io.Discard, io.Discard); err == nil {
		t.Error("a README imported as crop data")
	}

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL})
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int) cropAPI {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, resp.StatusCode, resp.Body, status)
		}
		var m cropAPI
		if status == 200 {
			apptest.MustUnmarshal(t, resp.Body, &m)
		} else if !strings.Contains(string(resp.Body), "error") {
			t.Errorf("%s: %s", path, resp.Body)
		}
		return m
	}

	regions := get(pro, "/v1/satellite/regions", 200).Regions
	if len(regions) != len(crop.Regions()) || len(regions) < 6 {
		t.Fatalf("%d regions", len(regions))
	}
	ports := map[string]bool{}
	for _, r := range regions {
		for _, p := range r.Ports {
			ports[p.Slug] = true
		}
		if len(r.Polygon.Coordinates) != 1 || len(r.Polygon.Coordinates[0]) < 4 || r.PSDCountryCode == "" {
			t.Errorf("%s: %+v", r.Slug, r)
		}
	}
	for _, p := range []string{"new-orleans", "seattle", "tacoma", "vancouver", "santos", "paranagua", "rosario", "bahia-blanca",
		"odesa", "chornomorsk", "constanta", "novorossiysk", "fremantle"} {
		if !ports[p] {
			t.Errorf("no region feeds %s", p)
		}
	}

	health := get(pro, "/v1/satellite/health", 200).Assessments
	if len(health) != 13 {
		t.Errorf("%d assessments, want 13 (every region and crop but Brazilian and Argentine soybeans, which have no USDA yield in the files)", len(health))
	}
	for _, a := range health {
		if a.Basis != crop.BasisOfficial || a.MarketYear == nil || *a.MarketYear != 2025 || a.PeriodStart != nil || a.Pixels != nil {
			t.Errorf("offline assessment %+v", a)
		}
		// Australia wheat: PSD 2025 yield 2.83 t/ha (revised 2025-11).
		if a.Region == "western-australia-wheatbelt" && (*a.Value != 2.83 || a.Unit != "(MT/HA)" || a.AsOf == nil || *a.AsOf != "2025-11-01") {
			t.Errorf("Australia wheat %+v", a)
		}
	}
	for _, a := range get(pro, "/v1/satellite/health?region=romania-lower-danube&crop=corn", 200).Assessments {
		if a.Status != crop.StatusPoor || a.Region != "romania-lower-danube" || a.Crop != "corn" {
			t.Errorf("Romania corn (PSD 2025: 6,100 kt on 1,800 kha vs a 5-year 4.2 t/ha) %+v", a)
		}
	}
	for _, a := range get(pro, "/v1/satellite/health?status=good", 200).Assessments {
		if a.Status != "good" {
			t.Errorf("status filter: %+v", a)
		}
	}

	prod := get(pro, "/v1/satellite/production", 200).Forecasts
	if len(prod) != 24 {
		t.Errorf("%d forecasts, want 24 (region × crop × port)", len(prod))
	}
	pnw := get(pro, "/v1/satellite/production?region=us-pacific-northwest", 200).Forecasts
	if len(pnw) != 3 {
		t.Fatalf("PNW %d forecasts, want one per port", len(pnw))
	}
	// WASDE 2025/26 white wheat: 283 million bushels produced, 86 used at home.
	if f := pnw[0]; *f.ProductionKt != 7702.0 || *f.DomesticUseKt != 2340.5 || f.BaselineScope != "class" || f.YieldFactorFit != crop.FitOfficial {
		t.Errorf("PNW white wheat %+v", f)
	}
	odesa := get(pro, "/v1/satellite/production?port=odesa&crop=wheat", 200).Forecasts
	if len(odesa) != 1 || *odesa[0].ProductionKt != 23000 || *odesa[0].DomesticUseKt != 7100 || *odesa[0].ExportableKt != 15900 {
		t.Errorf("Odesa wheat %+v", odesa)
	}
	for _, f := range get(pro, "/v1/satellite/production?port=constanta", 200).Forecasts {
		if f.ExportableKt != nil || f.PortExportableKt != nil || f.ProductionKt == nil {
			t.Errorf("Constanța: the EU file has no domestic use, exportable must be null: %+v", f)
		}
	}
	if n := len(get(free, "/v1/satellite/production?limit=500", 200).Forecasts); n > 20 {
		t.Errorf("free plan got %d rows", n)
	}
	if n := len(get(pro, "/v1/satellite/production?limit=2", 200).Forecasts); n != 2 {
		t.Errorf("limit=2 gave %d", n)
	}

	for path, param := range map[string]string{
		"/v1/satellite/health?region=atlantis":    "region",
		"/v1/satellite/health?status=bad":         "status",
		"/v1/satellite/health?crop=rice":          "crop",
		"/v1/satellite/health?limit=0":            "limit",
		"/v1/satellite/production?port=atlantis":  "port",
		"/v1/satellite/production?region=x":       "region",
		"/v1/satellite/production?crop=barley":    "crop",
		"/v1/satellite/production?limit=nonsense": "limit",
	} {
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: pro})
		if resp.StatusCode != 400 || !strings.Contains(string(resp.Body), param) {
			t.Errorf("%s: %d %s, want a 400 naming %s", path, resp.StatusCode, resp.Body, param)
		}
	}
	if resp := s.Do(t, apptest.Request{Path: "/v1/satellite/health", IP: apptest.FreshIP()}); resp.StatusCode != 401 {
		t.Errorf("no key: %d", resp.StatusCode)
	}
}

// The NDVI fetch against a local server serving the real AppEEARS bytes
// and each failure: a good fetch stores the samples and turns the mapped
// region's health to an NDVI basis; a failed one keeps them and fails the
// run (counted by the scheduler as overwatch_job_failures_total).
func TestCropNDVIJob(t *testing.T) {
	body, err := os.ReadFile("testdata/crop/appeears_point_MOD13Q1_006_ndvi_neon_harv_2012-2020.csv")
	if err != nil {
		t.Fatal(err)
	}
	db := chtest.DB(t, "crop_ndvi_job")
	srv := sourcetest.NewServer(t, map[string][]byte{"/harv.csv": body})
	regions, err := cropsource.ParseRegions("NEON.D01.HARV.DP1.00033=us-corn-belt")
	if err != nil {
		t.Fatal(err)
	}
	cfg := cropsource.Config{NDVIURL: srv.URL + "/harv.csv", NDVIRegions: regions, NDVIEvery: time.Hour}
	all := jobstest.SourceJobs(jobs.Sources{CropNDVI: app.CropSources(cfg, db)})
	if len(all) != 1 || all[0].Name != "crop_ndvi_refresh" {
		t.Fatalf("jobs %+v", all)
	}
	ctx := context.Background()
	sc, err := jobs.NewScheduler(all, jobstest.Locker{}, jobstest.States{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, "crop_ndvi_refresh"); err != nil {
		t.Fatalf("first fetch: %v", err)
	}
	assess := func() []crop.Assessment {
		in, err := db.CropInputs(ctx, read.CropInputsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return crop.Assess(in)
	}
	as := assess()
	if len(as) != 2 {
		t.Fatalf("%d assessments, want corn and soybeans of the corn belt: %+v", len(as), as)
	}
	for _, a := range as {
		// The newest composite starts 2020-08-12 (day 225); earlier years' day 225 give the mean.
		if a.Basis != crop.BasisNDVI || a.PeriodStart.Format(time.DateOnly) != "2020-08-12" || a.BaselineYears < 2 || a.Pixels == 0 || a.Pixels > 9 {
			t.Errorf("%+v", a)
		}
	}
	// With the PSD yields of 2010-2025, the yield factor is fitted on the
	// seasons the NDVI series covers (2012-2020).
	f, err := os.Open("../sources/crop/samples/usda_fas_psd_grains_pulses_wheat_corn_export_regions_my2010-2025_2025-11.csv")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := cropsource.Parse(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := db.InsertPSD(ctx, parsed.PSD); err != nil {
		t.Fatal(err)
	}
	in, err := db.CropInputs(ctx, read.CropInputsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var fitted bool
	for _, fc := range crop.Forecasts(in) {
		if fc.Region == "us-corn-belt" && fc.Crop == crop.Corn {
			fitted = fc.Basis == crop.BasisNDVI && fc.FactorFit == crop.FitFitted && fc.FactorSeasons >= crop.MinFitSeasons &&
				fc.YieldFactor >= crop.FactorMin && fc.YieldFactor <= crop.FactorMax && fc.ProductionKt > 0
			t.Logf("corn belt corn: factor %.4f (%s on %d seasons), %.0f kt", fc.YieldFactor, fc.FactorFit, fc.FactorSeasons, fc.ProductionKt)
		}
	}
	if !fitted {
		t.Error("no fitted yield factor for the corn belt's corn")
	}
	as = assess()
	failures := []string{"5xx", "429", "html", "short", "truncated", "slow"}
	for _, mode := range failures {
		srv.Set(mode)
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if _, err := sc.RunNow(rctx, "crop_ndvi_refresh"); err == nil {
			t.Errorf("%s: no error", mode)
		}
		cancel()
		if got := assess(); !reflect.DeepEqual(got, as) {
			t.Errorf("%s: the stored series changed", mode)
		}
	}
	reg := prometheus.NewRegistry()
	app.RegisterJobs(reg, sc)
	if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", "crop_ndvi_refresh"); n != float64(len(failures)) {
		t.Errorf("overwatch_job_failures_total{job=crop_ndvi_refresh} = %v, want %d", n, len(failures))
	}
	srv.Set("ok")
	unmapped := cropsource.NDVI(db, cropsource.Config{NDVIURL: cfg.NDVIURL, NDVIEvery: time.Hour})
	if _, err := unmapped(ctx); err == nil || !strings.Contains(err.Error(), "OVERWATCH_CROP_NDVI_REGIONS") {
		t.Errorf("unmapped categories: %v", err)
	}
	if _, err := cropsource.ParseRegions("x=atlantis"); err == nil {
		t.Error("an unknown region slug accepted")
	}
	if app.CropSources(cropsource.Config{}, db).Refresh != nil {
		t.Error("NDVI job on without a URL")
	}
}

// `overwatch run` loads the bundled samples into empty crop tables, once:
// the official view answers out of the box.
func TestCropSamplesLoad(t *testing.T) {
	db := chtest.DB(t, "crop_samples")
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cropsource.LoadSamples(ctx, db, log)
	psd, wasde, err := db.CropRows(ctx)
	if err != nil || psd != 3360+1239+156 || wasde != 5050 {
		t.Fatalf("after loading: %d PSD, %d WASDE rows, %v", psd, wasde, err)
	}
	cropsource.LoadSamples(ctx, db, log)
	if p2, w2, _ := db.CropRows(ctx); p2 != psd || w2 != wasde {
		t.Errorf("loaded twice: %d, %d", p2, w2)
	}
	in, err := db.CropInputs(ctx, read.CropInputsRequest{ExportDays: 365, Today: testclock.Today()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(crop.Assess(in)); n != 13 {
		t.Errorf("%d assessments from the samples", n)
	}
}
