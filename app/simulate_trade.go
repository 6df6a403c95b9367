package app

import (
	"errors"
	"flag"
	"math"
	"time"

	"overwatch/write/sim"
)

// tradeOptions are the `overwatch simulate` options of the trade world
// (write/sim Trade) and of the cheap older history (write/sim Coarse).
type tradeOptions struct {
	seasons, truths   bool
	trend             float64
	shifts, anomalies int
	deceptive, honest float64
	years             int
	recent            time.Duration
	sea, port         time.Duration
}

// defaultRecent is how much of the end of a backfill gets the full
// cadence by default: older history gets the coarse one.
const defaultRecent = 30 * 24 * time.Hour

func tradeFlags(fs *flag.FlagSet) *tradeOptions {
	o := &tradeOptions{}
	fs.BoolVar(&o.seasons, "seasons", false, "grain and oilseed loadings follow harvest export seasons (US Gulf and PNW Sep-Dec, Brazil Mar-Jul, Argentina Apr-Aug, Black Sea Jul-Nov, Australia Dec-Mar) and a yearly trend; origins get preferred lanes")
	fs.Float64Var(&o.trend, "trend", sim.DefaultTrend, "with --seasons: yearly growth of grain and oilseed loadings")
	fs.BoolVar(&o.truths, "trade-truths", false, "inject trade truths (route shifts, port-volume anomalies, deceptive destinations and honest changes of orders) at the default counts and rates, written to --truth")
	fs.IntVar(&o.shifts, "shifts", 0, "route shifts to inject (default with --trade-truths: 4)")
	fs.IntVar(&o.anomalies, "anomalies", 0, "port-volume anomalies to inject: port closures, each a drop and the next week's catch-up surge (default with --trade-truths: 6 a year of run)")
	fs.Float64Var(&o.deceptive, "deceptive-rate", 0, "per laden leg: a deceptive destination (default with --trade-truths: 0.04)")
	fs.Float64Var(&o.honest, "honest-rate", 0, "per laden leg: an honest late change of orders (default with --trade-truths: 0.04)")
	fs.IntVar(&o.years, "years", 0, "years to backfill (overrides --days)")
	fs.DurationVar(&o.recent, "recent", defaultRecent, "only this last part of the backfill gets the full cadence; older history the coarse one (0: full cadence throughout)")
	fs.DurationVar(&o.sea, "coarse-sea", sim.DefaultCoarseSea, "coarse cadence: the longest interval between positions at sea")
	fs.DurationVar(&o.port, "coarse-port", sim.DefaultCoarsePort, "coarse cadence: the interval between positions in and near port areas")
	return o
}

// days applies --years to --days.
func (o *tradeOptions) days(days *int) error {
	if o.years < 0 || o.years > 10 {
		return errors.New("simulate: --years must be 0 to 10")
	}
	if o.years > 0 {
		*days = 365 * o.years
	}
	if o.recent < 0 || o.shifts < 0 || o.anomalies < 0 || o.deceptive < 0 || o.honest < 0 || o.deceptive+o.honest > 1 {
		return errors.New("simulate: --recent, --shifts, --anomalies and the rates must not be negative (and the rates add up to 1 at most)")
	}
	return nil
}

// apply sets the trade and coarse-history options of a run ending at end.
func (o *tradeOptions) apply(c *sim.Config, end time.Time) {
	c.Trade = tradeConfig(o.seasons, o.truths, c.Start, end)
	c.Trade.Trend = o.trend
	if o.shifts > 0 {
		c.Trade.Shifts = o.shifts
	}
	if o.anomalies > 0 {
		c.Trade.Anomalies = o.anomalies
	}
	if o.deceptive > 0 {
		c.Trade.Deceptive = o.deceptive
	}
	if o.honest > 0 {
		c.Trade.Honest = o.honest
	}
	c.Coarse = coarseConfig(c.Start, end, o.recent)
	c.Coarse.Sea, c.Coarse.Port = o.sea, o.port
}

// tradeConfig is the trade world of a run from start to end: seasons, and
// the default trade truths (anomalies at 6 a year of run: 3 closures).
func tradeConfig(seasons, truths bool, start, end time.Time) sim.Trade {
	t := sim.Trade{Seasons: seasons, End: end}
	if truths {
		d := sim.DefaultTradeTruths
		years := end.Sub(start).Hours() / (24 * 365)
		t.Shifts, t.Deceptive, t.Honest = d.Shifts, d.Deceptive, d.Honest
		t.Anomalies = max(1, int(math.Round(float64(d.Anomalies)*years)))
	}
	return t
}

// coarseConfig gives the coarse cadence to what is older than recent
// before end (nothing when recent is 0 or covers the run).
func coarseConfig(start, end time.Time, recent time.Duration) sim.Coarse {
	if recent <= 0 || !end.Add(-recent).After(start) {
		return sim.Coarse{}
	}
	return sim.Coarse{Until: end.Add(-recent)}
}
