package sim

import (
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/write/ais"
)

// fleetIndex maps every MMSI a vessel ever used to its IMO.
func fleetIndex(c *captured) map[uint32]overwatch.IMO {
	imoOf := map[uint32]overwatch.IMO{}
	for _, tr := range c.truth {
		switch tr.Type {
		case "vessel":
			imoOf[tr.Vessel.MMSI] = tr.Vessel.IMO
		case "identity_change":
			if tr.Subtype == "mmsi" {
				d := tr.Detail.(map[string]any)
				imoOf[uint32(d["new"].(float64))] = tr.Vessels[0]
			}
		}
	}
	return imoOf
}

// byIMO groups the decoded messages by vessel, in time order.
func byIMO(obs []observation, imoOf map[uint32]overwatch.IMO) map[overwatch.IMO][]observation {
	out := map[overwatch.IMO][]observation{}
	for _, o := range obs {
		if imo, ok := imoOf[o.m.MMSI]; ok {
			out[imo] = append(out[imo], o)
		}
	}
	return out
}

func within(o observation, start, end time.Time) bool {
	return !o.m.Time.Before(start) && !o.m.Time.After(end)
}

// TestEveryBehaviourInSentencesAndTruth runs ten days of a small fleet with
// every behaviour frequent, and checks each truth record against what was
// transmitted: the sentences show every injected behaviour, and every port
// call agrees with the positions.
func TestEveryBehaviourInSentencesAndTruth(t *testing.T) {
	t.Parallel()
	cfg := testConfig(11)
	c := capture(t, cfg, 10)
	obs := decodeAll(t, c)
	imoOf := fleetIndex(c)
	vessels := byIMO(obs, imoOf)
	kinds := map[string]int{}
	for _, tr := range c.truth {
		k := tr.Type
		if tr.Subtype != "" {
			k += "/" + tr.Subtype
		}
		kinds[k]++
	}
	t.Logf("truth: %v", kinds)
	for _, want := range []string{"port_call", "ais_gap/intentional", "sts_transfer", "loitering/stationary", "loitering/slow_roll",
		"identity_change/name", "identity_change/flag", "identity_change/mmsi", "draught_mismatch/directional",
		"draught_mismatch/magnitude", "draught_mismatch/zero_change", "destination_mismatch", "spoofing"} {
		if kinds[want] == 0 {
			t.Errorf("no %s in the truth", want)
		}
	}
	end := cfg.Start.Add(10 * 24 * time.Hour)
	missing := map[string]int{}
	sanctioned := 0
	for _, tr := range c.truth {
		if tr.Type == "vessel" {
			if tr.Vessel.Sanctioned != "" {
				sanctioned++
				if !seenIMO(vessels[tr.Vessel.IMO], tr.Vessel.IMO) {
					missing["sanctioned_vessel"]++
				}
			}
			continue
		}
		// Only what lies wholly inside the emitted window, with a day to
		// spare for the evidence that follows an event.
		if tr.End != nil && tr.End.After(end.Add(-24*time.Hour)) || tr.Start.Before(cfg.Start) || tr.Start.After(end.Add(-24*time.Hour)) {
			continue
		}
		if tr.End == nil && tr.Type == "loitering" {
			tr.End = &end // still going on when the simulation stopped
		}
		if !evidence(t, tr, vessels) {
			k := tr.Type + "/" + tr.Subtype
			missing[k]++
			if missing[k] <= 2 {
				t.Logf("no evidence for %+v", tr)
			}
		}
	}
	if sanctioned == 0 {
		t.Error("no sanctioned vessel in the fleet")
	}
	for k, n := range missing {
		t.Errorf("%d %s records have no evidence in the sentences", n, k)
	}
}

func seenIMO(obs []observation, imo overwatch.IMO) bool {
	for _, o := range obs {
		if o.m.Type == 5 && o.m.IMO == imo {
			return true
		}
	}
	return false
}

// evidence checks one truth record against the vessel's messages.
func evidence(t *testing.T, tr Truth, vessels map[overwatch.IMO][]observation) bool {
	obs := vessels[tr.Vessels[0]]
	start, end := *tr.Start, *tr.Start
	if tr.End != nil {
		end = *tr.End
	}
	detail, _ := tr.Detail.(map[string]any)
	positions := func(list []observation, a, b time.Time) []ais.Message {
		var out []ais.Message
		for _, o := range list {
			if o.m.Type == 1 && within(o, a, b) {
				out = append(out, o.m)
			}
		}
		return out
	}
	statics := func(a, b time.Time) []ais.Message {
		var out []ais.Message
		for _, o := range obs {
			if o.m.Type == 5 && within(o, a, b) {
				out = append(out, o.m)
			}
		}
		return out
	}
	switch tr.Type {
	case "port_call":
		return portCallEvidence(t, tr, obs)
	case "ais_gap":
		if tr.End == nil {
			return len(positions(obs, end.Add(time.Second), end.Add(365*24*time.Hour))) == 0
		}
		inside := positions(obs, start.Add(time.Second), end.Add(-time.Second))
		return len(inside) == 0 && len(positions(obs, start, start)) > 0 && len(positions(obs, end, end)) > 0
	case "sts_transfer":
		a, b := positions(obs, start, end), positions(vessels[tr.Vessels[1]], start, end)
		if dark, _ := detail["dark"].(bool); dark {
			return len(a) == 0 // hidden: the tanker was silent throughout
		}
		for _, x := range a {
			for _, y := range b {
				if math.Abs(x.Time.Sub(y.Time).Minutes()) <= 20 && geo.DistanceKM(x.Lat, x.Lon, y.Lat, y.Lon) <= 0.5 && x.SOG < 2 && y.SOG < 2 {
					return true
				}
			}
		}
		return false
	case "loitering":
		ps := positions(obs, start, end)
		if len(ps) < 3 {
			return false
		}
		sum := 0.0
		for _, p := range ps {
			sum += p.SOG
		}
		limit := 2.0
		if tr.Subtype == "stationary" {
			limit = 0.5
		}
		return sum/float64(len(ps)) < limit
	case "identity_change":
		after := statics(start, start.Add(48*time.Hour))
		if len(after) == 0 {
			return false
		}
		m := after[0]
		switch tr.Subtype {
		case "name":
			return m.Name == ais.NormalizeText(detail["new"].(string), 20)
		case "mmsi":
			return m.MMSI == uint32(detail["new"].(float64))
		case "flag":
			return vessel.FlagOfMMSI(m.MMSI) == detail["new"].(string) || flagShared(detail["new"].(string))
		}
	case "draught_mismatch":
		to := detail["reported_to"].(float64)
		window := end
		if tr.Subtype == "zero_change" {
			window = start.Add(24 * time.Hour)
		}
		for _, m := range statics(start, window) {
			if math.Abs(m.Draught-to) < 0.051 || to >= 25.5 && m.Draught >= 25.5 {
				return true
			}
		}
		return false
	case "destination_mismatch":
		declared := ais.NormalizeText(detail["declared"].(string), 20)
		for _, m := range statics(start, start.Add(72*time.Hour)) {
			if m.Destination == declared {
				return true
			}
		}
		return false
	case "spoofing":
		rp := detail["reported"].(map[string]any)
		for _, p := range positions(obs, start, end) {
			if geo.DistanceKM(p.Lat, p.Lon, rp["lat"].(float64), rp["lon"].(float64)) < 5 {
				return true
			}
		}
		return false
	}
	return true
}

// flagShared: flags that share their MIDs with another (306: CW, SX, BQ)
// read back as the other.
func flagShared(flag string) bool { return flag == "SX" || flag == "BQ" }

// portCallEvidence: between arrival and departure every position lies in
// the port area, alongside in the berth zone, and the call is visible.
func portCallEvidence(t *testing.T, tr Truth, obs []observation) bool {
	call := tr.Call
	if call.Dark {
		return true // nothing to see: the AIS was off
	}
	port, _ := seaport.BySlug(call.Port)
	var berth seaport.Zone
	for _, b := range port.Berths {
		if b.ID == call.BerthZone {
			berth = b
		}
	}
	seen := 0
	for _, o := range obs {
		m := o.m
		if m.Type != 1 || m.Time.Before(call.Arrival) || m.Time.After(call.Departure) {
			continue
		}
		seen++
		if d := geo.DistanceKM(m.Lat, m.Lon, port.Area.Lat, port.Area.Lon); d > port.Area.RadiusKM+0.5 {
			t.Logf("%s at %s: %.1f km from %s (area %.1f km)", call.Port, m.Time, d, port.Slug, port.Area.RadiusKM)
			return false
		}
		if m.Time.After(call.BerthStart.Add(10*time.Minute)) && m.Time.Before(call.BerthEnd.Add(-10*time.Minute)) {
			if d := geo.DistanceKM(m.Lat, m.Lon, berth.Lat, berth.Lon); d > berth.RadiusKM+0.2 {
				t.Logf("%s berth %s at %s: %.2f km off", call.Port, berth.ID, m.Time, d)
				return false
			}
		}
	}
	return seen > 0
}
