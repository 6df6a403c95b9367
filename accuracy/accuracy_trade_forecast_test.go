package accuracy

import (
	"fmt"
	"math"
	"sort"
	"time"

	"overwatch"
	"overwatch/maritime/forecast"
	"overwatch/maritime/portstats"
	"overwatch/read"
)

// Anomalies and forecasts against the truth.
//
// Which anomaly type is expected to fire for which injected anomaly is not
// assumed but computed: each type's own rule (forecast.DetectAll over every
// port's true series together: its reference, the 1,000 t floor, the z
// gate, the count test and the false-discovery bound of
// docs/forecasts.md) is applied to the TRUE weekly exports (the truth's
// loading calls by week of departure, as estimates_weekly counts them). An
// injected drop (a closed week) or surge (its catch-up) is in a type's
// scope when that rule flags its port and week, in its direction, on the
// true volumes. In practice:
//   - trailing fires for both weeks of a closure at a port of 8 or more
//     vessels a week, unless the 8 weeks before straddle the turn of a
//     harvest season;
//   - yoy, seasonal_avg and seasonal_range need a year of history before
//     the week (53 and 54 weeks), so they fire only for anomalies of the
//     second year (where the simulator places them), and only where the
//     same weeks of the year before exported at least 1,000 t;
//   - a catch-up of less than about twice the port's weeks may not pass
//     the false-discovery bound.
//
// Precision is measured against the injected weeks. A detection at the
// week of an injected anomaly's echo, whose reference held the anomaly
// (yoy, seasonal_*: 52 weeks later, ±1; trailing: the 8 weeks after), in
// the opposite direction, is excused (not counted): the type cannot know
// that its reference was anomalous. The false detections that the type's
// rule also makes on the true volumes (season changes, a thin port's
// ordinary swings) are counted as false and shown as "natural" in the
// row's misses.

// anomalyKey is a port's week and direction.
type anomalyKey struct {
	port, direction string
	week            time.Time
}

// trueSeries are the ports' true weekly exports over the complete weeks
// from the week of start: tonnes loaded and loading vessels by week of
// departure.
func (tt *tradeTruth) trueSeries(start, dataEnd time.Time) map[string]forecast.Series {
	first, last := portstats.Monday(start), portstats.Monday(dataEnd) // last: the week in progress, not history
	type acc struct {
		tonnes  float64
		vessels map[overwatch.IMO]bool
	}
	weeks := map[string]map[time.Time]*acc{}
	for imo, calls := range tt.calls {
		for _, c := range calls {
			w := portstats.Monday(c.Departure)
			if c.Operation != "load" || w.Before(first) || !w.Before(last) {
				continue
			}
			if weeks[c.Port] == nil {
				weeks[c.Port] = map[time.Time]*acc{}
			}
			a := weeks[c.Port][w]
			if a == nil {
				a = &acc{vessels: map[overwatch.IMO]bool{}}
				weeks[c.Port][w] = a
			}
			a.tonnes += c.CargoTonnes
			a.vessels[imo] = true
		}
	}
	out := map[string]forecast.Series{}
	for port, ws := range weeks {
		var rows []forecast.Week
		for w, a := range ws {
			rows = append(rows, forecast.Week{Start: w, Tonnes: a.tonnes, Vessels: float64(len(a.vessels))})
		}
		out[port] = forecast.NewSeries(port, rows)
	}
	return out
}

// expectedAnomalies are, per type, the anomalies each type's rule finds on
// the true volumes.
func expectedAnomalies(series map[string]forecast.Series) map[string]map[anomalyKey]bool {
	out := map[string]map[anomalyKey]bool{}
	for _, typ := range forecast.Types {
		out[typ] = map[anomalyKey]bool{}
	}
	all := make([]forecast.Series, 0, len(series))
	for _, s := range series {
		all = append(all, s)
	}
	for _, a := range forecast.DetectAll(all) {
		out[a.Type][anomalyKey{a.Port, a.Direction, a.Week.UTC()}] = true
	}
	return out
}

// isEcho reports whether a detection of the type at k is the echo of an
// injected anomaly in its reference weeks (opposite direction).
func isEcho(typ string, k anomalyKey, injected []anomalyTruth) bool {
	for _, a := range injected {
		if a.port != k.port || a.direction == k.direction {
			continue
		}
		d := int(math.Round(k.week.Sub(a.week).Hours() / 24 / 7))
		switch typ {
		case forecast.TypeTrailing:
			if d >= 1 && d <= forecast.TrailingWeeks {
				return true
			}
		case forecast.TypeYoY:
			if d == forecast.Season {
				return true
			}
		default: // the same weeks ±SeasonalWindow of any prior year
			if y := int(math.Round(float64(d) / forecast.Season)); y >= 1 && absInt(d-y*forecast.Season) <= forecast.SeasonalWindow {
				return true
			}
		}
	}
	return false
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// scoreAnomalies scores each anomaly type: recall over the injected
// anomalies in the type's scope (above), precision over the API's
// detections of the type in the complete weeks from the week of start.
func scoreAnomalies(tt *tradeTruth, items []read.AnomalyItem, start, dataEnd time.Time) []tradeRow {
	series := tt.trueSeries(start, dataEnd)
	expected := expectedAnomalies(series)
	injected := map[anomalyKey]bool{}
	for _, a := range tt.anomalies {
		injected[anomalyKey{a.port, a.direction, a.week}] = true
	}
	first, last := portstats.Monday(start), portstats.Monday(dataEnd)
	var rows []tradeRow
	for _, typ := range forecast.Types {
		got := map[anomalyKey]bool{}
		var keys []anomalyKey
		for _, it := range items {
			w, err := time.Parse(time.DateOnly, it.WeekStart)
			if err != nil || it.Type != typ || w.Before(first) || !w.Before(last) {
				continue
			}
			k := anomalyKey{it.Port, it.Direction, w}
			if !got[k] {
				keys = append(keys, k)
			}
			got[k] = true
		}
		var truth, found, detected, right, excused, natural int
		var misses []string
		for _, a := range tt.anomalies {
			k := anomalyKey{a.port, a.direction, a.week}
			if !expected[typ][k] {
				continue
			}
			truth++
			if got[k] {
				found++
			} else {
				misses = append(misses, fmt.Sprintf("missed: %s %s %s ×%.2f", a.port, a.week.Format(time.DateOnly), a.direction, a.factor))
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].week.Before(keys[j].week) })
		for _, k := range keys {
			switch {
			case injected[k]:
				detected++
				right++
			case isEcho(typ, k, tt.anomalies):
				excused++
			default:
				detected++
				note := "false"
				if expected[typ][k] {
					natural++
					note = "false (natural: also on the true volumes)"
				}
				misses = append(misses, fmt.Sprintf("%s: %s %s %s", note, k.port, k.week.Format(time.DateOnly), k.direction))
			}
		}
		row := prRow("anomalies "+typ, truth, found, detected, right, misses)
		row.figure += fmt.Sprintf("  [%d of %d injected in scope; %d echoes excused; %d false also on true volumes]", truth, len(tt.anomalies), excused, natural)
		rows = append(rows, row)
	}
	return rows
}

// scoreForecasts reads the backtest of /v1/forecasts/accuracy: the
// statistical method's MAPE against the seasonal-naive baseline's on the
// same weeks (pooled over ports and horizons 1–4, weighted by forecasts),
// the ml method's for information, and the pipeline's next-week MAE as a
// share of the true mean weekly exports of its ports over the backtest's
// weeks (weighted by forecasts).
func scoreForecasts(tt *tradeTruth, acc []read.AccuracyItem, start, dataEnd time.Time) []tradeRow {
	series := tt.trueSeries(start, dataEnd)
	pooled := func(method string) (mape, base float64, n, beats, rowsN int) {
		var sw, sm, sb float64
		for _, a := range acc {
			if a.Method != method || a.MAPE == nil || a.Baseline.MAPE == nil || a.Forecasts == 0 {
				continue
			}
			w := float64(a.Forecasts)
			sw += w
			sm += w * *a.MAPE
			sb += w * *a.Baseline.MAPE
			n += a.Forecasts
			rowsN++
			if a.BeatsBaseline {
				beats++
			}
		}
		if sw == 0 {
			return math.NaN(), math.NaN(), 0, 0, 0
		}
		return sm / sw, sb / sw, n, beats, rowsN
	}
	var rows []tradeRow
	for _, m := range []string{forecast.MethodStatistical, forecast.MethodML} {
		mape, base, n, beats, rn := pooled(m)
		r := tradeRow{name: m + ": MAPE vs seasonal naive", scored: n > 0,
			figure: fmt.Sprintf("%.1f%% vs %.1f%% (%d forecasts; %d of %d port×horizon rows beat it)", mape, base, n, beats, rn)}
		if m == forecast.MethodStatistical {
			r.goal, r.met = "below the baseline", mape < base
		} else {
			r.goal, r.met, r.info = "(information)", true, true
		}
		rows = append(rows, r)
	}
	var mae, actual float64
	var n int
	var misses []string
	for _, a := range acc {
		if a.Method != forecast.MethodPipeline || a.Horizon != 1 || a.Forecasts == 0 {
			continue
		}
		origin, err := time.Parse(time.DateOnly, a.FirstOrigin)
		if err != nil {
			continue
		}
		var sum float64
		var weeks int
		for _, w := range series[a.Port].Weeks {
			if w.Start.After(origin) {
				sum += w.Tonnes
				weeks++
			}
		}
		if weeks == 0 || sum == 0 {
			continue
		}
		mean := sum / float64(weeks)
		mae += float64(a.Forecasts) * a.MAE
		actual += float64(a.Forecasts) * mean
		n += a.Forecasts
		misses = append(misses, fmt.Sprintf("%s: MAE %.0f t, mean true exports %.0f t/week (%.0f%%)", a.Port, a.MAE, mean, a.MAE/mean*100))
	}
	share := math.NaN()
	if actual > 0 {
		share = mae / actual * 100
	}
	rows = append(rows, tradeRow{name: "pipeline: next-week MAE / actual volume", figure: fmt.Sprintf("%.1f%% (%d forecasts)", share, n),
		goal: "≤ 15%", met: share <= 15, scored: n > 0, misses: misses})
	return rows
}
