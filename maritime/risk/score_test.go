package risk

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/pandi"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"
)

var scoreNow = time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)

func scoreHoursAgo(h float64) time.Time { return scoreNow.Add(-time.Duration(h * float64(time.Hour))) }

func scoreFactor(t *testing.T, r VesselScore, name string) Factor {
	t.Helper()
	for _, f := range r.Factors {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no factor %s", name)
	return Factor{}
}

func scoreClose(a, b float64) bool { return a-b < 0.01 && b-a < 0.01 }

func TestRiskFactorsTable(t *testing.T) {
	t.Parallel()
	if len(Factors) != 15 {
		t.Fatalf("%d factors, want 15", len(Factors))
	}
	seen := map[string]bool{}
	for _, f := range Factors {
		if seen[f.Name] || f.Weight <= 0 || f.Full <= 0 || f.Unit == "" || f.Window == "" || f.Reason == "" || f.Source == "" {
			t.Errorf("factor %+v: repeated or undocumented", f)
		}
		seen[f.Name] = true
	}
	if Factors[0].Name != FactorSanctions || Factors[0].Weight < ScoreCritical {
		t.Error("a direct sanctions match alone must reach critical")
	}
	r := ScoreVessel(vessel.Profile{IMO: 9187629}, nil, nil, nil, nil, nil, scoreNow)
	for i, f := range r.Factors {
		if f.Name != Factors[i].Name || f.Weight != Factors[i].Weight || f.Reason == "" {
			t.Errorf("factor %d: %+v", i, f)
		}
	}
}

// The simulator's dark-fleet flags are all high-risk flags.
func TestHighRiskFlagsCoverSimulatorDarkFlags(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../write/sim/fleet.go")
	if err != nil {
		t.Skip(err)
	}
	m := regexp.MustCompile(`darkFlags\s*=\s*\[\]string\{([^}]*)\}`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no darkFlags in write/sim/fleet.go")
	}
	for _, f := range regexp.MustCompile(`"([A-Z]{2})"`).FindAllSubmatch(m[1], -1) {
		if HighRiskFlags[string(f[1])] < 0.7 {
			t.Errorf("dark-fleet flag %s is not a high-risk flag", f[1])
		}
	}
}

func TestScoreCleanVessel(t *testing.T) {
	t.Parallel()
	r := ScoreVessel(vessel.Profile{IMO: 9876543, Name: "CLEAN", Flag: "PA", ShipType: 70, BuildYear: 2015}, nil, nil, nil,
		&portstats.Reliability{Calls: 10, Declared: 10, Matched: 10, Share: 1}, nil, scoreNow)
	if r.Score != 0 || r.Tier != TierLow || r.Category != "cargo" || !r.ComputedAt.Equal(scoreNow) {
		t.Errorf("%+v", r)
	}
}

// pi_cover: Group cover and no record count nothing; a medium-tier
// insurer half the weight, a high-tier (unknown or sanctioned) one all of
// it, with the assessment's reason.
func TestScorePICover(t *testing.T) {
	t.Parallel()
	v := vessel.Profile{IMO: 9876543, Name: "COVERED", Flag: "PA", ShipType: 80, BuildYear: 2015}
	for _, c := range []struct {
		cover *pandi.Assessment
		want  float64
	}{
		{nil, 0},
		{&pandi.Assessment{GroupCover: true, Tier: pandi.TierLow, Reason: "entered with Gard, an International Group club"}, 0},
		{&pandi.Assessment{Tier: pandi.TierMedium, Reason: "no International Group cover (insured by Lodestar)"}, 2.5},
		{&pandi.Assessment{Tier: pandi.TierHigh, Reason: "no International Group cover (insured by Acme Cover Ltd)"}, 5},
	} {
		r := ScoreVessel(v, nil, nil, nil, nil, c.cover, scoreNow)
		f := scoreFactor(t, r, FactorPICover)
		if f.Contribution != c.want || f.Weight != 5 || r.Score != c.want {
			t.Errorf("%+v: %+v, score %.2f; want %.2f", c.cover, f, r.Score, c.want)
		}
		if c.cover != nil && f.Reason != c.cover.Reason {
			t.Errorf("reason %q, want %q", f.Reason, c.cover.Reason)
		}
	}
}

func TestScoreSanctions(t *testing.T) {
	t.Parallel()
	v := vessel.Profile{IMO: 9187629, Flag: "PA", ShipType: 80, BuildYear: 2015}
	direct := ScoreVessel(v, nil, nil, []sanctions.Match{
		{IMO: 9187629, Entry: artavil, MatchType: sanctions.MatchName, MatchedOn: "ARTAVIL", Confidence: sanctions.ConfidenceNameFlag},
		{IMO: 9187629, Entry: artavil, MatchType: sanctions.MatchIMO, MatchedOn: "9187629", Confidence: 1},
		{IMO: 1, Entry: hermann, MatchType: sanctions.MatchIMO, Confidence: 1}, // another vessel's
	}, nil, nil, scoreNow)
	if direct.Tier != TierCritical || direct.Score != 75 {
		t.Errorf("direct match: %.1f %s", direct.Score, direct.Tier)
	}
	if f := scoreFactor(t, direct, FactorSanctions); !strings.Contains(f.Reason, "direct imo match") || !strings.Contains(f.Reason, "15036") {
		t.Errorf("reason %q", f.Reason)
	}
	byName := ScoreVessel(v, nil, nil, []sanctions.Match{{IMO: 9187629, Entry: artavil, MatchType: sanctions.MatchName, Confidence: 0.75}}, nil, nil, scoreNow)
	if byName.Tier != TierHigh || !scoreClose(byName.Score, 56.25) {
		t.Errorf("name match: %.2f %s", byName.Score, byName.Tier)
	}
}

func TestScoreDarkFleetVessel(t *testing.T) {
	t.Parallel()
	v := vessel.Profile{IMO: 9187655, Name: "DARK", Flag: "CM", ShipType: 81, BuildYear: 2000}
	end1, end2 := scoreHoursAgo(470), scoreHoursAgo(170)
	identityAt := scoreHoursAgo(24 * 200)
	events := []Event{
		// Two intentional gaps of 30 h, one ending off Kharg Island.
		{Type: EventGap, Subtype: "intentional", IMO: v.IMO, Start: scoreHoursAgo(500), End: &end1, Lat: 20, Lon: 60, EndLat: 29.0, EndLon: 50.0},
		{Type: EventGap, Subtype: "intentional", IMO: v.IMO, Start: scoreHoursAgo(200), End: &end2, Lat: 20, Lon: 60, EndLat: 21, EndLon: 61},
		// A transfer where it is the other vessel, one of its own.
		{Type: EventSTS, IMO: 1111111, Other: v.IMO, Start: scoreHoursAgo(300), End: &end2, Detail: map[string]any{"confidence": "high"}},
		{Type: EventSTS, IMO: v.IMO, Other: 2222222, Start: scoreHoursAgo(300), End: &end2, Detail: map[string]any{"confidence": "medium"}},
		// A reflag: flag and MMSI at once count once.
		{Type: EventIdentity, Subtype: "flag", IMO: v.IMO, Start: identityAt, End: &identityAt},
		{Type: EventIdentity, Subtype: "mmsi", IMO: v.IMO, Start: identityAt, End: &identityAt},
		// Another vessel's gap.
		{Type: EventGap, IMO: 3333333, Start: scoreHoursAgo(100)},
	}
	r := ScoreVessel(v, events, nil, nil, nil, nil, scoreNow)
	want := map[string][2]float64{ // value, contribution
		FactorGaps: {2, 10 * 2.0 / 6}, FactorGapHours: {60, 10 * 60.0 / 168}, FactorIntentional: {2, 20},
		FactorDarkNearSanctioned: {30, 15 * 30.0 / 48}, FactorSTS: {1.6, 8}, FactorIdentity: {1, 4},
		FactorFlag: {0.7, 8.4}, FactorAge: {26, 8}, FactorSanctions: {0, 0}, FactorLoitering: {0, 0},
	}
	total := 0.0
	for name, w := range want {
		f := scoreFactor(t, r, name)
		if !scoreClose(f.Value, w[0]) || !scoreClose(f.Contribution, w[1]) {
			t.Errorf("%s: value %.2f contribution %.2f, want %.2f %.2f (%s)", name, f.Value, f.Contribution, w[0], w[1], f.Reason)
		}
		total += w[1]
	}
	if !scoreClose(r.Score, total) || r.Tier != TierHigh {
		t.Errorf("score %.2f %s, want %.2f high", r.Score, r.Tier, total)
	}
	if f := scoreFactor(t, r, FactorDarkNearSanctioned); !strings.Contains(f.Reason, "Kharg Island") {
		t.Errorf("reason %q", f.Reason)
	}
}

func TestScoreWindows(t *testing.T) {
	t.Parallel()
	v := vessel.Profile{IMO: 9187655, Flag: "PA", ShipType: 80, BuildYear: 2020}
	old, straddle := scoreHoursAgo(24*95), scoreHoursAgo(24*90-10)
	events := []Event{
		{Type: EventGap, IMO: v.IMO, Start: scoreHoursAgo(24 * 100), End: &old},        // before the window
		{Type: EventGap, IMO: v.IMO, Start: scoreHoursAgo(24*90 + 10), End: &straddle}, // 10 of its 20 h inside
		{Type: EventGap, IMO: v.IMO, Start: scoreHoursAgo(6)},                          // ongoing: 6 h so far
		{Type: EventLoitering, IMO: v.IMO, Start: scoreHoursAgo(4)},                    // ongoing
		{Type: EventSpoofing, IMO: v.IMO, Start: scoreNow.Add(time.Hour)},              // after now
	}
	r := ScoreVessel(v, events, nil, nil, nil, nil, scoreNow)
	if f := scoreFactor(t, r, FactorGaps); f.Value != 2 {
		t.Errorf("gaps %v", f.Value)
	}
	if f := scoreFactor(t, r, FactorGapHours); !scoreClose(f.Value, 16) {
		t.Errorf("gap hours %v", f.Value)
	}
	if f := scoreFactor(t, r, FactorLoitering); !scoreClose(f.Value, 4) {
		t.Errorf("loitering hours %v", f.Value)
	}
	if f := scoreFactor(t, r, FactorSpoofing); f.Value != 0 {
		t.Errorf("spoofing %v", f.Value)
	}
}

func TestScoreProfileFactors(t *testing.T) {
	t.Parallel()
	tanker := vessel.Profile{IMO: 9187655, Flag: "IR", ShipType: 80}
	cargo := vessel.Profile{IMO: 9187643, Flag: "ru", ShipType: 70, BuildYear: 2004}
	calls := []portcall.Call{
		{IMO: tanker.IMO, Port: "rizhao", Arrival: scoreHoursAgo(100)},
		{IMO: tanker.IMO, Port: "novorossiysk", Arrival: scoreHoursAgo(200)},
		{IMO: tanker.IMO, Port: "novorossiysk", Arrival: scoreHoursAgo(24 * 200)}, // too old
		{IMO: tanker.IMO, Port: "santos", Arrival: scoreHoursAgo(300)},
		{IMO: cargo.IMO, Port: "rizhao", Arrival: scoreHoursAgo(100)}, // tankers only
		{IMO: cargo.IMO, Port: "novorossiysk", Arrival: scoreHoursAgo(100)},
	}
	rel := &portstats.Reliability{Calls: 12, Declared: 10, Matched: 4, Share: 0.4}
	r := ScoreVessel(tanker, nil, calls, nil, rel, nil, scoreNow)
	if f := scoreFactor(t, r, FactorHighRiskPorts); f.Value != 2 || !strings.Contains(f.Reason, "novorossiysk, rizhao") {
		t.Errorf("tanker calls: %+v", f)
	}
	if f := scoreFactor(t, r, FactorFlag); f.Value != 1 || f.Contribution != 12 {
		t.Errorf("flag: %+v", f)
	}
	if f := scoreFactor(t, r, FactorDestination); !scoreClose(f.Value, 0.6) || !scoreClose(f.Contribution, 3.6) {
		t.Errorf("destination: %+v", f)
	}
	// No build year: estimated from the IMO number (9187655: about 1999).
	if f := scoreFactor(t, r, FactorAge); f.Value < 25 || f.Contribution != 8 || !strings.Contains(f.Reason, "estimated") {
		t.Errorf("age: %+v", f)
	}
	r = ScoreVessel(cargo, nil, calls, nil, &portstats.Reliability{Calls: 5, Declared: 2, Share: 0}, nil, scoreNow)
	if f := scoreFactor(t, r, FactorHighRiskPorts); f.Value != 1 {
		t.Errorf("cargo calls: %+v", f)
	}
	if f := scoreFactor(t, r, FactorFlag); f.Value != 0.5 {
		t.Errorf("flag RU: %+v", f)
	}
	if f := scoreFactor(t, r, FactorAge); f.Value != 22 || f.Contribution != 4 {
		t.Errorf("age: %+v", f)
	}
	if f := scoreFactor(t, r, FactorDestination); f.Value != 0 {
		t.Errorf("2 calls judged: %+v", f)
	}
}

func TestScoreCapsAt100(t *testing.T) {
	t.Parallel()
	v := vessel.Profile{IMO: 9187629, Flag: "KP", ShipType: 80, BuildYear: 1990}
	var events []Event
	for i := range 10 {
		end := scoreHoursAgo(float64(i*100 + 50))
		events = append(events, Event{Type: EventGap, Subtype: "intentional", IMO: v.IMO, Start: scoreHoursAgo(float64(i*100 + 100)),
			End: &end, Lat: 29.2, Lon: 50.3})
	}
	r := ScoreVessel(v, events, nil, []sanctions.Match{{IMO: v.IMO, MatchType: sanctions.MatchIMO, Confidence: 1}}, nil, nil, scoreNow)
	if r.Score != 100 || r.Tier != TierCritical {
		t.Errorf("%.1f %s", r.Score, r.Tier)
	}
}

func TestScoreTier(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		score  float64
		direct bool
		want   string
	}{{0, false, TierLow}, {24.99, false, TierLow}, {25, false, TierMedium}, {50, false, TierHigh}, {75, false, TierCritical},
		{10, true, TierCritical}} {
		if got := ScoreTier(c.score, c.direct); got != c.want {
			t.Errorf("ScoreTier(%v, %v) = %s, want %s", c.score, c.direct, got, c.want)
		}
	}
}

func TestNearSanctionedArea(t *testing.T) {
	t.Parallel()
	if a := NearSanctionedArea(29.0, 50.0); a == nil || a.Country != "IR" {
		t.Errorf("off Kharg: %v", a)
	}
	if a := NearSanctionedArea(0, 0); a != nil {
		t.Errorf("0,0: %v", a)
	}
	// Ras Laffan, Qatar: about 200 km from Assaluyeh, outside 100 nm.
	if a := NearSanctionedArea(25.92, 51.58); a != nil {
		t.Errorf("Ras Laffan: %v", a)
	}
}

func TestScoreVessels(t *testing.T) {
	t.Parallel()
	a, b := vessel.Profile{IMO: 9187629, Flag: "PA", ShipType: 80, BuildYear: 2015}, vessel.Profile{IMO: 9187655, Flag: "PA", ShipType: 80, BuildYear: 2015}
	end := scoreHoursAgo(10)
	events := []Event{
		{Type: EventSTS, IMO: a.IMO, Other: b.IMO, Start: scoreHoursAgo(20), End: &end, Detail: map[string]any{"confidence": "high"}},
		{Type: EventGap, Subtype: "intentional", IMO: b.IMO, Start: scoreHoursAgo(40), End: &end},
	}
	matches := []sanctions.Match{{IMO: a.IMO, MatchType: sanctions.MatchIMO, Confidence: 1}}
	rel := []portstats.Reliability{{IMO: b.IMO, Calls: 4, Declared: 4, Matched: 2, Share: 0.5}}
	covers := map[overwatch.IMO]pandi.Assessment{b.IMO: {Tier: pandi.TierHigh, Reason: "no International Group cover"}}
	got := ScoreVessels([]vessel.Profile{a, b}, events, nil, matches, rel, covers, scoreNow)
	for i, v := range []vessel.Profile{a, b} {
		var r *portstats.Reliability
		var cover *pandi.Assessment
		if i == 1 {
			r = &rel[0]
			c := covers[b.IMO]
			cover = &c
		}
		want := ScoreVessel(v, events, nil, matches, r, cover, scoreNow)
		if got[i].IMO != v.IMO || got[i].Score != want.Score || got[i].Tier != want.Tier {
			t.Errorf("vessel %d: %.2f %s, want %.2f %s", v.IMO, got[i].Score, got[i].Tier, want.Score, want.Tier)
		}
	}
	if got[0].Tier != TierCritical || scoreFactor(t, got[1], FactorSTS).Value != 1 || scoreFactor(t, got[1], FactorPICover).Contribution != 5 {
		t.Errorf("%+v", got)
	}
}
