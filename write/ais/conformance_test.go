package ais

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// comparedTypes are the types compared field by field with gpsd.
var comparedTypes = map[uint8]bool{1: true, 2: true, 3: true, 4: true, 5: true, 18: true, 19: true, 21: true, 24: true, 27: true}

// tally counts compared messages by type.
type tally map[uint8]int

func (t tally) String() string {
	var keys []int
	for k := range t {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %d:%d", k, t[uint8(k)])
	}
	return b.String()
}

// TestConformanceGPSDSample decodes gpsd's test/sample.aivdm (at least one
// message of every type) and compares every message with gpsd's decoded
// output, scaled (degrees, knots) and unscaled (wire units). gpsd prints
// the messages in the order they complete, so the two lists are walked
// together; gpsd prints nothing for the messages it rejects, which must be
// exactly those we reject too.
func TestConformanceGPSDSample(t *testing.T) {
	t.Parallel()
	d := NewDecoder(Options{})
	var msgs []Message
	for _, l := range readLines(t, "testdata/ais_gpsd_sample.aivdm") {
		if m, ok := d.Decode(l); ok {
			msgs = append(msgs, m)
		}
	}
	for _, scaled := range []bool{true, false} {
		name := "testdata/ais_gpsd_sample.aivdm.expected_unscaled.jsonl"
		if scaled {
			name = "testdata/ais_gpsd_sample.aivdm.expected_scaled.jsonl"
		}
		t.Run(filepath.Base(name), func(t *testing.T) {
			recs := readLines(t, name)
			var q gpsd24Queue
			counts := tally{}
			j := 0
			for i := range msgs {
				m := &msgs[i]
				// gpsd prints type 24 only as a part B matched with a
				// queued part A ("both"), unless told to split them.
				var partAName string
				if m.Type == 24 {
					if m.PartNumber == 0 {
						q.partA(m)
						continue
					}
					var found bool
					if partAName, found = q.partB(m); !found {
						continue
					}
				}
				if j == len(recs) {
					t.Errorf("message %d (type %d, MMSI %d): gpsd printed nothing more", i, m.Type, m.MMSI)
					continue
				}
				r, err := parseGPSD(recs[j])
				if err != nil {
					t.Fatal(err)
				}
				if int64(m.Type) != r.int("type") || int64(m.MMSI) != r.int("mmsi") {
					if !comparedTypes[m.Type] {
						// gpsd rejects some binary messages by its own length
						// rules (type 6 of 80 bits here); we only count them.
						t.Logf("message %d: type %d MMSI %d not printed by gpsd", i, m.Type, m.MMSI)
						continue
					}
					t.Errorf("message %d: ours type %d MMSI %d, gpsd %s", i, m.Type, m.MMSI, recs[j])
					j++
					continue
				}
				j++
				if !comparedTypes[m.Type] {
					continue
				}
				counts[m.Type]++
				for _, e := range compareGPSD(m, r, scaled, partAName, false) {
					t.Errorf("message %d (type %d, MMSI %d): %s", i, m.Type, m.MMSI, e)
				}
			}
			if j != len(recs) {
				t.Errorf("gpsd printed %d messages more than we decoded", len(recs)-j)
			}
			t.Logf("compared field by field:%v", counts)
		})
	}
}

// daemonCaptures are gpsd's daemon regression captures: the .chk echoes
// each input line and follows the last sentence of each message with
// gpsd's JSON for it.
var daemonCaptures = []string{
	"ais_gpsd_daemon_ais-18-27.log",
	"ais_gpsd_daemon_ais-nmea-type6-fid55.log",
	"ais_gpsd_daemon_ais-nmea.log",
	"ais_gpsd_daemon_ais-raw-messages.log",
	"ais_gpsd_daemon_ais_unpack_sixbit.log",
}

// TestConformanceGPSDDaemon replays each .chk: every echoed input line
// goes to our decoder; every AIS JSON object is paired with the message
// our decoder completed on the latest line, and compared field by field.
//
// Two behaviours of the gpsd daemon are accounted for: it prints type 24
// only as a part B matched with a queued part A (printed with that part's
// name), so our parts A and unmatched parts B have no JSON of their own;
// and it sometimes prints the last
// AIS object again after a GPS fix without a new sentence (ais-nmea.log),
// which is skipped as a repeat.
func TestConformanceGPSDDaemon(t *testing.T) {
	t.Parallel()
	total := tally{}
	for _, name := range daemonCaptures {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(Options{})
			var q gpsd24Queue
			var pending *Message // completed on the latest line, not yet paired
			var partAName string // of pending, a type 24 part B
			var lastJSON []byte
			counts := tally{}
			unpaired := func() {
				if pending != nil && comparedTypes[pending.Type] {
					t.Errorf("type %d MMSI %d: decoded by us, not printed by gpsd", pending.Type, pending.MMSI)
				}
				pending = nil
			}
			for _, line := range readLines(t, "testdata/"+name+".chk") {
				line = bytes.TrimRight(line, "\r")
				if len(line) == 0 || line[0] != '{' {
					unpaired()
					m, ok := d.Decode(line)
					if !ok {
						continue
					}
					if m.Type == 24 {
						// The daemon prints type 24 only as a part B matched
						// with a queued part A.
						if m.PartNumber == 0 {
							q.partA(&m)
							continue
						}
						var found bool
						if partAName, found = q.partB(&m); !found {
							continue
						}
					}
					pending = &m
					continue
				}
				r, err := parseGPSD(line)
				if err != nil {
					t.Fatal(err)
				}
				if r.str("class") != "AIS" {
					continue
				}
				if pending == nil {
					if !bytes.Equal(line, lastJSON) {
						t.Errorf("gpsd printed %s, we completed no message", line)
					}
					continue
				}
				lastJSON = line
				m := pending
				pending = nil
				if !comparedTypes[m.Type] {
					if int64(m.Type) != r.int("type") || int64(m.MMSI) != r.int("mmsi") {
						t.Errorf("ours type %d MMSI %d, gpsd %s", m.Type, m.MMSI, line)
					}
					continue
				}
				counts[m.Type]++
				total[m.Type]++
				for _, e := range compareGPSD(m, r, r.flag("scaled"), partAName, false) {
					t.Errorf("type %d MMSI %d: %s\n\tgpsd: %s", m.Type, m.MMSI, e, line)
				}
			}
			unpaired()
			t.Logf("compared field by field:%v", counts)
		})
	}
	t.Logf("all daemon captures, compared field by field:%v", total)
}

// TestCompareGPSDDetects makes sure the comparison is not vacuous: a
// change to any compared field of a matching message is reported.
func TestCompareGPSDDetects(t *testing.T) {
	t.Parallel()
	lines := readLines(t, "testdata/ais_gpsd_sample.aivdm.expected_unscaled.jsonl")
	find := func(typ int64) gpsdRecord {
		for _, l := range lines {
			r, _ := parseGPSD(l)
			if r.int("type") == typ {
				return r
			}
		}
		t.Fatalf("no type %d", typ)
		return nil
	}
	pos, _ := DecodePayload([]byte("15RTgt0PAso;90TKcjM8h6g208CQ"), 0)
	static, _ := DecodePayload([]byte("55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp888888888880"), 2)
	for name, c := range map[string]struct {
		m    Message
		typ  int64
		edit func(*Message)
	}{
		"lat":         {pos, 1, func(m *Message) { m.Lat += 1.0 / 600000 }},
		"no position": {pos, 1, func(m *Message) { m.Fields &^= HasPosition }},
		"sog":         {pos, 1, func(m *Message) { m.SOG = 12.4 }},
		"cog":         {pos, 1, func(m *Message) { m.COG = 224.1 }},
		"heading":     {pos, 1, func(m *Message) { m.Heading = 216 }},
		"status":      {pos, 1, func(m *Message) { m.NavStatus = 1 }},
		"turn":        {pos, 1, func(m *Message) { m.Turn = 0 }},
		"mmsi":        {pos, 1, func(m *Message) { m.MMSI++ }},
		"imo":         {static, 5, func(m *Message) { m.IMO++ }},
		"name":        {static, 5, func(m *Message) { m.Name = "EVER DIADEM2" }},
		"callsign":    {static, 5, func(m *Message) { m.CallSign = "" }},
		"ship type":   {static, 5, func(m *Message) { m.ShipType = 71 }},
		"dimensions":  {static, 5, func(m *Message) { m.ToPort = 2 }},
		"draught":     {static, 5, func(m *Message) { m.Draught = 12.3 }},
		"destination": {static, 5, func(m *Message) { m.Destination = "NEW YORK CITY" }},
		"eta":         {static, 5, func(m *Message) { m.ETAHour = 15 }},
		"eta absent":  {static, 5, func(m *Message) { m.Fields &^= HasETA }},
	} {
		r := find(c.typ)
		if e := compareGPSD(&c.m, r, false, "", false); len(e) != 0 {
			t.Fatalf("%s: unchanged message differs: %v", name, e)
		}
		m := c.m
		c.edit(&m)
		if e := compareGPSD(&m, r, false, "", false); len(e) == 0 {
			t.Errorf("%s: change not detected", name)
		}
	}
}
