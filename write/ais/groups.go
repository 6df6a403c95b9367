package ais

import "time"

// groupRingSize is how many recent tag-block groups a Decoder remembers:
// the groups of several stations interleave, but a group's sentences
// arrive within a few lines of each other.
const groupRingSize = 64

// maxStationLen bounds the station name kept for a group.
const maxStationLen = 32

// groupRing remembers the station and time of the latest tag-block groups,
// so that a group's later sentences, whose tag blocks often carry only
// "g:", take the station and time of its first (NMEA 4.10 feeds put "s:"
// and "c:" on the first sentence of a group only). Stations number their
// groups independently: a sentence without a station belongs to the
// latest group with its id that still lacks that sentence and whose
// sequential message id is not another one, received on the same channel
// if there is one (two stations rarely use the same id at once, and then
// on the same channel only a station name or the sequential id would tell
// them apart; a feed that writes one group id on every group is told apart
// by the sequential id).
type groupRing struct {
	entries [groupRingSize]groupEntry
	next    int
}

type groupEntry struct {
	used     bool
	channel  byte  // of the sentence that opened the entry
	seq      uint8 // its sequential message id, noSeq when empty
	id       uint32
	total    uint16
	got      uint64 // bit k-1: sentence k of the group seen (k <= 64)
	hasTime  bool
	time     time.Time
	nStation uint8
	station  [maxStationLen]byte
}

// open reports whether the group still waits for sentence num.
func (e *groupEntry) open(num uint16) bool {
	if e.got == 1<<e.total-1 && e.total < 64 {
		return false
	}
	return num > 64 || e.got&(1<<(num-1)) == 0
}

func (e *groupEntry) mark(num uint16) {
	if num <= 64 {
		e.got |= 1 << (num - 1)
	}
}

// complete fills in the station and time env lacks from an earlier
// sentence of its group, and remembers what env names for the sentences
// that follow. A later sentence with a "c:" of its own keeps it: the
// message takes its first sentence's time (see addFragment).
func (g *groupRing) complete(env *envelope, channel byte, seq uint8) {
	if len(env.station) == 0 {
		if e := g.find(env.group, env.groupNum, channel, seq); e != nil {
			e.mark(env.groupNum)
			env.station = e.station[:e.nStation]
			if !env.hasTime && e.hasTime {
				env.time, env.hasTime = e.time, true
			}
			return
		}
	}
	if len(env.station) == 0 && !env.hasTime {
		return
	}
	e := &g.entries[g.next]
	g.next = (g.next + 1) % groupRingSize
	*e = groupEntry{used: true, channel: channel, seq: seq, id: env.group, total: env.groupTotal, hasTime: env.hasTime, time: env.time}
	e.mark(env.groupNum)
	e.nStation = uint8(copy(e.station[:], env.station))
	env.station = e.station[:e.nStation]
}

// find returns the latest entry of group id that still waits for sentence
// num and has no other sequential id than seq, preferring one opened on
// channel, or nil.
func (g *groupRing) find(id uint32, num uint16, channel byte, seq uint8) *groupEntry {
	var other *groupEntry
	for k := 1; k <= groupRingSize; k++ {
		e := &g.entries[(g.next-k+groupRingSize)%groupRingSize]
		if !e.used {
			break
		}
		if e.id == id && e.open(num) && (e.seq == seq || e.seq == noSeq || seq == noSeq) {
			if e.channel == channel {
				return e
			}
			if other == nil {
				other = e
			}
		}
	}
	return other
}
