package risk

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// FuzzRiskDetectors runs the gap, loitering and spoofing detectors on
// tracks decoded from the fuzz input (rkFuzzTrack): positions mid-ocean,
// near the coast off Namibia, in a known transfer area, in a port area, on
// land, anywhere on Earth or not on Earth at all (NaN, out of range), with
// speeds around the thresholds (and NaN), draughts, and times that never go
// back but may repeat or leave long silences. Whatever the track, no
// detector panics and every event is well formed (rkCheckEvents).
//
//	go test ./jobs -run '^$' -fuzz FuzzRiskDetectors -fuzztime 60s
func FuzzRiskDetectors(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{10})
	var loiter, spoof, gap []byte
	for i := 0; i < 60; i++ {
		loiter = append(loiter, rkFuzzPoint(0, 0, 0, 10, 20, 0x8000|10)...)     // 0.1 kn every 10 min
		spoof = append(spoof, rkFuzzPoint(0, int8(i), 0, 172, 20, 0x8000|5)...) // 12 kn every 5 min
	}
	spoof = append(spoof, rkFuzzPoint(7, 0, 0, 172, 20, 0x8000|5)...)
	spoof = append(spoof, rkFuzzPoint(0, 60, 0, 172, 20, 0x8000|5)...)
	gap = append(gap, loiter...)
	gap = append(gap, rkFuzzPoint(0, 0, 0, 10, 28, 0x8000|13*60)...) // 13 h later, draught up
	f.Add(append([]byte{3}, loiter...))
	f.Add(append([]byte{200}, spoof...))
	f.Add(append([]byte{90}, gap...))
	mixed := []byte{255}
	for place := byte(0); place < 8; place++ {
		for k := 0; k < 8; k++ {
			mixed = append(mixed, rkFuzzPoint(place, int8(k*16), int8(-k*16), byte(k*30), byte(k*5), uint16(0x4000|k*60))...)
		}
	}
	f.Add(mixed)

	f.Fuzz(func(t *testing.T, data []byte) {
		track, dataEnd := rkFuzzTrack(data)
		rkCheckEvents(t, track, EventGap, DetectGaps(21, track, dataEnd, 0))
		rkCheckEvents(t, track, EventLoitering, DetectLoitering(21, track, tracktest.Ports, dataEnd))
		rkCheckEvents(t, track, EventSpoofing, DetectSpoofing(21, track))
	})
}

const rkFuzzPointLen = 7

// rkFuzzPoint encodes one position: the place (low 3 bits; see
// rkFuzzTrack), its offsets north and east (-128..127, a scale per place),
// the speed byte (0–99: hundredths of a knot; 100–254: sixths of a knot
// above 0; 255: not reported), the draught (× 0.5 m) and the time step
// (top 2 bits: 0 seconds, 1 units of 10 s, 2 minutes, 3 hours; 0 repeats
// the time).
func rkFuzzPoint(place byte, north, east int8, sog, draft byte, step uint16) []byte {
	p := []byte{place, byte(north), byte(east), sog, draft, 0, 0}
	binary.BigEndian.PutUint16(p[5:7], step)
	return p
}

// rkFuzzPlaces are the places of the encoding, with the scale of their
// offsets in km.
var rkFuzzPlaces = [...]struct {
	at    tracktest.LL
	scale float64
}{
	{rkOcean, 20},                                  // 0: mid-ocean
	{tracktest.LL{Lat: -24, Lon: 13.9}, 40},        // 1: off Namibia, across 20 and 50 nm from shore
	{tracktest.LL{Lat: 36.55, Lon: 22.85}, 20},     // 2: the Gulf of Laconia transfer area
	{tracktest.LL{Lat: -23.99, Lon: -46.30}, 15},   // 3: Santos, in the port area
	{tracktest.LL{Lat: 43.55, Lon: 4.85}, 30},      // 4: on land in Provence
	{tracktest.LL{Lat: 0, Lon: 0}, 0},              // 5: anywhere: offsets are degrees
	{tracktest.LL{Lat: math.NaN(), Lon: 200}, 0},   // 6: not a position
	{tracktest.LL{Lat: rkOcean.Lat, Lon: 0}, 2000}, // 7: far from the others
}

// rkFuzzTrack decodes a track: the first byte sets how long after the last
// position the data end (in hours), then rkFuzzPointLen bytes per position.
func rkFuzzTrack(data []byte) ([]vessel.TrackPoint, time.Time) {
	if len(data) == 0 {
		return nil, rkT0
	}
	tail := time.Duration(data[0]) * time.Hour / 4
	data = data[1:]
	ts := rkT0
	var track []vessel.TrackPoint
	for len(data) >= rkFuzzPointLen && len(track) < 5000 {
		b := data[:rkFuzzPointLen]
		data = data[rkFuzzPointLen:]
		pl := rkFuzzPlaces[b[0]&7]
		n, e := float64(int8(b[1]))/128, float64(int8(b[2]))/128
		at := tracktest.Offset(pl.at, n*pl.scale, e*pl.scale)
		switch b[0] & 7 {
		case 5:
			at = tracktest.LL{Lat: n * 90, Lon: e * 180}
		case 6:
			if b[1]&1 == 0 {
				at = tracktest.LL{Lat: 95, Lon: -190}
			} else {
				at = pl.at
			}
		}
		sog := tracktest.FuzzSOG(b[3])
		ts = tracktest.FuzzStep(ts, binary.BigEndian.Uint16(b[5:7]), true)
		track = append(track, vessel.TrackPoint{TS: ts, Lat: at.Lat, Lon: at.Lon, SOG: sog, Draft: float64(b[4]) / 2})
	}
	return track, ts.Add(tail)
}

// rkCheckEvents asserts what must hold of any detector's events.
func rkCheckEvents(t *testing.T, track []vessel.TrackPoint, typ string, events []Event) {
	t.Helper()
	subtypes := map[string][]string{
		EventGap:       {"", "intentional"},
		EventLoitering: {LoiterStationary, LoiterSlowRoll},
		EventSpoofing:  {""},
	}[typ]
	for i := range events {
		e := &events[i]
		if e.Type != typ || e.IMO != 21 {
			t.Fatalf("event %d: type %q IMO %d", i, e.Type, e.IMO)
		}
		ok := false
		for _, s := range subtypes {
			ok = ok || e.Subtype == s
		}
		if !ok {
			t.Errorf("event %d: subtype %q", i, e.Subtype)
		}
		switch e.Severity {
		case TierCritical, TierHigh, TierMedium, TierLow:
		default:
			t.Errorf("event %d: severity %q", i, e.Severity)
		}
		if e.End != nil && e.End.Before(e.Start) {
			t.Errorf("event %d ends %v before it starts %v", i, *e.End, e.Start)
		}
		if i > 0 && e.Start.Before(events[i-1].Start) {
			t.Errorf("event %d starts %v before event %d %v", i, e.Start, i-1, events[i-1].Start)
		}
		if len(track) > 0 && (e.Start.Before(track[0].TS.Add(-portcall.MidwayGap)) || (e.End != nil && e.End.After(track[len(track)-1].TS))) {
			t.Errorf("event %d from %v to %v, outside the track", i, e.Start, e.End)
		}
		for _, v := range []float64{e.Lat, e.Lon, e.EndLat, e.EndLon} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 180 {
				t.Errorf("event %d: position %v,%v → %v,%v", i, e.Lat, e.Lon, e.EndLat, e.EndLon)
			}
		}
		for k, v := range e.Detail {
			switch x := v.(type) {
			case nil, bool, string, int:
			case float64:
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Errorf("event %d: %s = %v", i, k, x)
				}
			case map[string]float64:
				for _, y := range x {
					if math.IsNaN(y) || math.IsInf(y, 0) {
						t.Errorf("event %d: %s = %v", i, k, x)
					}
				}
			default:
				t.Errorf("event %d: %s has type %T", i, k, v)
			}
		}
		h, _ := e.Detail["hours"].(float64)
		switch typ {
		case EventGap:
			if h < GapMinimum.Hours()-0.05 {
				t.Errorf("gap %d of %v h", i, h)
			}
		case EventLoitering:
			if e.End != nil && h < LoiterMinimum.Hours()-0.05 {
				t.Errorf("loitering %d of %v h", i, h)
			}
			if v := e.Detail["mean_speed_kn"].(float64); v >= LoiterKnots+0.05 {
				t.Errorf("loitering %d at %v kn", i, v)
			}
		case EventSpoofing:
			if km := e.Detail["jump_km"].(float64); km < SpoofMinKM-0.05 {
				t.Errorf("spoofing %d: jump of %v km", i, km)
			}
		}
	}
}
