package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/bulk"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/maritime/seaport"
	"overwatch/postgres/pgtest"
	"overwatch/testclock"
)

// TestExportDerivedDatasets: a row of each derived dataset (a port call,
// a risk event, a voyage, a voyage's emissions), written into the store as
// the jobs write them, comes out of its export with its values: the port
// call at its port's position in GeoJSON, the risk event selected by a
// box, the voyage and the emissions by vessel and departure.
func TestExportDerivedDatasets(t *testing.T) {
	// Its own databases: the rows it writes straight into the derived
	// tables carry only the columns the export reads, which the other
	// endpoints of the shared suite database would list.
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_EXPORT_DIR": t.TempDir(),
		"CLICKHOUSE_URL": chtest.URL(t, "e2e_exports_datasets"), "DATABASE_URL": pgtest.URL(t, "e2e_exports_datasets")})
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	imo := apptest.NextIMO()
	at := testclock.Now().UTC().Add(-48 * time.Hour).Truncate(time.Second)
	day := at.Truncate(24 * time.Hour)
	gen := uint64(time.Now().UnixNano())
	dep := at.Add(30 * time.Hour)
	s.Fx.InsertPortCalls(t, gen, chtest.PortCall{IMO: imo, Port: "new-orleans", Arrival: at, Departure: &dep, Confidence: 3,
		Name: "=EXPORT CALL", Flag: "PA", Category: "bulk_carrier", DraftBefore: 9.5, Operation: "loading", CargoTonnes: 52000})
	s.Fx.RecordGeneration(t, "port_calls", day, gen)
	s.Fx.Insert(t, "risk_events", []string{"day", "gen", "type", "subtype", "imo", "started_at", "ongoing", "lat", "lon", "severity", "detail", "name"},
		[]any{day, gen, risk.EventGap, "intentional", uint32(imo), at, uint8(1), 12.5, -170.25, "high", "gap of 9 h", "EXPORT RISK"})
	s.Fx.RecordGeneration(t, "risk_events", day, gen)
	s.Fx.Insert(t, "voyage_earnings", []string{"day", "gen", "imo", "name", "origin", "destination", "commodity", "load_arrival", "departure", "arrival",
		"discharge_departure", "dwt", "distance_nm", "tonnes", "voyage_days", "port_days", "sea_days", "computed_at"},
		[]any{day, gen, uint32(imo), "EXPORT VOYAGE", "new-orleans", "rotterdam", "wheat", at, dep, dep.Add(240 * time.Hour), dep.Add(260 * time.Hour),
			61000.0, 4800.0, []float64{50000, 52000, 54000}, 11.5, 1.5, 10.0, testclock.Now().UTC().Truncate(time.Second)})
	s.Fx.RecordGeneration(t, "voyage_earnings", day, gen)
	s.Fx.Insert(t, "voyage_emissions", []string{"day", "gen", "id", "imo", "from_port", "to_port", "departure", "arrival", "vessel_class", "commodity",
		"method", "ttw", "wtw", "model_version"},
		[]any{day, gen, "v-" + imo.String(), uint32(imo), "new-orleans", "rotterdam", dep, dep.Add(240 * time.Hour), "panamax", "wheat", "mrv", 812.5, 990.25, "m1"})
	s.Fx.RecordGeneration(t, "voyage_emissions", day, gen)

	get := func(body string) []byte {
		t.Helper()
		e := waitExport(t, s, pro, exportOf(t, s, pro, body).ID)
		if e.Status != bulk.Completed || *e.Rows != 1 {
			t.Fatalf("%s: %+v %v", body, e, e.Error)
		}
		return downloadExport(t, s, pro, e.ID, "").Body
	}
	csvRow := func(b []byte) map[string]string {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(string(b)), "\r\n")
		if len(lines) != 2 {
			t.Fatalf("csv: %q", b)
		}
		head, vals := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
		out := map[string]string{}
		for i, h := range head {
			out[h] = vals[i]
		}
		return out
	}
	imoS := imo.String()
	window := `"start":"` + at.Add(-time.Minute).Format(time.RFC3339) + `","end":"` + at.Add(time.Minute).Format(time.RFC3339) + `"`

	// The port call, at its port's position.
	var fc struct {
		Features []struct {
			Geometry   struct{ Coordinates []float64 }
			Properties map[string]any
		}
	}
	if err := json.Unmarshal(get(`{"dataset":"port_calls","format":"geojson","filters":{"imo":"`+imoS+`",`+window+`}}`), &fc); err != nil || len(fc.Features) != 1 {
		t.Fatalf("port call geojson: %v %+v", err, fc)
	}
	port, _ := seaport.BySlug("new-orleans")
	f := fc.Features[0]
	if f.Geometry.Coordinates[0] != port.Lon || f.Geometry.Coordinates[1] != port.Lat || f.Properties["port"] != "new-orleans" ||
		f.Properties["arrival"] != at.Format(time.RFC3339) || f.Properties["departure"] != dep.Format(time.RFC3339) ||
		f.Properties["draft_before"] != 9.5 || f.Properties["draft_after"] != nil || f.Properties["cargo_tonnes"] != 52000.0 || f.Properties["name"] != "=EXPORT CALL" {
		t.Errorf("port call feature: %+v", f)
	}
	call := csvRow(get(`{"dataset":"port_calls","filters":{"imo":"` + imoS + `","bbox":"-91,29,-89,31"}}`))
	if call["name"] != "'=EXPORT CALL" || call["confidence"] != "3" || call["anchor_start"] != "" {
		t.Errorf("port call csv: %v", call)
	}

	// The risk event, in a box across the antimeridian.
	ev := csvRow(get(`{"dataset":"risk_events","filters":{"imo":"` + imoS + `","bbox":[170,10,-169,15]}}`))
	if ev["type"] != risk.EventGap || ev["subtype"] != "intentional" || ev["latitude"] != "12.5" || ev["longitude"] != "-170.25" || ev["ended_at"] != "" || ev["other_imo"] != "" || ev["ongoing"] != "1" {
		t.Errorf("risk event csv: %v", ev)
	}
	// The voyage and its emissions, by departure.
	depWindow := `"start":"` + dep.Add(-time.Minute).Format(time.RFC3339) + `"`
	v := csvRow(get(`{"dataset":"voyages","filters":{"imo":"` + imoS + `",` + depWindow + `}}`))
	if v["origin"] != "new-orleans" || v["cargo_tonnes"] != "52000" || v["distance_nm"] != "4800" || v["departure"] != dep.Format(time.RFC3339) {
		t.Errorf("voyage csv: %v", v)
	}
	em := csvRow(get(`{"dataset":"emissions","format":"csv","filters":{"imo":"` + imoS + `",` + depWindow + `}}`))
	if em["voyage_id"] != "v-"+imoS || em["ttw_t_co2e"] != "812.5" || em["wtw_t_co2e"] != "990.25" || em["method"] != "mrv" {
		t.Errorf("emissions csv: %v", em)
	}
}
