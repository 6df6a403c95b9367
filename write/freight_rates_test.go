package write

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/route"
	"overwatch/write/sim"
)

// fakeFreightStore keeps records in memory with the daily cap.
type fakeFreightStore struct {
	mu      sync.Mutex
	next    int64
	records map[int64]int64 // id → account
	counts  map[string]int  // account/day → submissions
}

func (f *fakeFreightStore) CreateFreightRate(_ context.Context, account int64, r NewFreightRate, at time.Time, limit int) (overwatch.FreightRecord, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := at.UTC().Format(time.DateOnly) + "/" + string(rune('0'+account))
	if f.counts[k] >= limit {
		return overwatch.FreightRecord{}, false, nil
	}
	f.counts[k]++
	f.next++
	f.records[f.next] = account
	return overwatch.FreightRecord{ID: f.next, VesselType: r.VesselType, Origin: r.Origin, Destination: r.Destination,
		Rate: r.Rate, Unit: r.Unit, Date: r.Date, Notes: r.Notes, CreatedAt: at}, true, nil
}

func (f *fakeFreightStore) DeleteFreightRate(_ context.Context, account, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.records[id] != account {
		return overwatch.Errorf(overwatch.NotFound, "no freight rate %d of yours", id)
	}
	delete(f.records, id)
	return nil
}

func (f *fakeFreightStore) DeleteFreightRates(_ context.Context, account int64) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var n int64
	for id, a := range f.records {
		if a == account {
			delete(f.records, id)
			n++
		}
	}
	return n, nil
}

var freightToday = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)

const goodFreight = `{"vessel_type":"panamax","origin":"new-orleans","destination":"rotterdam","rate":45.5,"unit":"usd_per_tonne","date":"2026-11-20","notes":"fixture"}`

// with replaces (or, with value "", removes) one field of goodFreight.
func with(field, value string) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal([]byte(goodFreight), &m)
	if value == "" {
		delete(m, field)
	} else {
		m[field] = json.RawMessage(value)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// The vessel types are the simulated fleet's classes.
func TestFreightVesselTypesAreTheFleetClasses(t *testing.T) {
	t.Parallel()
	var names []string
	for _, c := range sim.Classes {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, FreightVesselTypes) {
		t.Errorf("FreightVesselTypes %v, the fleet's classes %v", FreightVesselTypes, names)
	}
}

// Every refusal names its field.
func TestParseFreightRate(t *testing.T) {
	t.Parallel()
	r, err := ParseFreightRate([]byte(goodFreight), freightToday)
	if err != nil || r.VesselType != "panamax" || r.Origin != "new-orleans" || r.Destination != "rotterdam" || r.Rate != 45.5 ||
		r.Unit != "usd_per_tonne" || !r.Date.Equal(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)) || r.Notes != "fixture" {
		t.Fatalf("%+v %v", r, err)
	}
	for body, want := range map[string]string{
		with("notes", ""):                                  "",
		with("notes", "null"):                              "",
		with("date", `"2026-11-26"`):                       "",
		with("date", `"2025-11-26"`):                       "",
		with("rate", "500"):                                "",
		with("unit", `"usd_per_day"`):                      "",
		``:                                                 "body must be a JSON object",
		`[1]`:                                              "body must be a JSON object",
		`{"vessel_type":`:                                  "vessel_type is not valid JSON",
		with("extra", "1"):                                 "unknown field \"extra\"",
		with("vessel_type", "1"):                           "vessel_type must be a string",
		with("vessel_type", `"submarine"`):                 "vessel_type must be one of",
		with("vessel_type", ""):                            "vessel_type is required",
		with("origin", `"atlantis"`):                       "unknown port \"atlantis\" in origin",
		with("destination", `"new-orleans"`):               "destination must be another port",
		with("destination", `["rotterdam"]`):               "destination must be a string",
		with("rate", `"45.5"`):                             "rate must be a number",
		with("rate", "0"):                                  "rate must be above 0",
		with("rate", "-3"):                                 "rate must be above 0",
		with("rate", "500.01"):                             "rate must be above 0 and at most 500 usd_per_tonne",
		with("rate", "1e400"):                              "rate must be a number",
		with("rate", ""):                                   "rate is required",
		with("unit", `"usd"`):                              "unit must be one of usd_per_tonne, usd_per_day, worldscale",
		with("date", `"2026-11-27"`):                       "date must not be in the future",
		with("date", `"2025-11-25"`):                       "date must be within the last year",
		with("date", `"20/11/2026"`):                       "date must be a date like",
		with("date", `20261120`):                           "date must be a string",
		with("notes", `"`+strings.Repeat("é", 501)+`"`):    "notes must be at most 500 characters",
		with("notes", `"a\u0000b"`):                        "notes must be valid UTF-8 text without NUL bytes",
		with("notes", `7`):                                 "notes must be a string",
		"{\"notes\":\"\xff\",\"vessel_type\":\"panamax\"}": "notes must be valid UTF-8",
	} {
		_, err := ParseFreightRate([]byte(body), freightToday)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", body, err)
			}
			continue
		}
		var e *overwatch.Error
		if !errors.As(err, &e) || e.Code != overwatch.Invalid || !strings.Contains(e.Message, want) {
			t.Errorf("%s: %v, want %q", body, err, want)
			continue
		}
		if strings.Contains(want, "JSON") {
			continue
		}
		field := ""
		for _, f := range e.Fields {
			if f.Key == "field" {
				field, _ = f.Value.(string)
			}
		}
		if field == "" || !strings.Contains(e.Message, field) {
			t.Errorf("%s: %q names no field (%q)", body, e.Message, field)
		}
	}
}

// Each unit has its own maximum.
func TestParseFreightRateUnitMaxima(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		unit string
		rate string
		ok   bool
	}{
		{"usd_per_tonne", "500", true}, {"usd_per_tonne", "500.5", false},
		{"usd_per_day", "500000", true}, {"usd_per_day", "500001", false},
		{"worldscale", "1000", true}, {"worldscale", "1000.1", false}, {"worldscale", "1e-9", true},
	} {
		body := strings.Replace(with("unit", `"`+c.unit+`"`), `"rate":45.5`, `"rate":`+c.rate, 1)
		_, err := ParseFreightRate([]byte(body), freightToday)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "rate must be above 0 and at most") {
			t.Errorf("%s %s: %v", c.rate, c.unit, err)
		}
	}
}

// A port is named by slug or by the id of /v1/ports.
func TestParseFreightRatePortID(t *testing.T) {
	t.Parallel()
	p, _ := seaport.BySlug("santos")
	r, err := ParseFreightRate([]byte(with("origin", `"`+strings.ToUpper(p.ID)+`"`)), freightToday)
	if err != nil || r.Origin != "santos" {
		t.Fatalf("%+v %v", r, err)
	}
}

// The handler: 201 with the record, 413 over 64 KiB, the cap a 429 with
// Retry-After until UTC midnight, deleting only one's own records.
func TestFreightRateHandlers(t *testing.T) {
	t.Parallel()
	store := &fakeFreightStore{records: map[int64]int64{}, counts: map[string]int{}}
	clock := freightToday.Add(22 * time.Hour)
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		status := map[overwatch.Code]int{overwatch.Invalid: 400, overwatch.NotFound: 404, overwatch.TooLarge: 413,
			overwatch.TooManyRequests: 429}[overwatch.ErrorCode(err)]
		if status == 0 {
			status = 500
		}
		return c.Status(status).JSON(fiber.Map{"error": err.Error()})
	}})
	var account int64
	v1 := app.Group("/v1", func(c *fiber.Ctx) error {
		c.SetUserContext(overwatch.WithCaller(c.UserContext(), &overwatch.Caller{AccountID: account, Plan: overwatch.PlanFree}))
		return c.Next()
	})
	freightRoutes(routerFunc(func(method, path string, h fiber.Handler) { v1.Add(method, path, h) }), store, func() time.Time { return clock })
	call := func(acct int64, method, path, body string) (int, string, string) {
		t.Helper()
		account = acct
		resp, err := app.Test(httptest.NewRequest(method, path, strings.NewReader(body)), -1)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header.Get(fiber.HeaderRetryAfter)
	}
	status, body, _ := call(1, "POST", "/v1/freight-rates", goodFreight)
	var created struct {
		FreightRate FreightRecord `json:"freight_rate"`
	}
	if err := json.Unmarshal([]byte(body), &created); status != 201 || err != nil || created.FreightRate.ID != 1 ||
		created.FreightRate.Origin != "new-orleans" || created.FreightRate.Date != "2026-11-20" ||
		created.FreightRate.Source != "own" || created.FreightRate.Period != "day" {
		t.Fatalf("create: %d %s", status, body)
	}
	if status, body, _ := call(1, "POST", "/v1/freight-rates", with("notes", `"`+strings.Repeat("x", 70_000)+`"`)); status != 413 {
		t.Errorf("70 kB: %d %s", status, body)
	}
	for i := 1; i < FreightDailyCap; i++ {
		if status, body, _ := call(1, "POST", "/v1/freight-rates", goodFreight); status != 201 {
			t.Fatalf("record %d: %d %s", i+1, status, body)
		}
	}
	if status, body, retry := call(1, "POST", "/v1/freight-rates", goodFreight); status != 429 || retry != "7200" || !strings.Contains(body, "at most 100") {
		t.Errorf("over the cap: %d %q %s", status, retry, body)
	}
	if status, _, _ := call(2, "POST", "/v1/freight-rates", goodFreight); status != 201 {
		t.Errorf("another account: %d", status)
	}
	if status, _, _ := call(2, "DELETE", "/v1/freight-rates/1", ""); status != 404 {
		t.Errorf("another account's delete: %d", status)
	}
	if status, _, _ := call(1, "DELETE", "/v1/freight-rates/x", ""); status != 400 {
		t.Errorf("bad id: %d", status)
	}
	if status, body, _ := call(1, "DELETE", "/v1/freight-rates/1", ""); status != 200 || body != `{"deleted":1,"id":1}` {
		t.Errorf("delete: %d %s", status, body)
	}
	if status, body, _ := call(1, "DELETE", "/v1/freight-rates", ""); status != 200 || body != `{"deleted":99}` {
		t.Errorf("delete all: %d %s", status, body)
	}
	clock = clock.Add(3 * time.Hour) // the next UTC day
	if status, _, _ := call(1, "POST", "/v1/freight-rates", strings.Replace(goodFreight, "2026-11-20", "2026-11-27", 1)); status != 201 {
		t.Errorf("the next day: %d", status)
	}
}

// routerFunc is a route.Router from a function.
type routerFunc func(method, path string, h fiber.Handler)

func (f routerFunc) Handle(method, path string, _ overwatch.Access, h fiber.Handler) {
	f(method, path, h)
}

func (f routerFunc) HandleBody(method, path string, _ overwatch.Access, _ route.Body, h fiber.Handler) {
	f(method, path, h)
}

// FuzzParseFreightRate: any body is a record or an Invalid error, never a
// panic; an accepted record is within its bounds.
func FuzzParseFreightRate(f *testing.F) {
	for _, s := range []string{goodFreight, with("unit", `"worldscale"`), with("notes", `"\u0000"`), `{"rate":1e999}`, `{}`, `null`,
		`{"vessel_type":"panamax","vessel_type":"capesize"}`, "{\"origin\":\"\xff\"}", `{"date":"2026-02-30"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := ParseFreightRate(body, freightToday)
		if err != nil {
			if overwatch.ErrorCode(err) != overwatch.Invalid {
				t.Fatalf("%q: %v", body, err)
			}
			return
		}
		if r.Rate <= 0 || r.Rate > 500_000 || r.Date.After(freightToday) || r.Origin == r.Destination || len([]rune(r.Notes)) > MaxFreightNotes {
			t.Fatalf("%q accepted as %+v", body, r)
		}
	})
}

// A malformed body names the field it went wrong in.
func TestParseFreightRateMalformed(t *testing.T) {
	t.Parallel()
	for body, field := range map[string]string{
		strings.Replace(goodFreight, `"fixture"`, "\"a\x00b\"", 1):    "notes",
		strings.Replace(goodFreight, `"fixture"`, "\"a\x01b\"", 1):    "notes",
		strings.Replace(goodFreight, `"panamax"`, "\"pana\nmax\"", 1): "vessel_type",
		strings.Replace(goodFreight, `45.5`, `45..5`, 1):              "rate",
		`{"origin":{"a":[1,}`:       "origin",
		`{"foo":"a` + "\x00" + `"}`: "",
	} {
		_, err := ParseFreightRate([]byte(body), freightToday)
		var e *overwatch.Error
		if !errors.As(err, &e) || e.Code != overwatch.Invalid || field != "" && !strings.HasPrefix(e.Message, field+" is not valid JSON") ||
			field == "" && !strings.HasPrefix(e.Message, "body is not valid JSON") {
			t.Errorf("%q: %v, want %q named", body, err, field)
		}
	}
}
