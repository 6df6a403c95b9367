package sim

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"testing"
	"time"

	"overwatch"
	"overwatch/write/ais"
)

// testConfig is a small fleet with every behaviour frequent enough to occur
// in ten days.
func testConfig(seed uint64) Config {
	return Config{
		Seed: seed, Vessels: 160, Start: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Warmup: 20 * 24 * time.Hour,
		Downsample: 30, Sanctioned: 4, DarkFleet: 16,
		Rates: Rates{Gap: 0.15, DarkCall: 0.8, STS: 0.9, Loiter: 0.3, Identity: 0.3, Mismatch: 0.3, Destination: 0.3, Spoof: 0.2},
	}
}

// captured is what a simulation delivered: every line per provider, and
// the truth.
type captured struct {
	lines map[overwatch.Source][]string
	hash  [32]byte
	truth []Truth
	sim   *Simulation
}

func capture(t *testing.T, cfg Config, days int) *captured {
	t.Helper()
	var truth bytes.Buffer
	s, err := New(cfg, &truth)
	if err != nil {
		t.Fatal(err)
	}
	c := &captured{lines: map[overwatch.Source][]string{}, sim: s}
	h := sha256.New()
	err = s.EmitUntil(context.Background(), cfg.Start.Add(time.Duration(days)*24*time.Hour), func(at time.Time, lines []string, providers []overwatch.Source) error {
		for _, p := range providers {
			for _, l := range lines {
				c.lines[p] = append(c.lines[p], l)
				fmt.Fprintf(h, "%s %s\n", p, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Finish()
	copy(c.hash[:], h.Sum(nil))
	sc := bufio.NewScanner(&truth)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr Truth
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		c.truth = append(c.truth, tr)
	}
	return c
}

func TestSameSeedSameSentences(t *testing.T) {
	t.Parallel()
	a := capture(t, testConfig(7), 3)
	b := capture(t, testConfig(7), 3)
	if a.hash != b.hash {
		t.Fatal("the same seed gave different sentences")
	}
	c := capture(t, testConfig(8), 3)
	if a.hash == c.hash {
		t.Fatal("another seed gave the same sentences")
	}
	n := 0
	for _, l := range a.lines {
		n += len(l)
	}
	t.Logf("3 days, 160 vessels: %d lines, sha256 %x", n, a.hash[:8])
}

// observation is a decoded message as a provider received it.
type observation struct {
	src overwatch.Source
	m   ais.Message
}

func decodeAll(t *testing.T, c *captured) []observation {
	t.Helper()
	var out []observation
	for _, src := range overwatch.Sources {
		d := ais.NewDecoder(ais.Options{})
		for _, l := range c.lines[src] {
			if m, ok := d.Decode([]byte(l)); ok {
				out = append(out, observation{src: src, m: m})
			}
		}
		st := d.Stats()
		if st.Invalid() > 0 {
			t.Fatalf("%s: the simulator's sentences do not decode cleanly: %+v", src, st)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].m.Time.Before(out[j].m.Time) })
	return out
}

func TestSentencesRoundTrip(t *testing.T) {
	t.Parallel()
	cfg := testConfig(3)
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	types := map[uint8]int{}
	d := ais.NewDecoder(ais.Options{})
	for _, e := range s.emitters[:40] {
		for i := 0; i < 50; i++ {
			if err := s.planner.Run(cfg.Start.Add(5 * 24 * time.Hour)); err != nil {
				t.Fatal(err)
			}
			r, ok := e.next(cfg.Start.Add(4 * 24 * time.Hour))
			if !ok {
				break
			}
			lines, err := s.enc[0].Encode(r.Msg, r.At)
			if err != nil {
				t.Fatal(err)
			}
			var got ais.Message
			for _, l := range lines {
				if m, ok := d.Decode([]byte(l)); ok {
					got = m
				}
			}
			want := r.Msg
			types[want.Type]++
			if got.Type != want.Type || got.MMSI != want.MMSI || !got.Time.Equal(r.At.Truncate(time.Second)) {
				t.Fatalf("envelope: got %d/%d/%v, want %d/%d/%v", got.Type, got.MMSI, got.Time, want.Type, want.MMSI, r.At)
			}
			switch want.Type {
			case 1:
				if math.Abs(got.Lat-want.Lat) > 2e-6 || math.Abs(got.Lon-want.Lon) > 2e-6 || math.Abs(got.SOG-want.SOG) > 0.051 ||
					math.Abs(got.COG-want.COG) > 0.051 || got.Heading != want.Heading || got.NavStatus != want.NavStatus {
					t.Fatalf("position round trip:\n got %+v\nwant %+v", got, want)
				}
			case 5:
				if got.IMO != want.IMO || got.Name != ais.NormalizeText(want.Name, 20) || got.CallSign != ais.NormalizeText(want.CallSign, 7) ||
					got.ShipType != want.ShipType || got.ToBow != want.ToBow || math.Abs(got.Draught-want.Draught) > 0.051 ||
					got.Destination != ais.NormalizeText(want.Destination, 20) || got.ETADay != want.ETADay {
					t.Fatalf("static round trip:\n got %+v\nwant %+v", got, want)
				}
			}
		}
	}
	if types[1] == 0 || types[5] == 0 {
		t.Fatalf("types emitted: %v", types)
	}
}
