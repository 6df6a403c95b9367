package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"overwatch"
	"overwatch/clickhouse"
)

// copyFleet makes a simulated store of n vessels a fleet of n×copies:
// every row of every table with an imo column (the positions, the static
// reports, the port calls, the registry; not the predictions) is copied
// copies−1 times, each copy under other valid, unused IMO numbers (and
// MMSIs shifted by the copy's number). The simulator plans every vessel
// over a warm-up month before it emits, which makes a 20,000-vessel
// simulation hours of work on two busy cores; copies cost a few INSERT
// ... SELECT. A store that already holds more vessels than were simulated
// is left as it is.
func copyFleet(ctx context.Context, chServer, database string, simulated, copies int, out io.Writer) error {
	if copies < 2 {
		return nil
	}
	imos, err := clickhouseList(ctx, chServer, "SELECT DISTINCT imo FROM "+database+".positions WHERE imo != 0 ORDER BY imo")
	if err != nil {
		return err
	}
	if len(imos) > simulated {
		return nil
	}
	tables, err := clickhouseList(ctx, chServer, "SELECT table FROM system.columns WHERE database = '"+database+
		"' AND name = 'imo' AND type = 'UInt32' AND table != 'predictions' ORDER BY table")
	if err != nil {
		return err
	}
	used := map[uint32]bool{}
	for _, s := range imos {
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return err
		}
		used[uint32(v)] = true
	}
	db, err := clickhouse.Open(chServer + "/" + database)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	next := uint32(100000) // the first six digits of the next IMO number to try
	for k := 1; k < copies; k++ {
		to := make([]string, len(imos))
		for i := range imos {
			for {
				imo := next*10 + overwatch.IMOCheckDigit(next)
				next++
				if !used[imo] && overwatch.IMO(imo).Valid() {
					used[imo] = true
					to[i] = strconv.FormatUint(uint64(imo), 10)
					break
				}
			}
		}
		from := strings.Join(imos, ",")
		for _, t := range tables {
			cols, err := clickhouseList(ctx, chServer, "SELECT name FROM system.columns WHERE database = '"+database+"' AND table = '"+t+
				"' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS') ORDER BY position")
			if err != nil {
				return err
			}
			sel := make([]string, len(cols))
			for i, c := range cols {
				switch c {
				case "imo":
					sel[i] = "transform(imo, [" + from + "], [" + strings.Join(to, ",") + "], toUInt32(0))"
				case "mmsi":
					sel[i] = "mmsi + " + strconv.Itoa(k)
				default:
					sel[i] = c
				}
			}
			if err := db.Exec(ctx, "INSERT INTO "+t+" ("+strings.Join(cols, ", ")+") SELECT "+strings.Join(sel, ", ")+" FROM "+t+
				" WHERE imo IN ("+from+")"); err != nil {
				return fmt.Errorf("copy %d of %s: %w", k, t, err)
			}
		}
	}
	fmt.Fprintf(out, "  the %d simulated vessels copied %d times (tables %s) under other IMO numbers: %d vessels, in %s (load average %s)\n",
		len(imos), copies-1, strings.Join(tables, ", "), len(imos)*copies, time.Since(start).Round(time.Second), loadAverage())
	return nil
}

// clickhouseList is the first column of a query's rows, through
// clickhouse-client on the server of chServer.
func clickhouseList(ctx context.Context, chServer, query string) ([]string, error) {
	u, err := url.Parse(chServer)
	if err != nil {
		return nil, err
	}
	args := []string{"--host", u.Hostname(), "-q", query}
	if p := u.Port(); p != "" {
		args = append(args, "--port", p)
	}
	b, err := exec.CommandContext(ctx, "clickhouse-client", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("clickhouse-client %q: %w", query, err)
	}
	return strings.Fields(string(b)), nil
}
