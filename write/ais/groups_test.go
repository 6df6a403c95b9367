package ais

import (
	"strings"
	"testing"
	"time"
)

// emptySeq rewrites a sentence with its sequential message id left empty,
// as NMEA 4.10 feeds that group sentences by tag block send them.
func emptySeq(t *testing.T, line string) string {
	t.Helper()
	f := strings.Split(line[:strings.IndexByte(line, '*')], ",")
	if len(f) != 7 {
		t.Fatalf("not a sentence: %q", line)
	}
	f[3] = ""
	return withSum(strings.Join(f, ","))
}

// staticLines encodes a two-sentence type 5 of mmsi and name on channel.
func staticLines(t *testing.T, mmsi uint32, name string, channel byte) [2]string {
	t.Helper()
	m := Message{Type: 5, MMSI: mmsi, IMO: 9074729, Name: name, CallSign: "ABCD", ShipType: 70,
		Fields: HasIMO | HasName | HasCallSign | HasShipType}
	lines, err := Encode(m, EncodeOptions{SeqID: 3, Channel: channel})
	if err != nil || len(lines) != 2 {
		t.Fatalf("%v %q", err, lines)
	}
	return [2]string{emptySeq(t, lines[0]), emptySeq(t, lines[1])}
}

// TestGroupsInterleavedStations: two stations number their groups from
// the same id and send with an empty sequential id; their fragments
// interleave. Group id and station tell the messages apart: the station
// named on every sentence, or, when later sentences carry "g:" alone, the
// channel of the group's first sentence. Each message takes its first
// sentence's time and station, though a later sentence carries a "c:" of
// its own.
func TestGroupsInterleavedStations(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		channelB byte
		later    [2]string // tag-block fields of the later sentences
	}{
		"g: alone, two channels":     {'B', [2]string{"g:2-2-7", "g:2-2-7,c:1740808802"}},
		"station named, one channel": {'A', [2]string{"g:2-2-7,s:2573250", "g:2-2-7,s:2573135,c:1740808802"}},
	} {
		a, b := staticLines(t, 257000001, "NORDKAPP", 'A'), staticLines(t, 257000002, "VESTERALEN", c.channelB)
		got, s := decodeAll(t,
			tag("g:1-2-7,s:2573135,c:1740808800")+a[0],
			tag("g:1-2-7,s:2573250,c:1740808801000")+b[0],
			tag(c.later[0])+b[1],
			tag(c.later[1])+a[1],
		)
		if len(got) != 2 || s.Invalid() != 0 {
			t.Fatalf("%s: %d messages, %+v", name, len(got), s)
		}
		want := []struct {
			name, station string
			at            int64
		}{{"VESTERALEN", "2573250", 1740808801}, {"NORDKAPP", "2573135", 1740808800}}
		for i, w := range want {
			m := got[i]
			if m.Name != w.name || m.Station != w.station || !m.Time.Equal(time.Unix(w.at, 0)) || !m.TimeFromFeed {
				t.Errorf("%s: message %d: %q station %q at %v", name, i, m.Name, m.Station, m.Time)
			}
		}
	}
}

// TestGroupsOutOfOrder: a group's later sentence, carrying only "g:",
// arrives before the first, which names the station.
func TestGroupsOutOfOrder(t *testing.T) {
	t.Parallel()
	a := staticLines(t, 257000001, "NORDKAPP", 'A')
	got, s := decodeAll(t, tag("g:2-2-42")+a[1], tag("g:1-2-42,s:2573135,c:1740808800")+a[0])
	if len(got) != 1 || got[0].Station != "2573135" || got[0].Time.Unix() != 1740808800 || s.Pending != 0 {
		t.Fatalf("%+v %+v", got, s)
	}
}

// TestGroupsWithoutGroupFallBack: without "g:", the sentence's own fields
// (talker, channel, sequential id) tie the fragments, as before.
func TestGroupsWithoutGroupFallBack(t *testing.T) {
	t.Parallel()
	got, _ := decodeAll(t, tag("s:2573135,c:1740808800")+frag1, tag("s:2573135,c:1740808801")+frag2)
	if len(got) != 1 || got[0].Time.Unix() != 1740808800 {
		t.Fatalf("%+v", got)
	}
}

func decodeAll(t *testing.T, lines ...string) ([]Message, Stats) {
	t.Helper()
	d := NewDecoder(Options{})
	var out []Message
	for _, l := range lines {
		if m, ok := d.Decode([]byte(l)); ok {
			out = append(out, m)
		}
	}
	checkInvariants(t, d.Stats(), DefaultMaxPending)
	return out, d.Stats()
}

// TestGroupsReusedIDSequential: two stations write the same group id on
// every group; two messages received on one channel arrive mixed, their
// later sentences carrying "g:" alone. The sequential ids, which differ,
// tie each later sentence to its own first one and station.
func TestGroupsReusedIDSequential(t *testing.T) {
	t.Parallel()
	// The destination ends in the second sentence: a message joined from
	// the wrong sentences shows it.
	encode := func(mmsi uint32, name, destination string, seq uint8) []string {
		m := Message{Type: 5, MMSI: mmsi, IMO: 9074729, Name: name, CallSign: "ABCD", ShipType: 70, Destination: destination,
			Fields: HasIMO | HasName | HasCallSign | HasShipType | HasDestination}
		lines, err := Encode(m, EncodeOptions{SeqID: seq, Channel: 'A'})
		if err != nil || len(lines) != 2 {
			t.Fatalf("%v %q", err, lines)
		}
		return lines
	}
	a, b := encode(257000001, "NORDKAPP", "HAMMERFEST HURTIGRUT", 3), encode(257000002, "VESTERALEN", "BODO", 5)
	got, s := decodeAll(t,
		tag("g:1-2-9999,s:2573135,c:1740808800")+a[0],
		tag("g:1-2-9999,s:2573250,c:1740808801")+b[0],
		tag("g:2-2-9999")+a[1],
		tag("g:2-2-9999")+b[1],
	)
	if len(got) != 2 || s.Invalid() != 0 || s.ReassemblyDropped != 0 {
		t.Fatalf("%d messages, %+v", len(got), s)
	}
	for i, w := range []struct{ name, destination, station string }{{"NORDKAPP", "HAMMERFEST HURTIGRUT", "2573135"}, {"VESTERALEN", "BODO", "2573250"}} {
		if got[i].Name != w.name || got[i].Destination != w.destination || got[i].Station != w.station {
			t.Errorf("message %d: %q to %q, station %q", i, got[i].Name, got[i].Destination, got[i].Station)
		}
	}
}
