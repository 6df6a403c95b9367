package ais

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestCapturesSkipAndCount decodes the small captures and checks every
// counter: comments, blank lines, other NMEA, garbage, bad checksums
// (sentences and tag blocks) and bad payloads are skipped and counted,
// never fatal.
//
//   - pyais mixed: 6 other NMEA ($GPGGA, $GPRTE, $GPR00, $IIMWV, 2 $PGHP),
//     2 garbage lines ("foobar", "IamNotAnAisMessage1111"), 3 tag blocks
//     with a one-digit checksum ("*A"): 2 in front of a valid sentence,
//     kept and counted TagBlockSumMismatch, 1 in front of a sentence
//     without a checksum (",013"), a bad tag block.
//   - pyais examples: the same tag blocks, plus "\s:blah,c:1747818025*5A\"
//     whose checksum is 38, kept (TagBlockSumMismatch) in front of a
//     sentence whose fragment count is 0 (a bad payload).
//   - pyais NMEA sample: 100 sentences with an empty payload; 20 first
//     fragments whose second fragments are not in the file (8 replaced by
//     a later first fragment with the same sequential id, 12 pending).
//   - libais: types 1-28 with old USCG suffixes; type 28 ("L"), messages
//     too short for their type and lengths gpsd rejects (types 23 below
//     160 bits, 26 shorter than its flags announce, 27 other than 96 or
//     168 bits) are bad payloads.
func TestCapturesSkipAndCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		want Stats
	}{
		{"ais_pyais_mixed.txt", Stats{Lines: 35, Sentences: 14, Messages: 12, Blank: 7, Comments: 5, OtherNMEA: 6, Garbage: 2, BadTagBlock: 1, Fragments: 2, TagBlockSumMismatch: 2}},
		{"ais_pyais_examples_sample.ais", Stats{Lines: 22, Sentences: 13, Messages: 11, Blank: 1, Comments: 5, OtherNMEA: 1, Garbage: 1, BadTagBlock: 1, BadPayload: 1, Fragments: 1, TagBlockSumMismatch: 3}},
		{"ais_pyais_timestamped_gatehouse.ais", Stats{Lines: 11, Sentences: 4, Messages: 4, Blank: 2, Comments: 1, OtherNMEA: 4}},
		{"ais_pyais_messages_with_comments.ais", Stats{Lines: 11, Sentences: 6, Messages: 6, Blank: 3, Comments: 2}},
		{"ais_pyais_ais_test_messages.txt", Stats{Lines: 9, Sentences: 8, Messages: 7, Comments: 1, Fragments: 1}},
		{"ais_pyais_nmea_data_sample.txt", Stats{Lines: 898, Sentences: 898, Messages: 778, BadPayload: 100, Fragments: 20, ReassemblyDropped: 8, Unsupported: 8, Pending: 12}},
		{"ais_libais_test.aivdm", Stats{Lines: 345, Sentences: 263, Messages: 217, Blank: 35, Comments: 47, BadPayload: 44, Fragments: 2, Unsupported: 168}},
		{"ais_goais_aistest_unixns.nmea", Stats{Lines: 998, Sentences: 998, Messages: 904, BadPayload: 1, Fragments: 93, ReassemblyDropped: 6, Unsupported: 115, Pending: 2}},
		{"ais_gpsd_sample.aivdm", Stats{Lines: 1121, Sentences: 118, Messages: 102, Blank: 1, Comments: 1001, Garbage: 1, Fragments: 16, Unsupported: 74}},
	} {
		d := NewDecoder(Options{})
		for _, l := range readLines(t, "testdata/"+c.name) {
			d.Decode(l)
		}
		got := d.Stats()
		checkInvariants(t, got, DefaultMaxPending)
		got.ByType = [28]uint64{}
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// TestCapturesTimes checks the feed times of the timestamped captures.
func TestCapturesTimes(t *testing.T) {
	t.Parallel()
	for name, check := range map[string]func(m *Message) bool{
		// every line "<unix-nanoseconds> <sentence>", 2019-02-16
		"ais_goais_aistest_unixns.nmea": func(m *Message) bool {
			return m.TimeFromFeed && m.Time.Year() == 2019 && m.Time.Nanosecond() != 0
		},
		// every sentence with ",<station>,<unix time>", 2010-04
		"ais_libais_test.aivdm": func(m *Message) bool {
			return m.TimeFromFeed && m.Time.Year() == 2010 && m.Station != ""
		},
		// no time at all
		"ais_aishub_3min_live_sample_gpsd_contrib.log": func(m *Message) bool { return !m.TimeFromFeed && m.Time.IsZero() },
	} {
		d := NewDecoder(Options{})
		n := 0
		for _, l := range readLines(t, "testdata/"+name) {
			if m, ok := d.Decode(l); ok {
				n++
				if !check(&m) {
					t.Errorf("%s: %q: time %v (%v), station %q", name, l, m.Time, m.TimeFromFeed, m.Station)
					break
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no messages", name)
		}
	}
}

// TestLineEnds: CRLF, LF and no line end decode the same.
func TestLineEnds(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/*.aivdm")
	more, _ := filepath.Glob("testdata/ais_pyais_*")
	for _, name := range append(files, more...) {
		var outs [3][]Message
		var stats [3]Stats
		for k, end := range []string{"", "\n", "\r\n"} {
			d := NewDecoder(Options{})
			for _, l := range readLines(t, name) {
				l = bytes.TrimRight(l, "\r")
				if m, ok := d.Decode(append(l[:len(l):len(l)], end...)); ok {
					outs[k] = append(outs[k], m)
				}
			}
			stats[k] = d.Stats()
		}
		for k := 1; k < 3; k++ {
			if stats[k] != stats[0] || len(outs[k]) != len(outs[0]) {
				t.Errorf("%s: line end %d: %+v vs %+v", name, k, stats[k], stats[0])
				continue
			}
			for i := range outs[0] {
				if e := sameMessage(outs[k][i], outs[0][i]); len(e) > 0 {
					t.Errorf("%s: line end %d, message %d: %v", name, k, i, e)
				}
			}
		}
	}
}

// TestDecodeDoesNotKeepLine: the decoder keeps no reference to the lines
// it was given (fragments and station names are copied).
func TestDecodeDoesNotKeepLine(t *testing.T) {
	t.Parallel()
	d := NewDecoder(Options{})
	buf := []byte(tag("s:rSTATION,c:1700000000") + frag1)
	d.Decode(buf)
	for i := range buf {
		buf[i] = 'x'
	}
	m, ok := d.Decode([]byte(frag2))
	if !ok || m.Name != "EVER DIADEM" || m.Station != "rSTATION" {
		t.Fatalf("%v %+v", ok, m)
	}
}

// TestAllCapturesInvariants runs every capture (the daemon logs mix AIS
// with GPS sentences) and checks that the counters add up.
func TestAllCapturesInvariants(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/ais_*")
	for _, name := range files {
		d := NewDecoder(Options{MaxPending: 4})
		for _, l := range readLines(t, name) {
			d.Decode(l)
		}
		checkInvariants(t, d.Stats(), 4)
	}
}

// TestPositionZeroAlloc: position reports decode without allocating, with
// and without a tag block.
func TestPositionZeroAlloc(t *testing.T) {
	d := NewDecoder(Options{})
	for _, line := range [][]byte{
		[]byte(pos1),
		[]byte(tag("s:rSTATION,c:1700000000") + pos1),
		[]byte("1550303566167726840 " + pos1 + "\r\n"),
		[]byte(pos1 + ",b003669710,1272412827"),
	} {
		if n := testing.AllocsPerRun(100, func() { d.Decode(line) }); n != 0 {
			t.Errorf("%q: %v allocations", line, n)
		}
	}
}
