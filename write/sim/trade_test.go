package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"sort"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/write/ais"
)

// planTruth runs the planner alone (no emission) and returns its truth.
func planTruth(t *testing.T, cfg Config, until time.Time) []Truth {
	t.Helper()
	var buf bytes.Buffer
	tw := newTruthWriter(&buf)
	p, err := NewPlanner(cfg, tw)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(until); err != nil {
		t.Fatal(err)
	}
	return parseTruth(t, &buf)
}

func parseTruth(t *testing.T, buf *bytes.Buffer) []Truth {
	t.Helper()
	var out []Truth
	sc := bufio.NewScanner(buf)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr Truth
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	return out
}

func tradeConfig(seed uint64, vessels int, start, end time.Time) Config {
	cfg := Config{Seed: seed, Vessels: vessels, Start: start, Rates: DefaultRates}
	cfg.Trade = DefaultTradeTruths
	cfg.Trade.Seasons, cfg.Trade.End = true, end
	return cfg
}

// TestSeasonsFollowHarvest: over two simulated years, each grain origin
// group's monthly loading calls peak in its export season.
func TestSeasonsFollowHarvest(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(2, 0, 0)
	truth := planTruth(t, tradeConfig(3, 500, start, end), end)
	groups := map[string][]string{
		"us":         {"new-orleans", "seattle", "tacoma", "vancouver"},
		"brazil":     {"santos", "paranagua", "rio-grande"},
		"argentina":  {"rosario", "bahia-blanca"},
		"black_sea":  {"odesa", "chornomorsk", "novorossiysk", "constanta"},
		"west_austr": {"fremantle"},
	}
	monthly := map[string]*[12]float64{}
	for g := range groups {
		monthly[g] = &[12]float64{}
	}
	for _, tr := range truth {
		if tr.Type != "port_call" || tr.Call.Operation != "load" || !seasonal(tr.Call.Commodity) {
			continue
		}
		for g, ports := range groups {
			for _, p := range ports {
				if p == tr.Call.Port {
					monthly[g][tr.Call.Departure.Month()-1]++
				}
			}
		}
	}
	for g, ports := range groups {
		s := harvestSeasons[ports[0]]
		in, out, nIn, nOut := 0.0, 0.0, 0.0, 0.0
		for m := time.January; m <= time.December; m++ {
			if s.contains(m) {
				in, nIn = in+monthly[g][m-1], nIn+1
			} else if s.factor(m) == offSeason {
				out, nOut = out+monthly[g][m-1], nOut+1
			}
		}
		in, out = in/nIn, out/nOut
		t.Logf("%s: monthly loading calls %v; in season %.1f/month, off season %.1f/month", g, *monthly[g], in, out)
		if in < 2*out || in < 4 {
			t.Errorf("%s: loading calls do not peak in season (%.1f in, %.1f off)", g, in, out)
		}
	}
}

// TestTradeTruthsInjected: the injected truths are written with the
// schema the accuracy scorer reads, and the shifts and anomalies take
// effect in the port calls.
func TestTradeTruthsInjected(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	end := start.Add(70 * week)
	cfg := tradeConfig(5, 500, start, end)
	cfg.Trade.Deceptive, cfg.Trade.Honest = 0.1, 0.1
	truth := planTruth(t, cfg, end)
	count := map[string]int{}
	var shifts, anomalies []Truth
	loads := map[string]map[time.Time]int{} // port -> week of departure -> loading calls
	var voyages []struct {
		origin, commodity, dest string
		at                      time.Time
	}
	last := map[overwatch.IMO]PortCall{}
	for _, tr := range truth {
		count[tr.Type+"/"+tr.Subtype]++
		switch tr.Type {
		case "route_shift":
			shifts = append(shifts, tr)
		case "volume_anomaly":
			anomalies = append(anomalies, tr)
		case "deceptive_destination", "destination_change":
			d := tr.Detail.(map[string]any)
			for _, k := range []string{"declared", "declared_port", "actual_port", "kept_until_arrival", "other_country"} {
				if _, ok := d[k]; !ok {
					t.Fatalf("%s without %s: %v", tr.Type, k, d)
				}
			}
			if d["declared_port"] == d["actual_port"] || len(tr.Vessels) != 1 || tr.Start == nil || tr.End == nil || !tr.End.After(*tr.Start) {
				t.Fatalf("bad %s: %+v", tr.Type, tr)
			}
			if slug, _ := seaport.OfDestination(d["declared"].(string)); slug != d["declared_port"] {
				t.Fatalf("declared %q does not name %v", d["declared"], d["declared_port"])
			}
			if tr.Type == "destination_change" && (tr.Subtype != "honest" || d["other_country"] != false || d["kept_until_arrival"] != false) {
				t.Fatalf("an honest change names another country or was kept: %+v", d)
			}
		case "port_call":
			c := tr.Call
			if c.Operation == "load" {
				if loads[c.Port] == nil {
					loads[c.Port] = map[time.Time]int{}
				}
				loads[c.Port][monday(c.Departure)]++
			}
			if prev, ok := last[tr.Vessels[0]]; ok && prev.Operation == "load" && c.Operation == "discharge" {
				voyages = append(voyages, struct {
					origin, commodity, dest string
					at                      time.Time
				}{prev.Port, prev.Commodity, c.Port, prev.Departure})
			}
			last[tr.Vessels[0]] = *c
		}
	}
	t.Logf("truths: %v", count)
	if len(shifts) < 2 || len(anomalies) < 6 || count["deceptive_destination/"] < 5 || count["destination_change/honest"] < 5 {
		t.Fatalf("too few injected truths: %v", count)
	}
	for _, s := range shifts {
		d := s.Detail.(map[string]any)
		before, after, toAfter := 0, 0, 0
		for _, v := range voyages {
			if v.origin != d["origin"] || v.commodity != d["commodity"] {
				continue
			}
			switch {
			case v.at.Before(*s.Start) && v.dest == d["from"]:
				before++
			case !v.at.Before(*s.Start) && v.dest == d["from"]:
				after++
			case !v.at.Before(*s.Start) && v.dest == d["to"]:
				toAfter++
			}
		}
		t.Logf("shift %v from %s: %d voyages to from before, %d after; %d to to after", d, s.Start.Format(time.DateOnly), before, after, toAfter)
		// A voyage whose loading berth was left before the start but whose
		// departure (leaving the port area) came after it counts here.
		if after > 1 {
			t.Errorf("shift %v: %d voyages still went to %v after its start", d, after, d["from"])
		}
	}
	// Anomalies: the week's loading calls against the mean of the 8
	// weeks before.
	ok := 0
	for _, a := range anomalies {
		d := a.Detail.(map[string]any)
		port, f := d["port"].(string), d["factor"].(float64)
		wk := a.Start.UTC()
		mean := 0.0
		for k := 1; k <= 8; k++ {
			mean += float64(loads[port][wk.Add(-time.Duration(k)*week)]) / 8
		}
		got := float64(loads[port][wk])
		t.Logf("%s at %s week %s: %.0f loading calls against %.1f", a.Subtype, port, wk.Format(time.DateOnly), got, mean)
		if f < 1 && got <= mean*0.5 || f > 1 && got >= mean*1.5 {
			ok++
		}
	}
	if ok < len(anomalies)*2/3 {
		t.Errorf("only %d of %d anomalies show in the loading calls", ok, len(anomalies))
	}
}

// TestCoarseHistoryCalls: port calls derived (by maritime/portcall, the
// code of the port_calls job) from the coarse cadence's positions match the
// truth's calls.
func TestCoarseHistoryCalls(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	days := 20
	end := start.Add(time.Duration(days) * 24 * time.Hour)
	cfg := Config{Seed: 9, Vessels: 80, Start: start, Warmup: 20 * 24 * time.Hour, Rates: Rates{}, Sanctioned: 0, DarkFleet: 1}
	cfg.Coarse.Until = end
	var tb bytes.Buffer
	s, err := New(cfg, &tb)
	if err != nil {
		t.Fatal(err)
	}
	mmsi := map[uint32]overwatch.IMO{}
	for _, v := range s.Fleet() {
		mmsi[v.MMSI] = v.IMO
	}
	dec := ais.NewDecoder(ais.Options{})
	tracks := map[overwatch.IMO][]vessel.TrackPoint{}
	static := map[overwatch.IMO]ais.Message{}
	positions := 0
	err = s.EmitUntil(context.Background(), end, func(at time.Time, lines []string, _ []overwatch.Source) error {
		for _, l := range lines {
			m, ok := dec.Decode([]byte(l))
			if !ok {
				continue
			}
			imo := mmsi[m.MMSI]
			if m.Type == 5 {
				static[imo] = m
				continue
			}
			positions++
			st := static[imo]
			tracks[imo] = append(tracks[imo], vessel.TrackPoint{TS: at, Lat: m.Lat, Lon: m.Lon, SOG: m.SOG, NavStatus: m.NavStatus, Draft: st.Draught, Destination: st.Destination})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	full := float64(cfg.Vessels*days) * 24 * 12 * 0.6 // about what the default cadence gives
	t.Logf("%d positions in %d days of %d vessels (the full cadence: about %.0f)", positions, days, cfg.Vessels, full)
	if float64(positions) > full/3 {
		t.Errorf("the coarse cadence is not coarse: %d positions", positions)
	}
	ix := seaport.NewIndex(seaport.All())
	derived := map[overwatch.IMO][]portcall.Call{}
	for imo, tr := range tracks {
		sort.Slice(tr, func(i, j int) bool { return tr[i].TS.Before(tr[j].TS) })
		derived[imo] = portcall.Detect(imo, tr, ix, end)
	}
	matched, total, draughts := 0, 0, 0
	var arrErr, depErr []float64
	for _, tr := range parseTruth(t, &tb) {
		if tr.Type != "port_call" || tr.Call.Dark || !tr.Call.Arrival.After(start.Add(12*time.Hour)) || !tr.Call.Departure.Before(end.Add(-12*time.Hour)) {
			continue
		}
		total++
		c := tr.Call
		for _, d := range derived[tr.Vessels[0]] {
			if d.Port != c.Port || d.Departure == nil || d.Arrival.Sub(c.Arrival).Abs() > 6*time.Hour {
				continue
			}
			matched++
			arrErr = append(arrErr, d.Arrival.Sub(c.Arrival).Abs().Minutes())
			depErr = append(depErr, d.Departure.Sub(c.Departure).Abs().Minutes())
			// The full cadence, too, misses the draught updated at the berth
			// when the vessel leaves the area before its next static report
			// (a few calls in a hundred).
			if math.Abs(d.DraftBefore-c.ReportedFrom) <= 0.11 && math.Abs(d.DraftAfter-c.ReportedTo) <= 0.11 {
				draughts++
			}
			break
		}
	}
	sort.Float64s(arrErr)
	sort.Float64s(depErr)
	if total < 40 || float64(matched) < 0.95*float64(total) {
		t.Fatalf("%d of %d truth calls derived from the coarse history", matched, total)
	}
	if float64(draughts) < 0.9*float64(matched) {
		t.Errorf("draughts before and after right for %d of %d calls", draughts, matched)
	}
	t.Logf("%d of %d calls matched (%d with both draughts right); median arrival error %.0f min (p90 %.0f), departure %.0f min (p90 %.0f)",
		matched, total, draughts, arrErr[len(arrErr)/2], arrErr[len(arrErr)*9/10], depErr[len(depErr)/2], depErr[len(depErr)*9/10])
	if arrErr[len(arrErr)*9/10] > 60 || depErr[len(depErr)*9/10] > 60 {
		t.Errorf("arrival or departure more than an hour off for over a tenth of the calls")
	}
}
