package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	sarsource "overwatch/sources/sar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/client"
	owhttp "overwatch/http"
	"overwatch/maritime/chokepoint"
	"overwatch/maritime/river"
	"overwatch/maritime/sanctions"
	"overwatch/testclock"
)

// specField is a field a documented record names, with the JSON type the
// service answers it with ("string", "number", "integer", "boolean",
// "array", "object"; "|null" where it may be null).
type specField struct{ name, json string }

// specRecord is one of the documented records of the keyed surface
// (specRecords): the operation that answers it and where it sits in the answer
// ("" the answer itself, "ports[]" every item of ports, "[]" every item of
// a bare array, "pagination" a member).
type specRecord struct {
	name   string
	op     string // "GET /ports"
	status int
	at     string
	fields []specField
}

func fields(spec ...string) []specField {
	out := make([]specField, len(spec))
	for i, s := range spec {
		name, typ, _ := strings.Cut(s, ":")
		out[i] = specField{name, typ}
	}
	return out
}

// specRecords are the documented records of the keyed surface, with
// their fields as the service answers them. Where a record names a field
// in words, it is mapped to the service's name: Vessel (search) IMO is
// imo_number, DWT dwt, the dimensions length_m, beam_m and draft_m; Export
// estimate vessel count is vessels, USDA actuals usda_actuals.
var specRecords = []specRecord{
	{"Port", "GET /ports", 200, "ports[]", fields("slug:string", "name:string", "country:string", "region:string")},
	{"Health status", "GET /health", 200, "", fields("status:string", "positions:integer|null", "vessels:integer|null", "positions_last_hour:integer|null")},
	{"Vessel (search)", "GET /vessels", 200, "vessels[]", fields("imo_number:string", "name:string|null", "dwt:number|null", "flag:string|null",
		"length_m:number|null", "beam_m:number|null", "draft_m:number|null")},
	{"Port position", "GET /positions", 200, "[]", fields("imo_number:string", "latitude:number|null", "longitude:number|null", "speed:number|null",
		"course:number|null", "draft:number|null", "nav_status:string|null", "name:string|null", "vessel_type:string|null")},
	{"Export estimate", "GET /estimates", 200, "estimates[]", fields("vessels:integer", "tonnage:number", "confidence:number", "usda_actuals:number|null")},
	{"Risk stats", "GET /risk/stats", 200, "", fields("active_gaps:integer", "critical_vessels:integer", "active_hotspots:integer",
		"new_events_24h:integer", "events_by_tier:object")},
	{"STS stats", "GET /risk/sts/stats", 200, "", fields("total_events:integer", "by_confidence:object", "total_tonnage:number", "active_encounters:integer")},
	{"Risk vessel profile", "GET /risk/vessel/{imo}", 200, "", fields("vessel:object", "dark_events:array")},
	{"Congestion history wrapper", "GET /congestion/history", 200, "", fields("port:string", "port_name:string", "days:integer",
		"vessel_type:string|null", "history:array")},
	{"Berth weekly wrapper", "GET /berth-utilization/weekly", 200, "", fields("port:string", "port_name:string", "port_country:string",
		"weeks:integer", "berth_utilization_weekly:array")},
	{"Fleet-age history wrapper", "GET /fleet-age/history", 200, "", fields("port:string", "port_name:string", "weeks:integer",
		"vessel_type:string|null", "history:array")},
	{"LNG dashboard", "GET /lng", 200, "", fields("carriers_at_terminals:integer", "estimated_volume_7d_tons:number", "departures_7d:integer",
		"active_terminals:integer", "total_terminals:integer", "terminals:array")},
	{"Mining dashboard", "GET /mining", 200, "", fields("carriers_at_terminals:integer", "estimated_volume_7d_tons:number", "departures_7d:integer",
		"coal_departures_7d:integer", "iron_ore_departures_7d:integer", "terminals:array")},
	{"Calibration", "GET /calibration", 200, "", fields("calibration:object", "overrides:array", "self_calibrated:array", "manual_overrides:array")},
	{"River levels", "GET /river-levels", 200, "", fields("readings:array", "alerts:array")},
	{"River reading", "GET /river-levels", 200, "readings[]", fields("name:string", "river:string", "level_ft:number", "status:string",
		"critical_low_ft:number|null", "flood_stage_ft:number|null")},
	{"Radar coverage", "GET /sar-coverage", 200, "", fields("has_coverage:boolean", "products:array", "closest_pass_hours:number|null",
		"verification_potential:string")},
	{"Radar product", "GET /sar-coverage", 200, "products[]", fields("name:string", "start:string", "size_mb:number|null")},
	{"Alerts list", "GET /alerts", 200, "", fields("alerts:array", "count:integer", "unacknowledged:integer")},
	{"Unified alerts list", "GET /alerts/unified", 200, "", fields("alerts:array", "count:integer", "pagination:object", "filters:object")},
	{"Unified alerts pagination", "GET /alerts/unified", 200, "pagination", fields("has_more:boolean", "next_cursor:string|null")},
	{"Alert state result", "POST /alerts/unified/state", 200, "", fields("ok:boolean", "alert_id:string", "action:string", "state:object")},
	{"Alert state", "POST /alerts/unified/state", 200, "state", fields("read_at:string|null", "resolved_at:string|null", "snoozed_until:string|null")},
	{"Disruptions", "GET /disruptions", 200, "", fields("signals:array", "count:integer", "timespan_hours:integer")},
	{"Disruption signal", "GET /disruptions", 200, "signals[]", fields("title:string", "url:string", "source_name:string", "published_at:string",
		"tone:number|null")},
	{"Mirror discrepancy", "GET /trade-flows?view=mirror", 200, "discrepancies[]", fields("exporter_name:string", "importer_name:string",
		"commodity_name:string", "exported_mt:number|null", "imported_mt:number|null", "discrepancy_pct:number|null", "status:string")},
	{"Sanctions view", "GET /trade-flows?view=sanctions", 200, "", fields("matches:array", "match_types:object")},
	{"Sanctions match types", "GET /trade-flows?view=sanctions", 200, "match_types", fields("direct_imo:integer", "mmsi:integer", "name:integer")},
	{"Sanctions match", "GET /trade-flows?view=sanctions", 200, "matches[]", fields("imo_number:string", "vessel_name:string",
		"sanctioned_entity:string", "list_source:string", "match_type:string")},
	{"Entity item", "GET /trade-flows?view=entity", 200, "entities[]", fields("imo_number:string", "vessel_name:string", "port_name:string|null",
		"is_sanctioned:boolean", "dark_event_count:integer", "risk_score:number|null")},
	{"Entitlements", "GET /billing/entitlements", 200, "entitlements", fields("plan:string", "product:string", "hasBundle:boolean",
		"canAccessOverwatch:boolean", "canAccessLocus:boolean")},
	{"API key creation result", "POST /keys", 201, "", fields("api_key:string", "warning:string")},
	{"Import result", "POST /pi-coverage/import", 200, "", fields("rows_processed:integer", "matched:integer", "unmatched_clubs:array")},
	{"Emissions response", "GET /emissions", 200, "", fields("fleet:object", "grouped:array", "voyages:array", "pagination:object")},
	{"Emissions report", "GET /emissions/report", 200, "", fields("report:object", "voyages:array", "pagination:object")},
}

// The documented records (specRecords), by their field names and with
// their JSON types, called through the generated Go client on a server
// whose data gives every list of them at least one item: a simulated fleet
// with its derivations, the trade samples, a sanctions entry, river
// readings, radar products, news, calibration, alerts and an account's
// keys and imports. Every named field is in the answer with its type, the
// lists the records live in are not empty, and the OpenAPI document lists
// every named field as required with that type.
func TestClientAnswersTheDocumentedRecords(t *testing.T) {
	t.Parallel() // its own databases
	// Up to the last whole hour, not midnight: GET /vessels?port= lists
	// the vessels seen in the port within a day of now, and late in the
	// day a fleet that stopped at midnight is nearly a day old.
	r := simulateUntil(t, "spec_fields", 23, 60, 15, testclock.Now().Truncate(time.Hour))
	r.Command(t, io.Discard, "jobs", "--once")
	files, err := filepath.Glob("../sources/comtrade/samples/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("trade samples: %v %v", files, err)
	}
	r.Command(t, io.Discard, append([]string{"import", "trade"}, files...)...)
	arrangeCalibration(t, r)
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_KEYED_LIMIT_PER_MINUTE": "100000"})
	ctx := context.Background()
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	rec := &recordingDoer{t: t, s: s, ok: map[string]int{}, longest: map[string]int{}, examples: map[string]any{}}
	c, err := client.NewClientWithResponses(s.Base+"/v1", client.WithHTTPClient(rec),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", key)
			r.Header.Set("X-Forwarded-For", apptest.FreshIP())
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}

	// The busiest port, and a vessel of the risk ranking with port calls.
	port := busiestPort(t, s, key)
	entity := client.Entity
	ranked, err := c.GetTradeFlowsWithResponse(ctx, &client.GetTradeFlowsParams{View: &entity, Limit: apptest.Ptr(200)})
	if !wantStatus(t, "entities", ranked, err, 200) {
		t.FailNow()
	}
	var listed struct {
		Entities []struct {
			IMO    string `json:"imo_number"`
			Visits []any  `json:"ports_visited"`
		} `json:"entities"`
	}
	apptest.MustUnmarshal(t, ranked.Body, &listed)
	imo := ""
	for _, e := range listed.Entities {
		if len(e.Visits) > 0 {
			imo = e.IMO
			break
		}
	}
	if imo == "" {
		t.Fatalf("no ranked vessel with a port call: %s", ranked.Body)
	}
	arrangeRecords(t, s, mustIMO(t, imo), port, account)

	answers := map[string][]byte{}
	answer := func(op string, status int, r clientStatus, err error) {
		t.Helper()
		if wantStatus(t, op, r, err, status) {
			answers[op] = bodyOf(r)
		}
	}
	ports, err := c.ListPortsWithResponse(ctx)
	answer("GET /ports", 200, ports, err)
	health, err := c.GetHealthWithResponse(ctx)
	answer("GET /health", 200, health, err)
	vessels, err := c.ListVesselsWithResponse(ctx, &client.ListVesselsParams{Port: &port})
	answer("GET /vessels", 200, vessels, err)
	positions, err := c.ListPortPositionsWithResponse(ctx, &client.ListPortPositionsParams{Port: port})
	answer("GET /positions", 200, positions, err)
	estimates, err := c.ListEstimatesWithResponse(ctx, &client.ListEstimatesParams{})
	answer("GET /estimates", 200, estimates, err)
	stats, err := c.GetRiskStatsWithResponse(ctx)
	answer("GET /risk/stats", 200, stats, err)
	sts, err := c.GetSTSStatsWithResponse(ctx)
	answer("GET /risk/sts/stats", 200, sts, err)
	profile, err := c.GetRiskVesselWithResponse(ctx, imo)
	answer("GET /risk/vessel/{imo}", 200, profile, err)
	cong, err := c.GetCongestionHistoryWithResponse(ctx, &client.GetCongestionHistoryParams{Port: port})
	answer("GET /congestion/history", 200, cong, err)
	berths, err := c.GetBerthUtilizationWeeklyWithResponse(ctx, &client.GetBerthUtilizationWeeklyParams{Port: port})
	answer("GET /berth-utilization/weekly", 200, berths, err)
	age, err := c.GetFleetAgeHistoryWithResponse(ctx, &client.GetFleetAgeHistoryParams{Port: port})
	answer("GET /fleet-age/history", 200, age, err)
	lng, err := c.GetLNGDashboardWithResponse(ctx)
	answer("GET /lng", 200, lng, err)
	mining, err := c.GetMiningDashboardWithResponse(ctx)
	answer("GET /mining", 200, mining, err)
	cal, err := c.GetCalibrationWithResponse(ctx)
	answer("GET /calibration", 200, cal, err)
	rivers, err := c.GetRiverLevelsWithResponse(ctx, &client.GetRiverLevelsParams{})
	answer("GET /river-levels", 200, rivers, err)
	// The day of the bundled ASF sample's product at Fairbanks.
	sarDate := "2021-11-10T03:00:00Z"
	sar, err := c.GetSARCoverageWithResponse(ctx, &client.GetSARCoverageParams{Lat: 64.8378, Lng: -147.7164, Date: &sarDate})
	answer("GET /sar-coverage", 200, sar, err)
	alerts, err := c.ListAlertsWithResponse(ctx, &client.ListAlertsParams{})
	answer("GET /alerts", 200, alerts, err)
	unified, err := c.UnifiedAlertsWithResponse(ctx, &client.UnifiedAlertsParams{Limit: apptest.Ptr(1)})
	answer("GET /alerts/unified", 200, unified, err)
	if unified != nil && unified.JSON200 != nil && len(unified.JSON200.Alerts) > 0 {
		state, err := c.SetAlertStateWithResponse(ctx, &client.SetAlertStateParams{},
			client.SetAlertStateJSONRequestBody{AlertId: &unified.JSON200.Alerts[0].AlertId, Action: apptest.Ptr(client.SetAlertStateJSONBodyActionSnooze)})
		answer("POST /alerts/unified/state", 200, state, err)
	}
	dis, err := c.ListDisruptionsWithResponse(ctx, &client.ListDisruptionsParams{})
	answer("GET /disruptions", 200, dis, err)
	for view, op := range map[client.GetTradeFlowsParamsView]string{client.Mirror: "GET /trade-flows?view=mirror",
		client.Sanctions: "GET /trade-flows?view=sanctions"} {
		tf, err := c.GetTradeFlowsWithResponse(ctx, &client.GetTradeFlowsParams{View: &view})
		answer(op, 200, tf, err)
	}
	ent, err := c.GetTradeFlowsWithResponse(ctx, &client.GetTradeFlowsParams{View: &entity, Imo: &imo})
	answer("GET /trade-flows?view=entity", 200, ent, err)
	ents, err := c.BillingEntitlementsWithResponse(ctx)
	answer("GET /billing/entitlements", 200, ents, err)
	newKey, err := c.CreateKeyWithResponse(ctx, client.CreateKeyJSONRequestBody{Name: apptest.Ptr("specification fields")})
	answer("POST /keys", 201, newKey, err)
	imp, err := c.ImportPICoverageWithBodyWithResponse(ctx, "text/csv",
		strings.NewReader("imo,club,effective_from\n"+imo+",Gard P. & I.,2025-02-20\n"+imo+",Acme Cover Ltd,2025-02-20\n"))
	answer("POST /pi-coverage/import", 200, imp, err)
	byIMO := client.ListEmissionsParamsGroupBy("imo")
	em, err := c.ListEmissionsWithResponse(ctx, &client.ListEmissionsParams{GroupBy: &byIMO})
	answer("GET /emissions", 200, em, err)
	rep, err := c.EmissionsReportWithResponse(ctx, &client.EmissionsReportParams{Entity: apptest.Ptr("Specification Fields Ltd")})
	answer("GET /emissions/report", 200, rep, err)

	// The answers: every named field with its type; every list the
	// records live in, and every list the records hold, not empty.
	var checked []string
	for _, sr := range specRecords {
		body, ok := answers[sr.op]
		if !ok {
			t.Errorf("%s: %s was not answered", sr.name, sr.op)
			continue
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Errorf("%s: %v", sr.name, err)
			continue
		}
		objs, err := recordsAt(v, sr.at)
		if err != nil || len(objs) == 0 {
			t.Errorf("%s: no record at %q of %s (%v): %.300s", sr.name, sr.at, sr.op, err, body)
			continue
		}
		checked = append(checked, fmt.Sprintf("%s (%d)", sr.name, len(objs)))
		for i, o := range objs {
			for _, f := range sr.fields {
				val, present := o[f.name]
				if !present {
					t.Errorf("%s %d: no %s in %s", sr.name, i, f.name, mustJSON(t, o))
					continue
				}
				if got := jsonTypeOf(val); !typeAllows(f.json, got) {
					t.Errorf("%s %d: %s is %s, want %s", sr.name, i, f.name, got, f.json)
				}
				if list, ok := val.([]any); ok && len(list) == 0 {
					t.Errorf("%s: %s is an empty list: the data arranged should fill it", sr.name, f.name)
				}
			}
		}
	}
	t.Logf("records checked: %s", strings.Join(checked, ", "))
	for op, check := range map[string]func(map[string]any) error{
		"GET /river-levels": func(m map[string]any) error {
			return oneOf(m["readings"], "status", "normal", "low", "critical", "flood")
		},
		"GET /sar-coverage": func(m map[string]any) error {
			return oneOf([]any{m}, "verification_potential", "high", "medium", "low", "none")
		},
		"GET /trade-flows?view=entity": func(m map[string]any) error {
			e := m["entities"].([]any)[0].(map[string]any)
			if e["imo_number"] != imo || e["port_name"] == nil || e["is_sanctioned"] != true || e["risk_score"] == nil {
				return fmt.Errorf("the arranged vessel %s: %v", imo, e)
			}
			return nil
		},
	} {
		var m map[string]any
		if err := json.Unmarshal(answers[op], &m); err != nil {
			t.Errorf("%s: %v", op, err)
		} else if err := check(m); err != nil {
			t.Errorf("%s: %v", op, err)
		}
	}

	// The document: every named field required, with that type.
	doc, _, err := owhttp.LoadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	for _, sr := range specRecords {
		schema, err := documentedAt(doc, sr)
		if err != nil {
			t.Errorf("%s: %v", sr.name, err)
			continue
		}
		required := map[string]bool{}
		for _, n := range schema.Required {
			required[n] = true
		}
		for _, f := range sr.fields {
			p := schema.Properties[f.name]
			if p == nil || p.Value == nil {
				t.Errorf("%s: %s is not in the document's schema of %s", sr.name, f.name, sr.op)
				continue
			}
			if !required[f.name] {
				t.Errorf("%s: the document does not list %s as required in %s", sr.name, f.name, sr.op)
			}
			if got := documentedType(p); got != f.json {
				t.Errorf("%s: the document types %s as %s, the answer as %s", sr.name, f.name, got, f.json)
			}
		}
	}
}

// arrangeCalibration gives the calibration its three lists: four weeks of
// USDA-style actuals and estimates of new-orleans (6 to 9 weeks back, before
// the simulated days) self-calibrated by the calibration job, and a
// manual override of seattle, as TestCalibrationEndToEnd arranges them.
func arrangeCalibration(t *testing.T, r *apptest.EvalRun) {
	t.Helper()
	today := testclock.Today()
	monday := today.AddDate(0, 0, -(int(today.Weekday())+6)%7)
	csv := "port,week,commodity,tonnes\n"
	fx := chtest.Open(t, r.ChURL)
	gen := uint64(testclock.Now().UnixNano())
	var rows [][]any
	for i := 6; i <= 9; i++ {
		week := monday.AddDate(0, 0, -7*i)
		csv += fmt.Sprintf("new-orleans,%s,corn,%d\n", week.Format(time.DateOnly), 900000+10000*i)
		y, w := week.ISOWeek()
		rows = append(rows, []any{week, gen, "new-orleans", uint16(y), uint8(w), uint32(5), uint32(6), uint32(5), 800000.0 + 5000*float64(i), 0.7})
	}
	path := filepath.Join(t.TempDir(), "actuals.csv")
	if err := os.WriteFile(path, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Command(t, io.Discard, "import", "actuals", path)
	fx.Insert(t, "estimates_weekly", strings.Split("day,gen,port,iso_year,iso_week,vessels,calls,calls_with_draught,tonnage,confidence", ","), rows...)
	for _, row := range rows {
		fx.RecordGeneration(t, "estimates_weekly", row[0].(time.Time), gen)
	}
	r.Command(t, io.Discard, "jobs", "--job", "calibration")
	r.Command(t, io.Discard, "calibration", "set", "--port", "seattle", "--commodity", "all", "--factor", "1.3",
		"--reason", "specification fields", "--by", "e2e")
}

// arrangeRecords adds what the simulation has not: the risk events of
// the vessel imo (writeClampFixtures), a sanctions entry naming it, river
// readings with one gauge out of normal, the bundled radar samples, a
// news signal, and two alerts of the account.
func arrangeRecords(t *testing.T, s *apptest.TestServer, imo overwatch.IMO, port string, account int64) {
	t.Helper()
	ctx := context.Background()
	writeClampFixtures(t, s, testclock.Now(), imo, port, 1)
	if err := s.Ch.ReplaceSanctions(ctx, "OFAC SDN", []sanctions.Entry{{ListSource: "OFAC SDN", EntryID: "36001",
		Name: "SPECIFICATION FIELDS CARRIER", IMO: imo, Program: "IRAN", Owner: "FIELDS HOLDINGS LTD"}}); err != nil {
		t.Fatal(err)
	}
	at := testclock.Now().UTC().Add(-30 * time.Minute).Truncate(15 * time.Minute)
	var readings []river.Reading
	for site, ft := range map[string]float64{"07010000": -6.2, "07032000": 12.3} {
		for _, back := range []time.Duration{0, 24 * time.Hour} {
			readings = append(readings, river.Reading{Site: site, Parameter: river.ParamGageHeight, Time: at.Add(-back),
				Value: ft, Qualifiers: []string{"P"}, Source: "nwis-iv"})
		}
	}
	if err := s.Ch.InsertRiverReadings(ctx, readings); err != nil {
		t.Fatal(err)
	}
	sarsource.LoadSamples(ctx, s.Ch, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := s.Ch.InsertDisruptions(ctx, []chokepoint.Disruption{{Kind: chokepoint.KindNews, Source: chokepoint.SourceGDELT,
		Title: "Dockworkers strike at the port", URL: "https://example.com/strike", SourceName: "example.com",
		PublishedAt: testclock.Now().UTC().Add(-2 * time.Hour).Truncate(time.Second), Tone: -3.5, Port: port, Language: "English"}}); err != nil {
		t.Fatal(err)
	}
	raiseFor(t, s, account, 2)
}
