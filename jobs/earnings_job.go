package jobs

import (
	"context"
	"math"
	"sort"
	"time"

	"overwatch/maritime/earnings"
	"overwatch/maritime/emissions"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/sealane"
	"overwatch/maritime/trade"
	"overwatch/maritime/voyage"
)

// EarningsStore is what the earnings job needs of the analytics store:
// the port calls (the voyages), the fuel of their legs (voyage_emissions),
// the ocean freight rates and Brent prices (the market tables, possibly
// empty), and the earnings tables to write.
type EarningsStore interface {
	ChangeLog
	CallSpan(ctx context.Context) (first, last time.Time, err error)
	Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)
	// FuelLegs are the current voyage_emissions legs that departed in [from, to).
	FuelLegs(ctx context.Context, from, to time.Time) ([]earnings.FuelLeg, error)
	EarningsOceanRates(ctx context.Context) ([]earnings.RateObs, error)
	EarningsBrentPrices(ctx context.Context) ([]earnings.PriceObs, error)
	// WriteVoyageEarnings and WritePortRevenue write the rows of the ISO
	// weeks of departure as generation gen.
	WriteVoyageEarnings(ctx context.Context, gen uint64, weeks []time.Time, rows []earnings.Result) error
	WritePortRevenue(ctx context.Context, gen uint64, weeks []time.Time, rows []earnings.PortWeek) error
}

// Earnings derives voyage_earnings and port_revenue_weekly from the port
// calls, after trade_routes and emissions: the ISO weeks of departure from
// TradeTrailingDays before the watermark (a voyage completes up to
// trade.MaxTransitDays after it departs), or from trade.MaxTransitDays
// before the earliest port call rewritten since its previous run, to the
// end of the calls; every week on its first run.
func Earnings(store EarningsStore) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		first, last, err := store.CallSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		from := first
		if !prev.Watermark.IsZero() {
			from = maxTime(first, prev.Watermark.Add(-TradeTrailingDays*day))
		}
		late, err := lateStart(ctx, derivedChanged(store, "port_calls"), prev, from)
		if err != nil {
			return Result{}, err
		}
		if late.Before(from) {
			from = maxTime(first, late.Add(-trade.MaxTransitDays*day))
		}
		return DeriveEarnings(ctx, store, from, last)
	}
}

// DeriveEarnings recomputes the earnings of the voyages that departed in
// the ISO weeks from the one holding from to the one holding last.
func DeriveEarnings(ctx context.Context, store EarningsStore, from, last time.Time) (Result, error) {
	weeks := portstats.Weeks(from, last)
	end := weeks[len(weeks)-1].Add(7 * day)
	calls, err := store.Calls(ctx, weeks[0].Add(-2*day), end.Add((trade.MaxTransitDays+1)*day))
	if err != nil {
		return Result{}, err
	}
	legs, err := store.FuelLegs(ctx, weeks[0].Add(-day), end.Add((trade.MaxTransitDays+1)*day))
	if err != nil {
		return Result{}, err
	}
	rates, err := store.EarningsOceanRates(ctx)
	if err != nil {
		return Result{}, err
	}
	prices, err := store.EarningsBrentPrices(ctx)
	if err != nil {
		return Result{}, err
	}
	results := VoyageEarnings(calls, legs, rates, prices, weeks[0], end)
	gen := Generation()
	if err := store.WriteVoyageEarnings(ctx, gen, weeks, results); err != nil {
		return Result{}, err
	}
	revenue := earnings.PortRevenue(results)
	if err := store.WritePortRevenue(ctx, gen, weeks, revenue); err != nil {
		return Result{}, err
	}
	return Result{From: weeks[0], To: end, Rows: len(results) + len(revenue), Watermark: last}, nil
}

// cargoSpread is the uncertainty of the cargo estimate by its quality
// (portcall.EstimateCargo), in log space (bounds c·e^−u, c·e^+u: the
// estimate errs low more often than high). Measured against the
// simulator's truth, the draught estimate of a loading call's cargo errs
// by −30 % at the 10th percentile, −2.7 % at the median and +5.5 % at the
// 90th (docs/earnings.md): hence 0.35 for a measured draught range, wider
// for an assumed one or none.
var cargoSpread = map[string]float64{portcall.CargoMeasured: 0.35, portcall.CargoAssumed: 0.45}

// cargoUnknownSpread is the cargo uncertainty of any other quality.
const cargoUnknownSpread = 0.60

// cargoBounds are the cargo estimate's bounds.
func cargoBounds(tonnes float64, quality string) earnings.Bounds {
	u, ok := cargoSpread[quality]
	if !ok {
		u = cargoUnknownSpread
	}
	return earnings.Bounds{Low: tonnes * math.Exp(-u), Central: tonnes, High: tonnes * math.Exp(u)}
}

// VoyageEarnings values the completed laden voyages of the calls
// (trade.BuildVoyages, container liners left out) that departed in [from,
// to): their fuel from the emissions legs between the two calls (else the
// emissions model on the sea-lane distance), the rate of their lane and
// the bunker price at their departure. Sorted by departure, then IMO.
func VoyageEarnings(calls []portcall.Call, legs []earnings.FuelLeg, rates []earnings.RateObs, prices []earnings.PriceObs, from, to time.Time) []earnings.Result {
	type callKey struct {
		imo  uint32
		port string
		at   int64
	}
	loads, discharges := map[callKey]*portcall.Call{}, map[callKey]*portcall.Call{}
	for i := range calls {
		c := &calls[i]
		if c.Departure != nil {
			loads[callKey{uint32(c.IMO), c.Port, c.Departure.Unix()}] = c
		}
		discharges[callKey{uint32(c.IMO), c.Port, c.Arrival.Unix()}] = c
	}
	var out []earnings.Result
	for _, v := range trade.BuildVoyages(calls) {
		if v.Liner || v.Departure.Before(from) || !v.Departure.Before(to) || v.Tonnes <= 0 {
			continue
		}
		load := loads[callKey{uint32(v.IMO), v.Origin, v.Departure.Unix()}]
		dis := discharges[callKey{uint32(v.IMO), v.Destination, v.Arrival.Unix()}]
		if load == nil || dis == nil || dis.Departure == nil {
			continue
		}
		ev := earnings.Voyage{IMO: v.IMO, Name: v.Name, Origin: v.Origin, Destination: v.Destination, Commodity: v.Commodity,
			LoadArrival: load.Arrival, Departure: v.Departure, Arrival: v.Arrival, DischargeDepart: *dis.Departure,
			Tonnes: cargoBounds(v.Tonnes, load.CargoQuality), DWT: load.DWTEstimate}
		fuel, dist, dwt, ok := earnings.FuelOf(legs, v.IMO, v.Departure, v.Arrival)
		if dwt > 0 {
			ev.DWT = dwt
		}
		lane, _ := sealane.DistanceNM(v.Origin, v.Destination)
		if ok {
			ev.FuelTonnes, ev.DistanceNM, ev.FuelSource = fuel, dist, "voyage_emissions"
		} else {
			res := emissions.ComputeVoyage(emissions.VoyageInput{IMO: v.IMO, Name: v.Name, ShipType: load.ShipType, Commodity: v.Commodity,
				From: v.Origin, To: v.Destination, Departure: v.Departure, Arrival: v.Arrival, DWT: ev.DWT, SeaLaneDistanceNM: lane,
				HoursAtSea: v.Arrival.Sub(v.Departure).Hours(), CargoTonnes: v.Tonnes, CargoQuality: voyage.CargoQuality(load.CargoQuality),
				SpeedKnots: speedOf(lane, v.Departure, v.Arrival)})
			ev.FuelTonnes = earnings.Bounds{Low: res.FuelTonnes.Low, Central: res.FuelTonnes.Central, High: res.FuelTonnes.High}
			ev.DistanceNM, ev.FuelSource = res.DistanceNM, "emissions_model"
		}
		if lane <= 0 {
			lane = ev.DistanceNM
		}
		rate := earnings.RateFor(rates, v.Origin, v.Destination, v.Commodity, lane, ev.DWT, v.Departure)
		out = append(out, earnings.Compute(ev, rate, earnings.BunkerAt(prices, v.Departure)))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Departure.Equal(out[j].Departure) {
			return out[i].Departure.Before(out[j].Departure)
		}
		return out[i].IMO < out[j].IMO
	})
	return out
}

// speedOf is the mean speed over the distance between the times (0 when
// either is unknown): the speed the emissions model is given for a voyage
// without a track.
func speedOf(nm float64, from, to time.Time) float64 {
	if h := to.Sub(from).Hours(); nm > 0 && h > 0 {
		return nm / h
	}
	return 0
}
