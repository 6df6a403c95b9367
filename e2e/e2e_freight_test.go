package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
	"overwatch/write/sim"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// freightAPI is the JSON of GET /v1/freight-rates.
type freightAPI struct {
	FreightRates []read.FreightRate `json:"freight_rates"`
}

// The read and write sides list the same vessel classes: the simulated
// fleet's.
func TestFreightVesselTypesAgree(t *testing.T) {
	var fleet []string
	for _, c := range sim.Classes {
		fleet = append(fleet, c.Name)
	}
	if !slices.Equal(read.FreightVesselTypes, write.FreightVesselTypes) || !slices.Equal(read.FreightVesselTypes, fleet) {
		t.Errorf("read %v, write %v, fleet %v", read.FreightVesselTypes, write.FreightVesselTypes, fleet)
	}
}

// Freight rates through the real server: the published ocean rates
// imported from the bundled AgTransport files (spot-checked against the
// files), submissions (201, every refusal a 400 naming the field, 413
// over 64 KiB, 429 past the daily cap), the caller's own records and the
// aggregates of a week that has ended, of at least five accounts (never
// one contributor's rate), ownership of reads and deletes.
func TestFreightRatesEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "freight_e2e"), pgtest.URL(t, "freight_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	files := []string{"../sources/market/samples/agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json",
		"../sources/market/samples/agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json"}
	if err := app.Run(context.Background(), append([]string{"overwatch", "import", "transport"}, files...), apptest.ClockEnv(func(k string) string { return env[k] }),
		io.Discard, io.Discard); err != nil {
		t.Fatalf("import: %v", err)
	}
	s := apptest.StartServer(t, env)
	me, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-me", overwatch.PlanPro)
	capped, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-capped", overwatch.PlanPro)
	var others []string
	for i := 0; i < read.FreightMinContributors; i++ {
		k, _ := s.NewKey(t, fmt.Sprintf("%s-c%d", apptest.UniqueEmail(t), i), overwatch.PlanPro)
		others = append(others, k)
	}
	today := testclock.Now().UTC().Format(time.DateOnly)
	record := func(vt, origin, dest string, rate float64) string {
		return fmt.Sprintf(`{"vessel_type":%q,"origin":%q,"destination":%q,"rate":%g,"unit":"usd_per_tonne","date":%q,"notes":"e2e"}`,
			vt, origin, dest, rate, today)
	}
	send := func(key, method, path, body string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Method: method, Path: path, IP: apptest.FreshIP(), Key: key, Body: body})
	}
	good := record("panamax", "new-orleans", "rotterdam", 45.5)

	// 201 with the record.
	r := send(me, http.MethodPost, "/v1/freight-rates", good)
	var created struct {
		FreightRate write.FreightRecord `json:"freight_rate"`
	}
	if err := json.Unmarshal(r.Body, &created); r.StatusCode != 201 || err != nil || created.FreightRate.ID == 0 ||
		created.FreightRate.Source != "own" || created.FreightRate.Date != today || created.FreightRate.CreatedAt.IsZero() {
		t.Fatalf("create: %d %s", r.StatusCode, r.Body)
	}
	myID := created.FreightRate.ID
	if r := send("", http.MethodPost, "/v1/freight-rates", good); r.StatusCode != 401 {
		t.Errorf("without a key: %d", r.StatusCode)
	}

	// Every refusal names its field.
	set := func(field, raw string) string {
		var m map[string]json.RawMessage
		_ = json.Unmarshal([]byte(good), &m)
		if raw == "" {
			delete(m, field)
		} else {
			m[field] = json.RawMessage(raw)
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	future := testclock.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
	old := testclock.Now().UTC().AddDate(-1, 0, -2).Format(time.DateOnly)
	for body, field := range map[string]string{
		set("colour", `"red"`):                         "colour",
		set("vessel_type", `"submarine"`):              "vessel_type",
		set("vessel_type", `7`):                        "vessel_type",
		set("vessel_type", ""):                         "vessel_type",
		set("origin", `"atlantis"`):                    "origin",
		set("origin", `{"slug":"santos"}`):             "origin",
		set("destination", `"new-orleans"`):            "destination",
		set("rate", `"45"`):                            "rate",
		set("rate", `0`):                               "rate",
		set("rate", `501`):                             "rate",
		set("unit", `"usd_per_hour"`):                  "unit",
		set("date", `"`+future+`"`):                    "date",
		set("date", `"`+old+`"`):                       "date",
		set("date", `"yesterday"`):                     "date",
		set("notes", `"`+strings.Repeat("n", 501)+`"`): "notes",
		set("notes", `"a\u0000b"`):                     "notes",
		strings.Replace(good, `"e2e"`, "\"e\xff\"", 1): "notes",
		strings.Replace(good, `"e2e"`, "\"e\x00\"", 1): "notes",
	} {
		r := send(me, http.MethodPost, "/v1/freight-rates", body)
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(r.Body, &e)
		if r.StatusCode != 400 || !strings.Contains(e.Error, field) {
			t.Errorf("%q: %d %s, want a 400 naming %s", body, r.StatusCode, r.Body, field)
		}
	}
	if r := send(me, http.MethodPost, "/v1/freight-rates", `[1,2]`); r.StatusCode != 400 {
		t.Errorf("an array: %d %s", r.StatusCode, r.Body)
	}
	if r := send(me, http.MethodPost, "/v1/freight-rates", set("notes", `"`+strings.Repeat("x", 70_000)+`"`)); r.StatusCode != 413 {
		t.Errorf("70 kB: %d %s", r.StatusCode, r.Body)
	}

	// The daily cap: the 101st submission of a day is a 429 with
	// Retry-After; refusals above did not count.
	for i := 0; i < write.FreightDailyCap; i++ {
		if r := send(capped, http.MethodPost, "/v1/freight-rates", good); r.StatusCode != 201 {
			t.Fatalf("submission %d: %d %s", i+1, r.StatusCode, r.Body)
		}
	}
	r = send(capped, http.MethodPost, "/v1/freight-rates", good)
	if wait, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.StatusCode != 429 || wait < 1 || wait > 86400 || !strings.Contains(string(r.Body), "at most 100") {
		t.Errorf("past the cap: %d Retry-After %q %s", r.StatusCode, r.Header.Get("Retry-After"), r.Body)
	}

	// Five other accounts on one route and day; two on another; then the
	// week ends and its aggregates are published.
	for i, k := range others {
		if r := send(k, http.MethodPost, "/v1/freight-rates", record("supramax", "santos", "qingdao", []float64{30, 32, 35, 31, 36}[i])); r.StatusCode != 201 {
			t.Fatalf("contribution %d: %d %s", i, r.StatusCode, r.Body)
		}
		if i < 2 {
			send(k, http.MethodPost, "/v1/freight-rates", record("supramax", "paranagua", "rizhao", 40))
		}
	}
	freightWeekPasses(t, s)

	get := func(key, query string) []read.FreightRate {
		t.Helper()
		r := send(key, http.MethodGet, "/v1/freight-rates"+query, "")
		var out freightAPI
		if err := json.Unmarshal(r.Body, &out); r.StatusCode != 200 || err != nil {
			t.Fatalf("GET %s: %d %s", query, r.StatusCode, r.Body)
		}
		return out.FreightRates
	}
	rows := get(me, "?limit=200")
	var own, agg []read.FreightRate
	published := map[string]read.FreightRate{}
	for _, row := range rows {
		switch row.Source {
		case "own":
			own = append(own, row)
		case "contributions":
			agg = append(agg, row)
		default:
			published[row.Source+" "+row.Origin+" "+row.Destination+" "+row.CargoSize+" "+row.Commodity+" "+row.Date] = row
		}
	}
	if len(own) != 1 || *own[0].ID != myID || *own[0].Notes != "e2e" || own[0].Rate != 45.5 {
		t.Errorf("own rows %+v", own)
	}
	if len(agg) != 1 || agg[0].Origin != "santos" || agg[0].Destination != "qingdao" || agg[0].Rate != 32.8 || *agg[0].Count != 5 ||
		*agg[0].Contributors != 5 || agg[0].VesselType != "supramax" {
		t.Errorf("aggregates (only santos → qingdao has five accounts) %+v", agg)
	}
	// Published values, as in the files: ehs5-yac3 2026-07 Gulf→Japan
	// 68.95 and PNW→Japan 35.95; 2n8s-739j 2025Q4 Odesa→Alexandria wheat,
	// 25,000-30,000 t, 20.43.
	for key, want := range map[string]struct {
		rate float64
		vt   string
	}{
		"ehs5-yac3 U.S. Gulf Japan  grain 2026-07-01":                     {68.95, "panamax"},
		"ehs5-yac3 Pacific Northwest Japan  grain 2026-07-01":             {35.95, "panamax"},
		"2n8s-739j Odesa Alexandria,Egypt 25,000-30,000 wheat 2025-10-01": {20.43, "handysize"},
	} {
		got, ok := published[key]
		if !ok || got.Rate != want.rate || got.VesselType != want.vt || got.Attribution == "" {
			keys := make([]string, 0, len(published))
			for k := range published {
				keys = append(keys, k)
			}
			t.Errorf("%s: %+v (%v), want %v; rows: %v", key, got, ok, want, keys)
		}
	}
	if rows := get(me, "?vessel_type=handysize"); len(rows) == 0 || slices.ContainsFunc(rows, func(r read.FreightRate) bool { return r.VesselType != "handysize" }) {
		t.Errorf("handysize: %+v", rows)
	}
	if r := send(me, http.MethodGet, "/v1/freight-rates?vessel_type=dinghy", ""); r.StatusCode != 400 || !strings.Contains(string(r.Body), "vessel_type") {
		t.Errorf("bad vessel_type: %d %s", r.StatusCode, r.Body)
	}

	// Another account neither sees nor deletes my record.
	for _, row := range get(others[0], "?limit=200") {
		if row.Source == "own" && row.Origin != "santos" && row.Origin != "paranagua" || row.ID != nil && *row.ID == myID {
			t.Errorf("another account sees %+v", row)
		}
	}
	if r := send(others[0], http.MethodDelete, fmt.Sprintf("/v1/freight-rates/%d", myID), ""); r.StatusCode != 404 {
		t.Errorf("another account's delete: %d %s", r.StatusCode, r.Body)
	}
	if r := send(me, http.MethodDelete, fmt.Sprintf("/v1/freight-rates/%d", myID), ""); r.StatusCode != 200 {
		t.Errorf("delete: %d %s", r.StatusCode, r.Body)
	}
	if r := send(me, http.MethodDelete, fmt.Sprintf("/v1/freight-rates/%d", myID), ""); r.StatusCode != 404 {
		t.Errorf("delete twice: %d %s", r.StatusCode, r.Body)
	}
	if r := send(capped, http.MethodDelete, "/v1/freight-rates", ""); r.StatusCode != 200 || string(r.Body) != `{"deleted":100}` {
		t.Errorf("delete all: %d %s", r.StatusCode, r.Body)
	}
	if rows := get(capped, "?limit=200"); slices.ContainsFunc(rows, func(r read.FreightRate) bool { return r.Source == "own" }) {
		t.Error("records left after deleting all")
	}
}
