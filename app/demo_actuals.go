package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"sort"
	"time"

	"overwatch/clickhouse"
	"overwatch/maritime/calibration"
	"overwatch/write/sim"
)

// demoActualsSource names the demo's official actuals.
const demoActualsSource = "simulator ground truth (demo)"

// truthActuals reads a simulator truth file and sums, per port, commodity
// and ISO week of departure, the tonnes loaded by the true port calls
// (cargo_tonnes of the port_call lines loading a cargo): the official
// export figures of the simulated world. The demo imports them as actuals,
// so that the calibration (`/v1/calibration`) fits its factors against
// them as it would against the USDA inspections of a real feed.
func truthActuals(r io.Reader) ([]calibration.Actual, error) {
	type key struct {
		port, commodity string
		week            time.Time
	}
	sums := map[key]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr sim.Truth
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			return nil, err
		}
		if tr.Type != "port_call" || tr.Call == nil || tr.Call.Operation != "load" || tr.Call.CargoTonnes <= 0 {
			continue
		}
		d := tr.Call.Departure.UTC().Truncate(24 * time.Hour)
		week := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
		sums[key{tr.Call.Port, tr.Call.Commodity, week}] += tr.Call.CargoTonnes
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	rows := make([]calibration.Actual, 0, len(sums))
	for k, t := range sums {
		rows = append(rows, calibration.Actual{Port: k.port, Week: k.week, Commodity: k.commodity, Tonnes: t, Source: demoActualsSource})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if !a.Week.Equal(b.Week) {
			return a.Week.Before(b.Week)
		}
		if a.Port != b.Port {
			return a.Port < b.Port
		}
		return a.Commodity < b.Commodity
	})
	return rows, nil
}

// ImportTruthActuals imports the complete weeks of the truth file's
// loadings before end as actuals.
func ImportTruthActuals(ctx context.Context, ch *clickhouse.DB, path string, end time.Time) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rows, err := truthActuals(f)
	if err != nil {
		return 0, err
	}
	complete := rows[:0]
	for _, r := range rows {
		if !r.Week.Add(7 * 24 * time.Hour).After(end) {
			complete = append(complete, r)
		}
	}
	if len(complete) == 0 {
		return 0, nil
	}
	return len(complete), ch.InsertActuals(ctx, complete)
}
