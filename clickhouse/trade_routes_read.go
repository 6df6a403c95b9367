package clickhouse

import (
	"context"
	"time"

	"overwatch/maritime/trade"
	"overwatch/read"
)

// The trade-route endpoints' reads.

var _ read.RouteStore = (*DB)(nil)

// RouteFlows implements read.RouteStore.
func (db *DB) RouteFlows(ctx context.Context, r read.FlowsRequest) ([]trade.Flow, error) {
	q := (&query{}).add(current("route_flows_weekly"))
	if r.Origin != "" {
		q.add("origin = ?", r.Origin)
	}
	if r.Destination != "" {
		q.add("destination = ?", r.Destination)
	}
	if r.Commodity != "" {
		q.add("commodity = ?", r.Commodity)
	}
	if !r.Week.IsZero() {
		q.add("day = toDate(?)", date(r.Week))
	}
	if !r.From.IsZero() {
		q.add("day >= toDate(?)", date(r.From))
	}
	var out []trade.Flow
	err := db.scanAll(ctx, "route flows", `SELECT day, origin, destination, commodity, vessels, voyages, tonnes, median_transit_days
		FROM route_flows_weekly WHERE `+q.String()+`
		ORDER BY day DESC, tonnes DESC, voyages DESC, origin, destination, commodity LIMIT ?`, append(q.args, uint64(r.Limit)),
		func(rows interface{ Scan(...any) error }) error {
			var f trade.Flow
			var vessels, voyages uint32
			if err := rows.Scan(&f.Week, &f.Origin, &f.Destination, &f.Commodity, &vessels, &voyages, &f.Tonnes, &f.MedianTransitDays); err != nil {
				return err
			}
			f.Week, f.Vessels, f.Voyages = f.Week.UTC(), int(vessels), int(voyages)
			out = append(out, f)
			return nil
		})
	return out, err
}

// RouteShifts implements read.RouteStore.
func (db *DB) RouteShifts(ctx context.Context, r read.ShiftsRequest) ([]trade.Shift, error) {
	q := (&query{}).add(current("route_shifts"))
	if r.Severity != "" {
		q.add("severity = ?", r.Severity)
	}
	if r.Origin != "" {
		q.add("origin = ?", r.Origin)
	}
	if r.Commodity != "" {
		q.add("commodity = ?", r.Commodity)
	}
	if !r.From.IsZero() {
		q.add("as_of >= toDate(?)", date(r.From))
	}
	var out []trade.Shift
	err := db.scanAll(ctx, "route shifts", `SELECT as_of, origin, commodity, destination, baseline_share, current_share, change, severity,
		baseline_voyages, current_voyages, baseline_tonnes, current_tonnes, started, gaining, gaining_change, losing, losing_change
		FROM route_shifts WHERE `+q.String()+`
		ORDER BY multiIf(severity = 'critical', 3, severity = 'high', 2, 1) DESC, abs(change) DESC, origin, commodity, destination
		LIMIT ?`, append(q.args, uint64(r.Limit)), func(rows interface{ Scan(...any) error }) error {
		var (
			s             trade.Shift
			base, cur     uint32
			gp, lp        []string
			gc, lc        []float64
			asOf, started time.Time
		)
		if err := rows.Scan(&asOf, &s.Origin, &s.Commodity, &s.Destination, &s.BaselineShare, &s.CurrentShare, &s.Change, &s.Severity,
			&base, &cur, &s.BaselineTonnes, &s.CurrentTonnes, &started, &gp, &gc, &lp, &lc); err != nil {
			return err
		}
		s.AsOf, s.Started, s.BaselineVoyages, s.CurrentVoyages = asOf.UTC(), started.UTC(), int(base), int(cur)
		s.Gaining, s.Losing = zipMovers(gp, gc), zipMovers(lp, lc)
		out = append(out, s)
		return nil
	})
	return out, err
}

func zipMovers(ports []string, changes []float64) []trade.Mover {
	out := make([]trade.Mover, 0, len(ports))
	for i := range ports {
		if i < len(changes) {
			out = append(out, trade.Mover{Port: ports[i], Change: changes[i]})
		}
	}
	return out
}

// RouteDeceptions implements read.RouteStore.
func (db *DB) RouteDeceptions(ctx context.Context, r read.DeceptionsRequest) ([]trade.Deception, error) {
	q := (&query{}).add(current("route_deceptions"))
	if r.IMO != 0 {
		q.add("imo = ?", uint32(r.IMO))
	}
	if r.Suspicious != "" {
		q.add("suspicious = ?", b2u(r.Suspicious == "true"))
	}
	if r.ActualPort != "" {
		q.add("actual_port = ?", r.ActualPort)
	}
	if !r.From.IsZero() {
		q.add("day >= toDate(?) AND arrival >= ?", date(r.From.AddDate(0, 0, -7)), r.From.UTC())
	}
	var out []trade.Deception
	err := db.scanAll(ctx, "route deceptions", `SELECT imo, name, origin, departure, arrival, actual_port, declared, declared_port,
		distance_km, same_country, destination_changes, changes_source, changed_at, suspicious, reason
		FROM route_deceptions WHERE `+q.String()+`
		ORDER BY arrival DESC, imo LIMIT ?`, append(q.args, uint64(r.Limit)), func(rows interface{ Scan(...any) error }) error {
		var (
			d          trade.Deception
			same, susp uint8
			changes    uint16
		)
		if err := rows.Scan(&d.IMO, &d.Name, &d.Origin, &d.Departure, &d.Arrival, &d.ActualPort, &d.Declared, &d.DeclaredPort,
			&d.DistanceKM, &same, &changes, &d.ChangesSource, &d.ChangedAt, &susp, &d.Reason); err != nil {
			return err
		}
		d.Departure, d.Arrival, d.SameCountry, d.Suspicious, d.DestinationChanges = d.Departure.UTC(), d.Arrival.UTC(), same == 1, susp == 1, int(changes)
		if d.ChangedAt != nil {
			t := d.ChangedAt.UTC()
			d.ChangedAt = &t
		}
		out = append(out, d)
		return nil
	})
	return out, err
}
