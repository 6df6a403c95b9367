package portcall

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"

	"overwatch/maritime/seaport"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// FuzzDetectPortCalls runs the detector on tracks decoded from the fuzz
// input (fuzzTrack): positions near the reference ports' areas, anchorages
// and berth zones, with speeds around the stop thresholds (and NaN),
// navigational statuses, draughts, destinations, and times that never go
// back but may repeat. It checks that the calls are consistent whatever
// the track (checkCalls).
//
//	go test ./jobs -run '^$' -fuzz FuzzDetectPortCalls -fuzztime 60s
func FuzzDetectPortCalls(f *testing.F) {
	santos := slices.IndexFunc(seaport.All(), func(p seaport.Port) bool { return p.Slug == "santos" })
	hedland := slices.IndexFunc(seaport.All(), func(p seaport.Port) bool { return p.Slug == "port-hedland" })
	f.Add([]byte{})
	f.Add([]byte{byte(santos)})
	// a whole call at santos: approach, anchor, berth, leave
	call := fuzzSeedCall(santos)
	f.Add(call)
	// the same, then straight on to port hedland and into its anchorage,
	// with a long silence and repeated times
	two := slices.Clone(call)
	two = append(two, fuzzPoint(fzSwitchPort, 0, 0, byte(hedland), 150, 0x90, fzHours(30), 3)...)
	two = append(two, fuzzPoint(fzOutside, 0, 0, 0, 150, 0x90, fzMinutes(10), 3)...)
	for range 10 {
		two = append(two, fuzzPoint(fzAnchorage, 10, 10, 1, 15, 0x91, 0, 0)...)
		two = append(two, fuzzPoint(fzAnchorage, -10, 10, 1, 40, 0x91, fzMinutes(45), 0)...)
	}
	f.Add(two)

	f.Fuzz(func(t *testing.T, data []byte) {
		track, dataEnd := fuzzTrack(data)
		calls := Detect(9000001, track, tracktest.Ports, dataEnd)
		checkCalls(t, track, calls)
	})
}

// Point references of the fuzz encoding.
const (
	fzArea       = 0 // the port area's centre, offsets up to its radius + 10 km
	fzAnchorage  = 2 // an anchorage, offsets up to 6 km
	fzBerth      = 4 // a berth zone, offsets up to 3 km
	fzOutside    = 6 // outside the area, up to 30 km beyond its edge
	fzSwitchPort = 7 // another port (selected by the index byte): its centre
)

const fzPointLen = 8

var fzDestinations = []string{"", "SANTOS", "PARANAGUA", "PORT HEDLAND", "FOR ORDERS", "BR SSZ", "NOWHERE"}

// fuzzPoint encodes one position: the reference, its offsets (north and
// east, -127..127 of the reference's range), the index of the zone (or
// port), the speed byte (0–99: hundredths of a knot; 100–254: sixths of a
// knot above 0; 255: not reported), the navigational status (low 4 bits)
// and draught (high 4 bits, × 1.5 m), the time step (fzMinutes, fzHours;
// 0 repeats the time) and the destination index.
func fuzzPoint(ref byte, north, east int8, index, sog, navDraft byte, step uint16, dest byte) []byte {
	p := []byte{ref | index<<3, byte(north), byte(east), sog, navDraft, 0, 0, dest}
	binary.BigEndian.PutUint16(p[5:7], step)
	return p
}

func fzMinutes(m int) uint16 { return 0x4000 | uint16(m*6) }  // 10 s units
func fzHours(h int) uint16   { return 0x8000 | uint16(h*60) } // minutes

// fuzzTrack decodes a track: the first byte is the port, then
// fzPointLen bytes per position (fuzzPoint); a trailing byte sets how long
// after the last position the data ends (in 10 minutes).
func fuzzTrack(data []byte) ([]vessel.TrackPoint, time.Time) {
	ports := seaport.All()
	if len(data) == 0 {
		return nil, t0
	}
	port := &ports[int(data[0])%len(ports)]
	data = data[1:]
	ts := t0
	var track []vessel.TrackPoint
	for len(data) >= fzPointLen && len(track) < 5000 {
		b := data[:fzPointLen]
		data = data[fzPointLen:]
		ref, index := b[0]&7, int(b[0]>>3)
		n, e := float64(int8(b[1]))/127, float64(int8(b[2]))/127
		var at tracktest.LL
		switch ref {
		case 0, 1:
			r := port.Area.RadiusKM + 10
			at = tracktest.Offset(tracktest.ZonePoint(port.Area), n*r, e*r)
		case 2, 3:
			at = tracktest.Offset(tracktest.ZonePoint(port.Anchorages[index%len(port.Anchorages)]), n*6, e*6)
		case 4, 5:
			at = tracktest.Offset(tracktest.ZonePoint(port.Berths[index%len(port.Berths)]), n*3, e*3)
		case 6:
			// beyond the edge, in the direction of the offsets
			dir := math.Atan2(e, n)
			d := port.Area.RadiusKM + 0.1 + 30*math.Abs(n)
			at = tracktest.Offset(tracktest.ZonePoint(port.Area), d*math.Cos(dir), d*math.Sin(dir))
		case 7:
			port = &ports[index%len(ports)]
			at = tracktest.Offset(tracktest.ZonePoint(port.Area), n*port.Area.RadiusKM, e*port.Area.RadiusKM)
		}
		sog := tracktest.FuzzSOG(b[3])
		ts = tracktest.FuzzStep(ts, binary.BigEndian.Uint16(b[5:7]), false)
		track = append(track, vessel.TrackPoint{TS: ts, Lat: at.Lat, Lon: at.Lon, SOG: sog,
			NavStatus: b[4] & 15, Draft: float64(b[4]>>4) * 1.5, Destination: fzDestinations[int(b[7])%len(fzDestinations)]})
	}
	end := ts
	if len(data) > 0 {
		end = end.Add(time.Duration(data[0]) * 10 * time.Minute)
	}
	return track, end
}

// checkCalls asserts what must hold of the calls of any track.
func checkCalls(t *testing.T, track []vessel.TrackPoint, calls []Call) {
	t.Helper()
	positions := 0
	for i := range calls {
		c := &calls[i]
		positions += c.Positions
		port, ok := seaport.BySlug(c.Port)
		if !ok {
			t.Fatalf("call %d at unknown port %q", i, c.Port)
		}
		if c.Confidence < 1 || c.Confidence > 4 {
			t.Errorf("call %d: confidence %d", i, c.Confidence)
		}
		// the doc comment's rules
		stop := c.AnchorStart != nil || c.BerthStart != nil
		want := uint8(1)
		if stop || c.InPortGaps > 0 {
			want = 2
			if c.EntrySeen || c.ExitSeen {
				want = 3
			}
			if c.EntrySeen && c.ExitSeen && stop {
				want = 4
			}
		}
		if c.Confidence != want {
			t.Errorf("call %d: confidence %d, the rules give %d (%+v)", i, c.Confidence, want, *c)
		}
		if c.Departure != nil && c.Departure.Before(c.Arrival) {
			t.Errorf("call %d departs %v before it arrives %v", i, *c.Departure, c.Arrival)
		}
		if c.Departure == nil && (i != len(calls)-1 || c.ExitSeen) {
			t.Errorf("call %d of %d goes on (exit seen %v)", i, len(calls), c.ExitSeen)
		}
		if (c.AnchorStart == nil) != (c.AnchorEnd == nil) || (c.AnchorStart == nil) != (c.Anchorage == "") {
			t.Errorf("call %d: anchorage %q from %v to %v", i, c.Anchorage, c.AnchorStart, c.AnchorEnd)
		} else if c.AnchorStart != nil && c.AnchorEnd.Before(*c.AnchorStart) {
			t.Errorf("call %d: anchor period ends %v before it starts %v", i, *c.AnchorEnd, *c.AnchorStart)
		}
		if (c.BerthStart == nil) != (c.BerthEnd == nil) || (c.BerthStart == nil) != (c.BerthZone == "") {
			t.Errorf("call %d: berth %q from %v to %v", i, c.BerthZone, c.BerthStart, c.BerthEnd)
		} else if c.BerthStart != nil && c.BerthEnd.Before(*c.BerthStart) {
			t.Errorf("call %d: berth period ends %v before it starts %v", i, *c.BerthEnd, *c.BerthStart)
		}
		if c.Anchorage != "" && !slices.ContainsFunc(port.Anchorages, func(z seaport.Zone) bool { return z.ID == c.Anchorage }) {
			t.Errorf("call %d at %s: anchorage %q is not one of its own", i, c.Port, c.Anchorage)
		}
		if c.BerthZone != "" && !slices.ContainsFunc(port.Berths, func(z seaport.Zone) bool { return z.ID == c.BerthZone }) {
			t.Errorf("call %d at %s: berth zone %q is not one of its own", i, c.Port, c.BerthZone)
		}
		if c.Positions < 1 || c.InPortGaps < 0 || c.InPortGaps >= c.Positions {
			t.Errorf("call %d: %d positions, %d gaps", i, c.Positions, c.InPortGaps)
		}
		if i > 0 {
			p := &calls[i-1]
			if c.Arrival.Before(p.Arrival) {
				t.Errorf("call %d arrives %v before call %d %v", i, c.Arrival, i-1, p.Arrival)
			}
			if p.Departure != nil && c.Arrival.Before(*p.Departure) {
				t.Errorf("call %d arrives %v before call %d departs %v", i, c.Arrival, i-1, *p.Departure)
			}
		}
	}
	if positions > len(track) {
		t.Errorf("the calls hold %d positions of %d", positions, len(track))
	}
}

// fuzzSeedCall encodes a whole call at the port: from 30 km out, in
// (destination SANTOS, draught 10.5 m), 10 h at the first anchorage, 20 h
// moored at the first berth (speed not reported), out (draught 21 m).
func fuzzSeedCall(port int) []byte {
	call := []byte{byte(port)}
	call = append(call, fuzzPoint(fzOutside, 127, 0, 0, 120, 0x70, fzMinutes(10), 1)...)
	for i := range 6 {
		call = append(call, fuzzPoint(fzArea, int8(-100+20*i), 0, 0, 172, 0x70, fzMinutes(10), 1)...)
	}
	for range 30 {
		call = append(call, fuzzPoint(fzAnchorage, 3, -2, 0, 5, 0x71, fzMinutes(20), 0)...)
	}
	call = append(call, fuzzPoint(fzArea, 20, 0, 0, 150, 0x70, fzMinutes(10), 0)...)
	for range 40 {
		call = append(call, fuzzPoint(fzBerth, 1, 1, 0, 255, 0xe5, fzMinutes(30), 0)...)
	}
	return append(call, fuzzPoint(fzOutside, -127, 0, 0, 170, 0xe0, fzMinutes(10), 2)...)
}

// The seed decodes into what it is meant to be.
func TestFuzzSeedCall(t *testing.T) {
	t.Parallel()
	santos := slices.IndexFunc(seaport.All(), func(p seaport.Port) bool { return p.Slug == "santos" })
	track, end := fuzzTrack(fuzzSeedCall(santos))
	if len(track) != 1+6+30+1+40+1 {
		t.Fatalf("%d positions", len(track))
	}
	c := oneCall(t, Detect(1, track, tracktest.Ports, end))
	checkCalls(t, track, []Call{*c})
	if c.Port != "santos" || c.Confidence != 4 || c.Anchorage == "" || c.BerthZone == "" || c.Declared != "SANTOS" ||
		c.DraftBefore != 10.5 || c.DraftAfter != 21 || math.Abs(c.WaitHours()-10) > 0.5 {
		t.Errorf("%+v (wait %.1f h)", *c, c.WaitHours())
	}
}
