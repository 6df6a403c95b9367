package ais

import (
	"fmt"
	"testing"
	"time"
)

// The two fragments of gpsd's sample type 5 (EVER DIADEM).
const (
	frag1 = "!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C"
	frag2 = "!AIVDM,2,2,1,A,88888888880,2*25"
)

// fragment builds fragment num of count with a payload, sequential id and
// channel, checksum included.
func fragLine(count, num int, seq, channel, payload string, fill int) string {
	return withSum(fmt.Sprintf("!AIVDM,%d,%d,%s,%s,%s,%d", count, num, seq, channel, payload, fill))
}

// checkInvariants verifies that the counters add up.
func checkInvariants(t testing.TB, s Stats, maxPending int) {
	t.Helper()
	if s.Lines != s.Blank+s.Comments+s.OtherNMEA+s.Garbage+s.BadTagBlock+s.BadChecksum+s.Sentences {
		t.Errorf("lines do not add up: %+v", s)
	}
	if s.Sentences != s.Messages+s.Fragments+s.DuplicateFragments+s.BadPayload {
		t.Errorf("sentences do not add up: %+v", s)
	}
	var byType uint64
	for _, n := range s.ByType {
		byType += n
	}
	if byType != s.Messages || s.ByType[0] != 0 || s.Unsupported > s.Messages {
		t.Errorf("messages by type do not add up: %+v", s)
	}
	if s.Pending > uint64(maxPending) || s.Pending > s.Fragments {
		t.Errorf("pending %d, max %d: %+v", s.Pending, maxPending, s)
	}
}

type feed struct {
	t   *testing.T
	d   *Decoder
	got []Message
}

func newFeed(t *testing.T, opts Options) *feed { return &feed{t: t, d: NewDecoder(opts)} }

func (f *feed) lines(ls ...string) *feed {
	for _, l := range ls {
		if m, ok := f.d.Decode([]byte(l)); ok {
			f.got = append(f.got, m)
		}
	}
	return f
}

func (f *feed) want(n int, check func(Stats) bool) {
	f.t.Helper()
	s := f.d.Stats()
	checkInvariants(f.t, s, f.d.opts.MaxPending)
	if len(f.got) != n || !check(s) {
		f.t.Errorf("%d messages, want %d; %+v", len(f.got), n, s)
	}
}

func TestReassemblyInOrder(t *testing.T) {
	t.Parallel()
	f := newFeed(t, Options{}).lines(frag1, frag2)
	f.want(1, func(s Stats) bool { return s.Fragments == 1 && s.Messages == 1 && s.Pending == 0 })
	if m := f.got[0]; m.Name != "EVER DIADEM" || m.Destination != "NEW YORK" || m.Channel != 'A' {
		t.Errorf("%+v", m)
	}
}

func TestReassemblyOutOfOrder(t *testing.T) {
	t.Parallel()
	f := newFeed(t, Options{}).lines(frag2, pos1, frag1)
	f.want(2, func(s Stats) bool { return s.Messages == 2 && s.Pending == 0 })
	if f.got[1].Name != "EVER DIADEM" {
		t.Errorf("%+v", f.got[1])
	}
	// Three fragments, last first.
	p := "55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp888888888880"
	parts := []string{fragLine(3, 3, "5", "B", p[48:], 2), fragLine(3, 1, "5", "B", p[:24], 0), fragLine(3, 2, "5", "B", p[24:48], 0)}
	f = newFeed(t, Options{}).lines(parts...)
	f.want(1, func(s Stats) bool { return s.Fragments == 2 })
	if len(f.got) == 1 && f.got[0].Name != "EVER DIADEM" {
		t.Errorf("%+v", f.got[0])
	}
}

func TestReassemblyDuplicate(t *testing.T) {
	t.Parallel()
	f := newFeed(t, Options{}).lines(frag1, frag1, frag2, frag2)
	f.want(1, func(s Stats) bool { return s.DuplicateFragments == 1 && s.Pending == 1 })
	// The lone repeated second fragment waits as an orphan, then is
	// never joined to a first fragment that comes too late.
	lines := []string{frag2}
	for i := 0; i < reorderWindow+1; i++ {
		lines = append(lines, pos1)
	}
	f = newFeed(t, Options{}).lines(append(lines, frag1, frag2)...)
	f.want(reorderWindow+2, func(s Stats) bool { return s.ReassemblyDropped == 1 && s.Pending == 0 })
}

// TestReassemblySequenceReuse: a first fragment replaced by another with
// the same sequential id (its second fragment was lost) starts afresh.
func TestReassemblySequenceReuse(t *testing.T) {
	t.Parallel()
	other := fragLine(2, 1, "1", "A", "55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp0", 0)
	f := newFeed(t, Options{}).lines(other, frag1, frag2)
	f.want(1, func(s Stats) bool { return s.ReassemblyDropped == 1 })
	if len(f.got) == 1 && f.got[0].Destination != "NEW YORK" {
		t.Errorf("%+v", f.got[0])
	}
}

// TestReassemblyKeys: talker, channel and sequential id keep interleaved
// messages apart.
func TestReassemblyKeys(t *testing.T) {
	t.Parallel()
	b1 := fragLine(2, 1, "1", "B", "55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8", 0)
	b2 := fragLine(2, 2, "1", "B", "88888888880", 2)
	s1 := withSum("!BSVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0")
	s2 := withSum("!BSVDM,2,2,1,A,88888888880,2")
	f := newFeed(t, Options{}).lines(frag1, b1, s1, frag2, s2, b2)
	f.want(3, func(s Stats) bool { return s.Messages == 3 && s.Pending == 0 })
	if len(f.got) == 3 && (f.got[0].Channel != 'A' || f.got[1].Talker != [2]byte{'B', 'S'} || f.got[2].Channel != 'B') {
		t.Errorf("%+v", f.got)
	}
	// Tag block groups are part of the key.
	f = newFeed(t, Options{}).lines(tag("g:1-2-1")+frag1, tag("g:1-2-2")+frag1, tag("g:2-2-1")+frag2)
	f.want(1, func(s Stats) bool { return s.Pending == 1 })
}

// TestReassemblyTimeoutClock ages fragments without feed time by the
// ingest clock.
func TestReassemblyTimeoutClock(t *testing.T) {
	t.Parallel()
	now := time.Unix(1700000000, 0)
	f := newFeed(t, Options{Now: func() time.Time { return now }}).lines(frag1)
	now = now.Add(11 * time.Second)
	f.lines(frag2)
	f.want(0, func(s Stats) bool { return s.ReassemblyTimeouts == 1 && s.Pending == 1 })
	// Within the timeout it completes; a custom timeout is honoured.
	f = newFeed(t, Options{ReassemblyTimeout: time.Minute, Now: func() time.Time { return now }}).lines(frag1)
	now = now.Add(59 * time.Second)
	f.lines(frag2)
	f.want(1, func(s Stats) bool { return s.ReassemblyTimeouts == 0 })
	// The periodic sweep drops stale partial messages.
	f = newFeed(t, Options{Now: func() time.Time { return now }}).lines(frag1)
	now = now.Add(time.Hour)
	for i := 0; i < 1024; i++ {
		f.lines("")
	}
	f.want(0, func(s Stats) bool { return s.ReassemblyTimeouts == 1 && s.Pending == 0 })
}

// TestReassemblyTimeoutFeed ages fragments with feed time by feed time,
// whatever the ingest clock says.
func TestReassemblyTimeoutFeed(t *testing.T) {
	t.Parallel()
	frozen := func() time.Time { return time.Unix(0, 0) }
	f := newFeed(t, Options{Now: frozen}).lines(tag("c:1700000000")+frag1, tag("c:1700000011")+frag2)
	f.want(0, func(s Stats) bool { return s.ReassemblyTimeouts == 1 })
	f = newFeed(t, Options{Now: frozen}).lines(tag("c:1700000000")+frag1, tag("c:1700000009")+frag2)
	f.want(1, func(s Stats) bool { return s.ReassemblyTimeouts == 0 })
	if len(f.got) == 1 && f.got[0].Time.Unix() != 1700000000 {
		t.Errorf("time of a reassembled message: %v", f.got[0].Time)
	}
	// A second fragment without time takes the first one's.
	f = newFeed(t, Options{}).lines("1700000000 "+frag1, frag2)
	f.want(1, func(s Stats) bool { return true })
	if len(f.got) == 1 && f.got[0].Time.Unix() != 1700000000 {
		t.Errorf("inherited time: %v", f.got[0].Time)
	}
}

// TestReassemblyEviction: at most MaxPending partial messages; the oldest
// goes first.
func TestReassemblyEviction(t *testing.T) {
	t.Parallel()
	f := newFeed(t, Options{MaxPending: 2})
	for _, seq := range []string{"1", "2", "3"} {
		f.lines(fragLine(2, 1, seq, "A", "55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8", 0))
	}
	f.want(0, func(s Stats) bool { return s.ReassemblyEvictions == 1 && s.Pending == 2 })
	// The first fragment of seq 1 was evicted: its second waits alone
	// (evicting seq 2's); seq 3 completes.
	f.lines(fragLine(2, 2, "1", "A", "88888888880", 2))
	f.lines(fragLine(2, 2, "3", "A", "88888888880", 2))
	f.want(1, func(s Stats) bool { return s.ReassemblyEvictions == 2 && s.Pending == 1 })
}

// TestReassemblyBadPayload: a message whose joined payload is invalid is
// counted once, on its last sentence.
func TestReassemblyBadPayload(t *testing.T) {
	t.Parallel()
	f := newFeed(t, Options{}).lines(fragLine(2, 1, "4", "A", "5", 0), fragLine(2, 2, "4", "A", "0", 0))
	f.want(0, func(s Stats) bool { return s.BadPayload == 1 && s.Fragments == 1 && s.Pending == 0 })
	big := make([]byte, 200)
	for i := range big {
		big[i] = '0'
	}
	f = newFeed(t, Options{}).lines(fragLine(2, 1, "4", "A", string(big), 0), fragLine(2, 2, "4", "A", string(big), 0))
	f.want(0, func(s Stats) bool { return s.BadPayload == 1 && s.Pending == 0 })
}
