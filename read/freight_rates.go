package read

import (
	"context"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// FreightVesselTypes are the vessel classes of GET /v1/freight-rates's
// vessel_type: the classes of the service's fleet (the same list as
// write.FreightVesselTypes; a test holds them equal).
var FreightVesselTypes = []string{"handysize", "supramax", "panamax", "capesize",
	"crude_tanker", "product_tanker", "lng_carrier", "container"}

// FreightMinContributors is how many accounts must have contributed to a
// route in a week before its aggregate is published
// (OVERWATCH_FREIGHT_MIN_CONTRIBUTORS; every account counts, the reader's
// too): the aggregate is one mean published once, so a coalition of up to
// k-2 accounts learns of the others only the sum of at least two of them
// (PooledFreightRate). FreightMinContributorsFloor is the least value
// allowed: below it, two accounts could isolate a third.
const (
	FreightMinContributors      = 5
	FreightMinContributorsFloor = 4
)

// FreightK is k of the aggregates for a configured value: 0 is
// FreightMinContributors, and anything below FreightMinContributorsFloor
// is the floor.
func FreightK(configured int) int {
	if configured == 0 {
		return FreightMinContributors
	}
	return max(configured, FreightMinContributorsFloor)
}

// maxOceanRows bounds the published ocean rates read per request (the
// datasets hold a few hundred rows each).
const maxOceanRows = 5000

// The source names of GET /v1/freight-rates besides the dataset ids.
const (
	FreightSourceContributions = "contributions"
	FreightSourceOwn           = "own"
)

// FreightContributions are the records submitted to one route (vessel
// type, origin, destination, unit) in one ISO week, as publication pools
// them: one value per contributing account, the median of its records
// there, so that an account weighs as one contributor however many
// records it posts.
type FreightContributions struct {
	VesselType  string
	Origin      string
	Destination string
	Unit        string
	Values      []float64 // one per contributing account, ascending
	Count       int       // records
}

// FreightAggregate is a published aggregate: the rates submitted to one
// route in one ISO week, pooled once after the week ended
// (PublishFreightAggregate) and never changed after.
type FreightAggregate struct {
	VesselType   string
	Origin       string
	Destination  string
	Unit         string
	Week         time.Time // the Monday of the week the records were submitted in
	Rate         float64   // PooledFreightRate of the accounts' values
	Count        int       // records
	Contributors int       // accounts
}

// PooledFreightRate is the rate an aggregate shows: the mean of the
// accounts' values, in cents. Unlike a median, a minimum or a maximum, it
// is never one contributor's value, and whatever values some accounts
// post, all it tells them of the others is the sum of their values: with
// at least two others, none of them is isolated. A trimmed mean or a
// quantile would not do: an account that moves its own value across the
// others changes which of them are kept, and two such answers can differ
// by one contributor's rate alone.
func PooledFreightRate(values []float64) float64 {
	var sum float64
	for _, v := range values {
		sum += v
	}
	return math.Round(sum/float64(len(values))*100) / 100
}

// PublishFreightAggregate is the aggregate a route's contributions to the
// week publish, ok false when fewer than minContributors accounts
// (FreightK) stand behind them: then nothing of the route and week is ever
// shown.
func PublishFreightAggregate(c FreightContributions, week time.Time, minContributors int) (FreightAggregate, bool) {
	if len(c.Values) < FreightK(minContributors) {
		return FreightAggregate{}, false
	}
	return FreightAggregate{VesselType: c.VesselType, Origin: c.Origin, Destination: c.Destination, Unit: c.Unit, Week: week,
		Rate: PooledFreightRate(c.Values), Count: c.Count, Contributors: len(c.Values)}, true
}

// FreightAggregateRequest selects published aggregates: of one vessel
// type ("" any), of the weeks that ended after Since (zero: all), newest
// week first, at most Limit.
type FreightAggregateRequest struct {
	VesselType string
	Since      time.Time
	Limit      int
}

// FreightRateQuery reads the submitted freight rates (PostgreSQL).
type FreightRateQuery interface {
	// OwnFreightRates returns the account's records of one vessel type (""
	// any), newest date first, at most limit.
	OwnFreightRates(ctx context.Context, accountID int64, vesselType string, limit int) ([]overwatch.FreightRecord, error)
	// PublishFreightWeeks publishes the aggregates of every week that has
	// ended by now and is not published yet (PublishFreightAggregate with
	// minContributors), each week once whoever asks first: the job or a
	// reader. It returns how many weeks and aggregates it published.
	PublishFreightWeeks(ctx context.Context, now time.Time, minContributors int) (weeks, aggregates int, err error)
	// FreightAggregates returns the published aggregates.
	FreightAggregates(ctx context.Context, r FreightAggregateRequest) ([]FreightAggregate, error)
}

// OceanRate is a published ocean freight rate (the transport_rates
// table, mode 'ocean').
type OceanRate struct {
	Dataset     string // the AgTransport dataset id
	Commodity   string
	Origin      string
	Destination string
	VesselSize  string // the published cargo-size band in tonnes ("25,000-30,000"), or ""
	Date        time.Time
	Frequency   string
	Rate        float64
	Unit        string
	USDPerTonne float64 // NaN when not convertible
}

// OceanRateRequest selects the published ocean rates (all of them, newest
// first, at most Limit): the handler maps them to vessel classes.
type OceanRateRequest struct {
	Limit int
}

// FreightDatasetStore reads the published ocean rates (ClickHouse).
type FreightDatasetStore interface {
	OceanRates(ctx context.Context, r OceanRateRequest) ([]OceanRate, error)
}

// freightRoutes mounts GET /v1/freight-rates (POST and DELETE are the
// write side's); minContributors is k of the aggregates (0:
// FreightMinContributors).
func freightRoutes(r route.Router, a FreightDatasetStore, s FreightRateQuery, c *Cache, now func() time.Time, minContributors int) {
	datasets := Cached(c, "ocean_rates", []string{"transport_rates"}, a.OceanRates)
	r.Handle(fiber.MethodGet, "/freight-rates", overwatch.AccessKey, FreightRates(datasets, s, now, FreightK(minContributors)))
}

// FreightRate is an item of GET /v1/freight-rates: a published rate
// (source: its dataset id), the published aggregate of the rates
// submitted to a route in a week (source "contributions": rate is
// PooledFreightRate of the accounts' values, with count and contributors),
// or one of the caller's own records (source "own", with id, notes and
// created_at).
type FreightRate struct {
	Source       string     `json:"source"`
	VesselType   string     `json:"vessel_type"`
	Origin       string     `json:"origin"`
	Destination  string     `json:"destination"`
	Date         string     `json:"date"`
	Period       string     `json:"period"`
	Rate         float64    `json:"rate"`
	Unit         string     `json:"unit"`
	Count        *int       `json:"count,omitempty"`
	Contributors *int       `json:"contributors,omitempty"`
	Commodity    string     `json:"commodity,omitempty"`
	CargoSize    string     `json:"cargo_size,omitempty"`
	Attribution  string     `json:"attribution,omitempty"`
	ID           *int64     `json:"id,omitempty"`
	Notes        *string    `json:"notes,omitempty"`
	CreatedAt    *time.Time `json:"created_at,omitempty"`
}

// FreightClassOf maps a published ocean rate to a vessel class: by the
// upper bound of its cargo-size band where the dataset publishes one
// (under 10,000 t: none of the service's classes; up to 40,000 t
// handysize; up to 60,000 t supramax; up to 100,000 t panamax; above,
// capesize), else by dataset: ehs5-yac3, heavy grain from the U.S. Gulf
// and the Pacific Northwest to Japan, is taken as panamax. ok is false
// for rates of no class.
func FreightClassOf(r OceanRate) (string, bool) {
	if band := strings.TrimSpace(r.VesselSize); band != "" {
		parts := strings.Split(strings.ReplaceAll(band, ",", ""), "-")
		t, err := strconv.ParseFloat(strings.TrimSpace(parts[len(parts)-1]), 64)
		switch {
		case err != nil || t < 10_000:
			return "", false
		case t <= 40_000:
			return "handysize", true
		case t <= 60_000:
			return "supramax", true
		case t <= 100_000:
			return "panamax", true
		}
		return "capesize", true
	}
	if r.Dataset == "ehs5-yac3" {
		return "panamax", true
	}
	return "", false
}

// periodOf names the period a published frequency covers.
func periodOf(frequency string) string {
	switch frequency {
	case "daily":
		return "day"
	case "weekly":
		return "week"
	case "monthly":
		return "month"
	case "quarterly":
		return "quarter"
	case "annual", "yearly":
		return "year"
	}
	return "day"
}

// datasetRates presents the published rates of a class ("" any) within
// depth of each series' newest observation (0: all).
func datasetRates(rates []OceanRate, vesselType string, depth time.Duration) []FreightRate {
	type series struct{ dataset, commodity, origin, destination, size string }
	newest := map[series]time.Time{}
	for _, r := range rates {
		k := series{r.Dataset, r.Commodity, r.Origin, r.Destination, r.VesselSize}
		if r.Date.After(newest[k]) {
			newest[k] = r.Date
		}
	}
	var out []FreightRate
	for _, r := range rates {
		class, ok := FreightClassOf(r)
		if !ok || vesselType != "" && class != vesselType || r.Origin == "" || r.Destination == "" {
			continue
		}
		k := series{r.Dataset, r.Commodity, r.Origin, r.Destination, r.VesselSize}
		if depth > 0 && r.Date.Before(newest[k].Add(-depth)) {
			continue
		}
		rate, unit := r.Rate, r.Unit
		if unit != "usd_per_tonne" {
			if math.IsNaN(r.USDPerTonne) || r.USDPerTonne <= 0 {
				continue
			}
			rate, unit = r.USDPerTonne, "usd_per_tonne"
		}
		if math.IsNaN(rate) || math.IsInf(rate, 0) || rate <= 0 {
			continue
		}
		attribution := "USDA AMS, Agricultural Transportation Open Data, dataset " + r.Dataset
		if r.Dataset == "ehs5-yac3" {
			attribution += "; rates: O'Neil Commodity Consulting"
		}
		out = append(out, FreightRate{Source: r.Dataset, VesselType: class, Origin: r.Origin, Destination: r.Destination,
			Date: r.Date.UTC().Format(time.DateOnly), Period: periodOf(r.Frequency), Rate: rate, Unit: unit,
			Commodity: r.Commodity, CargoSize: r.VesselSize, Attribution: attribution})
	}
	return out
}

// aggregateRates presents the published aggregates; one of fewer than
// FreightMinContributorsFloor accounts (none is stored) is left out.
func aggregateRates(aggs []FreightAggregate) []FreightRate {
	out := make([]FreightRate, 0, len(aggs))
	for _, a := range aggs {
		if a.Contributors < FreightMinContributorsFloor {
			continue
		}
		count, contributors := a.Count, a.Contributors
		out = append(out, FreightRate{Source: FreightSourceContributions, VesselType: a.VesselType, Origin: a.Origin,
			Destination: a.Destination, Date: a.Week.UTC().Format(time.DateOnly), Period: "week", Rate: a.Rate,
			Unit: a.Unit, Count: &count, Contributors: &contributors})
	}
	return out
}

// ownRates presents the caller's records.
func ownRates(recs []overwatch.FreightRecord) []FreightRate {
	out := make([]FreightRate, 0, len(recs))
	for _, r := range recs {
		id, notes, created := r.ID, r.Notes, r.CreatedAt.UTC()
		out = append(out, FreightRate{Source: FreightSourceOwn, VesselType: r.VesselType, Origin: r.Origin,
			Destination: r.Destination, Date: r.Date.UTC().Format(time.DateOnly), Period: "day", Rate: r.Rate, Unit: r.Unit,
			ID: &id, Notes: &notes, CreatedAt: &created})
	}
	return out
}

// sourceRank orders the sources of one date: own, contributions, datasets.
func sourceRank(s string) int {
	switch s {
	case FreightSourceOwn:
		return 0
	case FreightSourceContributions:
		return 1
	}
	return 2
}

// FreightRates serves GET /v1/freight-rates: vessel_type (one of
// FreightVesselTypes), limit (default 50, max 200, clamped by the tier).
// The published ocean rates mapped to a class (FreightClassOf; the plan's
// history depth counts back from each series' newest observation), the
// published aggregates of the rates submitted per route and ISO week
// (weeks that ended by now are published first where not yet, with
// minContributors; weeks that ended before the plan's history floor left
// out), and the caller's own records; newest first (own, contributions,
// datasets on one date), at most limit.
func FreightRates(datasets Query[OceanRateRequest, []OceanRate], store FreightRateQuery, now func() time.Time, minContributors int) fiber.Handler {
	return func(c *fiber.Ctx) error {
		vt, err := enumParam(c, "vessel_type", FreightVesselTypes...)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 50, 200)
		if err != nil {
			return err
		}
		ctx := c.UserContext()
		caller := overwatch.CallerFrom(ctx)
		at := now()
		own, err := store.OwnFreightRates(ctx, caller.AccountID, vt, limit)
		if err != nil {
			return err
		}
		// A week that has ended is published on its first read when the
		// publication job has not got to it yet.
		if _, _, err := store.PublishFreightWeeks(ctx, at, minContributors); err != nil {
			return err
		}
		aggs, err := store.FreightAggregates(ctx, FreightAggregateRequest{VesselType: vt, Since: caller.HistoryFloor(at), Limit: limit})
		if err != nil {
			return err
		}
		published, err := datasets(ctx, OceanRateRequest{Limit: maxOceanRows})
		if err != nil {
			return err
		}
		var depth time.Duration
		if floor := caller.HistoryFloor(at); !floor.IsZero() {
			depth = at.Sub(floor).Round(time.Hour)
		}
		out := append(ownRates(own), aggregateRates(aggs)...)
		out = append(out, datasetRates(published, vt, depth)...)
		sort.SliceStable(out, func(i, j int) bool {
			a, b := out[i], out[j]
			if a.Date != b.Date {
				return a.Date > b.Date
			}
			return sourceRank(a.Source) < sourceRank(b.Source)
		})
		if len(out) > limit {
			out = out[:limit]
		}
		return c.JSON(fiber.Map{"freight_rates": out})
	}
}
