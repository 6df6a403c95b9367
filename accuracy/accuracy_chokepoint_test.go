package accuracy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/chokepoint"
	"overwatch/maritime/vessel"
	"overwatch/write/ais"
	"overwatch/write/sim"
)

// The chokepoint signals against the disruption the simulator injects
// (write/sim/chokepoint.go): a seeded fleet, the Suez Canal closed 14 days
// before the end of the run (its traffic diverted round the Cape of Good
// Hope), the AIS messages decoded as they are sent, each vessel's track
// run through maritime/chokepoint (the gate crossings, the daily counts,
// the signals of each day, exactly what the chokepoints job does with the
// stored positions), scored against the chokepoint_disruption truth line:
//
//   - transit_drop found: a transit_drop of an affected chokepoint (the
//     closed one, or one its diverted voyages no longer pass) judged
//     within 7 days of the start;
//   - diversion found: a diversion of the closed chokepoint within 10 days;
//   - false signals: every other AIS signal of the run (before the start,
//     or of a chokepoint the disruption does not touch) — none allowed.
//
// OVERWATCH_ACCURACY_CHOKEPOINT chooses the run: unset, the smoke run of
// make test (300 vessels over 56 days at the coarse cadence, under a
// minute on 2 cores); full, 800 vessels over 84 days, printed as a table
// (make accuracy).
func TestAccuracyChokepoint(t *testing.T) {
	vessels, days := 300, 56
	if os.Getenv("OVERWATCH_ACCURACY_CHOKEPOINT") == "full" {
		vessels, days = 800, 84
	} else if testing.Short() {
		t.Skip("-short")
	}
	seed := uint64(20)
	if v, err := strconv.ParseUint(os.Getenv("OVERWATCH_ACCURACY_CHOKEPOINT_SEED"), 10, 64); err == nil {
		seed = v
	}
	start := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 0, days)
	var truth bytes.Buffer
	cfg := sim.Config{Seed: seed, Vessels: vessels, Start: start, Rates: sim.DefaultRates,
		Trade: sim.Trade{End: end}, Coarse: sim.Coarse{Until: end}, Disruption: sim.Disruption{Chokepoint: chokepoint.Suez}}
	cfg.Rates.Identity, cfg.Rates.Spoof = 0, 0 // one MMSI per vessel, no positions moved away from the track
	s, err := sim.New(cfg, &truth)
	if err != nil {
		t.Fatal(err)
	}
	imoOf := map[uint32]overwatch.IMO{}
	typeOf := map[overwatch.IMO]uint8{}
	for _, v := range s.Fleet() {
		imoOf[v.MMSI], typeOf[v.IMO] = v.IMO, v.ShipType
	}
	dec := ais.NewDecoder(ais.Options{})
	tracks := map[overwatch.IMO][]vessel.TrackPoint{}
	err = s.EmitUntil(context.Background(), end, func(at time.Time, lines []string, _ []overwatch.Source) error {
		for _, l := range lines {
			m, ok := dec.Decode([]byte(l))
			if !ok || m.Fields&ais.HasPosition == 0 {
				continue
			}
			if imo, ok := imoOf[m.MMSI]; ok {
				tracks[imo] = append(tracks[imo], vessel.TrackPoint{TS: at, Lat: m.Lat, Lon: m.Lon})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dis sim.Truth
	for _, line := range strings.Split(truth.String(), "\n") {
		if strings.Contains(line, `"chokepoint_disruption"`) {
			if err := json.Unmarshal([]byte(line), &dis); err != nil {
				t.Fatal(err)
			}
		}
	}
	if dis.Start == nil {
		t.Fatal("no chokepoint_disruption truth line")
	}
	var transits []chokepoint.Transit
	for imo, tr := range tracks {
		transits = append(transits, chokepoint.Transits(imo, typeOf[imo], tr, chokepoint.All())...)
	}
	series := chokepoint.NewSeries(chokepoint.Daily(transits), start.Add(24*time.Hour), end.Add(-24*time.Hour))
	var judged []time.Time
	for d := start.AddDate(0, 0, chokepoint.RecentDays+chokepoint.MinBaselineDays); d.Before(end); d = d.AddDate(0, 0, 1) {
		judged = append(judged, d)
	}
	signals := series.Signals(judged, chokepoint.All())
	rows := scoreChokepoint(dis, signals)
	var table strings.Builder
	fmt.Fprintf(&table, "chokepoint signals, %d vessels over %d days, %s closed from %s (%d transits counted)\n", vessels, days,
		chokepoint.Suez, dis.Start.Format(time.DateOnly), len(transits))
	for _, cp := range chokepoint.All() {
		before, _, _ := series.Traffic(cp.Slug, dis.Start.AddDate(0, 0, -1))
		after, norm, _ := series.Traffic(cp.Slug, end.AddDate(0, 0, -1))
		fmt.Fprintf(&table, "  %-18s %5.1f/day before, %5.1f/day the last week (norm %5.1f)\n", cp.Slug, before, after, norm)
	}
	for _, r := range rows {
		fmt.Fprintf(&table, "  %-22s %s\n", r[0], r[1])
	}
	t.Log("\n" + table.String())
	if rows[0][1] == "missed" || rows[1][1] == "missed" || rows[2][1] != "0" {
		t.Errorf("the signals missed the disruption or fired falsely:\n%s", table.String())
	}
}

// scoreChokepoint scores the signals against the disruption: the delay of
// the first transit_drop of an affected chokepoint (within 7 days) and of
// the first diversion of the closed one (within 10), the false signals
// (any signal judged before the start, when the simulated traffic has no
// cause to fall, and a diversion of a chokepoint the closure does not
// take traffic from),
// and the knock-on drops (a transit_drop after the start of a chokepoint
// the diverted routes still pass: the same fleet on longer voyages calls
// less often, a real fall of the simulated traffic, counted apart).
func scoreChokepoint(dis sim.Truth, signals []chokepoint.Signal) [][2]string {
	detail, _ := dis.Detail.(map[string]any)
	closed, _ := detail["chokepoint"].(string)
	var affected []string
	if list, ok := detail["affected"].([]any); ok {
		for _, a := range list {
			if s, ok := a.(string); ok {
				affected = append(affected, s)
			}
		}
	}
	start := *dis.Start
	drop, div := "missed", "missed"
	falses, knock := 0, map[string]bool{}
	for _, s := range signals {
		delay := s.Day.Sub(start)
		switch {
		case delay < 0 || (s.Kind == chokepoint.KindDiversion && !slices.Contains(affected, s.Chokepoint)):
			falses++
		case !slices.Contains(affected, s.Chokepoint):
			knock[s.Chokepoint] = true
		case s.Kind == chokepoint.KindTransitDrop && delay <= 7*24*time.Hour && drop == "missed":
			drop = fmt.Sprintf("found after %.0f days (%s)", delay.Hours()/24, s.Chokepoint)
		case s.Kind == chokepoint.KindDiversion && s.Chokepoint == closed && delay <= 10*24*time.Hour && div == "missed":
			div = fmt.Sprintf("found after %.0f days", delay.Hours()/24)
		}
	}
	var k []string
	for c := range knock {
		k = append(k, c)
	}
	slices.Sort(k)
	return [][2]string{{"transit_drop", drop}, {"diversion", div}, {"false signals", fmt.Sprint(falses)},
		{"knock-on drops", strings.Join(append(k, "")[:max(len(k), 1)], ", ")}}
}
