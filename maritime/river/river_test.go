package river

import (
	"math"
	"testing"
	"time"
)

func TestStatus(t *testing.T) {
	stl, _ := BySite("USGS-07010000")
	for lvl, want := range map[float64]string{35: StatusFlood, 30: StatusFlood, 10: StatusNormal, -0.7: StatusLow, -3: StatusLow, -5: StatusCritical, -6.2: StatusCritical} {
		if got := stl.Status(lvl); got != want {
			t.Errorf("St. Louis at %v ft: %s, want %s", lvl, got, want)
		}
	}
	no, _ := BySite("07374525")
	if no.Status(-50) != StatusNormal || no.Status(500) != StatusNormal {
		t.Error("a gauge with no threshold left normal")
	}
	for _, g := range Gauges {
		if g.FloodSource == "" || g.LowSource == "" || g.Port == "" || len(g.Site) < 8 {
			t.Errorf("gauge %s lacks a source, port or site", g.ID)
		}
		if !math.IsNaN(g.LowFt) && !(g.CriticalLowFt < g.LowFt) {
			t.Errorf("gauge %s: critical low %v not under low %v", g.ID, g.CriticalLowFt, g.LowFt)
		}
	}
}

func hourly(site string, start time.Time, levels ...float64) []Reading {
	var out []Reading
	for i, l := range levels {
		out = append(out, Reading{Site: site, Parameter: ParamGageHeight, Time: start.Add(time.Duration(i) * time.Hour), Value: l})
	}
	return out
}

func TestSummarize(t *testing.T) {
	start := time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC)
	levels := make([]float64, 26)
	for i := range levels {
		levels[i] = 2 - float64(i)*0.1
	}
	rs := hourly("07010000", start, levels...)
	rs = append(rs, Reading{Site: "07010000", Parameter: ParamGageHeight, Time: start.Add(30 * time.Hour), Value: NoData},
		Reading{Site: "07010000", Parameter: ParamDischarge, Time: start.Add(31 * time.Hour), Value: 90000})
	sums := Summarize(rs)
	if len(sums) != 1 {
		t.Fatalf("%+v", sums)
	}
	s := sums[0]
	if s.Latest.Value != levels[25] || s.Status != StatusNormal || s.Change24h != -2.4 || s.Trend != TrendFalling {
		t.Errorf("summary %+v", s)
	}
	if one := Summarize(hourly("07032000", start, -4)); math.IsNaN(one[0].Change24h) == false || one[0].Trend != "" {
		t.Errorf("no 24-hour change from one reading: %+v", one)
	}
}

func TestEpisodes(t *testing.T) {
	start := time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC)
	// St. Louis: normal, low, critical, low, normal, low (under way).
	eps := Episodes(hourly("07010000", start, 1, -1, -5.5, -2, 0.5, -1))
	if len(eps) != 2 {
		t.Fatalf("%+v", eps)
	}
	e := eps[0]
	if e.Worst != StatusCritical || e.Level != -5.5 || !e.Start.Equal(start.Add(time.Hour)) || !e.End.Equal(start.Add(4*time.Hour)) || e.Ongoing() ||
		e.Key() != "river/st-louis/2025-10-01T01:00:00Z" || Severity(e.Worst) != "critical" {
		t.Errorf("first: %+v", e)
	}
	if !eps[1].Ongoing() || eps[1].Worst != StatusLow || Severity(eps[1].Worst) != "warning" {
		t.Errorf("second: %+v", eps[1])
	}
	if Title(e) != "Mississippi River at St. Louis, MO: critically low water" || Message(e) == "" {
		t.Errorf("title %q", Title(e))
	}
	// Flood after low water is another episode.
	if eps := Episodes(hourly("07010000", start, -1, 31)); len(eps) != 2 || eps[1].Worst != StatusFlood {
		t.Errorf("low then flood: %+v", eps)
	}
}
