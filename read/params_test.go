package read

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// paramApp answers every request with what fn parsed, or with the error's
// code and message, as the service's error path would.
func paramApp(t *testing.T, caller *overwatch.Caller, fn func(c *fiber.Ctx) (any, error)) func(query string) (int, string) {
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		return c.Status(400).JSON(fiber.Map{"code": overwatch.ErrorCode(err), "error": err.Error()})
	}})
	app.Get("/", func(c *fiber.Ctx) error {
		c.SetUserContext(overwatch.WithCaller(c.UserContext(), caller))
		v, err := fn(c)
		if err != nil {
			return err
		}
		return c.JSON(v)
	})
	return func(query string) (int, string) {
		resp, err := app.Test(httptest.NewRequest("GET", "/?"+query, nil))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
}

func TestLimitParam(t *testing.T) {
	t.Parallel()
	cases := []struct {
		caller *overwatch.Caller
		query  string
		want   string
	}{
		{&overwatch.Caller{Plan: overwatch.PlanPro}, "", "50"},
		{&overwatch.Caller{Plan: overwatch.PlanPro}, "limit=150", "150"},
		{&overwatch.Caller{Plan: overwatch.PlanPro}, "limit=200", "200"},
		{&overwatch.Caller{Plan: overwatch.PlanStarter}, "limit=150", "100"},
		{&overwatch.Caller{Plan: overwatch.PlanFree}, "", "20"},
		{nil, "limit=7", "7"},
	}
	for _, tc := range cases {
		get := paramApp(t, tc.caller, func(c *fiber.Ctx) (any, error) { return limitParam(c, 50, 200) })
		if status, body := get(tc.query); status != 200 || body != tc.want {
			t.Errorf("%v %q: %d %s, want %s", tc.caller, tc.query, status, body, tc.want)
		}
	}
	get := paramApp(t, nil, func(c *fiber.Ctx) (any, error) { return limitParam(c, 50, 200) })
	for _, q := range []string{"limit=0", "limit=-3", "limit=abc", "limit=1.5", "limit=99999999999999999999"} {
		status, body := get(q)
		if status != 400 || !contains(body, "limit must be a positive integer") {
			t.Errorf("%s: %d %s", q, status, body)
		}
	}
	// Beyond the endpoint's maximum: a 400 naming the maximum, not a clamp.
	for _, q := range []string{"limit=201", "limit=9999999999999"} {
		if status, body := get(q); status != 400 || !contains(body, "limit must be at most 200") {
			t.Errorf("%s: %d %s", q, status, body)
		}
	}
}

func TestPortParam(t *testing.T) {
	t.Parallel()
	ports := seaport.All()
	if len(ports) == 0 {
		t.Skip("no reference ports yet")
	}
	p := ports[0]
	bySlug := paramApp(t, nil, func(c *fiber.Ctx) (any, error) {
		port, err := portParam(c, "port", true)
		if err != nil || port == nil {
			return nil, err
		}
		return port.Slug, nil
	})
	if status, body := bySlug("port=" + p.Slug); status != 200 || body != `"`+p.Slug+`"` {
		t.Errorf("slug: %d %s", status, body)
	}
	if status, body := bySlug(""); status != 400 || !contains(body, "port is required") {
		t.Errorf("missing: %d %s", status, body)
	}
	if status, body := bySlug("port=atlantis"); status != 400 || !contains(body, "unknown port 'atlantis' in port; see /v1/ports") {
		t.Errorf("unknown: %d %s", status, body)
	}
	// The stable UUID names the port too, in any letter case.
	for _, id := range []string{p.ID, strings.ToUpper(p.ID)} {
		if status, body := bySlug("port=" + id); status != 200 || body != `"`+p.Slug+`"` {
			t.Errorf("uuid %s: %d %s", id, status, body)
		}
	}
}

func TestScalarParams(t *testing.T) {
	t.Parallel()
	get := paramApp(t, nil, func(c *fiber.Ctx) (any, error) {
		days, err := intParam(c, "days", 30, 1, 365)
		if err != nil {
			return nil, err
		}
		active, err := boolParam(c, "active", true)
		if err != nil {
			return nil, err
		}
		tier, err := enumParam(c, "tier", "critical", "high")
		if err != nil {
			return nil, err
		}
		imo, ok, err := imoParam(c, "vessel", false)
		if err != nil {
			return nil, err
		}
		at, hasAt, err := timeParam(c, "start")
		if err != nil {
			return nil, err
		}
		r, hasR, err := floatParam(c, "radius")
		if err != nil {
			return nil, err
		}
		q, err := stringParam(c, "query", 10)
		if err != nil {
			return nil, err
		}
		return []any{days, active, tier, imo, ok, at, hasAt, r, hasR, q}, nil
	})
	status, body := get("")
	if status != 200 || body != `[30,true,"","0000000",false,"0001-01-01T00:00:00Z",false,0,false,""]` {
		t.Errorf("defaults: %d %s", status, body)
	}
	status, body = get("days=365&active=false&tier=high&vessel=9321483&start=2026-01-31&radius=2.5&query=%20ab%20")
	if status != 200 || body != `[365,false,"high","9321483",true,"2026-01-31T00:00:00Z",true,2.5,true,"ab"]` {
		t.Errorf("values: %d %s", status, body)
	}
	bad := map[string]string{
		"days=0":              "days must be an integer from 1 to 365",
		"days=366":            "days must be an integer from 1 to 365",
		"days=x":              "days must be an integer from 1 to 365",
		"active=yes":          "active must be 'true' or 'false'",
		"tier=low":            "tier must be one of critical, high",
		"vessel=123":          "vessel must be a 7-digit IMO number",
		"vessel=12345678":     "vessel must be a 7-digit IMO number",
		"vessel=123456a":      "vessel must be a 7-digit IMO number",
		"vessel=9321484":      "vessel is not an IMO number (its check digit fails)",
		"start=yesterday":     "start must be an ISO 8601 timestamp",
		"radius=NaN":          "radius must be a number",
		"radius=1e999":        "radius must be a number",
		"query=01234567890":   "query must be at most 10 characters",
		"start=2026-13-01":    "start must be an ISO 8601 timestamp",
		"start=2026-01-31T25": "start must be an ISO 8601 timestamp",
	}
	for q, want := range bad {
		if status, body := get(q); status != 400 || !contains(body, want) {
			t.Errorf("%s: %d %s, want %q", q, status, body, want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// The one time-parameter parser: a timestamp or a date within the range
// every supported ClickHouse holds (1970 through 2105); a time outside it
// is a 400 naming the parameter, never a query that matches nothing.
func TestTimeParamStoreRange(t *testing.T) {
	t.Parallel()
	get := paramApp(t, nil, func(c *fiber.Ctx) (any, error) {
		v, ok, err := timeParam(c, "end")
		if err != nil || !ok {
			return ok, err
		}
		return v.Format(time.RFC3339), nil
	})
	for q, want := range map[string]string{
		"end=1970-01-01":                  `"1970-01-01T00:00:00Z"`,
		"end=2105-12-31T23:59:59Z":        `"2105-12-31T23:59:59Z"`,
		"end=2026-03-02T10:00:00%2B02:00": `"2026-03-02T08:00:00Z"`,
		"":                                "false",
	} {
		if status, body := get(q); status != 200 || body != want {
			t.Errorf("%s: %d %s, want %s", q, status, body, want)
		}
	}
	for _, q := range []string{"end=2106-02-06", "end=2106-02-07T06:28:15Z", "end=2106-01-01T00:00:00Z", "end=9999-12-31",
		"end=1969-12-31T23:59:59Z", "end=0001-01-01", "end=1970-01-01T00:00:00%2B01:00"} {
		status, body := get(q)
		if status != 400 || !contains(body, "end must be from 1970-01-01T00:00:00Z to 2105-12-31T23:59:59Z") {
			t.Errorf("%s: %d %s", q, status, body)
		}
	}
	if status, body := get("end=yesterday"); status != 400 || !contains(body, "end must be an ISO 8601 timestamp") {
		t.Errorf("yesterday: %d %s", status, body)
	}
	// A week must end within the range too.
	week := paramApp(t, nil, func(c *fiber.Ctx) (any, error) { w, _, err := weekParam(c, "week"); return w, err })
	if status, body := week("week=2105-12-21"); status != 200 {
		t.Errorf("the last whole week: %d %s", status, body)
	}
	for q, msg := range map[string]string{"week=2105-12-28": "week must be from 1970-01-01", "week=1969-12-29": "week must be from 1970-01-01",
		"week=2026-03-03": "week must be the Monday"} {
		if status, body := week(q); status != 400 || !contains(body, msg) {
			t.Errorf("%s: %d %s", q, status, body)
		}
	}
}
