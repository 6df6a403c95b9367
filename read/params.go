package read

import (
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// Query-parameter parsing shared by every GET handler. Each helper returns
// an Invalid error naming the parameter, so a bad request never reaches a
// store; values are copied out of the request buffer before they escape.

// limitParam reads ?limit=, defaulting to def, at most the endpoint's
// maximum, and clamps it by the caller's results-per-call.
func limitParam(c *fiber.Ctx, def, max int) (int, error) {
	n, ok, err := limitValue(c, max)
	if err != nil {
		return 0, err
	}
	if !ok {
		n = def
	}
	return overwatch.CallerFrom(c.UserContext()).ClampLimit(n, max), nil
}

// limitValue is the one parser of ?limit= for every list, JSON or file: a
// decimal integer from 1 to the endpoint's maximum (zero, a negative, a
// value beyond the maximum, a fraction or a word is a 400 naming limit and
// the range); ok is false when it is absent. The caller's plan then clamps
// it silently (results per call).
func limitValue(c *fiber.Ctx, max int) (n int, ok bool, err error) {
	raw := c.Query("limit")
	if raw == "" {
		return 0, false, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < 1 {
		return 0, false, overwatch.Errorf(overwatch.Invalid, "limit must be a positive integer (at most %d)", max).With("parameter", "limit")
	}
	if v > max {
		return 0, false, overwatch.Errorf(overwatch.Invalid, "limit must be at most %d", max).With("parameter", "limit")
	}
	return v, true, nil
}

// intParam reads an integer parameter that must lie in [min, max].
func intParam(c *fiber.Ctx, name string, def, min, max int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < min || v > max {
		return 0, overwatch.Errorf(overwatch.Invalid, "%s must be an integer from %d to %d", name, min, max).With("parameter", name)
	}
	return v, nil
}

// floatParam reads a number parameter; ok is false when it is absent.
func floatParam(c *fiber.Ctx, name string) (v float64, ok bool, err error) {
	raw := c.Query(name)
	if raw == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(raw, 64)
	if err != nil || v != v || v > 1e300 || v < -1e300 {
		return 0, false, overwatch.Errorf(overwatch.Invalid, "%s must be a number", name).With("parameter", name)
	}
	return v, true, nil
}

// boolParam reads 'true' or 'false'.
func boolParam(c *fiber.Ctx, name string, def bool) (bool, error) {
	switch c.Query(name) {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, overwatch.Errorf(overwatch.Invalid, "%s must be 'true' or 'false'", name).With("parameter", name)
}

// enumParam reads a parameter that must be one of allowed; "" when absent.
func enumParam(c *fiber.Ctx, name string, allowed ...string) (string, error) {
	raw := c.Query(name)
	if raw == "" {
		return "", nil
	}
	for _, a := range allowed {
		if raw == a {
			return a, nil
		}
	}
	return "", overwatch.Errorf(overwatch.Invalid, "%s must be one of %s", name, strings.Join(allowed, ", ")).With("parameter", name)
}

// stringParam reads a free-text parameter, trimmed and bounded in length.
func stringParam(c *fiber.Ctx, name string, maxLen int) (string, error) {
	raw := strings.TrimSpace(c.Query(name))
	if len(raw) > maxLen {
		return "", overwatch.Errorf(overwatch.Invalid, "%s must be at most %d characters", name, maxLen).With("parameter", name)
	}
	return strings.Clone(raw), nil
}

// portParam reads a port named by its slug or by its stable UUID (the
// "id" of /v1/ports, also the legacy references the specification
// accepts). An absent optional port is nil; an unknown one is an Invalid
// error naming the parameter and pointing to /v1/ports.
func portParam(c *fiber.Ctx, name string, required bool) (*seaport.Port, error) {
	raw := c.Query(name)
	if raw == "" {
		if required {
			return nil, overwatch.Errorf(overwatch.Invalid, "%s is required (a port slug or id; see /v1/ports)", name).With("parameter", name)
		}
		return nil, nil
	}
	p, ok := seaport.ByRef(raw)
	if !ok {
		return nil, overwatch.Errorf(overwatch.Invalid, "unknown port '%s' in %s; see /v1/ports for slugs and ids", truncate(raw, 100), name).With("parameter", name)
	}
	return &p, nil
}

// imoParam reads a 7-digit IMO number; ok is false when it is absent.
func imoParam(c *fiber.Ctx, name string, required bool) (imo overwatch.IMO, ok bool, err error) {
	raw := c.Query(name)
	if raw == "" {
		if required {
			return 0, false, overwatch.Errorf(overwatch.Invalid, "%s is required (a 7-digit IMO number)", name).With("parameter", name)
		}
		return 0, false, nil
	}
	imo, err = overwatch.ParseIMO(raw)
	if err != nil {
		return 0, false, overwatch.Errorf(overwatch.Invalid, "%s %v", name, err).With("parameter", name)
	}
	return imo, true, nil
}

// StoreTimeMin and StoreTimeMax bound the instants a time parameter may
// name: the range every supported ClickHouse holds. DateTime counts
// seconds from 1970-01-01 UTC; modern servers go on to 2106-02-07
// 06:28:15, but ClickHouse 18.16's calendar ends with 2105 (a time of 2106
// reads there as 0000-00-00 and matches nothing). A time outside the range
// is a 400 naming the parameter, never an answer silently empty.
var (
	StoreTimeMin = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	StoreTimeMax = time.Date(2105, 12, 31, 23, 59, 59, 0, time.UTC)
)

// timeLayouts are the forms of a time parameter: an ISO 8601 timestamp
// (RFC 3339) or a date (YYYY-MM-DD, midnight UTC).
var timeLayouts = []string{time.RFC3339Nano, time.DateOnly}

// timeParam reads an ISO 8601 timestamp (RFC 3339) or a date (YYYY-MM-DD,
// midnight UTC) within the store's range (ParseTimeParam); ok is false
// when it is absent.
func timeParam(c *fiber.Ctx, name string) (t time.Time, ok bool, err error) {
	raw := c.Query(name)
	if raw == "" {
		return time.Time{}, false, nil
	}
	t, err = ParseTimeParam(name, raw, timeLayouts...)
	return t, err == nil, err
}

// inapplicable refuses the parameters names that the mode of the request
// (such as view=sanctions) does not use: a 400 naming the first present.
// Parameters the endpoint does not know at all are not looked at (clients
// add their own, such as tracking parameters).
func inapplicable(c *fiber.Ctx, mode string, names ...string) error {
	for _, name := range names {
		if c.Query(name) != "" {
			return overwatch.Errorf(overwatch.Invalid, "%s does not apply to %s", name, mode).With("parameter", name)
		}
	}
	return nil
}

// ParseTimeParam is the one parser of the time parameters (since, date,
// start, end, week, ...): raw in one of layouts (the first that fits), in
// UTC, between StoreTimeMin and StoreTimeMax. Each refusal is an Invalid
// error naming the parameter.
func ParseTimeParam(name, raw string, layouts ...string) (time.Time, error) {
	t, ok := parseISOTime(raw, layouts...)
	if !ok {
		example := "an ISO 8601 timestamp like 2026-01-31T00:00:00Z or a date like 2026-01-31"
		if len(layouts) == 1 && layouts[0] == time.DateOnly {
			example = "a date like 2026-01-31"
		}
		return time.Time{}, overwatch.Errorf(overwatch.Invalid, "%s must be %s", name, example).With("parameter", name)
	}
	if err := inStoreRange(name, raw, t, t); err != nil {
		return time.Time{}, err
	}
	return t, nil
}

// parseISOTime reads raw in one of layouts (none given: timeLayouts, an
// ISO 8601 timestamp with any offset or a date at midnight UTC), in UTC,
// whatever its year: ParseTimeParam adds the store's range. The unified
// alerts' cursor reads it alone, as the alerts are kept in PostgreSQL,
// whose range is wider.
func parseISOTime(raw string, layouts ...string) (time.Time, bool) {
	if len(layouts) == 0 {
		layouts = timeLayouts
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// inStoreRange refuses a parameter (raw) that names the span from..to
// when it does not lie within the store's range.
func inStoreRange(name, raw string, from, to time.Time) error {
	if from.Before(StoreTimeMin) || to.After(StoreTimeMax) {
		return overwatch.Errorf(overwatch.Invalid, "%s must be from %s to %s, the range of the store (got '%s')",
			name, StoreTimeMin.Format(time.RFC3339), StoreTimeMax.Format(time.RFC3339), truncate(raw, 40)).With("parameter", name)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return strings.Clone(s)
	}
	return strings.Clone(s[:n]) + "…"
}
