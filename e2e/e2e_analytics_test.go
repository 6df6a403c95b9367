package e2e

import (
	"encoding/csv"
	"fmt"
	"net/url"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/seaport"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// The analytics endpoints read the derived tables; these tests write them
// directly (clickhouse/fixtures.go) under a generation newer than any other
// test's, for the days they use. Other days of the shared database may
// hold rows of other tests, so figures over several days are checked as at
// least the fixtures'.

const analyticsPort = "la-pallice"

// analyticsFixtures are the rows the tests write.
type analyticsFixtures struct {
	now                    time.Time
	monday                 time.Time
	waiting, berthed, gone overwatch.IMO
	injected               string // the waiting vessel's crew-typed name
}

func writeAnalyticsFixtures(s *apptest.TestServer, t *testing.T) analyticsFixtures {
	t.Helper()
	now := testclock.Now().UTC().Truncate(time.Second)
	fx := analyticsFixtures{now: now, monday: mondayOf(now), waiting: apptest.NextIMO(), berthed: apptest.NextIMO(), gone: apptest.NextIMO(),
		injected: `=HYPERLINK("http://evil.example","click")`}
	gen := uint64(time.Now().UnixNano())
	h := func(hours int) *time.Time {
		v := now.Add(time.Duration(hours) * time.Hour)
		return &v
	}
	berth := analyticsPort + "-berth-1"
	calls := []chtest.PortCall{
		{IMO: fx.waiting, Port: analyticsPort, Arrival: *h(-20), Anchorage: analyticsPort + "-anch-1", AnchorStart: h(-19), Confidence: 3,
			Name: fx.injected, Flag: "LR", ShipType: 70, Category: "cargo", BuildYear: uint16(now.Year() - 22), Declared: "-LA PALLICE"},
		{IMO: fx.berthed, Port: analyticsPort, Arrival: *h(-30), AnchorStart: h(-29), AnchorEnd: h(-19), BerthZone: berth, BerthStart: h(-19),
			Confidence: 3, Name: "BERTHED", Flag: "PA", ShipType: 80, Category: "tanker", BuildYear: uint16(now.Year() - 3), BuildYearEstimated: true},
		{IMO: fx.gone, Port: analyticsPort, Arrival: *h(-60), BerthZone: berth, BerthStart: h(-58), BerthEnd: h(-40), Departure: h(-39),
			Confidence: 4, Name: "GONE", Flag: "MT", ShipType: 70, Category: "cargo", BuildYear: uint16(now.Year() - 12),
			DraftBefore: 7.2, DraftAfter: 11.9, Operation: "load", CargoTonnes: 30000, CargoQuality: "measured", Declared: "LA PALLICE", DeclaredPort: analyticsPort},
	}
	s.Fx.InsertPortCalls(t, gen, calls...)
	record := func(table string, days ...time.Time) {
		t.Helper()
		for _, d := range days {
			s.Fx.RecordGeneration(t, table, d, gen)
		}
	}
	for _, c := range calls {
		record("port_calls", c.Arrival)
	}

	today := now.Truncate(24 * time.Hour)
	insert := func(table string, cols string, rows ...[]any) {
		t.Helper()
		s.Fx.Insert(t, table, strings.Split(cols, ","), rows...)
	}
	var daily [][]any
	for _, d := range []int{-2, -1} {
		day := today.AddDate(0, 0, d)
		daily = append(daily, []any{day, gen, analyticsPort, "all", uint32(3 - d), uint32(1), uint32(5), uint32(2), uint32(1), uint32(1), 10.04, 20.0, 30.0},
			[]any{day, gen, analyticsPort, "cargo", uint32(1), uint32(0), uint32(1), uint32(1), uint32(0), uint32(0), 0.0, 0.0, 0.0})
	}
	insert("congestion_daily", "day,gen,port,vessel_type,waiting,at_berth,in_port,arrivals,departures,waits,median_wait_hours,p90_wait_hours,median_port_hours", daily...)
	record("congestion_daily", today.AddDate(0, 0, -2), today.AddDate(0, 0, -1))

	prev := fx.monday.AddDate(0, 0, -7)
	insert("berth_weekly", "day,gen,port,zone_id,zone_name,capacity,occupied_hours,available_hours,utilization,vessels,stays,mean_dwell_hours",
		[]any{prev, gen, analyticsPort, berth, "Quay", uint16(2), 84.0, 336.0, 0.25, uint32(2), uint32(1), 18.0},
		[]any{prev, gen, analyticsPort, analyticsPort + "-berth-2", "Quay 2", uint16(1), 0.0, 168.0, 0.0, uint32(0), uint32(0), 0.0})
	insert("fleet_age_weekly", "day,gen,port,vessel_type,bucket,vessels,estimated,mean_age",
		[]any{prev, gen, analyticsPort, "all", "0-5", uint32(1), uint32(1), 3.0},
		[]any{prev, gen, analyticsPort, "all", "20-25", uint32(3), uint32(0), 22.0})
	y, w := prev.ISOWeek()
	insert("estimates_weekly", "day,gen,port,iso_year,iso_week,vessels,calls,calls_with_draught,tonnage,confidence",
		[]any{prev, gen, analyticsPort, uint16(y), uint8(w), uint32(1), uint32(2), uint32(1), 30000.4, 0.5})
	insert("export_actuals", "port,day,commodity,tonnes,source,imported_at",
		[]any{analyticsPort, prev, fmt.Sprintf("wheat-%d", gen), 25000.0, "test", now})
	record("berth_weekly", prev)
	record("fleet_age_weekly", prev)
	record("estimates_weekly", prev)

	epoch := time.Unix(0, 0).UTC()
	insert("destination_reliability", "day,gen,imo,name,flag,ship_type,category,calls,declared,matched,share,tier,last_call",
		[]any{epoch, gen, fx.gone, "GONE", "MT", uint8(70), "cargo", uint32(5), uint32(5), uint32(4), 0.8, "reliable", *h(-60)},
		[]any{epoch, gen, fx.waiting, fx.injected, "LR", uint8(70), "cargo", uint32(2), uint32(1), uint32(0), 0.0, "unreliable", *h(-20)})
	record("destination_reliability", epoch)
	return fx
}

func mondayOf(t time.Time) time.Time {
	d := t.UTC().Truncate(24 * time.Hour)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

func TestAnalyticsEndpoints(t *testing.T) {
	s := apptest.StartServer(t, nil)
	fx := writeAnalyticsFixtures(s, t)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	get := func(path string, into any) apptest.Response {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: starter})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		if into != nil {
			apptest.MustUnmarshal(t, r.Body, into)
		}
		return r
	}

	var congestion struct{ Congestion []read.PortCongestion }
	get("/v1/congestion", &congestion)
	if len(congestion.Congestion) != len(seaport.All()) {
		t.Fatalf("congestion: %d ports", len(congestion.Congestion))
	}
	get("/v1/congestion?port="+analyticsPort, &congestion)
	c := congestion.Congestion[0]
	if len(congestion.Congestion) != 1 || c.Port != analyticsPort || c.VesselType != "all" || c.Waiting < 1 || c.AtBerth < 1 || c.InPort < 2 ||
		c.Arrivals24h < 1 || c.Arrivals7d < 3 || c.Departures7d < 1 || c.MedianWaitHours == nil || c.Baseline.Days < 2 || c.Baseline.Waiting == nil {
		t.Errorf("congestion at %s: %+v", analyticsPort, c)
	}
	get("/v1/congestion?port="+analyticsPort+"&vessel_type=tanker", &congestion)
	if c := congestion.Congestion[0]; c.VesselType != "tanker" || c.AtBerth < 1 {
		t.Errorf("tanker congestion: %+v", c)
	}

	var hist read.CongestionHistoryBody
	get("/v1/congestion/history?port="+analyticsPort+"&days=3", &hist)
	if hist.Port != analyticsPort || hist.Days != 3 || hist.VesselType != nil || len(hist.History) < 2 {
		t.Fatalf("congestion history: %+v", hist)
	}
	if d := hist.History[0]; d.Date != fx.now.AddDate(0, 0, -2).Format(time.DateOnly) || d.Waiting != 5 || d.MedianWaitHours == nil || *d.MedianWaitHours != 10 {
		t.Errorf("congestion history day: %+v", d)
	}
	get("/v1/congestion/history?port="+analyticsPort+"&days=2&vessel_type=cargo", &hist)
	if len(hist.History) < 1 || hist.History[0].Waiting != 1 || hist.History[0].MedianWaitHours != nil || *hist.VesselType != "cargo" {
		t.Errorf("cargo history: %+v", hist)
	}

	var berths struct {
		BerthUtilization []read.ZoneUtilization `json:"berth_utilization"`
	}
	get("/v1/berth-utilization?port="+analyticsPort, &berths)
	if len(berths.BerthUtilization) != 2 || berths.BerthUtilization[0].OccupiedHours < 18+19-0.1 || berths.BerthUtilization[0].VesselsServed < 2 {
		t.Errorf("berth utilisation: %+v", berths)
	}
	get("/v1/berth-utilization", &berths)
	var weekly read.BerthWeeklyBody
	get("/v1/berth-utilization/weekly?port="+analyticsPort+"&zone_id="+analyticsPort+"-berth-1&weeks=2", &weekly)
	if weekly.PortCountry != "FR" || weekly.Weeks != 2 || len(weekly.Weekly) < 1 || weekly.Weekly[0].WeekStart != fx.monday.AddDate(0, 0, -7).Format(time.DateOnly) ||
		weekly.Weekly[0].Utilization != 0.25 || weekly.Weekly[0].ZoneID != analyticsPort+"-berth-1" {
		t.Errorf("weekly berths: %+v", weekly)
	}

	var ages struct {
		FleetAge []read.PortFleetAge `json:"fleet_age"`
	}
	get("/v1/fleet-age?port="+analyticsPort, &ages)
	if a := ages.FleetAge[0]; a.Vessels < 3 || a.EstimatedBuildYears < 1 || a.Risk.Over20Pct == nil || a.Buckets[4].Vessels < 1 {
		t.Errorf("fleet age: %+v", a)
	}
	get("/v1/fleet-age", &ages)
	var ageHist read.FleetAgeHistoryBody
	get("/v1/fleet-age/history?port="+analyticsPort+"&weeks=2", &ageHist)
	if len(ageHist.History) < 1 || ageHist.History[0].Vessels != 4 || *ageHist.History[0].MeanAgeYears != 17.3 || *ageHist.History[0].Risk.Over20Pct != 75 {
		t.Errorf("fleet-age history: %+v", ageHist)
	}

	var est struct{ Estimates []read.Estimate }
	get("/v1/estimates?port="+analyticsPort+"&limit=5", &est)
	found := false
	for _, e := range est.Estimates {
		if e.WeekStart == fx.monday.AddDate(0, 0, -7).Format(time.DateOnly) {
			found = e.Tonnage == 30000 && e.USDAActuals != nil && *e.USDAActuals >= 25000 && e.Confidence == 0.5
		}
	}
	if !found {
		t.Errorf("estimates: %+v", est)
	}

	var rel struct{ Reliability []read.Reliability }
	get("/v1/destination-reliability?vessel="+fx.gone.String(), &rel)
	if len(rel.Reliability) != 1 || rel.Reliability[0].Share != 0.8 || rel.Reliability[0].Tier != "reliable" {
		t.Errorf("reliability: %+v", rel)
	}
	get("/v1/destination-reliability?tier=unreliable", &rel)
	if len(rel.Reliability) != 1 || rel.Reliability[0].IMO != fx.waiting.String() {
		t.Errorf("unreliable: %+v", rel)
	}
}

func TestAnalyticsErrors(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	unknown := apptest.NextIMO().String()
	for path, want := range map[string]string{
		"/v1/congestion?port=atlantis":                              `{"error":"unknown port 'atlantis' in port; see /v1/ports for slugs and ids","parameter":"port"}`,
		"/v1/congestion?vessel_type=yacht":                          `vessel_type must be one of cargo, tanker`,
		"/v1/congestion/history":                                    `{"error":"port is required (a port slug or id; see /v1/ports)","parameter":"port"}`,
		"/v1/congestion/history?port=santos&days=400":               `days must be an integer from 1 to 365`,
		"/v1/berth-utilization?port=atlantis":                       `unknown port 'atlantis'`,
		"/v1/berth-utilization/weekly?port=santos&zone_id=santos-x": `{"error":"unknown berth zone 'santos-x' at port 'santos'","parameter":"zone_id"}`,
		"/v1/berth-utilization/weekly?port=santos&weeks=0":          `weeks must be an integer from 1 to 52`,
		"/v1/fleet-age?vessel_type=1":                               `vessel_type must be one of`,
		"/v1/fleet-age/history":                                     `port is required`,
		"/v1/fleet-age/history?port=santos&weeks=53":                `weeks must be an integer from 1 to 52`,
		"/v1/estimates?limit=-5":                                    `limit must be a positive integer`,
		"/v1/estimates?port=" + url.QueryEscape("<script>"):         `unknown port '\u003cscript\u003e'`,
		"/v1/destination-reliability?vessel=12":                     `vessel must be a 7-digit IMO number`,
		"/v1/destination-reliability?tier=shaky":                    `tier must be one of reliable, moderate, unreliable`,
		"/v1/destination-reliability?vessel=" + unknown:             `{"error":"no destination reliability for vessel ` + unknown + `","parameter":"vessel"}`,
		"/v1/export?type=xlsx":                                      `type must be one of visits, estimates`,
		"/v1/export?limit=0":                                        `limit must be a positive integer`,
		"/v1/export?port=atlantis":                                  `unknown port 'atlantis'`,
	} {
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 400 && r.StatusCode != 404 || !strings.Contains(string(r.Body), want) {
			t.Errorf("%s: %d %s, want %s", path, r.StatusCode, r.Body, want)
		}
		if strings.Contains(want, "unknown port") && r.StatusCode != 400 {
			t.Errorf("%s: %d, want 400 for an unknown port", path, r.StatusCode)
		}
	}
	// A port is named by its slug or its stable UUID (the id of /v1/ports).
	santos, _ := seaport.BySlug("santos")
	for _, path := range []string{"/v1/congestion/history?port=" + santos.ID, "/v1/estimates?port=" + strings.ToUpper(santos.ID), "/v1/berth-utilization?port=" + santos.ID} {
		if r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key}); r.StatusCode != 200 {
			t.Errorf("%s: %d %s", path, r.StatusCode, r.Body)
		}
	}
	for _, path := range []string{"/v1/congestion", "/v1/fleet-age", "/v1/export", "/v1/estimates", "/v1/destination-reliability"} {
		if r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP()}); r.StatusCode != 401 || string(r.Body) != `{"error":"missing API key"}` {
			t.Errorf("%s without a key: %d %s", path, r.StatusCode, r.Body)
		}
	}
}

func TestAnalyticsExport(t *testing.T) {
	s := apptest.StartServer(t, nil)
	fx := writeAnalyticsFixtures(s, t)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)

	r := s.Do(t, apptest.Request{Path: "/v1/export", IP: apptest.FreshIP(), Key: free})
	if r.StatusCode != 403 || !strings.Contains(string(r.Body), "Starter") || r.Header.Get("Content-Disposition") != "" {
		t.Fatalf("Free: %d %s %v", r.StatusCode, r.Body, r.Header)
	}

	r = s.Do(t, apptest.Request{Path: "/v1/export?port=" + analyticsPort + "&limit=1000", IP: apptest.FreshIP(), Key: starter})
	day := testclock.Now().UTC().Format("20060102")
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		r.Header.Get("Content-Disposition") != `attachment; filename="overwatch-visits-`+analyticsPort+`-`+day+`.csv"` {
		t.Fatalf("Starter: %d %v\n%s", r.StatusCode, r.Header, r.Body)
	}
	records, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, r.Body)
	}
	if strings.Join(records[0], ",") != visitHeader || len(records) < 4 {
		t.Fatalf("header or rows: %v", records)
	}
	byIMO := map[string][]string{}
	for _, rec := range records[1:] {
		byIMO[rec[0]] = rec
	}
	waiting, gone := byIMO[fx.waiting.String()], byIMO[fx.gone.String()]
	if waiting == nil || gone == nil {
		t.Fatalf("fixture vessels missing: %v", records)
	}
	if waiting[1] != "'"+fx.injected || waiting[22] != "'-LA PALLICE" || waiting[6] != "" || waiting[16] != "3" {
		t.Errorf("formula injection must be defused: %q", waiting)
	}
	if gone[3] != "cargo" || gone[17] != "7.2" || gone[18] != "11.9" || gone[19] != "load" || gone[20] != "30000" || gone[15] != "21.0" {
		t.Errorf("departed call: %q", gone)
	}
	if !strings.Contains(string(r.Body), "\r\n") {
		t.Error("CSV lines must end with CRLF")
	}

	r = s.Do(t, apptest.Request{Path: "/v1/export?type=estimates&port=" + analyticsPort, IP: apptest.FreshIP(), Key: starter})
	y, w := fx.monday.AddDate(0, 0, -7).ISOWeek()
	row := fmt.Sprintf("%s,%d,%d,%s,1,2,1,30000,0.50,", analyticsPort, y, w, fx.monday.AddDate(0, 0, -7).Format(time.DateOnly))
	if r.StatusCode != 200 || !strings.HasPrefix(string(r.Body), estimateHeader+"\r\n") || !strings.Contains(string(r.Body), row) {
		t.Errorf("estimates export: %d %v\n%s", r.StatusCode, r.Header, r.Body)
	}
	if r.Header.Get("Content-Disposition") != `attachment; filename="overwatch-estimates-`+analyticsPort+`-`+day+`.csv"` {
		t.Errorf("estimates filename: %v", r.Header)
	}
	r = s.Do(t, apptest.Request{Path: "/v1/export?limit=1", IP: apptest.FreshIP(), Key: starter})
	if lines := strings.Count(string(r.Body), "\r\n"); r.StatusCode != 200 || lines != 2 {
		t.Errorf("limit=1: %d, %d lines", r.StatusCode, lines)
	}
}

// The header rows of the exports, as published.
const (
	visitHeader    = "imo,name,flag,vessel_type,port,arrival,departure,anchorage,anchor_start,anchor_end,wait_hours,berth_zone,berth_start,berth_end,berth_hours,port_hours,confidence,draft_before,draft_after,operation,cargo_tonnes,cargo_quality,declared_destination"
	estimateHeader = "port,iso_year,iso_week,week_start,vessels,calls,calls_with_draught,tonnage,confidence,usda_actuals"
)
