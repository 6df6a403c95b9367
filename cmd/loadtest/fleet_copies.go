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

// copyTables are the tables a fleet copy needs, each with the rows that
// are copied: the predictions refresh reads the port calls, the last 48
// hours of positions and the last 14 days of static reports (the newest
// declaration), the area presence the last day of positions, the
// endpoints the registry. Positions and static reports are copied for the
// last two days only: the calibration's backtest, 8 to 10 days back, sees
// the simulated vessels alone.
var copyTables = []struct{ name, rows string }{
	{"positions", "ts >= {recent}"},
	{"static_reports", "ts >= {recent}"},
	{"port_calls", "1"},
	{"vessels", "1"},
	{"vessel_identity", "1"},
}

// copyFleet makes a simulated store of n vessels a fleet of n×copies: the
// rows of copyTables are copied copies−1 times, each copy under other
// valid, unused IMO numbers (and MMSIs shifted by the copy's number). The
// simulator plans every vessel over a warm-up month before it emits, which
// makes a 20,000-vessel simulation hours of work on two busy cores; a copy
// is one INSERT ... SELECT a table. A table that already holds copies is
// left as it is.
func copyFleet(ctx context.Context, chServer, database string, simulated, copies int, out io.Writer) error {
	if copies < 2 {
		return nil
	}
	last, err := clickhouseList(ctx, chServer, "SELECT toUnixTimestamp(max(ts)) FROM "+database+".positions")
	if err != nil || len(last) != 1 {
		return fmt.Errorf("the store's newest position: %v", err)
	}
	lastTS, err := strconv.ParseInt(last[0], 10, 64)
	if err != nil {
		return err
	}
	recent := "toDateTime(" + strconv.FormatInt(lastTS-2*86400, 10) + ")"
	// the simulated vessels: the copies have no position older than two days
	imos, err := clickhouseList(ctx, chServer, "SELECT DISTINCT imo FROM "+database+".positions WHERE imo != 0 AND ts < "+recent+" ORDER BY imo")
	if err != nil {
		return err
	}
	if len(imos) > simulated {
		return fmt.Errorf("%d vessels in %s before its last two days, %d simulated", len(imos), database, simulated)
	}
	used := map[uint32]bool{}
	for _, s := range imos {
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return err
		}
		used[uint32(v)] = true
	}
	// to holds copy k's IMO of imos[i] at k*len(imos)+i
	to := make([]string, 0, (copies-1)*len(imos))
	next := uint32(100000) // the first six digits of the next IMO number to try
	for len(to) < cap(to) {
		imo := next*10 + overwatch.IMOCheckDigit(next)
		next++
		if !used[imo] && overwatch.IMO(imo).Valid() {
			used[imo] = true
			to = append(to, strconv.FormatUint(uint64(imo), 10))
		}
	}
	db, err := clickhouse.Open(chServer + "/" + database)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	from := strings.Join(imos, ",")
	copied := 0
	for _, t := range copyTables {
		// a table copied by an earlier run (which a timeout may have cut
		// after the server wrote the copies) is left as it is
		if n, err := clickhouseList(ctx, chServer, "SELECT count() FROM "+database+"."+t.name+" WHERE imo != 0 AND imo NOT IN ("+from+")"); err != nil {
			return err
		} else if len(n) != 1 || n[0] != "0" {
			continue
		}
		copied++
		cols, err := clickhouseList(ctx, chServer, "SELECT name FROM system.columns WHERE database = '"+database+"' AND table = '"+t.name+
			"' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')") // in the table's order
		if err != nil {
			return err
		}
		sel := make([]string, len(cols))
		for i, c := range cols {
			switch c {
			case "imo":
				sel[i] = "arrayElement([" + strings.Join(to, ",") + "], copy * " + strconv.Itoa(len(imos)) + " + indexOf([" + from + "], imo))"
			case "mmsi":
				sel[i] = "mmsi + copy + 1"
			default:
				sel[i] = c
			}
		}
		if err := db.Exec(ctx, "INSERT INTO "+t.name+" ("+strings.Join(cols, ", ")+") SELECT "+strings.Join(sel, ", ")+" FROM "+t.name+
			" ARRAY JOIN range("+strconv.Itoa(copies-1)+") AS copy WHERE imo IN ("+from+") AND "+strings.ReplaceAll(t.rows, "{recent}", recent)); err != nil {
			return fmt.Errorf("copies of %s: %w", t.name, err)
		}
	}
	if copied == 0 {
		return nil
	}
	fmt.Fprintf(out, "  the %d simulated vessels copied %d times under other IMO numbers (the last two days of positions and static reports, every port call and registry row): %d vessels, in %s (load average %s)\n",
		len(imos), copies-1, len(imos)*copies, time.Since(start).Round(time.Second), loadAverage())
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
