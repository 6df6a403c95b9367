package ais

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sameMessage lists the fields where got and want differ (NaN equals NaN).
func sameMessage(got, want Message) []string {
	var out []string
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := 0; i < g.NumField(); i++ {
		gf, wf := g.Field(i), w.Field(i)
		if gf.Kind() == reflect.Float64 {
			a, b := gf.Float(), wf.Float()
			if a == b || math.IsNaN(a) && math.IsNaN(b) {
				continue
			}
		} else if reflect.DeepEqual(gf.Interface(), wf.Interface()) {
			continue
		}
		out = append(out, fmt.Sprintf("%s: got %v, want %v", g.Type().Field(i).Name, gf.Interface(), wf.Interface()))
	}
	return out
}

// decodeLines feeds lines to a new decoder and returns the messages.
func decodeLines(t *testing.T, lines []string) []Message {
	t.Helper()
	d := NewDecoder(Options{})
	var out []Message
	for _, l := range lines {
		if m, ok := d.Decode([]byte(l + "\r\n")); ok {
			out = append(out, m)
		}
	}
	return out
}

var nan = math.NaN()

// wire returns m as the decoder gives it back: position reports carry
// the "not available" NaNs in the float fields they do not use.
func base(typ uint8, mmsi uint32) Message {
	return Message{Type: typ, MMSI: mmsi, Talker: [2]byte{'A', 'I'}, Channel: 'A', Lat: nan, Lon: nan, SOG: nan, COG: nan, Draught: nan}
}

type roundTripCase struct {
	name string
	in   Message
	opts EncodeOptions
	want Message // zero: same as in
	n    int     // expected number of lines
}

func roundTripCases() []roundTripCase {
	var cs []roundTripCase
	add := func(name string, in Message, opts EncodeOptions, n int, edit func(*Message)) {
		want := in
		if edit != nil {
			edit(&want)
		}
		cs = append(cs, roundTripCase{name, in, opts, want, n})
	}
	// Class A, every field, at wire resolution.
	a := base(1, 371798000)
	a.Fields = HasPosition | HasSOG | HasCOG | HasHeading | HasTurn | HasNavStatus
	a.NavStatus, a.Turn, a.SOG, a.COG, a.Heading = 5, -20, 12.3, 224.5, 215
	a.Lat, a.Lon = 48.381633333333333, -123.39538333333333
	a.Second, a.Maneuver, a.Accuracy, a.RAIM = 33, 1, true, true
	add("type 1", a, EncodeOptions{}, 1, func(w *Message) {
		w.Lat, w.Lon = math.Round(a.Lat*600000)/600000, math.Round(a.Lon*600000)/600000
	})
	for _, typ := range []uint8{2, 3} {
		m := a
		m.Type = typ
		m.Channel = 'B'
		m.Lat, m.Lon = -90, 180
		add(fmt.Sprintf("type %d channel B at the poles", typ), m, EncodeOptions{Channel: 'B'}, 1, nil)
	}
	// Class A, nothing available: status 15 and second 60 on the wire.
	na := base(1, 1)
	na.Second = 60
	add("type 1 not available", na, EncodeOptions{}, 1, func(w *Message) {
		w.Fields, w.NavStatus = HasNavStatus, 15
	})
	// Values out of range are clamped or not available.
	c := base(3, 2)
	c.Fields = HasPosition | HasSOG | HasCOG | HasHeading | HasTurn
	c.Lat, c.Lon, c.SOG, c.COG, c.Heading, c.Turn = 95, 10, 150, -10, 365, -128
	add("type 3 clamped", c, EncodeOptions{}, 1, func(w *Message) {
		w.Fields = HasSOG | HasCOG | HasHeading | HasTurn | HasNavStatus
		w.Lat, w.Lon, w.SOG, w.COG, w.Heading, w.Turn, w.NavStatus = nan, nan, 102.2, 350, 5, -127, 15
	})
	// Class B.
	b := base(18, 338087471)
	b.Fields = HasPosition | HasSOG | HasCOG
	b.SOG, b.COG, b.Lat, b.Lon, b.Second = 0.1, 79.6, 40.68454, -74.0721316666667, 49
	b.CS, b.DSC, b.Band, b.Msg22, b.RAIM = true, true, true, true, true
	add("type 18", b, EncodeOptions{}, 1, func(w *Message) {
		w.Lat, w.Lon = math.Round(b.Lat*600000)/600000, math.Round(b.Lon*600000)/600000
	})
	// Long range: 1/10 minute, whole knots and degrees.
	l := base(27, 206914217)
	l.Repeat = 1
	l.Fields = HasPosition | HasSOG | HasCOG | HasNavStatus
	l.NavStatus, l.Lat, l.Lon, l.SOG, l.COG, l.Latency = 2, 4.84, 137.0233, 57.4, 167.2, true
	add("type 27", l, EncodeOptions{}, 1, func(w *Message) {
		w.Lat, w.Lon, w.SOG, w.COG = 4.84, math.Round(137.0233*600)/600, 57, 167
	})
	l2 := base(27, 3)
	l2.Fields = HasSOG
	l2.SOG = 100
	add("type 27 clamped and not available", l2, EncodeOptions{}, 1, func(w *Message) {
		w.Fields, w.SOG, w.NavStatus = HasSOG|HasNavStatus, 62, 15
	})
	// Static and voyage data: two sentences, with and without a tag block.
	s := base(5, 351759000)
	s.Fields = HasIMO | HasCallSign | HasName | HasShipType | HasDimensions | HasETA | HasETATime | HasDraught | HasDestination
	s.AISVersion, s.IMO, s.CallSign, s.Name, s.ShipType = 1, 9134270, "3FOF8", "EVER DIADEM", 70
	s.ToBow, s.ToStern, s.ToPort, s.ToStarboard, s.EPFD = 225, 70, 1, 31, 1
	s.ETAMonth, s.ETADay, s.ETAHour, s.ETAMinute, s.Draught, s.Destination, s.DTE = 5, 15, 14, 0, 12.2, "NEW YORK", true
	add("type 5", s, EncodeOptions{SeqID: 3}, 2, nil)
	stamp := time.Date(2024, 3, 1, 12, 30, 45, 0, time.UTC)
	st := s
	st.Channel = 'B'
	add("type 5 tag block channel B", st, EncodeOptions{Channel: 'B', TagBlock: true, Time: stamp, Station: "rSIM01", SeqID: 12}, 2, func(w *Message) {
		w.Time, w.TimeFromFeed, w.Station = stamp, true, "rSIM01"
	})
	sn := base(5, 4)
	sn.Name, sn.Destination = "lower case é@x", "  LEAD SPACE  "
	add("type 5 not available, text clean-up", sn, EncodeOptions{}, 2, func(w *Message) {
		w.Fields, w.Name, w.Destination = HasName|HasDestination, "LOWER CASE ??X", "  LEAD SPACE"
	})
	sc := s
	sc.Fields |= HasETA | HasETATime
	sc.ToBow, sc.ToPort, sc.Draught, sc.ETAHour, sc.IMO = 600, 70, 30, 24, 1<<30
	sc.Name = "A NAME LONGER THAN TWENTY CHARACTERS"
	add("type 5 clamped", sc, EncodeOptions{}, 2, func(w *Message) {
		w.Fields &^= HasETATime | HasIMO
		w.ToBow, w.ToPort, w.Draught, w.ETAHour, w.ETAMinute, w.IMO = 511, 63, 25.5, 0, 0, 0
		w.Name = "A NAME LONGER THAN T"
	})
	// Extended class B.
	x := base(19, 367059850)
	x.Fields = HasPosition | HasSOG | HasCOG | HasName | HasShipType | HasDimensions
	x.SOG, x.COG, x.Lat, x.Lon, x.Second = 8.7, 335.9, 29.543695, -88.81039166666667, 46
	x.Name, x.ShipType, x.ToBow, x.ToStern, x.ToPort, x.ToStarboard, x.EPFD = "CAPT.J.RIMES", 70, 5, 21, 4, 4, 1
	x.Assigned, x.DTE = true, true
	add("type 19", x, EncodeOptions{SeqID: 9}, 2, func(w *Message) {
		w.Lat, w.Lon = math.Round(x.Lat*600000)/600000, math.Round(x.Lon*600000)/600000
	})
	xt := x
	xt.Channel = 'B'
	add("type 19 tag block", xt, EncodeOptions{Channel: 'B', TagBlock: true, Time: stamp}, 2, func(w *Message) {
		w.Lat, w.Lon = math.Round(x.Lat*600000)/600000, math.Round(x.Lon*600000)/600000
		w.Time, w.TimeFromFeed = stamp, true
	})
	// Class B static, parts A and B, auxiliary craft.
	pa := base(24, 271041815)
	pa.Fields, pa.Name = HasName, "PROGUY"
	add("type 24 A", pa, EncodeOptions{TagBlock: true, Station: "s1"}, 1, func(w *Message) { w.Station = "s1" })
	pb := base(24, 271041815)
	pb.PartNumber = 1
	pb.Fields = HasShipType | HasCallSign | HasDimensions | HasVendor
	pb.ShipType, pb.VendorID, pb.Model, pb.Serial, pb.CallSign = 60, "1D0", 12, 199796, "TC6163"
	pb.ToStern, pb.ToStarboard = 15, 5
	add("type 24 B", pb, EncodeOptions{}, 1, nil)
	aux := pb
	aux.MMSI = 982710001
	aux.Fields = aux.Fields&^HasDimensions | HasMothership
	aux.ToStern, aux.ToStarboard, aux.MothershipMMSI = 0, 0, 271041815
	add("type 24 B auxiliary craft", aux, EncodeOptions{}, 1, nil)
	// Own ship, another talker.
	o := a
	o.Own, o.Talker = true, [2]byte{'A', 'B'}
	add("type 1 VDO talker AB", o, EncodeOptions{Talker: "AB"}, 1, func(w *Message) {
		w.Lat, w.Lon = math.Round(a.Lat*600000)/600000, math.Round(a.Lon*600000)/600000
	})
	return cs
}

// TestRoundTrip encodes every supported type and decodes the lines back:
// the fields come back at wire resolution, "not available" included.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range roundTripCases() {
		t.Run(c.name, func(t *testing.T) {
			lines, err := Encode(c.in, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) != c.n {
				t.Fatalf("%d lines, want %d: %q", len(lines), c.n, lines)
			}
			for _, l := range lines {
				if c.opts.TagBlock != strings.HasPrefix(l, `\`) {
					t.Errorf("tag block: %q", l)
				}
				if i := strings.IndexByte(l, '!'); len(l)-i > 82 {
					t.Errorf("sentence longer than 82 characters: %q", l)
				}
			}
			msgs := decodeLines(t, lines)
			if len(msgs) != 1 {
				t.Fatalf("decoded %d messages from %q", len(msgs), lines)
			}
			for _, e := range sameMessage(msgs[0], c.want) {
				t.Errorf("%s\n\tlines %q", e, lines)
			}
		})
	}
}

// TestEncoderRotates checks that an Encoder rotates sequential and group
// ids, so that interleaved multi-sentence messages reassemble.
func TestEncoderRotates(t *testing.T) {
	t.Parallel()
	e := NewEncoder(EncodeOptions{TagBlock: true})
	s := base(5, 351759000)
	s.Name = "ONE"
	first, err := e.Encode(s, time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	s.Name = "TWO"
	second, _ := e.Encode(s, time.Unix(1700000001, 0))
	if first[0][strings.IndexByte(first[0], '!'):][11] == second[0][strings.IndexByte(second[0], '!'):][11] {
		t.Errorf("same sequential id: %q %q", first[0], second[0])
	}
	msgs := decodeLines(t, []string{first[0], second[0], first[1], second[1]})
	if len(msgs) != 2 || msgs[0].Name != "ONE" || msgs[1].Name != "TWO" || msgs[1].Time.Unix() != 1700000001 {
		t.Fatalf("interleaved messages: %+v", msgs)
	}
}

// TestEncodeErrors covers what the encoder refuses.
func TestEncodeErrors(t *testing.T) {
	t.Parallel()
	pos := base(1, 1)
	for name, c := range map[string]struct {
		m    Message
		o    EncodeOptions
		want error
		f    func(Message, EncodeOptions) ([]string, error)
	}{
		"type 4":             {base(4, 1), EncodeOptions{}, ErrEncodeType, Encode},
		"static as position": {base(5, 1), EncodeOptions{}, ErrEncodeType, EncodePosition},
		"position as static": {pos, EncodeOptions{}, ErrEncodeType, EncodeStatic},
		"type 24 part 2":     {Message{Type: 24, PartNumber: 2}, EncodeOptions{}, ErrEncodeType, Encode},
		"MMSI":               {base(1, 1<<30), EncodeOptions{}, ErrEncodeMMSI, Encode},
		"talker":             {pos, EncodeOptions{Talker: "ai"}, ErrEncodeOptions, Encode},
		"channel":            {pos, EncodeOptions{Channel: 'C'}, ErrEncodeOptions, Encode},
		"station":            {pos, EncodeOptions{TagBlock: true, Station: "a,b"}, ErrEncodeOptions, Encode},
	} {
		if _, err := c.f(c.m, c.o); err != c.want {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}
