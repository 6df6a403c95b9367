package ais

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"overwatch/write/ais/aistest"
)

// captureFiles are the real captures of testdata (the .chk and expected
// files are gpsd's output, not captures).
func captureFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/ais_*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".chk") && !strings.Contains(f, ".expected") {
			out = append(out, f)
		}
	}
	if len(out) < 15 {
		t.Fatalf("only %d captures in testdata", len(out))
	}
	return out
}

// cleanCaptures have no invalid line: every line is a valid sentence, a
// comment, a blank or another NMEA sentence. The others hold deliberate
// junk (pyais, libais, gpsd's sample) or messages gpsd rejects too (type
// 24 part B sentences of 174 bits in the 18-27 log).
var cleanCaptures = map[string]bool{
	"ais_aishub_3min_live_sample_gpsd_contrib.log": true,
	"ais_aisnet_kystverket_Ais1000Lines.nm4":       true,
	"ais_gpsdtimestamp_kystverket_norwegian.raw":   true,
	"ais_gpsd_daemon_ais-nmea.log":                 true,
	"ais_gpsd_daemon_ais-nmea-type6-fid55.log":     true,
	"ais_gpsd_daemon_ais-raw-messages.log":         true,
	"ais_gpsd_daemon_ais_unpack_sixbit.log":        true,
	"ais_pyais_messages_with_comments.ais":         true,
	"ais_pyais_ais_test_messages.txt":              true,
	"ais_pyais_timestamped_gatehouse.ais":          true,
}

// withoutTagBlocks is what gpsdecode is given for a published capture:
// tag blocks removed. gpsd ignores tag-block checksums, as we do when the
// sentence's own checksum holds (TagBlockSumMismatch and the others); we
// reject a line whose tag block is malformed (counted BadTagBlock), so
// such lines are left out of gpsd's input as well.
func withoutTagBlocks(lines [][]byte) [][]byte {
	var out [][]byte
	for _, l := range lines {
		rest := bytes.TrimSpace(l)
		bad := false
		for len(rest) > 0 && rest[0] == '\\' {
			var env envelope
			var r int
			if rest, r = parseTagBlock(rest, &env); r != parsedOK && r < tagSumWithoutGroup {
				bad = true
				break
			}
		}
		if !bad {
			out = append(out, append(append([]byte(nil), rest...), '\n'))
		}
	}
	return out
}

// TestConformanceCaptures: every capture of testdata, as published and
// rewritten into NMEA 4.10 tag-block groups (aistest.WrapTagBlocks), decodes to
// the messages gpsdecode prints for the same stream with the tag blocks
// removed, in the same order and field by field (positions and static
// types). The only messages printed by one decoder alone come from
// documented differences of the published captures, which the grouped
// rewrite removes (its fragments carry no sequential id, so gpsd's
// reassembly by channel and ours by group agree):
//   - gpsd joins the fragments of a channel whatever their sequential id;
//     we key them by sequential id (IEC 61162-1). The AISHub sample has one
//     type 5 (MMSI 419504000) whose fragments "2,1,4,A" and "2,2,1,A" gpsd
//     joins and we do not; go-ais's capture has six such orphans, pyais's
//     sample eight;
//   - pyais's sample ends with orphan first fragments that gpsd joins to
//     the next fragment on the channel.
//
// On the clean captures the invalid-line counter is zero, as published
// and grouped; on the others the grouped rewrite adds no invalid line.
func TestConformanceCaptures(t *testing.T) {
	t.Parallel()
	bin := gpsdecode(t)
	for _, name := range captureFiles(t) {
		lines := readLines(t, name)
		w := aistest.WrapTagBlocks(lines, false)
		base := filepath.Base(name)
		var published Stats
		for _, v := range []struct {
			kind      string
			ours, ref [][]byte
		}{{"published", lines, withoutTagBlocks(lines)}, {"grouped", w.Lines, w.Stripped}} {
			t.Run(base+"/"+v.kind, func(t *testing.T) {
				d := NewDecoder(Options{})
				var msgs []Message
				for _, l := range v.ours {
					if m, ok := d.Decode(l); ok {
						msgs = append(msgs, m)
					}
				}
				st := d.Stats()
				checkInvariants(t, st, DefaultMaxPending)
				switch {
				case v.kind == "published":
					published = st
				case st.Invalid() > published.Invalid():
					t.Errorf("grouped: %d invalid lines, published %d", st.Invalid(), published.Invalid())
				}
				if cleanCaptures[base] && st.Invalid() != 0 {
					t.Errorf("clean capture with %d invalid lines: %v", st.Invalid(), st.InvalidByReason())
				}
				path := filepath.Join(t.TempDir(), "stream.nmea")
				if err := os.WriteFile(path, bytes.Join(v.ref, nil), 0o644); err != nil {
					t.Fatal(err)
				}
				onlyOurs, onlyGPSD := compareWithGPSD(t, bin, path, msgs)
				t.Logf("%d lines, %d messages, invalid %v; printed by one decoder only: ours %d, gpsd %d",
					st.Lines, len(msgs), st.InvalidByReason(), onlyOurs, onlyGPSD)
				allowed := publishedDifferences[base]
				if v.kind == "grouped" {
					allowed = 0
				}
				if onlyOurs+onlyGPSD > allowed {
					t.Errorf("%d messages printed by one decoder only, %d allowed", onlyOurs+onlyGPSD, allowed)
				}
			})
		}
		t.Run(base+"/interleaved", func(t *testing.T) {
			grouped, gs := decodeCapture(t, w.Lines)
			mixed, ms := decodeCapture(t, aistest.WrapTagBlocks(lines, true).Lines)
			if ms.Invalid() != gs.Invalid() || ms.Messages != gs.Messages {
				t.Errorf("interleaved: %d messages, %d invalid; grouped: %d, %d", ms.Messages, ms.Invalid(), gs.Messages, gs.Invalid())
			}
			sortMessages(grouped)
			sortMessages(mixed)
			for i := range min(len(grouped), len(mixed)) {
				if e := sameMessage(mixed[i], grouped[i]); len(e) > 0 || mixed[i].Station != grouped[i].Station {
					t.Errorf("message %d (MMSI %d): %v, station %q vs %q", i, grouped[i].MMSI, e, mixed[i].Station, grouped[i].Station)
				}
			}
		})
	}
}

// decodeCapture decodes lines with a new decoder.
func decodeCapture(t *testing.T, lines [][]byte) ([]Message, Stats) {
	t.Helper()
	d := NewDecoder(Options{})
	var msgs []Message
	for _, l := range lines {
		if m, ok := d.Decode(l); ok {
			msgs = append(msgs, m)
		}
	}
	checkInvariants(t, d.Stats(), DefaultMaxPending)
	return msgs, d.Stats()
}

// sortMessages orders messages by time, MMSI, type and station.
func sortMessages(ms []Message) {
	slices.SortStableFunc(ms, func(a, b Message) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.MMSI, b.MMSI), cmp.Compare(a.Type, b.Type), cmp.Compare(a.Station, b.Station))
	})
}

// publishedDifferences bounds, per published capture, the messages
// printed by one decoder only (see TestConformanceCaptures).
var publishedDifferences = map[string]int{
	"ais_aishub_3min_live_sample_gpsd_contrib.log": 2,
	"ais_goais_aistest_unixns.nmea":                12,
	"ais_pyais_nmea_data_sample.txt":               30,
}

// compareWithGPSD walks our messages and gpsdecode's output of path
// together, comparing fields, and returns the messages printed by one
// decoder only.
func compareWithGPSD(t *testing.T, bin, path string, msgs []Message) (onlyOurs, onlyGPSD int) {
	t.Helper()
	var recs [][]byte
	for _, r := range runGPSDecode(t, bin, path, false) {
		if bytes.Contains(r, []byte(`"class":"AIS"`)) {
			recs = append(recs, r)
		}
	}
	var q gpsd24Queue
	j := 0
	for i := range msgs {
		m := &msgs[i]
		var partAName string
		if m.Type == 24 {
			if m.PartNumber == 0 {
				q.partA(m)
			} else {
				partAName, _ = q.partB(m)
			}
		}
		r, ok := nextMatch(t, recs, &j, m, &onlyGPSD)
		if !ok {
			onlyOurs++
			t.Logf("ours only: type %d MMSI %d", m.Type, m.MMSI)
			continue
		}
		if !comparedTypes[m.Type] {
			continue
		}
		for _, e := range compareGPSD(m, r, false, partAName, true) {
			t.Errorf("message %d (type %d, MMSI %d): %s", i, m.Type, m.MMSI, e)
		}
	}
	for ; j < len(recs); j++ {
		onlyGPSD++
		t.Logf("gpsd only: %.100s", recs[j])
	}
	return onlyOurs, onlyGPSD
}
