package ais

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"overwatch"
)

// kystverketGrouped is 1,000 lines of the Norwegian Coastal
// Administration's open feed (2019-08-07, every line behind a tag block),
// whose two-sentence messages carry "g:1-2-9999" and "g:2-2-9999" with the
// tag-block checksum of the block without "g:", the same group id on every
// group (see testdata/README.md).
const kystverketGrouped = "testdata/ais_aisnet_kystverket_Ais1000Lines.nm4"

// TestKystverketGroupSlip: the capture decodes to the messages gpsdecode
// prints for it, field by field: the 246 grouped lines are kept (counted
// TagBlockSumWithoutGroup), no line is invalid, every type 5 assembles, and
// the vessels whose type 5 carries an IMO and that gpsd positions are the
// same 28 with the same IMOs.
func TestKystverketGroupSlip(t *testing.T) {
	t.Parallel()
	bin := gpsdecode(t)
	msgs, s := decodeCapture(t, readLines(t, kystverketGrouped))
	if s.Lines != 1000 || s.Invalid() != 0 || s.TagBlockSumWithoutGroup != 246 || s.TagBlockSumMismatch+s.TagBlockSumMissing != 0 ||
		s.Pending != 0 || s.ByType[5] != 123 {
		t.Errorf("stats %+v", s)
	}
	// The capture's last line has no line end, which gpsdecode needs.
	path := filepath.Join(t.TempDir(), "capture.nmea")
	if err := os.WriteFile(path, append(bytes.Join(readLines(t, kystverketGrouped), []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	onlyOurs, onlyGPSD := compareWithGPSD(t, bin, path, msgs)
	if onlyOurs+onlyGPSD != 0 {
		t.Errorf("printed by one decoder only: ours %d, gpsd %d", onlyOurs, onlyGPSD)
	}
	ours := positionedIMOs(msgs)
	theirs := gpsdPositionedIMOs(t, runGPSDecode(t, bin, path, true))
	if len(theirs) != 28 || len(ours) != len(theirs) {
		t.Errorf("vessels with an IMO and a position: ours %d, gpsd %d", len(ours), len(theirs))
	}
	for mmsi, imo := range theirs {
		if ours[mmsi] != imo {
			t.Errorf("MMSI %d: IMO %d, gpsd %d", mmsi, ours[mmsi], imo)
		}
	}
}

// TestKystverketReusedGroupIDs: with the same group id on every group, the
// sentences of two messages that arrive mixed (X1, Y1, X2, Y2) are told
// apart by their sequential id and channel. In the real capture, every
// second two-sentence message is moved to mix with the one before it,
// wherever their sequential ids or channels differ: the messages are those
// of the capture as published, and, where the two were received on
// different channels (gpsd joins the fragments of a channel), those
// gpsdecode prints for the mixed stream.
func TestKystverketReusedGroupIDs(t *testing.T) {
	t.Parallel()
	bin := gpsdecode(t)
	lines := readLines(t, kystverketGrouped)
	want, _ := decodeCapture(t, lines)
	for _, acrossChannels := range []bool{false, true} {
		mixed, n := mixGroups(t, lines, acrossChannels)
		got, s := decodeCapture(t, mixed)
		if n < 20 || s.Invalid() != 0 || s.ReassemblyDropped != 0 || s.Pending != 0 {
			t.Errorf("across channels %v: %d pairs mixed, stats %+v", acrossChannels, n, s)
		}
		if len(got) != len(want) {
			t.Fatalf("across channels %v: %d messages, as published %d", acrossChannels, len(got), len(want))
		}
		g, w := append([]Message(nil), got...), append([]Message(nil), want...)
		sortMessages(g)
		sortMessages(w)
		for i := range w {
			if e := sameMessage(g[i], w[i]); len(e) > 0 {
				t.Errorf("across channels %v: message %d (MMSI %d): %v", acrossChannels, i, w[i].MMSI, e)
			}
		}
		if !acrossChannels {
			continue
		}
		path := filepath.Join(t.TempDir(), "mixed.nmea")
		if err := os.WriteFile(path, append(bytes.Join(mixed, []byte("\n")), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if onlyOurs, onlyGPSD := compareWithGPSD(t, bin, path, got); onlyOurs+onlyGPSD != 0 {
			t.Errorf("mixed stream printed by one decoder only: ours %d, gpsd %d", onlyOurs, onlyGPSD)
		}
	}
}

var twoSentences = regexp.MustCompile(`\\!..VDM,2,([12]),([0-9]),([AB]),`)

// mixGroups returns lines with every second two-sentence message Y moved
// to mix with the one before it, X: X1, Y1, X2, Y2 where X1 was (the lines
// between X and Y keep their order, after Y), where their (sequential id,
// channel) differ and, with acrossChannels, their channels do; and the
// number of pairs so mixed.
func mixGroups(t *testing.T, lines [][]byte, acrossChannels bool) ([][]byte, int) {
	t.Helper()
	type group struct {
		first, second int
		seq, channel  byte
	}
	var groups []group
	for i, l := range lines {
		m := twoSentences.FindSubmatch(l)
		switch {
		case m == nil:
		case m[1][0] == '1':
			groups = append(groups, group{first: i, second: -1, seq: m[2][0], channel: m[3][0]})
		case len(groups) > 0 && groups[len(groups)-1].second == -1 && groups[len(groups)-1].first == i-1:
			groups[len(groups)-1].second = i
		default:
			t.Fatalf("line %d: a second sentence that does not follow its first", i+1)
		}
	}
	skip := map[int]bool{}
	mix := map[int][]int{} // X1's line -> the lines written in its place
	n := 0
	for k := 0; k+1 < len(groups); k += 2 {
		x, y := groups[k], groups[k+1]
		if x.seq == y.seq && x.channel == y.channel || acrossChannels && x.channel == y.channel {
			continue
		}
		mix[x.first] = []int{x.first, y.first, x.second, y.second}
		skip[x.second], skip[y.first], skip[y.second] = true, true, true
		n++
	}
	var out [][]byte
	for i, l := range lines {
		switch {
		case mix[i] != nil:
			for _, j := range mix[i] {
				out = append(out, lines[j])
			}
		case !skip[i]:
			out = append(out, l)
		}
	}
	return out, n
}

// positionedIMOs maps the MMSIs whose type 5 carries a valid IMO and that
// report a position to that IMO.
func positionedIMOs(msgs []Message) map[uint32]overwatch.IMO {
	imo := map[uint32]overwatch.IMO{}
	positioned := map[uint32]bool{}
	for i := range msgs {
		m := &msgs[i]
		if m.Type == 5 && m.Fields&HasIMO != 0 && m.IMO.Valid() {
			imo[m.MMSI] = m.IMO
		}
		if m.Fields&HasPosition != 0 {
			positioned[m.MMSI] = true
		}
	}
	for mmsi := range imo {
		if !positioned[mmsi] {
			delete(imo, mmsi)
		}
	}
	return imo
}

// gpsdPositionedIMOs is positionedIMOs of gpsdecode's scaled output: a
// position is a latitude and longitude other than gpsd's "not available"
// (91, 181).
func gpsdPositionedIMOs(t *testing.T, recs [][]byte) map[uint32]overwatch.IMO {
	t.Helper()
	imo := map[uint32]overwatch.IMO{}
	positioned := map[uint32]bool{}
	for _, line := range recs {
		var r struct {
			Type     int
			MMSI     uint32
			IMO      uint32
			Lat, Lon *float64
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		if r.Type == 5 && overwatch.IMO(r.IMO).Valid() {
			imo[r.MMSI] = overwatch.IMO(r.IMO)
		}
		if r.Lat != nil && r.Lon != nil && *r.Lat != 91 && *r.Lon != 181 {
			positioned[r.MMSI] = true
		}
	}
	for mmsi := range imo {
		if !positioned[mmsi] {
			delete(imo, mmsi)
		}
	}
	return imo
}
