package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch"

	"overwatch/jobs"
	"overwatch/maritime/portstats"
	"overwatch/maritime/trade"
)

// The trade-route derivation's reads and writes (migrations/009_trade_routes.sql).

var _ jobs.TradeStore = (*DB)(nil)

// shiftsDay is the one window of route_shifts.
var shiftsDay = time.Unix(0, 0).UTC()

// CallSpan is the time of the oldest arrival and of the newest arrival or
// departure of the current port calls (zero times when there are none).
func (db *DB) CallSpan(ctx context.Context) (time.Time, time.Time, error) {
	var n uint64
	var first, last time.Time
	err := db.conn.QueryRow(ctx, `SELECT count(), min(arrival), max(greatest(arrival, ifNull(departure, arrival)))
		FROM port_calls WHERE `+current("port_calls")).Scan(&n, &first, &last)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("clickhouse: call span: %w", err)
	}
	if n == 0 {
		return time.Time{}, time.Time{}, nil
	}
	return first.UTC(), last.UTC(), nil
}

// DestinationHistory returns, per vessel, the destinations its position
// reports declared in [from, to]: one span per vessel, destination text
// and UTC day, from the first to the last report of the day that carried
// it (a day grouping keeps the query one cheap aggregation of three
// columns of the positions, whatever their number).
func (db *DB) DestinationHistory(ctx context.Context, from, to time.Time) (map[overwatch.IMO][]trade.Declaration, error) {
	out := map[overwatch.IMO][]trade.Declaration{}
	err := db.scanAll(ctx, "destination history", `SELECT imo, destination, min(ts), max(ts) FROM positions
		WHERE ts >= ? AND ts <= ? AND imo != 0 AND destination != ''
		GROUP BY imo, destination, toDate(ts)`, []any{from.UTC(), to.UTC()}, func(rows interface{ Scan(...any) error }) error {
		var (
			imo overwatch.IMO
			d   trade.Declaration
		)
		if err := rows.Scan(&imo, &d.Text, &d.First, &d.Last); err != nil {
			return err
		}
		d.First, d.Last = d.First.UTC(), d.Last.UTC()
		out[imo] = append(out[imo], d)
		return nil
	})
	return out, err
}

// WriteRouteFlows writes route_flows_weekly rows of the weeks as
// generation gen.
func (db *DB) WriteRouteFlows(ctx context.Context, gen uint64, weeks []time.Time, rows []trade.Flow) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "route_flows_weekly", "day, gen, origin, destination, commodity, vessels, voyages, tonnes, median_transit_days",
		func(add func(...any) error) error {
			for _, r := range rows {
				counts[r.Week.UTC()]++
				if err := add(r.Week.UTC(), gen, r.Origin, r.Destination, r.Commodity, uint32(r.Vessels), uint32(r.Voyages),
					r.Tonnes, r.MedianTransitDays); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "route_flows_weekly", gen, weeks, counts)
}

// WriteRouteShifts writes route_shifts, whole, as generation gen.
func (db *DB) WriteRouteShifts(ctx context.Context, gen uint64, rows []trade.Shift) error {
	err := db.derivedBatch(ctx, "route_shifts", `day, gen, as_of, origin, commodity, destination, baseline_share, current_share,
		change, severity, baseline_voyages, current_voyages, baseline_tonnes, current_tonnes, started,
		gaining, gaining_change, losing, losing_change`, func(add func(...any) error) error {
		for _, r := range rows {
			gp, gc := movers(r.Gaining)
			lp, lc := movers(r.Losing)
			if err := add(shiftsDay, gen, r.AsOf.UTC(), r.Origin, r.Commodity, r.Destination, r.BaselineShare, r.CurrentShare,
				r.Change, r.Severity, uint32(r.BaselineVoyages), uint32(r.CurrentVoyages), r.BaselineTonnes, r.CurrentTonnes,
				r.Started.UTC(), gp, gc, lp, lc); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "route_shifts", gen, []time.Time{shiftsDay}, map[time.Time]uint64{shiftsDay: uint64(len(rows))})
}

func movers(m []trade.Mover) ([]string, []float64) {
	ports, changes := make([]string, len(m)), make([]float64, len(m))
	for i, x := range m {
		ports[i], changes[i] = x.Port, x.Change
	}
	return ports, changes
}

// WriteRouteDeceptions writes route_deceptions rows of the weeks (of
// arrival) as generation gen.
func (db *DB) WriteRouteDeceptions(ctx context.Context, gen uint64, weeks []time.Time, rows []trade.Deception) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "route_deceptions", `day, gen, imo, name, origin, departure, arrival, actual_port, declared,
		declared_port, distance_km, same_country, destination_changes, changes_source, changed_at, suspicious, reason`,
		func(add func(...any) error) error {
			for _, r := range rows {
				w := portstats.Monday(r.Arrival)
				counts[w]++
				if err := add(w, gen, r.IMO, r.Name, r.Origin, r.Departure.UTC(), r.Arrival.UTC(), r.ActualPort, r.Declared,
					r.DeclaredPort, r.DistanceKM, b2u(r.SameCountry), uint16(min(r.DestinationChanges, 65535)), r.ChangesSource,
					r.ChangedAt, b2u(r.Suspicious), r.Reason); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "route_deceptions", gen, weeks, counts)
}
