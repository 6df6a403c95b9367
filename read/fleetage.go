package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/route"
)

// FleetAgeWindow is the trailing window of GET /v1/fleet-age.
const FleetAgeWindow = 90 * 24 * time.Hour

// FleetAgeRequest selects the vessels of a live fleet-age query: those with
// a current call of confidence 2 or more at the port ("": any port)
// overlapping [From, To], of the category ("" for every vessel). A vessel's
// age is Year less the build year recorded with its newest such call (at
// least 0).
type FleetAgeRequest struct {
	Port     string
	Category string
	From, To time.Time
	Year     int
}

// FleetAgeHistoryRequest selects a port's fleet_age_weekly rows of the
// vessel type (a category or "all") from the week of From on.
type FleetAgeHistoryRequest struct {
	Port, VesselType string
	From             time.Time
}

// FleetAgeStore computes the live fleet age per port and age bucket (rows
// of portstats.FleetAgeWeek without a week; empty buckets may have no
// row) and reads the weekly table, oldest week first.
type FleetAgeStore interface {
	FleetAge(ctx context.Context, r FleetAgeRequest) ([]portstats.FleetAgeWeek, error)
	FleetAgeHistory(ctx context.Context, r FleetAgeHistoryRequest) ([]portstats.FleetAgeWeek, error)
}

// fleetAgeRoutes mounts the fleet-age endpoints.
func fleetAgeRoutes(r route.Router, s FleetAgeStore, c *Cache, now func() time.Time) {
	live := Cached(c, "fleet_age", []string{tablePortCalls}, s.FleetAge)
	history := Cached(c, "fleet_age_history", []string{tableFleetAge}, s.FleetAgeHistory)
	r.Handle(fiber.MethodGet, "/fleet-age", overwatch.AccessKey, FleetAge(live, now))
	r.Handle(fiber.MethodGet, "/fleet-age/history", overwatch.AccessKey, FleetAgeHistory(history, now))
}

// AgeBucketShare is one bucket of a fleet-age breakdown.
type AgeBucketShare struct {
	Bucket     string   `json:"bucket"`
	Vessels    int      `json:"vessels"`
	Percentage *float64 `json:"percentage"`
}

// AgeRisk is the share of vessels over 20 and over 25 years old, in
// percent; null without vessels.
type AgeRisk struct {
	Over20Pct *float64 `json:"over_20_pct"`
	Over25Pct *float64 `json:"over_25_pct"`
}

// AgeProfile is the breakdown common to the fleet-age items.
type AgeProfile struct {
	Vessels      int              `json:"vessels"`
	MeanAgeYears *float64         `json:"mean_age_years"`
	Buckets      []AgeBucketShare `json:"buckets"`
	Risk         AgeRisk          `json:"risk"`
}

// newAgeProfile sums the bucket rows of one port (and week); estimated is
// how many of the vessels have an estimated build year.
func newAgeProfile(rows []portstats.FleetAgeWeek) (p AgeProfile, estimated int) {
	counts := make([]int, len(portstats.AgeBuckets))
	var ageSum float64
	for _, r := range rows {
		for i, b := range portstats.AgeBuckets {
			if r.Bucket == b.Name {
				counts[i] += r.Vessels
				p.Vessels += r.Vessels
				estimated += r.Estimated
				ageSum += r.MeanAge * float64(r.Vessels)
			}
		}
	}
	if p.Vessels > 0 {
		mean := roundTo(ageSum/float64(p.Vessels), 1)
		p.MeanAgeYears = &mean
	}
	var over20, over25 int
	p.Buckets = make([]AgeBucketShare, len(portstats.AgeBuckets))
	for i, b := range portstats.AgeBuckets {
		p.Buckets[i] = AgeBucketShare{Bucket: b.Name, Vessels: counts[i], Percentage: ratioPct(float64(counts[i]), float64(p.Vessels))}
		if b.Lo >= 20 {
			over20 += counts[i]
		}
		if b.Lo >= 25 {
			over25 += counts[i]
		}
	}
	p.Risk = AgeRisk{Over20Pct: ratioPct(float64(over20), float64(p.Vessels)), Over25Pct: ratioPct(float64(over25), float64(p.Vessels))}
	return p, estimated
}

// PortFleetAge is an item of GET /v1/fleet-age.
type PortFleetAge struct {
	Port                string `json:"port"`
	PortName            string `json:"port_name"`
	VesselType          string `json:"vessel_type"`
	PeriodStart         string `json:"period_start"`
	PeriodEnd           string `json:"period_end"`
	EstimatedBuildYears int    `json:"estimated_build_years"`
	AgeProfile
}

// FleetAge serves GET /v1/fleet-age: port (slug; every port, by slug, when
// absent), vessel_type. The distinct vessels with a call at the port in the
// trailing 90 days (no deeper than the tier's history), by age: the
// current year less the build year (from the registry, or estimated from
// the IMO number: estimated_build_years counts those). format=csv (plans
// with CSV export) answers the items flattened, a row per port and age
// bucket (FleetAgeCSVRow).
func FleetAge(live Query[FleetAgeRequest, []portstats.FleetAgeWeek], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		cat, err := categoryParam(c, "vessel_type")
		if err != nil {
			return err
		}
		csv, err := csvFormat(c)
		if err != nil {
			return err
		}
		t := now().UTC().Truncate(time.Second)
		ports := portsOrAll(port)
		from := overwatch.CallerFrom(c.UserContext()).ClampSince(t.Add(-FleetAgeWindow), t)
		f := FleetAgeRequest{Port: slugOf(port), From: Minute(from), To: Minute(t), Year: t.Year()}
		vt := "all"
		if cat != nil {
			f.Category, vt = cat.Name, cat.Name
		}
		rows, err := live(c.UserContext(), f)
		if err != nil {
			return err
		}
		by := map[string][]portstats.FleetAgeWeek{}
		for _, r := range rows {
			by[r.Port] = append(by[r.Port], r)
		}
		out := make([]PortFleetAge, len(ports))
		for i, p := range ports {
			profile, estimated := newAgeProfile(by[p.Slug])
			out[i] = PortFleetAge{
				Port: p.Slug, PortName: p.Name, VesselType: vt,
				PeriodStart: from.Format(time.RFC3339), PeriodEnd: t.Format(time.RFC3339),
				EstimatedBuildYears: estimated, AgeProfile: profile,
			}
		}
		if csv {
			return sendCSV(c, "fleet-age", now(), fleetAgeCSVRows(out), len(out)*len(portstats.AgeBuckets), func(r FleetAgeCSVRow) FleetAgeCSVRow { return r })
		}
		return c.JSON(fiber.Map{"fleet_age": out})
	}
}

// FleetAgeWeek is an item of the history of GET /v1/fleet-age/history.
type FleetAgeWeek struct {
	WeekStart string `json:"week_start"`
	AgeProfile
}

// FleetAgeHistoryBody is the body of GET /v1/fleet-age/history.
type FleetAgeHistoryBody struct {
	Port       string         `json:"port"`
	PortName   string         `json:"port_name"`
	Weeks      int            `json:"weeks"`
	VesselType *string        `json:"vessel_type"`
	History    []FleetAgeWeek `json:"history"`
}

// FleetAgeHistory serves GET /v1/fleet-age/history: port (required),
// vessel_type, weeks (default 12, 1 to 52: this ISO week and the ones
// before it), oldest first. Weeks that start before the tier's history
// floor are left out.
func FleetAgeHistory(history Query[FleetAgeHistoryRequest, []portstats.FleetAgeWeek], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", true)
		if err != nil {
			return err
		}
		cat, err := categoryParam(c, "vessel_type")
		if err != nil {
			return err
		}
		weeks, err := intParam(c, "weeks", 12, 1, 52)
		if err != nil {
			return err
		}
		t := now().UTC()
		from := laterDay(mondayOf(t).AddDate(0, 0, -7*(weeks-1)), overwatch.CallerFrom(c.UserContext()).HistoryFloor(t))
		body := FleetAgeHistoryBody{Port: port.Slug, PortName: port.Name, Weeks: weeks, History: []FleetAgeWeek{}}
		vt := "all"
		if cat != nil {
			vt = cat.Name
			body.VesselType = &cat.Name
		}
		rows, err := history(c.UserContext(), FleetAgeHistoryRequest{Port: port.Slug, VesselType: vt, From: from})
		if err != nil {
			return err
		}
		for i := 0; i < len(rows); {
			j := i
			for j < len(rows) && rows[j].Week.Equal(rows[i].Week) {
				j++
			}
			profile, _ := newAgeProfile(rows[i:j])
			body.History = append(body.History, FleetAgeWeek{WeekStart: rows[i].Week.UTC().Format(time.DateOnly), AgeProfile: profile})
			i = j
		}
		return c.JSON(body)
	}
}
