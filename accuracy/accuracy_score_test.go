package accuracy

import (
	"fmt"
	"math"
	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/portstats"
	"overwatch/maritime/risk"
	"overwatch/write/sim"
	"sort"
	"time"
)

// scoreAccuracy scores the events and reliabilities read through the API
// against the truth of a run over [start, end] (positions up to dataEnd):
// the single-vessel detectors by the rule of evaluateRiskSingle
// (e2e/e2e_risk_single_test.go), the transfers, mismatches and identity
// changes by that of evaluateRiskPair (e2e/e2e_risk_pair_test.go), then
// the gaps by cause, the silences of 6–12 hours, the dark port calls and the
// destination reliabilities (below).
func scoreAccuracy(truth []sim.Truth, api *accAPI, start, end, dataEnd time.Time, staticEvery time.Duration) []accRow {
	from, to := start.Add(12*time.Hour), end.Add(-12*time.Hour)
	events := api.events
	var rows []accRow
	single := func(name string, s apptest.RiskScore) {
		rows = append(rows, accRow{name: name, truth: s.Truth, found: s.Found, detected: s.Detected, right: s.Matched, misses: s.Misses})
	}
	single("ais_gap (12 h or more)", apptest.ScoreRisk("gaps", truth, events, from, to, end, apptest.IsType("ais_gap", risk.EventGap, "*")))
	rows = append(rows, scoreIntentional(truth, events, from, to))
	rows = append(rows, scoreGapCauses(truth, events, from, to)...)
	single("ais_gap open", apptest.ScoreOpenGaps(truth, events, start))
	rows = append(rows, scoreSilences(truth, events, from, to))
	single("loitering", apptest.ScoreRisk("loitering", truth, events, from, to, end, apptest.IsType("loitering", risk.EventLoitering, "*")))
	single("loitering stationary", apptest.ScoreRisk("stationary", truth, events, from, to, end, apptest.IsType("loitering", risk.EventLoitering, risk.LoiterStationary)))
	single("loitering slow_roll", apptest.ScoreRisk("slow_roll", truth, events, from, to, end, apptest.IsType("loitering", risk.EventLoitering, risk.LoiterSlowRoll)))
	single("spoofing", apptest.ScoreRisk("spoofing", truth, events, from, to, end, apptest.IsType("spoofing", risk.EventSpoofing, "*")))
	for _, s := range apptest.EvaluatePair(truth, events, start, dataEnd, api.firstSeen, staticEvery) {
		rows = append(rows, accRow{name: s.Name, truth: s.Truth, found: s.TruthFound, detected: s.Detected - s.Excused, right: s.DetectedOK})
	}
	rows = append(rows, scoreDarkCalls(truth, events, from, to))
	rows = append(rows, scoreReliability(truth, api, start, dataEnd))
	return rows
}

// gapCause is the cause of a true AIS gap: transponder_off (the vessel
// switched its AIS off), coverage_hole (no receiver hears the place) or
// satellite_revisit (no satellite overhead long enough, in open ocean).
// Truths written before the simulator recorded causes say only whether the
// vessel switched off (injected).
func gapCause(tr *sim.Truth) string {
	d, _ := tr.Detail.(map[string]any)
	if c, ok := d["cause"].(string); ok {
		return c
	}
	if inj, _ := d["injected"].(bool); inj {
		return "transponder_off"
	}
	return "reception"
}

func truthHours(tr *sim.Truth) float64 {
	if tr.Start == nil || tr.End == nil {
		return math.Inf(1)
	}
	return tr.End.Sub(*tr.Start).Hours()
}

func detailFloat(d any, key string) float64 {
	m, _ := d.(map[string]any)
	v, _ := m[key].(float64)
	return v
}

// closedIn reports whether a truth event is closed and wholly in [from, to].
func closedIn(tr *sim.Truth, from, to time.Time) bool {
	return tr.Start != nil && tr.End != nil && !tr.Start.Before(from) && !tr.End.After(to)
}

// overlapsEvent reports whether an event of the vessel overlaps [a, b],
// with slack either side.
func overlapsEvent(e *risk.Event, imo overwatch.IMO, a, b time.Time, slack time.Duration) bool {
	end := e.Start
	if e.End != nil {
		end = *e.End
	} else {
		end = b.Add(slack)
	}
	return e.IMO == imo && !e.Start.After(b.Add(slack)) && !end.Before(a.Add(-slack))
}

// scoreIntentional scores the intentional subtype against what the
// vessels did: a true gap of 12 h or more in the window is intentional
// when the vessel switched its AIS off and both ends lie more than
// GapOffshoreNM from shore, or its reported draught changed by
// GapDraughtChangeM or more across it (what the published definition can
// see: cargo moved while dark, a port call or a transfer made dark); a
// detected intentional gap is right when it overlaps a true gap of the
// vessel's own doing.
func scoreIntentional(truth []sim.Truth, events []risk.Event, from, to time.Time) accRow {
	row := accRow{name: "ais_gap intentional (switched off)"}
	var off []*sim.Truth
	for i := range truth {
		tr := &truth[i]
		if tr.Type != "ais_gap" || tr.Start == nil || gapCause(tr) != "transponder_off" {
			continue
		}
		off = append(off, tr)
		offshore := detailFloat(tr.Detail, "start_distance_shore_nm") > risk.GapOffshoreNM && detailFloat(tr.Detail, "end_distance_shore_nm") > risk.GapOffshoreNM
		moved := math.Abs(detailFloat(tr.Detail, "draught_change")) >= risk.GapDraughtChangeM-1e-9
		if !closedIn(tr, from, to) || truthHours(tr) < risk.GapMinimum.Hours() || !offshore && !moved {
			continue
		}
		row.truth++
		hit := false
		for k := range events {
			e := &events[k]
			hit = hit || e.Type == risk.EventGap && e.Subtype == "intentional" && overlapsEvent(e, tr.Vessels[0], *tr.Start, *tr.End, 0)
		}
		if hit {
			row.found++
		} else {
			row.misses = append(row.misses, fmt.Sprintf("missed: vessel %d %s – %s %v", tr.Vessels[0], tr.Start.Format(time.RFC3339), tr.End.Format(time.RFC3339), tr.Detail))
		}
	}
	for k := range events {
		e := &events[k]
		if e.Type != risk.EventGap || e.Subtype != "intentional" || e.End == nil || e.Start.Before(from) || e.End.After(to) {
			continue
		}
		row.detected++
		hit := false
		for _, tr := range off {
			end := to
			if tr.End != nil {
				end = *tr.End
			}
			hit = hit || overlapsEvent(e, tr.Vessels[0], *tr.Start, end, 0)
		}
		if hit {
			row.right++
		} else {
			row.misses = append(row.misses, fmt.Sprintf("false: vessel %d %s – %s %v", e.IMO, e.Start.Format(time.RFC3339), e.End.Format(time.RFC3339), e.Detail))
		}
	}
	return row
}

// scoreGapCauses is the recall of the gap detector by cause: the true
// silences of 12 h or more in the window, closed, of each cause, that a
// detected gap of the vessel overlaps.
func scoreGapCauses(truth []sim.Truth, events []risk.Event, from, to time.Time) []accRow {
	by := map[string]*accRow{}
	var causes []string
	for i := range truth {
		tr := &truth[i]
		if tr.Type != "ais_gap" || !closedIn(tr, from, to) || truthHours(tr) < risk.GapMinimum.Hours() {
			continue
		}
		c := gapCause(tr)
		if by[c] == nil {
			by[c] = &accRow{name: "ais_gap cause " + c, recallOnly: true}
			causes = append(causes, c)
		}
		r := by[c]
		r.truth++
		hit := false
		for k := range events {
			hit = hit || events[k].Type == risk.EventGap && overlapsEvent(&events[k], tr.Vessels[0], *tr.Start, *tr.End, 0)
		}
		if hit {
			r.found++
		}
	}
	sort.Strings(causes)
	var out []accRow
	for _, c := range causes {
		out = append(out, *by[c])
	}
	return out
}

// scoreSilences measures what covers the silences of 6 to 12 hours (off/on
// events below GapMinimum) across which the reported draught changed by
// MinDraftChangeM or more: cargo moved while nobody heard the vessel. Each
// must be reported, by a directional draught mismatch first seen within
// MismatchGapSettle of the silence's end, or by a gap. A silence across
// which a magnitude misreport of the vessel was in force (from before it,
// or from within MismatchGapSettle of its end) is left out: the change
// across it is to or from an impossible draught, which the magnitude
// detector reports (the directional one passes over it); so is
// one during which the vessel called at a port: the cargo moved at the
// call (the port-call detector's), not at sea.
func scoreSilences(truth []sim.Truth, events []risk.Event, from, to time.Time) accRow {
	row := accRow{name: "6–12 h silence with a draught change", recallOnly: true}
	explained := func(tr *sim.Truth) bool {
		for i := range truth {
			m := &truth[i]
			if m.Type == risk.EventMismatch && m.Subtype == risk.MismatchMagnitude && m.Vessels[0] == tr.Vessels[0] &&
				m.Start != nil && m.End != nil && !m.Start.After(tr.End.Add(risk.MismatchGapSettle)) && !m.End.Before(*tr.Start) {
				return true
			}
			if c := m.Call; c != nil && m.Vessels[0] == tr.Vessels[0] && c.Arrival.Before(*tr.End) && c.Departure.After(*tr.Start) {
				return true
			}
		}
		return false
	}
	for i := range truth {
		tr := &truth[i]
		h := truthHours(tr)
		if tr.Type != "ais_gap" && tr.Type != "ais_off_on" || !closedIn(tr, from, to) || h < risk.GapOffOn.Hours() || h >= risk.GapMinimum.Hours() {
			continue
		}
		if math.Abs(detailFloat(tr.Detail, "draught_change")) < 0.3-1e-9 || detailFloat(tr.Detail, "draught_before") == 0 || explained(tr) {
			continue
		}
		row.truth++
		hit := false
		for k := range events {
			e := &events[k]
			switch e.Type {
			case risk.EventMismatch:
				hit = hit || e.Subtype == risk.MismatchDirectional && e.IMO == tr.Vessels[0] &&
					!e.Start.Before(*tr.End) && !e.Start.After(tr.End.Add(risk.MismatchGapSettle))
			case risk.EventGap:
				hit = hit || overlapsEvent(e, tr.Vessels[0], *tr.Start, *tr.End, 0)
			}
		}
		if hit {
			row.found++
		} else {
			row.misses = append(row.misses, fmt.Sprintf("silence not covered: vessel %d %s – %s %v", tr.Vessels[0], tr.Start.Format(time.RFC3339), tr.End.Format(time.RFC3339), tr.Detail))
		}
	}
	return row
}

// scoreDarkCalls measures the port calls made dark (AIS off from the
// approach to the departure) whose reported draught changed by
// GapDraughtChangeM or more, in a silence that began inside the window:
// each must be reported, by a gap with that draught change across it or a
// directional draught mismatch in the two days after the departure.
func scoreDarkCalls(truth []sim.Truth, events []risk.Event, from, to time.Time) accRow {
	row := accRow{name: "dark port call with a draught change", recallOnly: true}
	silent := map[overwatch.IMO][]*sim.Truth{}
	for i := range truth {
		if tr := &truth[i]; (tr.Type == "ais_gap" || tr.Type == "ais_off_on") && tr.Start != nil {
			silent[tr.Vessels[0]] = append(silent[tr.Vessels[0]], tr)
		}
	}
	// seen: the silence that hid the call began inside the window (one
	// that began before the data has no position before it to see).
	seen := func(imo overwatch.IMO, c *sim.PortCall) bool {
		for _, g := range silent[imo] {
			if !g.Start.Before(from) && !g.Start.After(c.Arrival) && (g.End == nil || !g.End.Before(c.Departure)) {
				return true
			}
		}
		return false
	}
	for i := range truth {
		tr := &truth[i]
		c := tr.Call
		if c == nil || !c.Dark || c.Arrival.Before(from) || c.Departure.After(to) || math.Abs(c.ReportedTo-c.ReportedFrom) < risk.GapDraughtChangeM ||
			!seen(tr.Vessels[0], c) {
			continue
		}
		row.truth++
		hit := false
		for k := range events {
			e := &events[k]
			switch {
			case e.Type == risk.EventGap && overlapsEvent(e, tr.Vessels[0], c.Arrival, c.Departure, 0):
				d, ok := e.Detail["draught_change"].(float64)
				hit = hit || ok && math.Abs(d) >= risk.GapDraughtChangeM-1e-9
			case e.Type == risk.EventMismatch && e.Subtype == risk.MismatchDirectional && e.IMO == tr.Vessels[0]:
				hit = hit || !e.Start.Before(c.Departure) && !e.Start.After(c.Departure.Add(48*time.Hour))
			}
		}
		if hit {
			row.found++
		} else {
			row.misses = append(row.misses, fmt.Sprintf("dark call not reported: vessel %d at %s %s – %s, draught %.1f → %.1f", tr.Vessels[0], c.Port,
				c.Arrival.Format(time.RFC3339), c.Departure.Format(time.RFC3339), c.ReportedFrom, c.ReportedTo))
		}
	}
	return row
}

// scoreReliability is the agreement of the destination-reliability tiers
// with the truth. A vessel's true share is over its calls observable whole
// (not dark, arriving after the data begin, so that a destination was seen
// on the way in, and departing before the end): those whose declared
// destination was the port reached (no destination_mismatch on the leg to
// it). Vessels with a call arriving within 6 h of the data's start or
// departing within 6 h of its end are left out (whether the API counts it
// depends on when a static report came through), as are those with no
// such call.
func scoreReliability(truth []sim.Truth, api *accAPI, start, dataEnd time.Time) accRow {
	row := accRow{name: "destination reliability tier", recallOnly: true}
	type leg struct {
		depart time.Time
		port   string
	}
	wrong := map[overwatch.IMO][]leg{}
	calls := map[overwatch.IMO][]*sim.PortCall{}
	for i := range truth {
		tr := &truth[i]
		switch {
		case tr.Type == "destination_mismatch" && tr.Start != nil:
			port, _ := tr.Detail.(map[string]any)["actual_port"].(string)
			wrong[tr.Vessels[0]] = append(wrong[tr.Vessels[0]], leg{*tr.Start, port})
		case tr.Call != nil:
			calls[tr.Vessels[0]] = append(calls[tr.Vessels[0]], tr.Call)
		}
	}
	margin := 6 * time.Hour
	for imo, cs := range calls {
		sort.Slice(cs, func(i, j int) bool { return cs[i].Arrival.Before(cs[j].Arrival) })
		n, matched, ambiguous := 0, 0, false
		for k, c := range cs {
			if c.Dark {
				continue
			}
			switch {
			case c.Arrival.Before(start), c.Departure.After(dataEnd.Add(margin)):
				continue // under way at either end: no destination seen, or not completed
			case c.Arrival.Before(start.Add(margin)), c.Departure.After(dataEnd.Add(-margin)):
				ambiguous = true
				continue
			}
			n++
			right := true
			for _, l := range wrong[imo] {
				prevDep := time.Time{}
				if k > 0 {
					prevDep = cs[k-1].Departure
				}
				if l.port == c.Port && l.depart.Before(c.Arrival) && !l.depart.Before(prevDep.Add(-time.Hour)) {
					right = false
				}
			}
			if right {
				matched++
			}
		}
		if ambiguous || n == 0 {
			continue
		}
		row.truth++
		want := portstats.TierOf(float64(matched) / float64(n))
		got, ok := api.reliability[imo]
		if ok && got.Tier == want {
			row.found++
		} else {
			row.misses = append(row.misses, fmt.Sprintf("vessel %d: true %d of %d (%s), API %+v", imo, matched, n, want, got))
		}
	}
	return row
}
