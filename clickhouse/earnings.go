package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"overwatch"

	"overwatch/jobs"
	"overwatch/maritime/earnings"
	"overwatch/maritime/emissions"
	"overwatch/read"
)

// The earnings derivation's reads and writes and the earnings endpoints'
// queries (migrations/013_earnings.sql).

var (
	_ jobs.EarningsStore = (*DB)(nil)
	_ read.EarningsStore = (*DB)(nil)
)

// FuelLegs implements jobs.EarningsStore: the current voyage_emissions legs
// that departed in [from, to), with the fuel of their results and the
// deadweight of their inputs.
func (db *DB) FuelLegs(ctx context.Context, from, to time.Time) ([]earnings.FuelLeg, error) {
	var out []earnings.FuelLeg
	strs := interner{}
	err := db.scanAll(ctx, "fuel legs", `SELECT imo, departure, arrival, result, visitParamExtractFloat(input, 'dwt'), method,
		if(method = 'default_intensity', input, '')
		FROM voyage_emissions WHERE `+current("voyage_emissions")+` AND day >= toDate(?) AND departure >= ? AND departure < ?`,
		[]any{from.UTC(), from.UTC(), to.UTC()}, func(rows interface{ Scan(...any) error }) error {
			var (
				l             earnings.FuelLeg
				result, input string
			)
			if err := rows.Scan(&l.IMO, &l.Departure, &l.Arrival, &result, &l.DWT, &l.Method, &input); err != nil {
				return err
			}
			if input != "" { // the input of a leg the earnings compute again (earnings.FuelLeg.Fuel)
				var in emissions.VoyageInput
				if err := json.Unmarshal([]byte(input), &in); err != nil {
					return fmt.Errorf("voyage input: %w", err)
				}
				l.Input = &in
			}
			v, err := decodeVoyageResult([]byte(result), strs)
			if err != nil {
				return err
			}
			l.Departure, l.Arrival = l.Departure.UTC(), l.Arrival.UTC()
			l.FuelTonnes = earnings.Bounds{Low: v.FuelTonnes.Low, Central: v.FuelTonnes.Central, High: v.FuelTonnes.High}
			l.DistanceNM = v.DistanceNM
			out = append(out, l)
			return nil
		})
	return out, err
}

// EarningsOceanRates implements jobs.EarningsStore: every ocean freight rate of
// transport_rates that converts to USD per tonne.
func (db *DB) EarningsOceanRates(ctx context.Context) ([]earnings.RateObs, error) {
	var out []earnings.RateObs
	err := db.scanAll(ctx, "ocean rates", `SELECT dataset, origin, destination, vessel_size, commodity, date, usd_per_tonne
		FROM transport_rates FINAL WHERE mode = 'ocean' AND NOT isNaN(usd_per_tonne) AND usd_per_tonne > 0
		ORDER BY dataset, origin, destination, vessel_size, commodity, date`, nil, func(rows interface{ Scan(...any) error }) error {
		var r earnings.RateObs
		err := rows.Scan(&r.Dataset, &r.Origin, &r.Destination, &r.VesselSize, &r.Commodity, &r.Date, &r.USDPerTonne)
		r.Date = r.Date.UTC()
		out = append(out, r)
		return err
	})
	return out, err
}

// EarningsBrentPrices implements jobs.EarningsStore: the Brent crude prices of
// commodity_prices in USD per barrel (FRED POILBREUSDM and DCOILBRENTEU,
// the World Bank's CRUDE_BRENT), oldest first.
func (db *DB) EarningsBrentPrices(ctx context.Context) ([]earnings.PriceObs, error) {
	var out []earnings.PriceObs
	err := db.scanAll(ctx, "brent prices", `SELECT source, series, date, value FROM commodity_prices FINAL
		WHERE commodity = 'crude_oil' AND unit = 'usd_per_barrel' AND value > 0
		AND (positionCaseInsensitive(series, 'BRE') > 0 OR positionCaseInsensitive(name, 'brent') > 0)
		ORDER BY date, source, series`, nil, func(rows interface{ Scan(...any) error }) error {
		var p earnings.PriceObs
		err := rows.Scan(&p.Source, &p.Series, &p.Date, &p.USDPerBarrel)
		p.Date = p.Date.UTC()
		out = append(out, p)
		return err
	})
	return out, err
}

// b3 is bounds as the stored [low, central, high].
func b3(b earnings.Bounds) []float64 { return []float64{b.Low, b.Central, b.High} }

// fromB3 reads stored bounds (zero when malformed).
func fromB3(v []float64) earnings.Bounds {
	if len(v) != 3 {
		return earnings.Bounds{}
	}
	return earnings.Bounds{Low: v[0], Central: v[1], High: v[2]}
}

// voyageEarningsColumns are the columns of voyage_earnings after day and gen.
const voyageEarningsColumns = `imo, name, origin, destination, commodity, load_arrival, departure, arrival, discharge_departure,
	dwt, distance_nm, tonnes, fuel_tonnes, fuel_source, voyage_days, port_days, sea_days, rate, rate_basis, rate_source, rate_date,
	bunker, bunker_basis, bunker_source, bunker_date, brent_usd_per_barrel, revenue, fuel_cost, load_port_cost, port_costs, tce`

// WriteVoyageEarnings implements jobs.EarningsStore: the voyages of the
// weeks (by departure) as generation gen.
func (db *DB) WriteVoyageEarnings(ctx context.Context, gen uint64, weeks []time.Time, rows []earnings.Result) error {
	counts := map[time.Time]uint64{}
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "voyage_earnings", "day, gen, "+voyageEarningsColumns+", computed_at", func(add func(...any) error) error {
		for i := range rows {
			r := &rows[i]
			w := earnings.Monday(r.Departure)
			counts[w]++
			if err := add(w, gen, r.IMO, r.Name, r.Origin, r.Destination, r.Commodity, r.LoadArrival.UTC(), r.Departure.UTC(),
				r.Arrival.UTC(), r.DischargeDepart.UTC(), r.DWT, r.DistanceNM, b3(r.Tonnes), b3(r.FuelTonnes), r.FuelSource,
				r.VoyageDays, r.PortDays, r.SeaDays, b3(r.Rate.USDPerTonne), r.Rate.Basis, r.Rate.Source, dateOrEpoch(r.Rate.Date),
				b3(r.Bunker.USDPerTonne), r.Bunker.Basis, r.Bunker.Source, dateOrEpoch(r.Bunker.Date), r.Bunker.BrentPerBarrel,
				b3(r.Revenue), b3(r.FuelCost), b3(r.LoadPort), b3(r.PortCosts), b3(r.TCE), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "voyage_earnings", gen, weeks, counts)
}

// dateOrEpoch is the time, or 1970-01-01 for the zero time (no date).
func dateOrEpoch(t time.Time) time.Time {
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return t.UTC()
}

// WritePortRevenue implements jobs.EarningsStore: the port weeks as
// generation gen.
func (db *DB) WritePortRevenue(ctx context.Context, gen uint64, weeks []time.Time, rows []earnings.PortWeek) error {
	counts := map[time.Time]uint64{}
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "port_revenue_weekly", "day, gen, port, voyages, tonnes, revenue, port_cost, computed_at",
		func(add func(...any) error) error {
			for _, r := range rows {
				counts[r.Week.UTC()]++
				if err := add(r.Week.UTC(), gen, r.Port, uint32(r.Voyages), r.Tonnes, b3(r.Revenue), b3(r.PortCost), now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "port_revenue_weekly", gen, weeks, counts)
}

// VoyageEarnings implements read.EarningsStore: the current voyages of the
// request, newest departure first, then by IMO.
func (db *DB) VoyageEarnings(ctx context.Context, r read.EarningsRequest) ([]earnings.Result, error) {
	if epoch := time.Unix(0, 0); r.From.Before(epoch) {
		r.From = epoch // no floor
	}
	week := earnings.Monday(r.From) // the voyages departing from From are under its week
	if week.Before(time.Unix(0, 0)) {
		week = time.Unix(0, 0).UTC()
	}
	where, args := " AND day >= toDate(?) AND departure >= ?", []any{week, r.From.UTC()}
	if r.IMO != 0 {
		where += " AND imo = ?"
		args = append(args, r.IMO)
	}
	if r.Port != "" {
		where += " AND (origin = ? OR destination = ?)"
		args = append(args, r.Port, r.Port)
	}
	args = append(args, r.Limit)
	var out []earnings.Result
	err := db.scanAll(ctx, "voyage earnings", `SELECT `+voyageEarningsColumns+` FROM voyage_earnings
		WHERE `+current("voyage_earnings")+where+` ORDER BY departure DESC, imo LIMIT ?`, args,
		func(rows interface{ Scan(...any) error }) error {
			var (
				x                                                earnings.Result
				tonnes, fuel, rate, bunker, rev, fc, lp, pc, tce []float64
				imo                                              uint32
			)
			if err := rows.Scan(&imo, &x.Name, &x.Origin, &x.Destination, &x.Commodity, &x.LoadArrival, &x.Departure, &x.Arrival,
				&x.DischargeDepart, &x.DWT, &x.DistanceNM, &tonnes, &fuel, &x.FuelSource, &x.VoyageDays, &x.PortDays, &x.SeaDays,
				&rate, &x.Rate.Basis, &x.Rate.Source, &x.Rate.Date, &bunker, &x.Bunker.Basis, &x.Bunker.Source, &x.Bunker.Date,
				&x.Bunker.BrentPerBarrel, &rev, &fc, &lp, &pc, &tce); err != nil {
				return err
			}
			x.IMO = overwatch.IMO(imo)
			x.LoadArrival, x.Departure, x.Arrival, x.DischargeDepart = x.LoadArrival.UTC(), x.Departure.UTC(), x.Arrival.UTC(), x.DischargeDepart.UTC()
			x.Rate.Date, x.Bunker.Date = noEpoch(x.Rate.Date), noEpoch(x.Bunker.Date)
			x.Tonnes, x.FuelTonnes, x.Rate.USDPerTonne, x.Bunker.USDPerTonne = fromB3(tonnes), fromB3(fuel), fromB3(rate), fromB3(bunker)
			x.Revenue, x.FuelCost, x.LoadPort, x.PortCosts, x.TCE = fromB3(rev), fromB3(fc), fromB3(lp), fromB3(pc), fromB3(tce)
			out = append(out, x)
			return nil
		})
	return out, err
}

// noEpoch is the zero time for the stored 1970-01-01 (no date).
func noEpoch(t time.Time) time.Time {
	if t.Unix() <= 0 {
		return time.Time{}
	}
	return t.UTC()
}

// PortRevenue implements read.EarningsStore: the current port weeks of
// the request, newest week first, then by port.
func (db *DB) PortRevenue(ctx context.Context, r read.PortRevenueRequest) ([]earnings.PortWeek, error) {
	if epoch := time.Unix(0, 0); r.From.Before(epoch) {
		r.From = epoch // no floor
	}
	where, args := " AND day >= toDate(?)", []any{r.From.UTC()}
	if r.Port != "" {
		where += " AND port = ?"
		args = append(args, r.Port)
	}
	args = append(args, r.Limit)
	var out []earnings.PortWeek
	err := db.scanAll(ctx, "port revenue", `SELECT day, port, voyages, tonnes, revenue, port_cost FROM port_revenue_weekly
		WHERE `+current("port_revenue_weekly")+where+` ORDER BY day DESC, port LIMIT ?`, args,
		func(rows interface{ Scan(...any) error }) error {
			var (
				w        earnings.PortWeek
				n        uint32
				rev, cst []float64
			)
			if err := rows.Scan(&w.Week, &w.Port, &n, &w.Tonnes, &rev, &cst); err != nil {
				return fmt.Errorf("scan: %w", err)
			}
			w.Week, w.Voyages, w.Revenue, w.PortCost = w.Week.UTC(), int(n), fromB3(rev), fromB3(cst)
			out = append(out, w)
			return nil
		})
	return out, err
}
