package risk

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"overwatch/maritime/pandi"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"

	"overwatch"
)

// Score tiers: critical from 75 points (or any direct IMO sanctions
// match), high from 50, medium from 25, low below.
const (
	ScoreCritical = 75
	ScoreHigh     = 50
	ScoreMedium   = 25
)

// ScoreTier is the tier of a score; a direct sanctions match makes any
// score critical.
func ScoreTier(score float64, directMatch bool) string {
	switch {
	case directMatch || score >= ScoreCritical:
		return TierCritical
	case score >= ScoreHigh:
		return TierHigh
	case score >= ScoreMedium:
		return TierMedium
	}
	return TierLow
}

// stsConfidenceWeight weighs a transfer by the detector's confidence.
var stsConfidenceWeight = map[string]float64{"high": 1, "medium": 0.6, "low": 0.3}

// ScoreVessel computes a vessel's risk score at now from the events of
// the risk detectors (its own, and the transfers where it is the other
// vessel; others are ignored), its port calls, its sanctions matches and
// its destination reliability (nil when unknown) and the assessment of its
// P&I cover in force (nil when no record is known). Each of the 15 factors
// of RiskFactors adds Weight × min(1, value / Full) points (age and
// flag_risk by steps); the score is the sum, capped at 100, so the
// contributions add up to the score until the cap. Events count when they
// overlap the factor's window (ongoing ones up to now), durations only
// for the part inside it. The factors come in the order of RiskFactors,
// each with a reason naming the evidence.
func ScoreVessel(v vessel.Profile, events []Event, calls []portcall.Call, matches []sanctions.Match, reliability *portstats.Reliability, cover *pandi.Assessment, now time.Time) VesselScore {
	from := now.Add(-ScoreWindow)
	var gaps, gapHours, intentional, sts, loiter, mismatches, spoofs, darkNear float64
	nearNames := map[string]bool{}
	identity := map[int64]bool{}
	for i := range events {
		e := &events[i]
		if e.IMO != v.IMO && (e.Type != EventSTS || e.Other != v.IMO) {
			continue
		}
		end := now
		if e.End != nil && e.End.Before(now) {
			end = *e.End
		}
		if e.Type == EventIdentity {
			if !e.Start.Before(now.Add(-IdentityWindow)) && !e.Start.After(now) {
				identity[e.Start.Truncate(time.Hour).Unix()] = true
			}
			continue
		}
		if end.Before(from) || e.Start.After(now) {
			continue
		}
		hours := math.Max(0, end.Sub(scoreMaxTime(e.Start, from)).Hours())
		switch e.Type {
		case EventGap:
			gaps++
			gapHours += hours
			if e.Subtype == "intentional" {
				intentional++
			}
			a := NearSanctionedArea(e.Lat, e.Lon)
			if a == nil && e.End != nil {
				a = NearSanctionedArea(e.EndLat, e.EndLon)
			}
			if a != nil {
				darkNear += hours
				nearNames[a.Name] = true
			}
		case EventSTS:
			w, ok := stsConfidenceWeight[fmt.Sprint(e.Detail["confidence"])]
			if !ok {
				w = stsConfidenceWeight["medium"]
			}
			sts += w
		case EventLoitering:
			loiter += hours
		case EventMismatch:
			mismatches++
		case EventSpoofing:
			spoofs++
		}
	}
	r := VesselScore{IMO: v.IMO, Name: v.Name, Flag: v.Flag, ShipType: v.ShipType, ComputedAt: now}
	if c, ok := vessel.CategoryOf(v.ShipType); ok {
		r.Category = c.Name
	}
	sanction, direct, sanctionWhy := sanctionsFactor(v.IMO, matches)
	flag, flagWhy := flagFactor(v.Flag)
	age, ageStep, ageWhy := ageFactor(v, now)
	dest, destWhy := destinationFactor(reliability)
	ports, portsWhy := highRiskCalls(v, calls, now)
	insurer, insurerWhy := coverFactor(cover)
	values := map[string]struct {
		value  float64
		share  float64 // -1: value / Full
		reason string
	}{
		FactorSanctions:          {sanction, -1, sanctionWhy},
		FactorGaps:               {gaps, -1, scoreCount(gaps, "AIS gap", "in the last 90 days")},
		FactorGapHours:           {gapHours, -1, fmt.Sprintf("%.0f hours dark in the last 90 days", gapHours)},
		FactorIntentional:        {intentional, -1, scoreCount(intentional, "suspected intentional AIS gap", "in the last 90 days")},
		FactorSTS:                {sts, -1, fmt.Sprintf("ship-to-ship transfers weighing %.1f in the last 90 days", sts)},
		FactorLoitering:          {loiter, -1, fmt.Sprintf("%.0f hours loitering in the last 90 days", loiter)},
		FactorIdentity:           {float64(len(identity)), -1, scoreCount(float64(len(identity)), "identity change", "in the last year")},
		FactorMismatches:         {mismatches, -1, scoreCount(mismatches, "draught mismatch", "in the last 90 days")},
		FactorSpoofing:           {spoofs, -1, scoreCount(spoofs, "impossible position jump", "in the last 90 days")},
		FactorFlag:               {flag, flag, flagWhy},
		FactorAge:                {age, ageStep, ageWhy},
		FactorDestination:        {dest, -1, destWhy},
		FactorHighRiskPorts:      {ports, -1, portsWhy},
		FactorDarkNearSanctioned: {darkNear, -1, darkNearReason(darkNear, nearNames)},
		FactorPICover:            {insurer, -1, insurerWhy},
	}
	total := 0.0
	for _, spec := range Factors {
		f := values[spec.Name]
		share := f.share
		if share < 0 {
			share = f.value / spec.Full
		}
		c := spec.Weight * math.Min(1, math.Max(0, share))
		total += c
		r.Factors = append(r.Factors, Factor{Name: spec.Name, Weight: spec.Weight, Value: scoreRound(f.value),
			Contribution: scoreRound(c), Reason: f.reason})
	}
	r.Score = scoreRound(math.Min(100, total))
	r.Tier = ScoreTier(r.Score, direct)
	return r
}

// ScoreVessels scores every vessel (ScoreVessel), grouping the events,
// calls, matches and reliabilities by vessel first (covers are the
// assessments of the vessels' P&I cover in force, by IMO), so that the work grows
// with their number, not with their product. The result is in the order
// of vessels.
func ScoreVessels(vessels []vessel.Profile, events []Event, calls []portcall.Call, matches []sanctions.Match, reliabilities []portstats.Reliability, covers map[overwatch.IMO]pandi.Assessment, now time.Time) []VesselScore {
	evs := map[overwatch.IMO][]Event{}
	for _, e := range events {
		evs[e.IMO] = append(evs[e.IMO], e)
		if e.Type == EventSTS && e.Other != 0 && e.Other != e.IMO {
			evs[e.Other] = append(evs[e.Other], e)
		}
	}
	cs := map[overwatch.IMO][]portcall.Call{}
	for _, c := range calls {
		cs[c.IMO] = append(cs[c.IMO], c)
	}
	ms := map[overwatch.IMO][]sanctions.Match{}
	for _, m := range matches {
		ms[m.IMO] = append(ms[m.IMO], m)
	}
	rel := map[overwatch.IMO]*portstats.Reliability{}
	for i := range reliabilities {
		rel[reliabilities[i].IMO] = &reliabilities[i]
	}
	out := make([]VesselScore, len(vessels))
	for i, v := range vessels {
		var cover *pandi.Assessment
		if a, ok := covers[v.IMO]; ok {
			cover = &a
		}
		out[i] = ScoreVessel(v, evs[v.IMO], cs[v.IMO], ms[v.IMO], rel[v.IMO], cover, now)
	}
	return out
}

// sanctionsFactor is the vessel's most confident match: its confidence,
// whether it is a direct IMO match, and the reason.
func sanctionsFactor(imo overwatch.IMO, matches []sanctions.Match) (float64, bool, string) {
	var best *sanctions.Match
	for i := range matches {
		m := &matches[i]
		if m.IMO == imo && (best == nil || m.Confidence > best.Confidence) {
			best = m
		}
	}
	if best == nil {
		return 0, false, "no sanctions-list match"
	}
	why := fmt.Sprintf("%s match (confidence %.2f) on %q: %s entry %s, %s", strings.ReplaceAll(best.MatchType, "_", " "),
		best.Confidence, best.MatchedOn, best.Entry.ListSource, best.Entry.EntryID, best.Entry.Name)
	if best.Entry.Program != "" {
		why += " (" + best.Entry.Program + ")"
	}
	return best.Confidence, best.MatchType == sanctions.MatchIMO, why
}

func flagFactor(flag string) (float64, string) {
	flag = strings.ToUpper(strings.TrimSpace(flag))
	if flag == "" {
		return 0, "flag unknown"
	}
	risk := HighRiskFlags[flag]
	switch {
	case risk >= 1:
		return risk, "flag " + flag + ": a state under comprehensive sanctions"
	case risk > 0:
		return risk, "flag " + flag + ": a high-risk registry"
	}
	return 0, "flag " + flag + ": not a high-risk registry"
}

// ageFactor is the vessel's age in years, its step (0, 0.5 over 20
// years, 1 over 25) and the reason. The build year is the registry's, or
// estimated from the IMO number.
func ageFactor(v vessel.Profile, now time.Time) (age, step float64, why string) {
	year, how := v.BuildYear, ""
	if year <= 0 && v.IMO.Valid() {
		year, how = vessel.BuildYearFromIMO(v.IMO), " (estimated from the IMO number)"
	}
	if year <= 0 || year > now.Year()+1 {
		return 0, 0, "build year unknown"
	}
	age = float64(max(0, now.Year()-year))
	switch {
	case age > 25:
		step = 1
	case age > 20:
		step = 0.5
	}
	return age, step, fmt.Sprintf("built %d%s, %.0f years old", year, how, age)
}

// destinationFactor is the share of the vessel's declared and completed
// calls whose declared destination was not the port reached, from at least
// 3 such calls.
func destinationFactor(r *portstats.Reliability) (float64, string) {
	if r == nil || r.Declared < 3 {
		return 0, "fewer than 3 declared calls to judge declared destinations by"
	}
	miss := math.Max(0, 1-r.Share)
	return miss, fmt.Sprintf("%d of %d declared calls not at the declared destination", r.Declared-r.Matched, r.Declared)
}

// highRiskCalls counts the vessel's calls at HighRiskPorts that arrived
// in the last PortCallsWindow.
func highRiskCalls(v vessel.Profile, calls []portcall.Call, now time.Time) (float64, string) {
	from := now.Add(-PortCallsWindow)
	tanker := false
	if c, ok := vessel.CategoryOf(v.ShipType); ok {
		tanker = c.Name == "tanker"
	}
	n := 0
	var at []string
	for i := range calls {
		c := &calls[i]
		if c.IMO != v.IMO || c.Arrival.Before(from) || c.Arrival.After(now) {
			continue
		}
		for _, p := range HighRiskPorts {
			if p.Slug == c.Port && (tanker || !p.TankersOnly) {
				n++
				if len(at) == 0 || at[len(at)-1] != p.Slug {
					at = append(at, p.Slug)
				}
			}
		}
	}
	if n == 0 {
		return 0, "no calls at high-risk ports in the last 180 days"
	}
	return float64(n), scoreCount(float64(n), "call", "at high-risk ports in the last 180 days ("+strings.Join(scoreDedupe(at), ", ")+")")
}

func darkNearReason(hours float64, names map[string]bool) string {
	if hours == 0 {
		return "no AIS gaps near sanctioned ports in the last 90 days"
	}
	var list []string
	for n := range names {
		list = append(list, n)
	}
	return fmt.Sprintf("%.0f hours dark within 100 nm of %s in the last 90 days", hours, strings.Join(scoreDedupe(list), ", "))
}

// scoreCount writes "no gaps …", "1 gap …", "3 gaps …".
func scoreCount(n float64, noun, rest string) string {
	switch {
	case n == 0:
		return "no " + noun + "s " + rest
	case n == 1:
		return "1 " + noun + " " + rest
	}
	return fmt.Sprintf("%.0f %ss %s", n, noun, rest)
}

// scoreDedupe sorts the names and drops repeats.
func scoreDedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

func scoreMaxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// scoreRound rounds to two decimals.
func scoreRound(v float64) float64 { return math.Round(v*100) / 100 }

// coverFactor is the pi_cover value of a cover assessment: 0 with Group
// cover or no record known, 0.5 for an insurer of medium tier, 1 for one
// of high tier.
func coverFactor(a *pandi.Assessment) (float64, string) {
	switch {
	case a == nil || a.Tier == "":
		return 0, "no current P&I record known"
	case a.GroupCover:
		return 0, a.Reason
	case a.Tier == pandi.TierHigh:
		return 1, a.Reason
	case a.Tier == pandi.TierMedium:
		return 0.5, a.Reason
	}
	return 0, a.Reason
}
