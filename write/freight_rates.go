package write

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// FreightVesselTypes are the vessel classes a freight rate is given for:
// the classes of the service's fleet (write/sim.Classes; the read side
// keeps the same list, and a test holds the three equal).
var FreightVesselTypes = []string{"handysize", "supramax", "panamax", "capesize",
	"crude_tanker", "product_tanker", "lng_carrier", "container"}

// FreightUnits are the units of a submitted rate, each with the largest
// rate accepted in it (anything above is a typo, not a market):
// USD per tonne of cargo up to 500, USD per day (time charter) up to
// 500,000, Worldscale points up to 1,000.
var FreightUnits = []struct {
	Name string
	Max  float64
}{{"usd_per_tonne", 500}, {"usd_per_day", 500_000}, {"worldscale", 1_000}}

// Bounds of a freight-rate submission.
const (
	MaxFreightBody    = 64 << 10 // bytes of a POST /v1/freight-rates body; more is 413
	FreightDailyCap   = 100      // records an account may submit per UTC day; more is 429
	MaxFreightNotes   = 500      // characters of notes
	FreightRateMaxAge = 1        // years: the oldest date accepted is a year before today
)

// NewFreightRate is a validated freight-rate record to store: the ports
// by slug, the date a UTC midnight.
type NewFreightRate struct {
	VesselType  string
	Origin      string
	Destination string
	Rate        float64
	Unit        string
	Date        time.Time
	Notes       string
}

// FreightRecord is a stored freight-rate record of an account, as POST
// /v1/freight-rates answers it (and GET lists it with source "own").
type FreightRecord struct {
	ID          int64     `json:"id"`
	Source      string    `json:"source"` // always "own"
	VesselType  string    `json:"vessel_type"`
	Origin      string    `json:"origin"`      // port slug
	Destination string    `json:"destination"` // port slug
	Rate        float64   `json:"rate"`
	Unit        string    `json:"unit"`
	Date        string    `json:"date"`   // YYYY-MM-DD
	Period      string    `json:"period"` // always "day"
	Notes       string    `json:"notes"`
	CreatedAt   time.Time `json:"created_at"`
}

// newFreightRecord presents a stored record: source "own", the date as
// YYYY-MM-DD, period "day".
func newFreightRecord(r overwatch.FreightRecord) FreightRecord {
	return FreightRecord{ID: r.ID, Source: "own", VesselType: r.VesselType, Origin: r.Origin, Destination: r.Destination,
		Rate: r.Rate, Unit: r.Unit, Date: r.Date.UTC().Format(time.DateOnly), Period: "day", Notes: r.Notes, CreatedAt: r.CreatedAt.UTC()}
}

// FreightRateStore keeps the accounts' freight-rate records.
type FreightRateStore interface {
	// CreateFreightRate stores r for the account, created at at (the
	// service's clock: the week a record counts in is its submission's),
	// and counts it against the account's submissions of at's UTC day; ok
	// is false, and nothing is stored, when the account has submitted
	// limit records that day (deleted ones count too).
	CreateFreightRate(ctx context.Context, accountID int64, r NewFreightRate, at time.Time, limit int) (rec overwatch.FreightRecord, ok bool, err error)
	// DeleteFreightRate deletes one of the account's records (NotFound
	// for another account's or an unknown id).
	DeleteFreightRate(ctx context.Context, accountID, id int64) error
	// DeleteFreightRates deletes all of the account's records and returns
	// how many.
	DeleteFreightRates(ctx context.Context, accountID int64) (int64, error)
}

// freightRoutes mounts submitting and deleting freight rates (any plan;
// GET /v1/freight-rates is the read side's).
func freightRoutes(r route.Router, s FreightRateStore, now func() time.Time) {
	key := overwatch.AccessKey
	r.Handle(fiber.MethodPost, "/freight-rates", key, CreateFreightRate(s, now))
	r.Handle(fiber.MethodDelete, "/freight-rates/:id", key, DeleteFreightRate(s))
	r.Handle(fiber.MethodDelete, "/freight-rates", key, DeleteFreightRates(s))
}

// CreateFreightRate serves POST /v1/freight-rates: a JSON object
// {vessel_type, origin, destination, rate, unit, date, notes?} (see
// ParseFreightRate), a body of at most MaxFreightBody bytes (413 beyond),
// at most FreightDailyCap records per account and UTC day (429 with
// Retry-After until the next UTC midnight); 201 with {"freight_rate":
// FreightRecord}.
func CreateFreightRate(store FreightRateStore, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		body := c.Body()
		if len(body) > MaxFreightBody {
			return overwatch.Errorf(overwatch.TooLarge, "request body too large (at most %d bytes)", MaxFreightBody)
		}
		at := now().UTC()
		today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
		r, err := ParseFreightRate(body, today)
		if err != nil {
			return err
		}
		rec, ok, err := store.CreateFreightRate(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, r, at, FreightDailyCap)
		if err != nil {
			return err
		}
		if !ok {
			wait := int(math.Max(1, math.Ceil(today.AddDate(0, 0, 1).Sub(at).Seconds())))
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
			return overwatch.Errorf(overwatch.TooManyRequests, "an account submits at most %d freight rates per day (UTC); the next is possible in %d s",
				FreightDailyCap, wait)
		}
		return c.Status(fiber.StatusCreated).JSON(fiber.Map{"freight_rate": newFreightRecord(rec)})
	}
}

// freightFields are the fields of a submission, in the order they are
// checked.
var freightFields = []string{"vessel_type", "origin", "destination", "unit", "rate", "date", "notes"}

func invalidField(field, format string, args ...any) error {
	return overwatch.Errorf(overwatch.Invalid, format, args...).With("field", field)
}

// ParseFreightRate reads and validates a submission against today (a UTC
// midnight). Every refusal is an Invalid error naming the field (also as
// "field"): unknown fields, wrong JSON types, text with NUL bytes or not
// valid UTF-8, a vessel_type not among FreightVesselTypes, ports that are
// not a slug or id of /v1/ports (or the same port twice), a unit not among
// FreightUnits, a rate not above 0 or above the unit's maximum, a date not
// YYYY-MM-DD, in the future or more than a year before today, notes over
// MaxFreightNotes characters. null is taken as absent.
func ParseFreightRate(body []byte, today time.Time) (NewFreightRate, error) {
	var r NewFreightRate
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return r, overwatch.Errorf(overwatch.Invalid, `body must be a JSON object like {"vessel_type": "panamax", "origin": "new-orleans", "destination": "rotterdam", "rate": 45.5, "unit": "usd_per_tonne", "date": "%s"}`, today.Format(time.DateOnly))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		if f := fieldAt(trimmed); f != "" {
			return r, invalidField(f, "%s is not valid JSON (%s); text must be valid UTF-8 without NUL bytes or control characters", f, jsonReason(err))
		}
		return r, overwatch.Errorf(overwatch.Invalid, "body is not valid JSON: %s", jsonReason(err))
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(freightFields, k) {
			name := k
			if len(name) > 64 {
				name = name[:64] + "…"
			}
			return r, invalidField(strings.ToValidUTF8(name, "?"), "unknown field %q; the fields are %s", strings.ToValidUTF8(name, "?"), strings.Join(freightFields[:6], ", ")+", notes (optional)")
		}
	}
	text := map[string]string{}
	for _, f := range freightFields {
		v, ok := raw[f]
		if !ok || string(v) == "null" {
			continue
		}
		if f == "rate" {
			if err := json.Unmarshal(v, &r.Rate); err != nil || math.IsNaN(r.Rate) || math.IsInf(r.Rate, 0) {
				return r, invalidField(f, "rate must be a number")
			}
			text[f] = "set"
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return r, invalidField(f, "%s must be a string", f)
		}
		if !utf8.Valid(v) || strings.ContainsRune(s, 0) {
			return r, invalidField(f, "%s must be valid UTF-8 text without NUL bytes", f)
		}
		text[f] = strings.TrimSpace(s)
	}
	for _, f := range freightFields[:6] {
		if text[f] == "" {
			return r, invalidField(f, "%s is required", f)
		}
	}
	return r, checkFreightRate(&r, text, today)
}

// checkFreightRate validates the decoded fields into r.
func checkFreightRate(r *NewFreightRate, text map[string]string, today time.Time) error {
	if !slices.Contains(FreightVesselTypes, text["vessel_type"]) {
		return invalidField("vessel_type", "vessel_type must be one of %s", strings.Join(FreightVesselTypes, ", "))
	}
	r.VesselType = text["vessel_type"]
	for _, f := range []string{"origin", "destination"} {
		p, ok := seaport.ByRef(text[f])
		if !ok {
			return invalidField(f, "unknown port %q in %s; see /v1/ports for slugs and ids", clipText(text[f], 100), f)
		}
		if f == "origin" {
			r.Origin = p.Slug
		} else {
			r.Destination = p.Slug
		}
	}
	if r.Origin == r.Destination {
		return invalidField("destination", "destination must be another port than origin")
	}
	max := -1.0
	var names []string
	for _, u := range FreightUnits {
		names = append(names, u.Name)
		if u.Name == text["unit"] {
			max = u.Max
		}
	}
	if max < 0 {
		return invalidField("unit", "unit must be one of %s", strings.Join(names, ", "))
	}
	r.Unit = text["unit"]
	if r.Rate <= 0 || r.Rate > max {
		return invalidField("rate", "rate must be above 0 and at most %s %s", strconv.FormatFloat(max, 'f', -1, 64), r.Unit)
	}
	d, err := time.Parse(time.DateOnly, text["date"])
	if err != nil {
		return invalidField("date", "date must be a date like %s", today.Format(time.DateOnly))
	}
	if d.After(today) {
		return invalidField("date", "date must not be in the future (today is %s, UTC)", today.Format(time.DateOnly))
	}
	if oldest := today.AddDate(-FreightRateMaxAge, 0, 0); d.Before(oldest) {
		return invalidField("date", "date must be within the last year (on or after %s)", oldest.Format(time.DateOnly))
	}
	r.Date = d
	if n := utf8.RuneCountInString(text["notes"]); n > MaxFreightNotes {
		return invalidField("notes", "notes must be at most %d characters (got %d)", MaxFreightNotes, n)
	}
	r.Notes = text["notes"]
	return nil
}

// fieldAt is the known field of the top-level object whose value the
// JSON decoder stopped in ("" when none): where a malformed body went
// wrong.
func fieldAt(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	depth, expectKey, last := 0, false, ""
	for {
		tok, err := dec.Token()
		if err != nil {
			if slices.Contains(freightFields, last) {
				return last
			}
			return ""
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
				expectKey = depth == 1 && v == '{'
			} else if depth--; depth == 1 {
				expectKey = true
			}
		case string:
			if depth == 1 && expectKey {
				last, expectKey = v, false
			} else if depth == 1 {
				expectKey = true
			}
		default:
			if depth == 1 {
				expectKey = true
			}
		}
	}
}

// jsonReason is the decoder's complaint without Go type names.
func jsonReason(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error() + " at byte " + strconv.FormatInt(se.Offset, 10)
	}
	return "not a JSON object"
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

func freightID(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, overwatch.Errorf(overwatch.Invalid, "id must be a positive integer (the id of a freight rate you submitted)").With("parameter", "id")
	}
	return id, nil
}

// DeleteFreightRate serves DELETE /v1/freight-rates/{id}: deletes one of
// the caller's records (404 for any other id).
func DeleteFreightRate(store FreightRateStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := freightID(c)
		if err != nil {
			return err
		}
		if err := store.DeleteFreightRate(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, id); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"deleted": 1, "id": id})
	}
}

// DeleteFreightRates serves DELETE /v1/freight-rates: deletes every record
// the caller's account submitted, answering how many.
func DeleteFreightRates(store FreightRateStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		n, err := store.DeleteFreightRates(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"deleted": n})
	}
}
