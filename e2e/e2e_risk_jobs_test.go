package e2e

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"
	"overwatch/read"
	"overwatch/write/sim"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The risk jobs end to end: a seeded simulation, the OFAC files imported
// with `overwatch import sanctions`, every derivation run by `overwatch
// jobs --once`, then served by the real server. The sanctioned vessels of
// the simulation are critical with a direct_imo sanctions_match; every
// vessel has a score of the 15 factors; an incremental run of risk_events
// (which recomputes only the last days and the ongoing events) leaves the
// stored events as the full run wrote them. P&I cover imported into the
// shared base counts at the next risk_scores run: an unknown insurer
// raises pi_cover to its weight, a Group club leaves it at 0.
func TestRiskJobsThroughTheAPI(t *testing.T) {
	t.Parallel() // its own databases
	const seed, vessels, days = 5, 150, 10
	r := apptest.SimulateForEval(t, "risk_jobs", seed, vessels, days)
	dir := sanctionsDataDir(t)
	r.Command(t, io.Discard, "import", "sanctions",
		filepath.Join(dir, "sanctions_ofac_sdn_2021-07_full.csv"),
		filepath.Join(dir, "sanctions_ofac_alt_2021-07_full.csv"),
		filepath.Join(dir, "sanctions_ofac_sdn_comments_2021-07.csv"))
	began := time.Now()
	r.Command(t, io.Discard, "jobs", "--once")
	t.Logf("every derivation over %d days of %d vessels: %s", days, vessels, time.Since(began).Round(time.Millisecond))

	db, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	from, to := r.Start.Add(-30*24*time.Hour), r.End.Add(30*24*time.Hour)
	full, err := db.RiskEvents(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	r.Command(t, io.Discard, "jobs", "--job", "risk_events")
	again, err := db.RiskEvents(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := eventKeys(full), eventKeys(again); !slices.Equal(a, b) {
		t.Errorf("the incremental run changed the events: %d before, %d after\nonly before: %v\nonly after: %v",
			len(a), len(b), missingFrom(a, b), missingFrom(b, a))
	}
	byType := map[string]int{}
	for _, e := range full {
		byType[e.Type]++
	}
	t.Logf("events stored: %v", byType)
	for _, typ := range []string{risk.EventGap, risk.EventLoitering, risk.EventIdentity, risk.EventSanctions} {
		if byType[typ] == 0 {
			t.Errorf("no %s event stored", typ)
		}
	}

	// The baselines' hourly read gives the vessel-days the full tracks give.
	viaTracks, viaHourly := map[[2]string]float64{}, map[[2]string]float64{}
	err = db.Tracks(ctx, r.Start, r.End, jobs.TrackFilter{}, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		risk.AddVesselDays(viaTracks, track, "x", r.Start, r.End)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.HourlyTracks(ctx, r.Start, r.End, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		risk.AddVesselDays(viaHourly, track, "x", r.Start, r.End)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	same := len(viaTracks) > 0 && len(viaTracks) == len(viaHourly)
	for k, v := range viaTracks {
		same = same && math.Abs(v-viaHourly[k]) < 1e-6
	}
	if !same {
		t.Errorf("vessel-days: from the tracks %v, from the hourly positions %v", viaTracks, viaHourly)
	}

	fleet, err := sim.NewFleet(seed, vessels, 12, 40)
	if err != nil {
		t.Fatal(err)
	}
	var sanctioned []string
	for _, v := range fleet {
		if v.Sanctioned != "" {
			sanctioned = append(sanctioned, v.IMO.String())
		}
	}
	if len(sanctioned) == 0 {
		t.Fatal("no sanctioned vessel in the fleet")
	}

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	get := func(path string, into any) {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: pro})
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Body)
		}
		apptest.MustUnmarshal(t, resp.Body, into)
	}
	var critical struct{ Vessels []read.RiskVessel }
	get("/v1/risk/vessels?tier=critical&limit=500", &critical)
	got := map[string]bool{}
	for _, v := range critical.Vessels {
		got[v.IMO] = true
	}
	for _, imo := range sanctioned {
		if !got[imo] {
			t.Errorf("sanctioned vessel %s is not critical", imo)
			continue
		}
		var p read.RiskVesselBody
		get("/v1/risk/vessel/"+imo, &p)
		if len(p.Vessel.Factors) != 15 || len(p.Vessel.Sanctions) == 0 || p.Vessel.Sanctions[0].MatchType != sanctions.MatchIMO {
			t.Errorf("vessel %s: %d factors, sanctions %+v", imo, len(p.Vessel.Factors), p.Vessel.Sanctions)
		}
		var ev struct{ Events []read.RiskEvent }
		get("/v1/risk/events?type=sanctions_match&vessel="+imo, &ev)
		if len(ev.Events) == 0 || ev.Events[0].Severity != risk.TierCritical {
			t.Errorf("vessel %s: sanctions events %+v", imo, ev.Events)
		}
	}
	var all struct{ Vessels []read.RiskVessel }
	get("/v1/risk/vessels?limit=500", &all)
	if len(all.Vessels) < vessels*9/10 {
		t.Errorf("%d vessels scored, want about %d", len(all.Vessels), vessels)
	}
	var stats read.RiskStats
	get("/v1/risk/stats", &stats)
	if stats.CriticalVessels < uint64(len(sanctioned)) {
		t.Errorf("stats: %+v, want ≥ %d critical vessels", stats, len(sanctioned))
	}
	var hotspots, baselines map[string]any
	get("/v1/risk/hotspots?active=false", &hotspots)
	get("/v1/risk/baselines", &baselines)
	if h, _ := hotspots["hotspots"].([]any); len(h) == 0 {
		t.Errorf("no hotspot: %v", hotspots)
	}
	if b, _ := baselines["baselines"].([]any); len(b) == 0 {
		t.Errorf("no baseline: %v", baselines)
	}

	// P&I cover in the shared base: the next scoring reads it.
	var uninsured, group string
	for _, v := range all.Vessels {
		if v.Tier != risk.TierCritical && uninsured == "" {
			uninsured = v.IMO
		} else if v.Tier != risk.TierCritical && group == "" {
			group = v.IMO
		}
	}
	cover := filepath.Join(t.TempDir(), "cover.csv")
	csv := "imo,club,effective_from\n" + uninsured + ",Acme Cover Ltd," + r.Start.Format("2006-01-02") + "\n" + group + ",Gard P&I," + r.Start.Format("2006-01-02") + "\n"
	if err := os.WriteFile(cover, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Command(t, io.Discard, "import", "pi-coverage", cover)
	r.Command(t, io.Discard, "jobs", "--job", "risk_scores")
	piFactor := func(imo string) read.RiskFactor {
		t.Helper()
		var p read.RiskVesselBody
		get("/v1/risk/vessel/"+imo, &p)
		for _, f := range p.Vessel.Factors {
			if f.Name == risk.FactorPICover {
				return f
			}
		}
		t.Fatalf("vessel %s: no %s factor in %+v", imo, risk.FactorPICover, p.Vessel.Factors)
		return read.RiskFactor{}
	}
	apptest.Eventually(t, 5*time.Second, "pi_cover of the uninsured vessel", func() bool { return piFactor(uninsured).Contribution == 5 })
	if f := piFactor(uninsured); f.Value != 1 || !strings.Contains(f.Reason, "Acme Cover Ltd") {
		t.Errorf("uninsured vessel %s: %+v", uninsured, f)
	}
	if f := piFactor(group); f.Contribution != 0 || !strings.Contains(f.Reason, "Gard") {
		t.Errorf("Group-covered vessel %s: %+v", group, f)
	}
}

// eventKeys identifies stored events for comparison, sorted.
func eventKeys(events []risk.Event) []string {
	out := make([]string, 0, len(events))
	for _, e := range events {
		end := "open"
		if e.End != nil {
			end = e.End.Format(time.RFC3339)
		}
		out = append(out, fmt.Sprintf("%s/%s %d %d %s %s %s", e.Type, e.Subtype, e.IMO, e.Other, e.Start.Format(time.RFC3339), end, e.Severity))
	}
	slices.Sort(out)
	return out
}

// missingFrom lists the keys of a that b lacks (at most 10).
func missingFrom(a, b []string) []string {
	var out []string
	for _, k := range a {
		if _, ok := slices.BinarySearch(b, k); !ok && len(out) < 10 {
			out = append(out, k)
		}
	}
	return out
}
