package jobs

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/earnings"
	"overwatch/maritime/portcall"
)

// fakeEarningsStore is an EarningsStore over calls and legs in memory (it
// reuses the trade store's calls and change log) that records what the
// job wrote.
type fakeEarningsStore struct {
	fakeTradeStore
	legs      []earnings.FuelLeg
	rates     []earnings.RateObs
	prices    []earnings.PriceObs
	weeks     []time.Time
	results   []earnings.Result
	revenue   []earnings.PortWeek
	revWeeks  []time.Time
	legsFrom  time.Time
	legsUntil time.Time
}

func (f *fakeEarningsStore) FuelLegs(_ context.Context, from, to time.Time) ([]earnings.FuelLeg, error) {
	f.legsFrom, f.legsUntil = from, to
	return f.legs, nil
}

func (f *fakeEarningsStore) EarningsOceanRates(context.Context) ([]earnings.RateObs, error) {
	return f.rates, nil
}

func (f *fakeEarningsStore) EarningsBrentPrices(context.Context) ([]earnings.PriceObs, error) {
	return f.prices, nil
}

func (f *fakeEarningsStore) WriteVoyageEarnings(_ context.Context, _ uint64, weeks []time.Time, rows []earnings.Result) error {
	f.weeks, f.results = weeks, rows
	return nil
}

func (f *fakeEarningsStore) WritePortRevenue(_ context.Context, _ uint64, weeks []time.Time, rows []earnings.PortWeek) error {
	f.revWeeks, f.revenue = weeks, rows
	return nil
}

// The job values each completed voyage with its legs' fuel (else the
// emissions model), the dataset rate of its lane (else the distance
// model) and the Brent price at its departure; it rewrites the weeks of
// departure from TradeTrailingDays before the watermark.
func TestEarningsJob(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC) // a Monday
	at := func(days float64) *time.Time {
		v := start.Add(time.Duration(days * 24 * float64(time.Hour)))
		return &v
	}
	var calls []portcall.Call
	var legs []earnings.FuelLeg
	// A voyage a week for 20 weeks, New Orleans → Chiba in 40 days, two
	// days in each port; the even weeks' legs are in voyage_emissions.
	for w := 0; w < 20; w++ {
		imo := overwatch.IMO(9000000 + w)
		d := float64(7 * w)
		calls = append(calls,
			portcall.Call{IMO: imo, Port: "new-orleans", Arrival: *at(d), Departure: at(d + 2), Confidence: 4, Operation: portcall.OpLoad,
				CargoTonnes: 60000, CargoQuality: portcall.CargoMeasured, DWTEstimate: 66000, ShipType: 70},
			portcall.Call{IMO: imo, Port: "chiba", Arrival: *at(d + 42), Departure: at(d + 44), Confidence: 4, Operation: portcall.OpDischarge, ShipType: 70})
		if w%2 == 0 {
			legs = append(legs, earnings.FuelLeg{IMO: imo, Departure: *at(d + 2), Arrival: *at(d + 42), FuelTonnes: earnings.Spread(1000, 0.2, 0.2),
				DistanceNM: 9300, DWT: 65000})
		}
	}
	store := &fakeEarningsStore{fakeTradeStore: fakeTradeStore{calls: calls}, legs: legs,
		rates:  []earnings.RateObs{{Dataset: "ehs5-yac3", Origin: "U.S. Gulf", Destination: "Japan", Date: start, USDPerTonne: 55}},
		prices: []earnings.PriceObs{{Source: "fred", Series: "POILBREUSDM", Date: start, USDPerBarrel: 80}}}
	run := Earnings(store)
	res, err := run(context.Background(), State{})
	if err != nil {
		t.Fatal(err)
	}
	if len(store.results) != 20 || len(store.revenue) != 20 || !res.From.Equal(start) || res.Rows != 40 {
		t.Fatalf("first run: %+v, %d voyages, %d port weeks", res, len(store.results), len(store.revenue))
	}
	r := store.results[0]
	if r.FuelSource != "voyage_emissions" || r.FuelTonnes.Central != 1000 || r.DWT != 65000 || r.Rate.Basis != "dataset" ||
		r.Rate.USDPerTonne.Central != 55 || r.Bunker.Basis != "brent" || r.VoyageDays != 44 || r.PortDays != 4 {
		t.Errorf("voyage 0: %+v", r)
	}
	want := (55*60000 - 1000*80*earnings.BarrelsPerTonne - r.PortCosts.Central) / 44
	if math.Abs(r.TCE.Central-want) > 1e-6 || !(r.TCE.Low < r.TCE.Central && r.TCE.Central < r.TCE.High) {
		t.Errorf("TCE %+v, want %v", r.TCE, want)
	}
	if r := store.results[1]; r.FuelSource != "emissions_model" || !(r.FuelTonnes.Central > 0) || r.DWT != 66000 {
		t.Errorf("voyage 1 (no legs): %+v", r)
	}
	// The next run: departures of the weeks from 77 days before the watermark.
	last := *at(19*7 + 44)
	res, err = run(context.Background(), State{Watermark: res.Watermark, LastSuccess: res.Watermark})
	if err != nil {
		t.Fatal(err)
	}
	wantFrom := portMonday(last.Add(-TradeTrailingDays * day))
	if !res.From.Equal(wantFrom) || !store.weeks[0].Equal(wantFrom) || !store.revWeeks[0].Equal(wantFrom) {
		t.Errorf("incremental run from %s (weeks from %s), want %s", res.From, store.weeks[0], wantFrom)
	}
	for _, r := range store.results {
		if r.Departure.Before(wantFrom) {
			t.Errorf("voyage departing %s outside the window", r.Departure)
		}
	}
}

func portMonday(t time.Time) time.Time { return earnings.Monday(t) }
