package accuracy

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/earnings"
	"overwatch/maritime/emissions"
	"overwatch/maritime/sealane"
	"overwatch/read"
	"overwatch/write/sim"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The accuracy of the voyage earnings against the simulator's
// truth, scored on the trade accuracy run's databases (TestAccuracyTrade
// calls scoreEarningsRun after its own answers: no second simulation).
//
// The truth of a voyage is derived from the truth file's port calls the
// way trade.BuildVoyages pairs the detected ones: a loading call and the
// vessel's next discharging call at another port within 70 days. The
// simulator sails the sea lanes, so its distance is the sum of the sea-lane
// distances of the legs; its cargo is the loaded tonnes; its days are the
// calls' true times; its fuel is the emissions model applied to the true
// legs (true distance, time at sea, speed, cargo and the vessel's true
// particulars), since the simulator burns no fuel of its own. The true TCE
// uses the same rate and bunker price as the served voyage (the inputs the
// brief fixes) with the true tonnes, fuel, port days (port costs from the
// same table) and voyage days.
//
// Goals: the median relative error |TCE − truth| / |truth| within
// earningsErrorGoal (the pooled error, Σ|error| / Σ|truth|, is printed
// beside it) and the truth inside the served bounds for at least
// earningsCoverageGoal of the voyages matched.
const (
	earningsErrorGoal    = 0.05
	earningsCoverageGoal = 0.90
)

// earningsTruth is a true voyage.
type earningsTruth struct {
	imo                         overwatch.IMO
	origin, destination         string
	loadArrival, departure      time.Time
	arrival, dischargeDeparture time.Time
	tonnes, distanceNM, fuel    float64
	dwt                         float64
}

// truthVoyages pairs the truth's calls into voyages, with the fuel the
// emissions model gives for each true leg.
func truthVoyages(truth []sim.Truth) []earningsTruth {
	vessels := map[overwatch.IMO]*sim.Vessel{}
	calls := map[overwatch.IMO][]sim.PortCall{}
	for _, tr := range truth {
		switch {
		case tr.Type == "vessel" && tr.Vessel != nil:
			vessels[tr.Vessel.IMO] = tr.Vessel
		case tr.Type == "port_call" && tr.Call != nil && len(tr.Vessels) == 1:
			calls[tr.Vessels[0]] = append(calls[tr.Vessels[0]], *tr.Call)
		}
	}
	var out []earningsTruth
	for imo, cs := range calls {
		v := vessels[imo]
		if v == nil {
			continue
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].Arrival.Before(cs[j].Arrival) })
		for i, load := range cs {
			if load.Operation != "load" {
				continue
			}
			prev := load
			et := earningsTruth{imo: imo, origin: load.Port, loadArrival: load.Arrival, departure: load.Departure, tonnes: load.CargoTonnes, dwt: v.DWT}
			for _, c := range cs[i+1:] {
				if c.Arrival.Sub(load.Departure) > 70*24*time.Hour {
					break
				}
				nm, err := sealane.DistanceNM(prev.Port, c.Port)
				if err != nil {
					break
				}
				et.distanceNM += nm
				et.fuel += trueLegFuel(v, &prev, &c, nm, load.CargoTonnes)
				if c.Operation == "discharge" && c.Port != load.Port {
					et.destination, et.arrival, et.dischargeDeparture = c.Port, c.Arrival, c.Departure
					out = append(out, et)
					break
				}
				prev = c
			}
		}
	}
	return out
}

// trueLegFuel is the emissions model's fuel for a true leg.
func trueLegFuel(v *sim.Vessel, from, to *sim.PortCall, nm, cargo float64) float64 {
	hours := to.Arrival.Sub(from.Departure).Hours()
	if hours <= 0 {
		return 0
	}
	res := emissions.ComputeVoyage(emissions.VoyageInput{IMO: v.IMO, ShipType: v.ShipType, From: from.Port, To: to.Port,
		Departure: from.Departure, Arrival: to.Arrival, DWT: v.DWT, DesignDraughtM: v.DesignDraftM, LengthM: v.LengthM, BeamM: v.BeamM,
		DraughtM: from.DraftAfter, TrackDistanceNM: nm, TrackCoverage: 1, SeaLaneDistanceNM: nm, HoursAtSea: hours,
		MeanSpeedKnots: nm / hours, CargoTonnes: cargo, CargoQuality: emissions.CargoHigh})
	return res.FuelTonnes.Central
}

// earningsScore is the earnings row of the accuracy table.
type earningsScore struct {
	truths, matched, covered int
	median, pooled           float64
}

// scoreEarnings matches the served voyages to the true ones completed
// before dataEnd (same vessel, ports, departure within 36 hours) and
// scores the matched ones.
func scoreEarnings(truths []earningsTruth, served []read.VoyageEarning, dataEnd time.Time) earningsScore {
	by := map[string][]read.VoyageEarning{}
	for _, v := range served {
		by[v.IMO] = append(by[v.IMO], v)
	}
	var s earningsScore
	var errs []float64
	var sumErr, sumTruth float64
	for _, tv := range truths {
		if !tv.dischargeDeparture.Before(dataEnd) {
			continue
		}
		s.truths++
		var got *read.VoyageEarning
		for i, v := range by[tv.imo.String()] {
			if v.Origin == tv.origin && v.Destination == tv.destination && math.Abs(v.Departure.Sub(tv.departure).Hours()) <= 36 {
				got = &by[tv.imo.String()][i]
				break
			}
		}
		if got == nil {
			continue
		}
		s.matched++
		days := earnings.Days(tv.loadArrival, tv.dischargeDeparture)
		ports := earnings.PortCost(tv.dwt, earnings.Days(tv.loadArrival, tv.departure)).Central +
			earnings.PortCost(tv.dwt, earnings.Days(tv.arrival, tv.dischargeDeparture)).Central
		truth := (got.FreightRate.USDPerTonne.Central*tv.tonnes - got.BunkerPrice.USDPerTonne.Central*tv.fuel - ports) / days
		e := math.Abs(got.TCEUSDPerDay.Central - truth)
		errs = append(errs, e/math.Abs(truth))
		sumErr += e
		sumTruth += math.Abs(truth)
		if truth >= got.TCEUSDPerDay.Low-1 && truth <= got.TCEUSDPerDay.High+1 { // the served values are whole USD
			s.covered++
		}
	}
	if len(errs) > 0 {
		sort.Float64s(errs)
		s.median = errs[len(errs)/2]
		s.pooled = sumErr / sumTruth
	}
	return s
}

// text is the row as a line of the table.
func (s earningsScore) text() string {
	return fmt.Sprintf("earnings TCE: %d true voyages, %d served and matched; median error %.1f %% (pooled %.1f %%; goal ≤ %.0f %%), truth inside the bounds %.1f %% (%d/%d; goal ≥ %.0f %%)",
		s.truths, s.matched, s.median*100, s.pooled*100, earningsErrorGoal*100, ratio(s.covered, s.matched)*100, s.covered, s.matched,
		earningsCoverageGoal*100)
}

// misses are the goals the score misses (the smoke run asks only for
// matched voyages: a small fleet's errors are the full run's to judge).
func (s earningsScore) misses(full bool) []string {
	var out []string
	if s.matched == 0 || ratio(s.matched, s.truths) < 0.5 {
		out = append(out, fmt.Sprintf("earnings: %d of %d true voyages served", s.matched, s.truths))
	}
	if full && s.median > earningsErrorGoal && s.pooled > earningsErrorGoal {
		out = append(out, fmt.Sprintf("earnings: median error %.3f, pooled %.3f, goal %.2f", s.median, s.pooled, earningsErrorGoal))
	}
	if full && ratio(s.covered, s.matched) < earningsCoverageGoal {
		out = append(out, fmt.Sprintf("earnings: truth inside the bounds for %d of %d", s.covered, s.matched))
	}
	return out
}

// fetchEarnings reads every served voyage, vessel by vessel.
func fetchEarnings(t *testing.T, s *apptest.TestServer, key string, truth []sim.Truth) []read.VoyageEarning {
	t.Helper()
	var out []read.VoyageEarning
	for _, tr := range truth {
		if tr.Type != "vessel" || tr.Vessel == nil {
			continue
		}
		path := "/v1/earnings?limit=200&vessel=" + tr.Vessel.IMO.String()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		var body struct{ Earnings []read.VoyageEarning }
		apptest.MustUnmarshal(t, r.Body, &body)
		if len(body.Earnings) >= 200 {
			t.Errorf("%s: %d voyages, the list may be cut", path, len(body.Earnings))
		}
		out = append(out, body.Earnings...)
	}
	return out
}

// scoreEarningsRun scores the earnings of the trade accuracy run (its
// server still up): printed, written as markdown beside the trade table
// in the full run (OVERWATCH_ACCURACY_OUT with -earnings before its
// extension), the served voyages kept in OVERWATCH_ACCURACY_TRADE_KEEP.
func scoreEarningsRun(t *testing.T, s *apptest.TestServer, key, truthPath, mode string, dataEnd time.Time) {
	t.Helper()
	truth := apptest.ReadTruth(t, truthPath)
	served := fetchEarnings(t, s, key, truth)
	if dir := os.Getenv("OVERWATCH_ACCURACY_TRADE_KEEP"); dir != "" {
		err := os.MkdirAll(dir, 0o755)
		b, err2 := json.Marshal(served)
		err = errors.Join(err, err2)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "earnings.json"), b, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
	score := scoreEarnings(truthVoyages(truth), served, dataEnd)
	t.Log(score.text())
	if out := os.Getenv("OVERWATCH_ACCURACY_OUT"); out != "" && mode == "full" {
		md := strings.TrimSuffix(out, filepath.Ext(out)) + "-earnings.md"
		if err := os.WriteFile(md, []byte(score.text()+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, m := range score.misses(mode == "full") {
		t.Error(m)
	}
}

// rescoreEarnings scores a kept run's served voyages again
// (OVERWATCH_ACCURACY_TRADE_RESCORE).
func rescoreEarnings(t *testing.T, dir string, dataEnd time.Time) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "earnings.json"))
	if err != nil {
		t.Logf("no earnings kept: %v", err)
		return
	}
	var served []read.VoyageEarning
	apptest.MustUnmarshal(t, b, &served)
	t.Log(scoreEarnings(truthVoyages(apptest.ReadTruth(t, filepath.Join(dir, "truth.jsonl"))), served, dataEnd).text())
}
