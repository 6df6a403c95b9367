package ais

import (
	"bytes"
	"time"
)

// fragKey identifies the fragments of one multi-sentence message. When the
// sentences carry a group ("g:"): the group id, the station that numbered
// it, the channel and the sequential id, whatever the talker (NMEA 4.10
// feeds leave the id empty and number groups per station, and the group id
// then tells messages apart; some feeds write the same group id on every
// group, and the sequential id and channel, the same on every fragment of a
// message, then do). Else talker, channel, sequential id and fragment count
// (IEC 61162-1).
type fragKey struct {
	talker   [2]byte
	channel  byte
	own      bool
	seq      uint8
	total    uint8
	hasGroup bool
	group    uint32
	station  uint64 // FNV-1a of the group's station name
}

// keyOf returns the reassembly key of a fragment.
func keyOf(s *sentence, env *envelope) fragKey {
	if env.hasGroup {
		return fragKey{channel: s.channel, own: s.own, seq: s.seq, total: s.count, hasGroup: true, group: env.group, station: hashStation(env.station)}
	}
	return fragKey{talker: s.talker, channel: s.channel, own: s.own, seq: s.seq, total: s.count}
}

// hashStation is the 64-bit FNV-1a hash of a station name.
func hashStation(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// fragment locates one received fragment's payload in partial.buf.
type fragment struct {
	off, n uint16
	fill   uint8
}

// partial is a message whose fragments are not all in yet.
type partial struct {
	key     fragKey
	got     uint16 // bit i set: fragment i+1 received
	have    uint8  // number of fragments received
	frags   [9]fragment
	buf     []byte // the payloads, in arrival order
	feed    bool   // true: aged by feed time, else by ingest clock
	at      time.Time
	time    time.Time // message time from the feed, if any fragment had one
	hasTime bool
	station string
	last    uint64 // Stats.Sentences when the latest fragment came
	prev    int32  // older entry, -1 none
	next    int32  // newer entry, -1 none
}

// reassembler keeps at most max partial messages in a fixed pool, linked
// oldest first so that eviction is O(1).
type reassembler struct {
	slots []partial
	index map[fragKey]int32
	free  []int32
	head  int32 // oldest
	tail  int32 // newest
}

func newReassembler(max int) reassembler {
	r := reassembler{
		slots: make([]partial, max),
		index: make(map[fragKey]int32, max),
		free:  make([]int32, max),
		head:  -1,
		tail:  -1,
	}
	for i := range r.free {
		r.free[i] = int32(max - 1 - i)
	}
	return r
}

func (r *reassembler) len() int { return len(r.index) }

// remove unlinks slot i and returns it to the free list.
func (r *reassembler) remove(i int32) {
	p := &r.slots[i]
	if p.prev >= 0 {
		r.slots[p.prev].next = p.next
	} else {
		r.head = p.next
	}
	if p.next >= 0 {
		r.slots[p.next].prev = p.prev
	} else {
		r.tail = p.prev
	}
	delete(r.index, p.key)
	buf := p.buf[:0]
	*p = partial{buf: buf}
	r.free = append(r.free, i)
}

// rekey files slot i under key.
func (r *reassembler) rekey(i int32, key fragKey) {
	delete(r.index, r.slots[i].key)
	r.slots[i].key = key
	r.index[key] = i
}

// insert takes a free slot for key, links it newest; the caller has made
// room.
func (r *reassembler) insert(key fragKey) int32 {
	i := r.free[len(r.free)-1]
	r.free = r.free[:len(r.free)-1]
	p := &r.slots[i]
	p.key = key
	p.prev, p.next = r.tail, -1
	if r.tail >= 0 {
		r.slots[r.tail].next = i
	} else {
		r.head = i
	}
	r.tail = i
	r.index[key] = i
	return i
}

// expired reports whether p is older than the timeout. A partial stamped
// by the feed is aged by feed time: against the time of the current line
// (env, when it has one; a difference either way counts, files are not
// always in time order) or else the latest feed time seen. Others are
// aged by the ingest clock.
func (d *Decoder) expired(p *partial, env *envelope, now func() time.Time) bool {
	if p.feed {
		ref := d.lastFeed
		if env != nil && env.hasTime {
			ref = env.time
		}
		age := ref.Sub(p.at)
		return age > d.opts.ReassemblyTimeout || age < -d.opts.ReassemblyTimeout
	}
	return now().Sub(p.at) > d.opts.ReassemblyTimeout
}

// sweep drops every expired partial message.
func (d *Decoder) sweep() {
	r := &d.pend
	var now time.Time
	haveNow := false
	clock := func() time.Time {
		if !haveNow {
			now, haveNow = d.opts.Now(), true
		}
		return now
	}
	for i := r.head; i >= 0; {
		next := r.slots[i].next
		if d.expired(&r.slots[i], nil, clock) {
			r.remove(i)
			d.stats.ReassemblyTimeouts++
		}
		i = next
	}
}

// reorderWindow is how many sentences later a message's first fragment
// may still arrive after the ones that follow it. Feeds merged from several
// receivers swap neighbouring lines; an older orphan is a message whose
// first fragment was lost, and joining it to a new first fragment with the
// same sequential id would forge a message.
const reorderWindow = 8

// addFragment files one fragment of a multi-sentence message. It returns
// the slot of the completed message (the caller decodes and removes it), or
// -1.
func (d *Decoder) addFragment(s *sentence, env *envelope) int32 {
	r := &d.pend
	key := keyOf(s, env)
	bit := uint16(1) << (s.num - 1)
	i, ok := r.index[key]
	if !ok && key.hasGroup && len(env.station) > 0 {
		// Later sentences of the group came first, without a station:
		// they wait under the group id alone.
		anon := key
		anon.station = hashStation(nil)
		if i, ok = r.index[anon]; ok {
			r.rekey(i, key)
		}
	}
	if ok && d.expired(&r.slots[i], env, d.opts.Now) {
		r.remove(i)
		d.stats.ReassemblyTimeouts++
		ok = false
	}
	if ok && r.slots[i].got&1 == 0 && d.stats.Sentences-r.slots[i].last > reorderWindow {
		// Fragments without their first one, from long ago: lost
		// predecessors, not a reordering. Never join them.
		r.remove(i)
		d.stats.ReassemblyDropped++
		ok = false
	}
	if ok {
		p := &r.slots[i]
		if p.got&bit != 0 {
			f := p.frags[s.num-1]
			if int(f.fill) == s.fill && bytes.Equal(p.buf[f.off:f.off+f.n], s.payload) {
				d.stats.DuplicateFragments++
				return -1
			}
			// Same key, different content: a new message reusing the
			// sequential id; the old one will never complete.
			r.remove(i)
			d.stats.ReassemblyDropped++
			ok = false
		} else if len(p.buf)+len(s.payload) > maxPayloadChars {
			r.remove(i)
			d.stats.BadPayload++
			return -1
		}
	}
	if !ok {
		if r.len() >= d.opts.MaxPending {
			d.sweep()
		}
		if r.len() >= d.opts.MaxPending {
			r.remove(r.head)
			d.stats.ReassemblyEvictions++
		}
		i = r.insert(key)
		p := &r.slots[i]
		if env.hasTime {
			p.feed, p.at = true, env.time
		} else {
			p.at = d.opts.Now()
		}
	}
	p := &r.slots[i]
	p.frags[s.num-1] = fragment{off: uint16(len(p.buf)), n: uint16(len(s.payload)), fill: uint8(s.fill)}
	p.buf = append(p.buf, s.payload...)
	p.got |= bit
	p.have++
	p.last = d.stats.Sentences
	// The message's time is its first sentence's; the others may carry a
	// later one of their own, which stands in while the first is missing.
	if env.hasTime && (!p.hasTime || s.num == 1) {
		p.time, p.hasTime = env.time, true
	}
	if p.station == "" && len(env.station) > 0 {
		p.station = d.intern(env.station)
	}
	if p.have == s.count {
		return i
	}
	d.stats.Fragments++
	return -1
}

// assemble de-armours the fragments of a complete partial message, in
// fragment order, into d.bits.
func (d *Decoder) assemble(p *partial) bool {
	d.bits.reset(len(p.buf))
	for k := 0; k < int(p.key.total); k++ {
		f := p.frags[k]
		if !d.bits.appendArmoured(p.buf[f.off:f.off+f.n], int(f.fill)) {
			return false
		}
	}
	return true
}
