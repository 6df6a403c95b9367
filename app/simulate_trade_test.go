package app

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"overwatch/write/sim"
)

func parseTradeFlags(t *testing.T, args ...string) (*tradeOptions, *int, error) {
	t.Helper()
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	_, days := simFlags(fs)
	o := tradeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	return o, days, o.days(days)
}

// The trade flags of `overwatch simulate` set the simulator's Trade and
// Coarse options; without them, both stay off for runs of 30 days.
func TestSimulateTradeFlags(t *testing.T) {
	start := time.Date(2024, 10, 7, 0, 0, 0, 0, time.UTC)

	o, days, err := parseTradeFlags(t)
	if err != nil {
		t.Fatal(err)
	}
	c := &sim.Config{Start: start}
	o.apply(c, start.Add(time.Duration(*days)*24*time.Hour))
	if *days != 30 || c.Trade.Seasons || c.Trade.Shifts != 0 || c.Trade.Anomalies != 0 || c.Trade.Deceptive != 0 || c.Trade.Honest != 0 || !c.Coarse.Until.IsZero() {
		t.Fatalf("defaults of a 30-day run: days %d, trade %+v, coarse %+v", *days, c.Trade, c.Coarse)
	}

	o, days, err = parseTradeFlags(t, "--years", "2", "--seasons", "--trade-truths")
	if err != nil {
		t.Fatal(err)
	}
	end := start.Add(time.Duration(*days) * 24 * time.Hour)
	c = &sim.Config{Start: start}
	o.apply(c, end)
	if *days != 730 || !c.Trade.Seasons || c.Trade.Shifts != 4 || c.Trade.Anomalies != 12 || c.Trade.Deceptive != 0.04 || c.Trade.Honest != 0.04 || !c.Trade.End.Equal(end) {
		t.Fatalf("two years with seasons and trade truths: days %d, trade %+v", *days, c.Trade)
	}
	if !c.Coarse.Until.Equal(end.Add(-30*24*time.Hour)) || c.Coarse.Sea != 3*time.Hour || c.Coarse.Port != 30*time.Minute {
		t.Fatalf("coarse history: %+v", c.Coarse)
	}

	o, days, err = parseTradeFlags(t, "--days", "400", "--recent", "0", "--shifts", "2", "--honest-rate", "0.1")
	if err != nil {
		t.Fatal(err)
	}
	c = &sim.Config{Start: start}
	o.apply(c, start.Add(time.Duration(*days)*24*time.Hour))
	if !c.Coarse.Until.IsZero() || c.Trade.Shifts != 2 || c.Trade.Honest != 0.1 || c.Trade.Seasons || c.Trade.Anomalies != 0 {
		t.Fatalf("--recent 0 --shifts 2 --honest-rate 0.1: trade %+v, coarse %+v", c.Trade, c.Coarse)
	}

	for _, bad := range [][]string{{"--years", "-1"}, {"--years", "11"}, {"--recent", "-1h"}, {"--shifts", "-2"}, {"--deceptive-rate", "0.7", "--honest-rate", "0.5"}} {
		if _, _, err := parseTradeFlags(t, bad...); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}

// The demo's official actuals are the truth's loadings per port,
// commodity and ISO week of departure.
func TestTruthActuals(t *testing.T) {
	truth := `{"type":"vessel","vessels":[9000001]}
{"type":"port_call","vessels":[9000001],"call":{"port":"santos","operation":"load","commodity":"grain","cargo_tonnes":60000,"departure":"2026-03-04T10:00:00Z","arrival":"2026-03-01T00:00:00Z","berth_zone":"x","berth_start":"2026-03-02T00:00:00Z","berth_end":"2026-03-04T00:00:00Z","draft_before":0,"draft_after":0,"reported_from":0,"reported_to":0}}
{"type":"port_call","vessels":[9000002],"call":{"port":"santos","operation":"load","commodity":"grain","cargo_tonnes":40000,"departure":"2026-03-08T23:00:00Z","arrival":"2026-03-01T00:00:00Z","berth_zone":"x","berth_start":"2026-03-02T00:00:00Z","berth_end":"2026-03-04T00:00:00Z","draft_before":0,"draft_after":0,"reported_from":0,"reported_to":0}}
{"type":"port_call","vessels":[9000003],"call":{"port":"santos","operation":"load","commodity":"grain","cargo_tonnes":10000,"departure":"2026-03-09T01:00:00Z","arrival":"2026-03-01T00:00:00Z","berth_zone":"x","berth_start":"2026-03-02T00:00:00Z","berth_end":"2026-03-04T00:00:00Z","draft_before":0,"draft_after":0,"reported_from":0,"reported_to":0}}
{"type":"port_call","vessels":[9000004],"call":{"port":"qingdao","operation":"discharge","commodity":"grain","cargo_tonnes":60000,"departure":"2026-03-04T10:00:00Z","arrival":"2026-03-01T00:00:00Z","berth_zone":"x","berth_start":"2026-03-02T00:00:00Z","berth_end":"2026-03-04T00:00:00Z","draft_before":0,"draft_after":0,"reported_from":0,"reported_to":0}}
`
	rows, err := truthActuals(strings.NewReader(truth))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Port != "santos" || rows[0].Tonnes != 100000 || rows[0].Week.Format(time.DateOnly) != "2026-03-02" ||
		rows[1].Tonnes != 10000 || rows[1].Week.Format(time.DateOnly) != "2026-03-09" || rows[0].Source != demoActualsSource {
		t.Fatalf("rows: %+v", rows)
	}
	if _, err := truthActuals(strings.NewReader("{not json\n")); err == nil {
		t.Fatal("a broken line was accepted")
	}
}

// FuzzTruthActuals: any input gives rows or an error, never a panic, and
// rows have a Monday week and positive tonnes.
func FuzzTruthActuals(f *testing.F) {
	f.Add(`{"type":"port_call","vessels":[1],"call":{"port":"santos","operation":"load","commodity":"grain","cargo_tonnes":5,"departure":"2026-03-04T10:00:00Z"}}`)
	f.Add(`{"type":"port_call","call":null}`)
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := truthActuals(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, r := range rows {
			if r.Week.Weekday() != time.Monday || r.Tonnes <= 0 {
				t.Fatalf("bad row %+v", r)
			}
		}
	})
}
