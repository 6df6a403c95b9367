package ais

import (
	"math"
	"testing"
)

// f is one raw wire field: value and width in bits.
type f struct {
	v int64
	w int
}

// build armours raw fields (padded with zero bits to total bits when
// total > 0).
func build(total int, fields ...f) (string, int) {
	var w bitWriter
	for _, x := range fields {
		w.put(uint32(x.v), x.w)
	}
	for w.n < total {
		w.put(0, 1)
	}
	return w.armoured()
}

func decodeRaw(t *testing.T, total int, fields ...f) (Message, error) {
	t.Helper()
	p, fill := build(total, fields...)
	return DecodePayload([]byte(p), fill)
}

// classA lays out a type 1 report with the given raw values.
func classA(status, turn, sog, lon, lat, cog, heading int64) []f {
	return []f{{1, 6}, {0, 2}, {244670701, 30}, {status, 4}, {turn, 8}, {sog, 10}, {1, 1},
		{lon, 28}, {lat, 27}, {cog, 12}, {heading, 9}, {59, 6}, {2, 2}, {0, 3}, {1, 1}, {0, 19}}
}

func TestDecodeClassA(t *testing.T) {
	t.Parallel()
	// gpsd sample, type 1 (Kurt Schwehr's dump).
	m, err := DecodePayload([]byte("15RTgt0PAso;90TKcjM8h6g208CQ"), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := Message{Type: 1, MMSI: 371798000, Fields: HasPosition | HasSOG | HasCOG | HasHeading | HasTurn | HasNavStatus,
		NavStatus: 0, Turn: -127, SOG: 12.3, Accuracy: true, Lon: -74037230.0 / 600000, Lat: 29028980.0 / 600000,
		COG: 224, Heading: 215, Second: 33, Draught: nan}
	for _, e := range sameMessage(m, want) {
		t.Error(e)
	}
	m, _ = decodeRaw(t, 168, classA(7, 20, 1022, -108000000, -54000000, 3599, 359)...)
	if m.NavStatus != 7 || m.Turn != 20 || m.SOG != 102.2 || m.Lon != -180 || m.Lat != -90 || m.COG != 359.9 ||
		m.Heading != 359 || m.Second != 59 || m.Maneuver != 2 || !m.Accuracy || !m.RAIM || m.Fields != HasPosition|HasSOG|HasCOG|HasHeading|HasTurn|HasNavStatus {
		t.Errorf("limits: %+v", m)
	}
}

// TestNotAvailable checks that every "not available" (and invalid) wire
// value becomes an absent field, never a number.
func TestNotAvailable(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		fields []f
		total  int
		absent Field
	}{
		"lon 181":        {classA(0, -128, 1023, 181*600000, 10, 3600, 511), 168, HasPosition | HasTurn | HasSOG | HasCOG | HasHeading},
		"lat 91":         {classA(0, 0, 0, 10, 91*600000, 3601, 400), 168, HasPosition | HasCOG | HasHeading},
		"lon 200":        {classA(0, 0, 0, 200*600000, 10, 0, 0), 168, HasPosition},
		"lat -91":        {classA(0, 0, 0, 10, -91*600000, 0, 0), 168, HasPosition},
		"cog 4095":       {classA(0, 0, 0, 0, 0, 4095, 360), 168, HasCOG | HasHeading},
		"type 27 NA":     {[]f{{27, 6}, {0, 2}, {1, 30}, {0, 1}, {0, 1}, {15, 4}, {181 * 600, 18}, {91 * 600, 17}, {63, 6}, {511, 9}, {0, 2}}, 96, HasPosition | HasSOG | HasCOG},
		"type 27 cog360": {[]f{{27, 6}, {0, 2}, {1, 30}, {0, 1}, {0, 1}, {15, 4}, {0, 18}, {0, 17}, {62, 6}, {360, 9}, {0, 2}}, 96, HasCOG},
	} {
		m, err := decodeRaw(t, c.total, c.fields...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m.Fields&c.absent != 0 {
			t.Errorf("%s: fields %b present, want absent %b", name, m.Fields, c.absent)
		}
		if m.Fields&HasPosition == 0 && (!math.IsNaN(m.Lat) || !math.IsNaN(m.Lon)) {
			t.Errorf("%s: absent position is %v,%v, not NaN", name, m.Lat, m.Lon)
		}
		if m.Fields&HasSOG == 0 && !math.IsNaN(m.SOG) || m.Fields&HasCOG == 0 && !math.IsNaN(m.COG) {
			t.Errorf("%s: absent SOG/COG is %v/%v, not NaN", name, m.SOG, m.COG)
		}
		if m.Fields&HasHeading == 0 && m.Heading != 0 || m.Fields&HasTurn == 0 && m.Turn != 0 {
			t.Errorf("%s: absent heading/turn is %d/%d", name, m.Heading, m.Turn)
		}
	}
	// Type 27 in its own units: 1/10 minute, whole knots and degrees.
	m, _ := decodeRaw(t, 96, f{27, 6}, f{0, 2}, f{1, 30}, f{1, 1}, f{1, 1}, f{5, 4}, f{-92521, 18}, f{52239, 17}, f{62, 6}, f{359, 9}, f{1, 1})
	if m.Lon != -92521.0/600 || m.Lat != 52239.0/600 || m.SOG != 62 || m.COG != 359 || m.NavStatus != 5 || !m.Latency || !m.Accuracy || !m.RAIM {
		t.Errorf("type 27: %+v", m)
	}
}

// staticVoyage lays out a type 5 with raw IMO, ETA and draught.
func staticVoyage(imo, month, day, hour, minute, draught int64, bits int) []f {
	return []f{{5, 6}, {0, 2}, {351759000, 30}, {1, 2}, {imo, 30}, {0, 42}, {0, 120}, {70, 8},
		{225, 9}, {70, 9}, {1, 6}, {31, 6}, {1, 4}, {month, 4}, {day, 5}, {hour, 5}, {minute, 6}, {draught, 8}, {0, 120}, {1, 1}}
}

func TestDecodeStaticVoyage(t *testing.T) {
	t.Parallel()
	m, err := decodeRaw(t, 424, staticVoyage(9134270, 5, 15, 14, 0, 122, 424)...)
	if err != nil {
		t.Fatal(err)
	}
	want := Field(HasIMO | HasShipType | HasDimensions | HasETA | HasETATime | HasDraught)
	if m.Fields != want || m.IMO != 9134270 || m.ETAMonth != 5 || m.ETADay != 15 || m.ETAHour != 14 || m.ETAMinute != 0 ||
		m.Draught != 12.2 || m.ShipType != 70 || m.ToBow != 225 || m.ToStarboard != 31 || !m.DTE || m.AISVersion != 1 || m.EPFD != 1 {
		t.Errorf("%+v", m)
	}
	// Not available: IMO 0, month 0, day 0, hour 24, minute 60, draught 0.
	m, _ = decodeRaw(t, 424, staticVoyage(0, 0, 0, 24, 60, 0, 424)...)
	if m.Fields&(HasIMO|HasETA|HasETATime|HasDraught|HasName|HasCallSign|HasDestination) != 0 || !math.IsNaN(m.Draught) ||
		m.ETAMonth|m.ETADay|m.ETAHour|m.ETAMinute != 0 {
		t.Errorf("not available: %+v", m)
	}
	// Month 13, hour 25: invalid, absent; day only from 1.
	m, _ = decodeRaw(t, 424, staticVoyage(1, 13, 1, 25, 0, 1, 424)...)
	if m.Fields&(HasETA|HasETATime) != 0 {
		t.Errorf("invalid ETA: %+v", m)
	}
}

// TestPayloadLength checks the minimum length of every decoded type: one
// bit less is rejected (ErrShort), the minimum is accepted. Types 5 and 24
// accept short messages seen in the wild, as gpsd does (type 5 from 420
// bits, type 24 part A from 160).
func TestPayloadLength(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		typ, part int64
		min       int
	}{{1, 0, 163}, {2, 0, 163}, {3, 0, 163}, {4, 0, 168}, {5, 0, 420}, {18, 0, 168}, {19, 0, 312}, {21, 0, 272}, {24, 0, 160}, {24, 1, 168}, {27, 0, 96}} {
		for _, n := range []int{c.min - 1, c.min} {
			fields := []f{{c.typ, 6}, {0, 2}, {123456789, 30}, {c.part, 2}}
			var w bitWriter
			for _, x := range fields {
				w.put(uint32(x.v), x.w)
			}
			w.n = n
			p, fill := w.armoured()
			_, err := DecodePayload([]byte(p), fill)
			if (err == nil) != (n == c.min) {
				t.Errorf("type %d part %d, %d bits: %v", c.typ, c.part, n, err)
			}
			if n < c.min && err != ErrShort {
				t.Errorf("type %d, %d bits: %v, want ErrShort", c.typ, n, err)
			}
		}
	}
}

func TestPayloadErrors(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		p    string
		fill int
		want error
	}{
		"empty":        {"", 0, ErrBadArmour},
		"bad char":     {"15RTgt0PAso;90TKcjM8h6g208CX", 0, ErrBadArmour},
		"fill 7":       {"15RTgt0PAso;90TKcjM8h6g208CQ", 7, ErrBadArmour},
		"header short": {"1234", 0, ErrShort},
		"type 0":       {"05RTgt0PAso;90TKcjM8h6g208CQ", 0, ErrBadType},
		"type 28":      {"L5RTgt0PAso;90TKcjM8h6g208CQ", 0, ErrBadType},
		"type 63":      {"w5RTgt0PAso;90TKcjM8h6g208CQ", 0, ErrBadType},
		"24 part 2":    {"H7lca<LP5<qE9w3F22222222220", 2, ErrBadType},
	} {
		if _, err := DecodePayload([]byte(c.p), c.fill); err != c.want {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

// TestUnsupportedTypes: types recognised but not decoded give the header.
func TestUnsupportedTypes(t *testing.T) {
	t.Parallel()
	for _, typ := range []int64{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 20, 22, 23, 25, 26} {
		m, err := decodeRaw(t, max(40, typeLengths[typ].min), f{typ, 6}, f{3, 2}, f{2442003, 30})
		if err != nil || m.Type != uint8(typ) || m.Repeat != 3 || m.MMSI != 2442003 || m.Fields != 0 || Decoded(m.Type) {
			t.Errorf("type %d: %+v %v", typ, m, err)
		}
	}
}

// TestTypeLengths: each type's length bounds, as gpsd applies them.
func TestTypeLengths(t *testing.T) {
	t.Parallel()
	header := func(typ int64, flags ...f) []f {
		return append([]f{{typ, 6}, {0, 2}, {2442003, 30}}, flags...)
	}
	for _, c := range []struct {
		typ   int64
		flags []f
		bits  int
		want  error
	}{
		{23, nil, 158, ErrShort}, {23, nil, 160, nil},
		{7, nil, 70, ErrShort}, {7, nil, 72, nil}, {7, nil, 168, nil}, {7, nil, 170, ErrLong},
		{6, nil, 1008, nil}, {6, nil, 1014, ErrLong},
		{21, nil, 368, nil}, {21, nil, 374, ErrLong},
		{27, nil, 96, nil}, {27, nil, 168, nil}, {27, nil, 102, ErrShort}, {27, nil, 174, ErrLong},
		{25, []f{{0, 1}, {0, 1}}, 40, nil},
		{25, []f{{1, 1}, {1, 1}}, 84, ErrShort}, {25, []f{{1, 1}, {1, 1}}, 86, nil},
		{26, []f{{0, 1}, {0, 1}}, 60, nil},
		{26, []f{{0, 1}, {1, 1}}, 74, ErrShort}, {26, []f{{0, 1}, {1, 1}}, 76, nil},
	} {
		if _, err := decodeRaw(t, c.bits, header(c.typ, c.flags...)...); err != c.want {
			t.Errorf("type %d %v, %d bits: %v, want %v", c.typ, c.flags, c.bits, err, c.want)
		}
	}
}

func TestDecodeBaseStation(t *testing.T) {
	t.Parallel()
	m, err := DecodePayload([]byte("403OviQuMGCqWrRO9>E6fE700@GO"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if utc, ok := m.UTC(); !ok || utc.Format("2006-01-02T15:04:05") != "2007-05-14T19:57:39" || m.MMSI != 3669702 || m.EPFD != 7 {
		t.Errorf("%v %+v", utc, m)
	}
	// "0000-00-00T24:60:60": neither date nor time.
	m, _ = decodeRaw(t, 168, f{4, 6}, f{0, 2}, f{2470052, 30}, f{0, 14}, f{0, 4}, f{0, 5}, f{24, 5}, f{60, 6}, f{60, 6})
	if m.Fields&(HasDate|HasTime) != 0 {
		t.Errorf("not available: %+v", m)
	}
	if _, ok := m.UTC(); ok {
		t.Error("UTC without date")
	}
}

func TestDecodeAidToNavigation(t *testing.T) {
	t.Parallel()
	// gpsd unpack_sixbit: a 20-character name with its extension.
	m, err := DecodePayload([]byte("ENk`sBG37a:@84Ra1Rh4W62b@61=8Ab37o5n000003vP08=P"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "FORT PIERCE INLET LB 6" || m.AidType != 14 || AidTypeText(m.AidType) != "Beacon, Starboard hand" || m.Second != 61 {
		t.Errorf("%+v", m)
	}
}

func TestDecodeStaticDataReport(t *testing.T) {
	t.Parallel()
	a, errA := DecodePayload([]byte("H7lca<@P5<qE9w3F22222222220"), 2)
	b, errB := DecodePayload([]byte("H7lca<DlPPPPPPPI4koloP1h>550"), 0)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.PartNumber != 0 || a.Name != "HASNUR_05" || a.Fields != HasName {
		t.Errorf("part A %+v", a)
	}
	if b.PartNumber != 1 || b.ShipType != 52 || b.CallSign != "YD3747" || b.VendorID != "" || b.Model != 8 || b.Serial != 133152 ||
		b.ToBow != 14 || b.ToStern != 14 || b.ToPort != 5 || b.ToStarboard != 5 {
		t.Errorf("part B %+v", b)
	}
	if l, w, ok := b.LengthWidth(); !ok || l != 28 || w != 10 {
		t.Errorf("length %d width %d", l, w)
	}
	// Auxiliary craft (98xxxxxxx): the mother ship instead of dimensions.
	aux, _ := decodeRaw(t, 168, f{24, 6}, f{0, 2}, f{982710001, 30}, f{1, 2}, f{60, 8}, f{0, 42}, f{0, 42}, f{271041815, 30})
	if !aux.Fields.Has(HasMothership) || aux.MothershipMMSI != 271041815 || aux.Fields.Has(HasDimensions) {
		t.Errorf("auxiliary %+v", aux)
	}
}

func TestRateOfTurn(t *testing.T) {
	t.Parallel()
	m := Message{Fields: HasTurn, Turn: -127}
	if r := m.RateOfTurn(); math.Abs(r+720.003) > 0.001 {
		t.Errorf("turn -127: %v", r)
	}
	m.Turn = 0
	if m.RateOfTurn() != 0 {
		t.Error("turn 0")
	}
	m.Fields = 0
	if !math.IsNaN(m.RateOfTurn()) {
		t.Error("absent turn")
	}
}
