package ais

import (
	"fmt"
	"testing"
	"time"
)

const pos1 = "!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A"

// decodeOne decodes lines with a fresh decoder and returns the last
// message and the stats.
func decodeOne(t *testing.T, lines ...string) (Message, bool, Stats) {
	t.Helper()
	d := NewDecoder(Options{})
	var m Message
	var ok bool
	for _, l := range lines {
		m, ok = d.Decode([]byte(l))
	}
	return m, ok, d.Stats()
}

func TestTagBlock(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		line    string
		want    time.Time
		station string
	}{
		"seconds":      {tag("s:rORBCOMM000,c:1747818025") + pos1, time.Unix(1747818025, 0), "rORBCOMM000"},
		"milliseconds": {tag("c:1747818025123") + pos1, time.Unix(1747818025, 123e6), ""},
		"fraction":     {tag("c:1747818025.5,s:x") + pos1, time.Unix(1747818025, 5e8), "x"},
		"other fields": {tag("g:1-1-77,n:12,d:y,c:1428621738") + pos1, time.Unix(1428621738, 0), ""},
		"station only": {tag("s:b003669710") + pos1, time.Time{}, "b003669710"},
	} {
		m, ok, _ := decodeOne(t, c.line)
		if !ok {
			t.Errorf("%s: not decoded", name)
			continue
		}
		if !m.Time.Equal(c.want) || m.TimeFromFeed != !c.want.IsZero() || m.Station != c.station {
			t.Errorf("%s: time %v (from feed %v) station %q", name, m.Time, m.TimeFromFeed, m.Station)
		}
		if m.TimeFromFeed && m.Time.Location() != time.UTC {
			t.Errorf("%s: time not in UTC", name)
		}
	}
	// Checksums and shapes.
	for name, c := range map[string]struct {
		line string
		kind func(Stats) uint64
	}{
		"unterminated":  {`\c:1747818025*5A` + pos1, func(s Stats) uint64 { return s.BadTagBlock }},
		"bad c":         {tag("c:12x") + pos1, func(s Stats) uint64 { return s.BadTagBlock }},
		"bad g":         {tag("g:3-2-1") + pos1, func(s Stats) uint64 { return s.BadTagBlock }},
		"no colon":      {tag("cx") + pos1, func(s Stats) uint64 { return s.BadTagBlock }},
		"tag only":      {tag("c:1747818025"), func(s Stats) uint64 { return s.Garbage }},
		"before junk":   {tag("c:1747818025") + "junk", func(s Stats) uint64 { return s.Garbage }},
		"two blocks ok": {tag("c:1747818025") + tag("s:x") + pos1, func(s Stats) uint64 { return s.Messages }},
		"unknown ok":    {tag("c:1747818025,n:157036,t:SOME TEXT,x:1") + pos1, func(s Stats) uint64 { return s.Messages }},
		"empty field":   {tag("c:1747818025,,s:x") + pos1, func(s Stats) uint64 { return s.Messages }},
		"lower hex":     {`\c:1747818025*5a\` + pos1, func(s Stats) uint64 { return s.Messages }},
	} {
		_, _, s := decodeOne(t, c.line)
		if c.kind(s) != 1 {
			t.Errorf("%s: %+v", name, s)
		}
	}
}

// TestTagBlockGroup: the "g:" group ties the sentences of one message; the
// time and station come from the first line of the group.
func TestTagBlockGroup(t *testing.T) {
	t.Parallel()
	m, ok, s := decodeOne(t,
		`\g:1-2-27300,n:636994,s:b003669710,c:1428621738*5F\!SAVDM,2,1,2,B,55Mw@A7J1adAL@?;7WPl58F0U<h4pB222222220t1PN5553fN4g?`+"`"+`4iSp5Rc,0*26`,
		`\g:2-2-27300,n:636995*15\!SAVDM,2,2,2,B,iP`+"`"+`88888880,2*5E`)
	if !ok || m.Type != 5 || m.Time.Unix() != 1428621738 || m.Station != "b003669710" || m.Talker != [2]byte{'S', 'A'} {
		t.Fatalf("%v %+v %+v", ok, m, s)
	}
	// The group written as the first NMEA 4.0 tag blocks did, still seen
	// on the Norwegian Coastal Administration's feed (see testdata).
	m, ok, s = decodeOne(t,
		`\1G2:58944,s:2573225,c:1733782037*63\!BSVDM,2,1,1,B,53nRkh000000hq@T000ADpuT00000000000000001p524400000000000000,0*18`,
		`\2G2:58944,s:2573225,c:1733782037*60\!BSVDM,2,2,1,B,00000000000,2*3F`)
	if !ok || m.Type != 5 || m.MMSI != 258520000 || m.Time.Unix() != 1733782037 || m.Station != "2573225" || s.Invalid() != 0 {
		t.Fatalf("numbered group: %v %+v %+v", ok, m, s)
	}
	for _, bad := range []string{"1G2", "1G2:", "G2:5", "1G:5", "1G2:5x", "1G2G3:5", "3G2:5", "1G2:12345678901"} {
		if _, _, s := decodeOne(t, tag(bad)+pos1); s.BadTagBlock != 1 {
			t.Errorf("%q: %+v", bad, s)
		}
	}
	// A single-sentence line of a group without a time takes the group's.
	m, _, _ = decodeOne(t, tag("g:1-2-9,c:1428621738,s:st")+pos1, tag("g:2-2-9")+pos1)
	if m.Time.Unix() != 1428621738 || m.Station != "st" {
		t.Errorf("group time: %+v", m)
	}
	// ... but not a line of another group.
	m, _, _ = decodeOne(t, tag("g:1-2-9,c:1428621738")+pos1, tag("g:2-2-10")+pos1)
	if m.TimeFromFeed {
		t.Errorf("other group got a time: %+v", m)
	}
}

func TestUnixPrefix(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]time.Time{
		"1550303566167726840 " + pos1:     time.Unix(1550303566, 167726840),
		"1550303566 " + pos1:              time.Unix(1550303566, 0),
		"1550303566.25\t" + pos1:          time.Unix(1550303566, 25e7),
		"1550303566167 " + pos1:           time.Unix(1550303566, 167e6),
		"1550303566167726 " + pos1:        time.Unix(1550303566, 167726e3),
		"1550303566 " + tag("s:x") + pos1: time.Unix(1550303566, 0),
	} {
		m, ok, _ := decodeOne(t, line)
		if !ok || !m.Time.Equal(want) || !m.TimeFromFeed {
			t.Errorf("%q: %v %v", line, ok, m.Time)
		}
	}
	for _, line := range []string{"1550303566" + pos1, "15503035661677268401234 " + pos1, "123 ", "1550303566. " + pos1} {
		if _, _, s := decodeOne(t, line); s.Garbage != 1 {
			t.Errorf("%q: %+v", line, s)
		}
	}
}

func TestUSCGSuffix(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]struct {
		unix    int64
		station string
	}{
		pos1 + ",b003669710,1272412827":                                     {1272412827, "b003669710"},
		pos1 + ",b2003669950,1272412827":                                    {1272412827, "b2003669950"},
		pos1 + ",d-107,S1234,t123456.00,T12.3456789,r003669945,1272412827":  {1272412827, "r003669945"},
		pos1 + ",d-120,S1631,t041143.00,T43.51622187,rCUDJOE_01,1272427905": {1272427905, "rCUDJOE_01"},
		pos1 + ",rB0003160047":                                              {0, "rB0003160047"},
	} {
		m, ok, _ := decodeOne(t, line)
		if !ok || m.Station != want.station || m.TimeFromFeed != (want.unix != 0) || want.unix != 0 && m.Time.Unix() != want.unix {
			t.Errorf("%q: %v %+v", line, ok, m)
		}
	}
	// A tag block time wins over the suffix.
	m, _, _ := decodeOne(t, tag("c:1000000000")+pos1+",b1,1272412827")
	if m.Time.Unix() != 1000000000 {
		t.Errorf("tag block and suffix: %v", m.Time)
	}
}

// TestGateHouse: a $PGHP line stamps the message whose first sentence
// follows it, and only that one.
func TestGateHouse(t *testing.T) {
	t.Parallel()
	d := NewDecoder(Options{})
	var got []Message
	for _, l := range readLines(t, "testdata/ais_pyais_timestamped_gatehouse.ais") {
		if m, ok := d.Decode(l); ok {
			got = append(got, m)
		}
	}
	// The first $PGHP stamps the message after it; the message after the
	// comments has no time. The "2009" line's checksum is that of the
	// "2008" line (the year was edited, the checksum not): rejected.
	want := []time.Time{time.Date(2008, 5, 9, 0, 0, 0, 10e6, time.UTC), {}, {}, {}}
	if len(got) != len(want) {
		t.Fatalf("%d messages", len(got))
	}
	for i, m := range got {
		if !m.Time.Equal(want[i]) || m.TimeFromFeed == want[i].IsZero() {
			t.Errorf("message %d: %v %v, want %v", i, m.Time, m.TimeFromFeed, want[i])
		}
	}
	if s := d.Stats(); s.OtherNMEA != 4 || s.Messages != 4 {
		t.Errorf("%+v", s)
	}
	// A $PGHP with a bad checksum or bad fields stamps nothing.
	for _, l := range []string{"$PGHP,1,2008,5,9,0,0,0,10,338,2,,1,09*00", withSum("$PGHP,1,2008,13,9,0,0,0,10"), withSum("$PGHP,2,2008,5,9,0,0,0,10")} {
		if m, _, _ := decodeOne(t, l, pos1); m.TimeFromFeed {
			t.Errorf("%q stamped %v", l, m.Time)
		}
	}
}

// TestNoTime: lines without a time give the zero time and the flag off.
func TestNoTime(t *testing.T) {
	t.Parallel()
	m, ok, _ := decodeOne(t, pos1)
	if !ok || !m.Time.IsZero() || m.TimeFromFeed || m.Station != "" {
		t.Errorf("%+v", m)
	}
}

// TestTagBlockSumSlips: a tag block whose checksum is wrong or missing in
// front of a sentence whose own checksum holds costs nothing: the line is
// decoded, its tag block read, and counted by reason. In front of a
// sentence that fails its checksum, or of anything else, the line is a bad
// tag block as before.
func TestTagBlockSumSlips(t *testing.T) {
	t.Parallel()
	at := time.Unix(1747818025, 0)
	for name, c := range map[string]struct {
		line   string
		reason string
		time   bool
	}{
		// The checksum of "c:1747818025" (5A), written after "g:" was put
		// in front of it, and behind it.
		"group first":   {`\g:1-1-9999,c:1747818025*5A\` + pos1, TagBlockSumWithoutGroup, true},
		"group last":    {`\c:1747818025,g:1-1-9999*5A\` + pos1, TagBlockSumWithoutGroup, true},
		"group between": {`\s:x,g:1-1-9999,c:1747818025*` + sumOf("s:x,c:1747818025") + `\` + pos1, TagBlockSumWithoutGroup, true},
		"group alone":   {`\g:1-1-9999*00\` + pos1, TagBlockSumWithoutGroup, false},
		"bad sum":       {`\c:1747818025*00\` + pos1, TagBlockSumMismatch, true},
		"one digit":     {`\g:1-2-73874*A\` + pos1, TagBlockSumMismatch, false},
		"not hex":       {`\c:1747818025*5G\` + pos1, TagBlockSumMismatch, true},
		"no sum":        {`\c:1747818025\` + pos1, TagBlockSumMissing, true},
		"second block":  {tag("s:x") + `\c:1747818025*00\` + pos1, TagBlockSumMismatch, true},
	} {
		m, ok, s := decodeOne(t, c.line)
		checkInvariants(t, s, DefaultMaxPending)
		if !ok || s.Invalid() != 0 || s.TagBlockSumByReason()[c.reason] != 1 {
			t.Errorf("%s: decoded %v, %+v", name, ok, s)
			continue
		}
		var n uint64
		for _, v := range s.TagBlockSumByReason() {
			n += v
		}
		if n != 1 {
			t.Errorf("%s: counted %d times: %v", name, n, s.TagBlockSumByReason())
		}
		if m.TimeFromFeed != c.time || (c.time && !m.Time.Equal(at)) {
			t.Errorf("%s: time %v (from feed %v)", name, m.Time, m.TimeFromFeed)
		}
	}
	for name, line := range map[string]string{
		"sentence sum bad":     `\c:1747818025*00\` + pos1[:len(pos1)-2] + "00",
		"sentence sum missing": `\c:1747818025*00\` + pos1[:len(pos1)-3],
		"other NMEA":           `\c:1747818025*00\$GPGLL,6004.4083,N,01940.5157,E,094140,A,D*4D`,
		"nothing behind":       `\c:1747818025*00\`,
		"junk behind":          `\c:1747818025*00\junk`,
		"malformed c":          `\c:17478x*00\` + pos1,
	} {
		_, ok, s := decodeOne(t, line)
		if ok || s.BadTagBlock != 1 || s.TagBlockSumMismatch != 0 {
			t.Errorf("%s: decoded %v, %+v", name, ok, s)
		}
	}
	// The sentence's own checksum stays strict.
	if _, ok, s := decodeOne(t, tag("c:1747818025")+pos1[:len(pos1)-2]+"00"); ok || s.BadChecksum != 1 {
		t.Errorf("bad sentence checksum behind a good tag block: %+v", s)
	}
}

// sumOf is the NMEA checksum of s, two upper-case hex digits.
func sumOf(s string) string { return fmt.Sprintf("%02X", xorBytes([]byte(s))) }
