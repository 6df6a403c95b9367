package ingest

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"
	"time"

	"overwatch"
)

// TestDuplicatePositionWrittenOnce checks that the same position report,
// received twice (even at different times) in one batch or across one
// flush, is written once and counted as a duplicate.
func TestDuplicatePositionWrittenOnce(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p := startPipeline(t, store, testOptions(t))
	r := classB(211000001, t0)
	again := r
	again.ReceivedAt = r.ReceivedAt.Add(3 * time.Second) // when it arrived is not part of the report
	submit(t, p, r, again)
	flush(t, p)
	submit(t, p, r) // the next batch still knows the previous one's keys
	flush(t, p)

	rows := store.positions()
	if len(rows) != 1 {
		t.Fatalf("%d positions written, want 1", len(rows))
	}
	if rows[0].DedupKey != positionKey(&r) {
		t.Errorf("DedupKey %d, want positionKey %d", rows[0].DedupKey, positionKey(&r))
	}
	if st := p.Stats(); st.Duplicates != 2 || st.Processed != 3 || st.Written != 1 {
		t.Errorf("stats %+v: want 3 processed, 2 duplicates, 1 written", st)
	}
}

// TestDifferentPositionsNotSuppressed checks that reports differing in any
// part of their key (time, position, MMSI, source, message type) are all
// written: the same report from two providers is two reports.
func TestDifferentPositionsNotSuppressed(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p := startPipeline(t, store, testOptions(t))
	base := classB(211000001, t0)
	later, moved, other, provider, msg := base, base, base, base, base
	later.TS = base.TS.Add(time.Second)
	moved.Lat += 0.001
	other.MMSI = 211000002
	provider.Source = overwatch.SourceAISStream
	msg.Type = 19
	submit(t, p, base, later, moved, other, provider, msg)
	flush(t, p)
	if n := len(store.positions()); n != 6 {
		t.Errorf("%d positions written, want 6", n)
	}
	if st := p.Stats(); st.Duplicates != 0 {
		t.Errorf("Duplicates = %d, want 0", st.Duplicates)
	}
}

// TestDuplicateStaticWrittenOnce checks the same for static reports: a
// repeated type 5 is written once and counted; one with a new destination
// is a new report.
func TestDuplicateStaticWrittenOnce(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p := startPipeline(t, store, testOptions(t))
	s := static5(244000001, validIMO(931234), "ALPHA", t0)
	changed := s
	changed.Has |= HasDestination
	changed.Destination = "ROTTERDAM"
	submit(t, p, s, s, changed)
	flush(t, p)

	rows := store.statics()
	if len(rows) != 2 || rows[0].Destination != "" || rows[1].Destination != "ROTTERDAM" {
		t.Fatalf("static rows %+v: want the report once, then the changed one", rows)
	}
	if st := p.Stats(); st.Duplicates != 1 {
		t.Errorf("Duplicates = %d, want 1", st.Duplicates)
	}
}

// TestKeyFields checks that every field of a report's key changes the key,
// and that the reception time does not.
func TestKeyFields(t *testing.T) {
	t.Parallel()
	pos := classA(244000001, t0)
	st := static5(244000001, validIMO(931234), "ALPHA", t0)
	st.Has |= HasDimensions | HasDraught | HasDestination | HasETA
	st.ToBow, st.ToStern, st.ToPort, st.ToStarboard, st.Draught = 100, 20, 10, 10, 7.5
	st.Destination, st.ETA = "ROTTERDAM", t0.Add(48*time.Hour)
	changes := map[string]func(r *Report){
		"source": func(r *Report) { r.Source = overwatch.SourceAISStream }, "mmsi": func(r *Report) { r.MMSI++ },
		"type": func(r *Report) { r.Type++ }, "ts": func(r *Report) { r.TS = r.TS.Add(time.Nanosecond) },
		"has": func(r *Report) { r.Has ^= HasHeading },
	}
	posChanges := map[string]func(r *Report){
		"lat": func(r *Report) { r.Lat += 1e-6 }, "lon": func(r *Report) { r.Lon += 1e-6 },
		"sog": func(r *Report) { r.SOG += 0.1 }, "cog": func(r *Report) { r.COG += 0.1 },
		"heading": func(r *Report) { r.Heading++ }, "status": func(r *Report) { r.NavStatus++ },
	}
	staticChanges := map[string]func(r *Report){
		"part": func(r *Report) { r.Part++ }, "imo": func(r *Report) { r.IMO++ },
		"name": func(r *Report) { r.Name += "X" }, "call": func(r *Report) { r.CallSign += "X" },
		"shiptype": func(r *Report) { r.ShipType++ }, "bow": func(r *Report) { r.ToBow++ },
		"stern": func(r *Report) { r.ToStern++ }, "port": func(r *Report) { r.ToPort++ },
		"starboard": func(r *Report) { r.ToStarboard++ }, "draught": func(r *Report) { r.Draught += 0.1 },
		"destination": func(r *Report) { r.Destination += "X" }, "eta": func(r *Report) { r.ETA = r.ETA.Add(time.Minute) },
	}
	check := func(kind string, base Report, key func(*Report) uint64, sets ...map[string]func(*Report)) {
		received := base
		received.ReceivedAt = base.ReceivedAt.Add(time.Hour)
		if key(&received) != key(&base) {
			t.Errorf("%s key depends on the reception time", kind)
		}
		for _, set := range sets {
			for name, change := range set {
				r := base
				change(&r)
				if key(&r) == key(&base) {
					t.Errorf("%s key ignores %s", kind, name)
				}
			}
		}
	}
	check("position", pos, positionKey, changes, posChanges)
	check("static", st, staticKey, changes, staticChanges)
}

// TestPositionKeyIsFNV1a checks that a position key is the MMSI over the
// 64-bit FNV-1a of the report's fields folded to 32 bits, a hash that does
// not change between processes, so a batch replayed after a restart
// carries the keys it was spooled with.
func TestPositionKeyIsFNV1a(t *testing.T) {
	t.Parallel()
	r := classA(244000001, t0)
	h := fnv.New64a()
	u64 := func(v uint64) { h.Write(binary.LittleEndian.AppendUint64(nil, v)) }
	h.Write([]byte(r.Source))
	u64(uint64(len(r.Source)))
	for _, v := range []uint64{uint64(r.MMSI), uint64(r.Type), uint64(r.TS.UnixNano()), math.Float64bits(r.Lat),
		math.Float64bits(r.Lon), math.Float64bits(r.SOG), math.Float64bits(r.COG), uint64(r.Heading),
		uint64(r.NavStatus), uint64(r.Has)} {
		u64(v)
	}
	sum := h.Sum64()
	if got, want := positionKey(&r), uint64(r.MMSI)<<32|(sum^sum>>32)&0xffffffff; got != want {
		t.Errorf("positionKey = %x, want the MMSI over the folded FNV-1a %x", got, want)
	}
}
