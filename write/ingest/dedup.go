package ingest

import (
	"math"
	"time"
)

// FNV-1a, 64 bit: deterministic across processes and machines, so a batch
// replayed from the spool after a restart carries the same keys.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

type hasher uint64

func newHasher() hasher { return fnvOffset }

func (h hasher) u64(v uint64) hasher {
	for i := 0; i < 8; i++ {
		h ^= hasher(byte(v >> (8 * i)))
		h *= fnvPrime
	}
	return h
}

func (h hasher) str(s string) hasher {
	for i := 0; i < len(s); i++ {
		h ^= hasher(s[i])
		h *= fnvPrime
	}
	return h.u64(uint64(len(s)))
}

func (h hasher) f64(v float64) hasher { return h.u64(math.Float64bits(v)) }

func (h hasher) time(t time.Time) hasher { return h.u64(uint64(t.UnixNano())) }

// positionKey identifies one position report of one source: the same
// report received twice (a retried batch, a feed that repeats itself) has
// the same key; the same report from two providers has two. Its high 32
// bits are the MMSI and its low 32 bits the FNV-1a hash of the report
// folded to 32 bits: the key ends the positions' sorting key (imo, ts,
// dedup_key), so the positions without an IMO, which share one IMO (0),
// lie by vessel within each second, and a vessel's keys share their high
// half; both compress (35.3 → 27.6 bytes per stored position on the AISHub
// capture). Two reports of one vessel in one second from one source
// collide with a chance of 2^-32.
func positionKey(r *Report) uint64 {
	h := newHasher().str(string(r.Source)).u64(uint64(r.MMSI)).u64(uint64(r.Type)).time(r.TS).
		f64(r.Lat).f64(r.Lon).f64(r.SOG).f64(r.COG).u64(uint64(r.Heading)).u64(uint64(r.NavStatus)).u64(uint64(r.Has))
	return uint64(r.MMSI)<<32 | uint64(uint32(h^h>>32))
}

// staticKey identifies one static report of one source.
func staticKey(r *Report) uint64 {
	h := newHasher().str(string(r.Source)).u64(uint64(r.MMSI)).u64(uint64(r.Type)).u64(uint64(r.Part)).time(r.TS).
		u64(uint64(r.IMO)).str(r.Name).str(r.CallSign).u64(uint64(r.ShipType)).
		u64(uint64(r.ToBow)<<48 | uint64(r.ToStern)<<32 | uint64(r.ToPort)<<16 | uint64(r.ToStarboard)).
		f64(r.Draught).str(r.Destination).time(r.ETA).u64(uint64(r.Has))
	return uint64(h)
}
