package clickhouse

import (
	"context"
	"strings"
	"time"

	"overwatch/maritime/terminals"
	"overwatch/read"
)

var _ read.TerminalStore = (*DB)(nil)

// TerminalCalls implements read.TerminalStore: the published calls at the
// ports that arrived by Now and are still open or left after Since, with
// their berth zone, vessel category, operation and cargo estimates, and,
// for the open ones, the vessel's latest position.
func (db *DB) TerminalCalls(ctx context.Context, r read.TerminalCallsRequest) ([]terminals.Call, error) {
	ports := strings.Split(r.Ports, ",")
	if r.Ports == "" {
		ports = nil
	}
	q := (&query{}).add(publishedCalls).ports(ports).
		add("arrival <= ?", r.Now.UTC()).add("(departure IS NULL OR departure > ?)", r.Since.UTC())
	sql := `SELECT imo, port, berth_zone, category, arrival, departure, operation, cargo_tonnes, dwt_estimate
	  FROM port_calls WHERE ` + q.String() + ` ORDER BY port, arrival, imo`
	var out []terminals.Call
	err := db.scanAll(ctx, "terminal calls", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		var c terminals.Call
		var dep *time.Time
		if err := rows.Scan(&c.IMO, &c.Port, &c.BerthZone, &c.Category, &c.Arrival, &dep, &c.Operation, &c.CargoTonnes, &c.DWTEstimate); err != nil {
			return err
		}
		c.Departure = dep
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, db.terminalSeen(ctx, out)
}

// terminalSeen fills the latest position (the newest of its sources) of
// the vessels of the open calls.
func (db *DB) terminalSeen(ctx context.Context, calls []terminals.Call) error {
	open := map[uint32][]int{}
	var args []any
	for i, c := range calls {
		if c.Departure == nil {
			if _, ok := open[c.IMO]; !ok {
				args = append(args, c.IMO)
			}
			open[c.IMO] = append(open[c.IMO], i)
		}
	}
	if len(args) == 0 {
		return nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")
	return db.scanAll(ctx, "terminal carriers' positions", `SELECT imo, max(ts), argMax(ifNull(lat, 0), ts), argMax(ifNull(lon, 0), ts)
	  FROM latest_positions WHERE imo IN (`+ph+`) AND lat IS NOT NULL AND lon IS NOT NULL
	 GROUP BY imo`, args, func(rows interface{ Scan(...any) error }) error {
		var imo uint32
		var ts time.Time
		var lat, lon float64
		if err := rows.Scan(&imo, &ts, &lat, &lon); err != nil {
			return err
		}
		for _, i := range open[imo] {
			seen := ts
			calls[i].Seen, calls[i].SeenLat, calls[i].SeenLon = &seen, lat, lon
		}
		return nil
	})
}
