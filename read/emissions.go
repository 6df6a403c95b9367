package read

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/emissions"
	"overwatch/reports"
	"overwatch/route"
)

// GET /v1/emissions: the voyages of the emissions job, their fleet totals
// and groups, recomputed with the caller's assumptions when given.

// Emissions parameters: the default page, the endpoint's largest (further
// clamped by the plan's results per call), and the bounds of the overrides.
const (
	EmissionsDefaultLimit = 50
	EmissionsMaxLimit     = 500
	MinDistanceNM         = 1.0
	MaxDistanceNM         = 30000.0
	MinSpeedKnots         = 1.0
	MaxSpeedKnots         = 35.0
)

// EmissionsFilter selects stored voyages: ended (arrived) in [From, To)
// (zero From: no floor), of one vessel (IMO 0: every vessel), touching a
// port at either end ("" for every port).
type EmissionsFilter struct {
	IMO      overwatch.IMO
	Port     string
	From, To time.Time
}

// StoredVoyage is a voyage as the emissions job stored it: its ID, the
// model's input as JSON (decoded only to recompute it; nil unless asked
// for) and the result (without its factor names).
type StoredVoyage struct {
	ID     string
	Input  []byte
	Result emissions.Voyage
}

// EmissionsVoyagesRequest selects the stored voyages of a filter, with
// their inputs when WithInput.
type EmissionsVoyagesRequest struct {
	EmissionsFilter
	WithInput bool
}

// EmissionsStore reads the stored voyages. EmissionsVoyages returns those
// of a filter, newest arrival first, then by IMO and ID (the order of the
// cursor); the rows may be shared with other callers: they are never
// modified. EmissionsFactorNames returns the distinct names of the factors
// the voyages of a filter used.
type EmissionsStore interface {
	EmissionsVoyages(ctx context.Context, r EmissionsVoyagesRequest) ([]StoredVoyage, error)
	EmissionsFactorNames(ctx context.Context, f EmissionsFilter) ([]string, error)
}

// emissionsRoutes mounts the emissions endpoints. Both share the cached
// answers: the stored voyages of a filter, and what was computed from them
// for each set of assumptions.
func emissionsRoutes(r route.Router, s EmissionsStore, c *Cache, now func() time.Time) {
	stored := Cached(c, "emissions_voyages", []string{tableEmissions}, s.EmissionsVoyages)
	computed := Cached(c, "emissions_computed", []string{tableEmissions}, computeEmissions(stored))
	factors := Cached(c, "emissions_factor_names", []string{tableEmissions}, s.EmissionsFactorNames)
	r.Handle(fiber.MethodGet, "/emissions", overwatch.AccessKey, Emissions(computed, now))
	r.Handle(fiber.MethodGet, "/emissions/report", overwatch.AccessKey, EmissionsReport(computed, factors, now))
}

// EmissionsVoyage is a voyage of GET /v1/emissions: its ID and its emissions.
type EmissionsVoyage struct {
	ID string `json:"id"`
	emissions.Voyage
}

// Pagination says whether more rows follow and the cursor of the next page
// (null on the last page).
type Pagination struct {
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// EmissionsResponse is the body of GET /v1/emissions (written from its
// parts, encoded once per computed answer). Fleet and Grouped are over
// every voyage the query matches, not only the page.
type EmissionsResponse struct {
	Fleet      emissions.Totals  `json:"fleet"`
	Grouped    []emissions.Group `json:"grouped"`
	Voyages    []EmissionsVoyage `json:"voyages"`
	Pagination Pagination        `json:"pagination"`
}

// emissionsParams are the parameters both emissions endpoints share.
type emissionsParams struct {
	request emissionsRequest
	start   time.Time // the period asked for (before the history clamp)
	after   *emissionsCursor
}

// parseEmissionsParams reads imo, port, start, end (ISO timestamps; end
// defaults to now, start to defaultSpan before end, or to no floor when
// defaultSpan is 0; a start at the start of the store is no floor too), fuel_type, distance_nm, speed_knots and cursor. The
// plan's history floor clamps the start.
func parseEmissionsParams(c *fiber.Ctx, now time.Time, defaultSpan time.Duration) (emissionsParams, error) {
	var p emissionsParams
	imo, _, err := imoParam(c, "imo", false)
	if err != nil {
		return p, err
	}
	port, err := portParam(c, "port", false)
	if err != nil {
		return p, err
	}
	start, hasStart, err := timeParam(c, "start")
	if err != nil {
		return p, err
	}
	end, hasEnd, err := timeParam(c, "end")
	if err != nil {
		return p, err
	}
	if !hasEnd {
		end = now
	}
	if hasStart && start.Equal(StoreTimeMin) {
		start = time.Time{} // the start of the store: no floor, as when absent
	}
	if !hasStart && defaultSpan > 0 {
		start = end.Add(-defaultSpan)
	}
	if (hasStart || defaultSpan > 0) && !end.After(start) {
		return p, overwatch.Errorf(overwatch.Invalid, "end must be after start")
	}
	fuel, err := enumParam(c, "fuel_type", "vlsfo", "mgo", "lng", "methanol")
	if err != nil {
		return p, err
	}
	dist, hasDist, err := boundedParam(c, "distance_nm", MinDistanceNM, MaxDistanceNM, "nautical miles")
	if err != nil {
		return p, err
	}
	speed, hasSpeed, err := boundedParam(c, "speed_knots", MinSpeedKnots, MaxSpeedKnots, "knots")
	if err != nil {
		return p, err
	}
	if p.after, err = cursorParam(c); err != nil {
		return p, err
	}
	p.start = start
	p.request = emissionsRequest{
		Filter: EmissionsFilter{IMO: imo, Port: slugOf(port), From: Minute(overwatch.CallerFrom(c.UserContext()).ClampSince(start, now)), To: Minute(end)},
		Fuel:   emissions.FuelType(fuel),
	}
	if hasDist {
		p.request.DistanceNM = dist
	}
	if hasSpeed {
		p.request.SpeedKnots = speed
	}
	return p, nil
}

// boundedParam reads a number from min to max: an assumption a ship can
// hold (a voyage of a nautical mile or more, a speed a merchant ship
// sails at), not any positive number.
func boundedParam(c *fiber.Ctx, name string, min, max float64, unit string) (float64, bool, error) {
	v, ok, err := floatParam(c, name)
	if err == nil && ok && (v < min || v > max) {
		err = overwatch.Errorf(overwatch.Invalid, "%s must be a number of %s from %g to %g", name, unit, min, max).With("parameter", name)
	}
	if err != nil {
		return 0, false, err
	}
	return v, ok, nil
}

// emissionsCursor is the keyset of the last row of a page: the voyage's
// arrival, IMO and ID.
type emissionsCursor struct {
	Arrival time.Time
	IMO     overwatch.IMO
	ID      string
}

const cursorPrefix = "em1"

// encode makes the opaque cursor: URL-safe base64 of "em1|unix|imo|id".
func (k emissionsCursor) encode() string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + "|" + strconv.FormatInt(k.Arrival.Unix(), 10) + "|" + k.IMO.String() + "|" + k.ID))
}

// cursorParam reads the cursor of a next page; nil when absent.
func cursorParam(c *fiber.Ctx) (*emissionsCursor, error) {
	raw := c.Query("cursor")
	if raw == "" {
		return nil, nil
	}
	bad := overwatch.Errorf(overwatch.Invalid, "cursor is not a cursor of this endpoint (pass next_cursor as it was returned)").With("parameter", "cursor")
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return nil, bad
	}
	parts := strings.Split(string(b), "|")
	if len(parts) != 4 || parts[0] != cursorPrefix {
		return nil, bad
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	var imo overwatch.IMO // a sort key written by encode: decoded, not validated
	if err != nil || len(parts[2]) != 7 || imo.UnmarshalText([]byte(parts[2])) != nil || parts[3] == "" || len(parts[3]) > 64 {
		return nil, bad
	}
	return &emissionsCursor{Arrival: time.Unix(sec, 0).UTC(), IMO: imo, ID: parts[3]}, nil
}

// after reports whether v comes after the cursor in the order of the rows
// (newest arrival first, then IMO, then ID).
func (k *emissionsCursor) after(v *emissions.Voyage, id string) bool {
	a := v.Arrival.Unix()
	switch {
	case a != k.Arrival.Unix():
		return a < k.Arrival.Unix()
	case v.IMO != k.IMO:
		return v.IMO > k.IMO
	}
	return id > k.ID
}

// VoyageRows is a sequence of computed voyages.
type VoyageRows interface {
	Len() int
	At(i int) *emissions.Voyage
}

// voyageSet is every voyage a query matches, as computed for it: the
// stored results (shared, never modified), or the voyages recomputed with
// the caller's overrides and the factors they used.
type voyageSet struct {
	stored     []StoredVoyage
	recomputed []emissions.Voyage
	factors    []emissions.Factor
}

// Len is the number of voyages.
func (s *voyageSet) Len() int { return len(s.stored) }

// At is voyage i.
func (s *voyageSet) At(i int) *emissions.Voyage {
	if s.recomputed != nil {
		return &s.recomputed[i]
	}
	return &s.stored[i].Result
}

func (s *voyageSet) id(i int) string { return s.stored[i].ID }

// computeVoyages returns the stored results, or, with overrides, every
// voyage recomputed from its stored input with them (the factor names of
// each dropped once their union is kept).
func computeVoyages(stored []StoredVoyage, r emissionsRequest) (voyageSet, error) {
	s := voyageSet{stored: stored}
	if !r.override() {
		return s, nil
	}
	s.recomputed = make([]emissions.Voyage, len(stored))
	for i := range stored {
		var in emissions.VoyageInput
		if err := json.Unmarshal(stored[i].Input, &in); err != nil {
			return s, fmt.Errorf("read: voyage %s input: %w", stored[i].ID, err)
		}
		in.Fuel, in.DistanceNM, in.SpeedKnots = r.Fuel, r.DistanceNM, r.SpeedKnots
		s.recomputed[i] = emissions.ComputeVoyage(in)
	}
	s.factors = emissions.FactorsUsed(s.recomputed)
	for i := range s.recomputed {
		s.recomputed[i].Factors = nil
	}
	return s, nil
}

// totalRows sums the voyages.
func totalRows(rows VoyageRows) emissions.Totals {
	var t emissions.Totals
	for i := 0; i < rows.Len(); i++ {
		t.Add(rows.At(i))
	}
	return t
}

// groupRows totals the voyages by g, in key order, as
// overwatch.GroupEmissions does; none for GroupNone.
func groupRows(rows VoyageRows, g emissions.GroupBy) []emissions.Group {
	out := []emissions.Group{}
	if g == emissions.GroupNone || g == "" {
		return out
	}
	at := map[string]int{}
	for i := 0; i < rows.Len(); i++ {
		v := rows.At(i)
		k := g.Key(v)
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, emissions.Group{Key: k})
		}
		out[j].Add(v)
	}
	slices.SortFunc(out, func(a, b emissions.Group) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// page returns the indexes of the rows after the cursor, at most limit,
// and the pagination.
func (s *voyageSet) page(after *emissionsCursor, limit int) (from, to int, pg Pagination) {
	for from < s.Len() && after != nil && !after.after(s.At(from), s.id(from)) {
		from++
	}
	to = min(s.Len(), from+limit)
	if to < s.Len() && to > from {
		last := s.At(to - 1)
		next := emissionsCursor{Arrival: last.Arrival, IMO: last.IMO, ID: s.id(to - 1)}.encode()
		pg = Pagination{HasMore: true, NextCursor: &next}
	}
	return from, to, pg
}

// Emissions serves GET /v1/emissions: imo, port (either end of the
// voyage), start and end (the voyages that ended in [start, end); no
// earlier than the plan's history), fuel_type, distance_nm and
// speed_knots (the model's assumptions, applied to every voyage), group_by
// (none, imo, port, commodity), format (json, csv), cursor, limit (default
// 50, at most 500 and the plan's results per call; for CSV the plan's CSV
// rows, default all of them). CSV needs a plan with CSV export and sets
// X-Next-Cursor when more rows follow.
func Emissions(computed Query[emissionsRequest, *computedVoyages], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		t := now().UTC()
		p, err := parseEmissionsParams(c, t, 0)
		if err != nil {
			return err
		}
		groupRaw, err := enumParam(c, "group_by", "none", "imo", "port", "commodity")
		if err != nil {
			return err
		}
		group, _ := emissions.ParseGroupBy(groupRaw)
		format, err := enumParam(c, "format", "json", "csv")
		if err != nil {
			return err
		}
		if format == "csv" && group != emissions.GroupNone {
			return overwatch.Errorf(overwatch.Invalid, "group_by does not apply to format=csv (the voyage rows)").With("parameter", "group_by")
		}
		var limit int
		if format == "csv" {
			limit, err = csvLimitParam(c)
		} else {
			limit, err = limitParam(c, EmissionsDefaultLimit, EmissionsMaxLimit)
		}
		if err != nil {
			return err
		}
		e, err := computed(c.UserContext(), p.request)
		if err != nil {
			return err
		}
		set := &e.set
		from, to, pg := set.page(p.after, limit)
		if format == "csv" {
			return writeEmissionsCSV(c, set, from, to, pg, "overwatch-emissions-"+t.Format("20060102")+".csv")
		}
		// The body of EmissionsResponse, from the parts the cached answer
		// keeps encoded: a page costs its copy.
		grouped, err := e.groupedJSON(group)
		if err != nil {
			return err
		}
		fleet, err := json.Marshal(e.fleet)
		if err != nil {
			return err
		}
		pgJSON, err := json.Marshal(pg)
		if err != nil {
			return err
		}
		body := make([]byte, 0, 1024+(to-from)*1536)
		body = append(append(append(append(body, `{"fleet":`...), fleet...), `,"grouped":`...), grouped...)
		body = append(body, `,"voyages":[`...)
		for i := from; i < to; i++ {
			v, err := e.voyageJSON(i)
			if err != nil {
				return err
			}
			if i > from {
				body = append(body, ',')
			}
			body = append(body, v...)
		}
		body = append(append(append(body, `],"pagination":`...), pgJSON...), '}')
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	}
}

// csvLimitParam reads limit for a CSV answer: default and at most the
// plan's CSV rows (403 naming the plan needed when it has no CSV export).
func csvLimitParam(c *fiber.Ctx) (int, error) {
	caller := overwatch.CallerFrom(c.UserContext())
	if err := caller.Require(overwatch.FeatureCSVExport); err != nil {
		return 0, err
	}
	limit := csvRows(caller, ExportMaxRows)
	v, ok, err := limitValue(c, ExportMaxRows)
	if ok {
		limit = min(limit, v)
	}
	return limit, err
}

// writeEmissionsCSV answers with rows [from, to) of the set as the CSV of
// the report renderer.
func writeEmissionsCSV(c *fiber.Ctx, s *voyageSet, from, to int, pg Pagination, filename string) error {
	r := &reports.EmissionsReport{Voyages: make([]reports.EmissionsVoyage, 0, to-from)}
	for i := from; i < to; i++ {
		r.Voyages = append(r.Voyages, reportVoyage(s.At(i)))
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+filename+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	if pg.NextCursor != nil {
		c.Set("X-Next-Cursor", *pg.NextCursor)
	}
	return reports.WriteEmissionsCSV(c.Response().BodyWriter(), r)
}

// reportVoyage is a voyage as a row of the report (CSV, PDF, report JSON).
func reportVoyage(v *emissions.Voyage) reports.EmissionsVoyage {
	flags := make([]string, len(v.Flags))
	for i, f := range v.Flags {
		flags[i] = string(f)
	}
	return reports.EmissionsVoyage{
		Vessel: v.Name, IMO: v.IMO.String(), VesselType: string(v.Class), From: v.From, To: v.To,
		Departure: v.Departure, Arrival: v.Arrival, DistanceNM: v.DistanceNM, CargoTonnes: v.CargoTonnes.Central,
		Commodity: v.Commodity, Fuel: string(v.Fuel), FactorTTW: v.FactorTTW, Method: string(v.Method),
		TTW: emRange(v.TTW), WTW: emRange(v.WTW), TonneMiles: v.TonneMiles.Central, IntensityTTW: v.IntensityTTW.Central,
		Quality: v.Quality(), Flags: flags,
	}
}

func emRange(b emissions.Bounds) reports.EmissionsRange {
	return reports.EmissionsRange{Low: b.Low, Central: b.Central, High: b.High}
}
