package ais

import (
	"bytes"
	"time"
)

// Options configure a Decoder; zero values take the defaults.
type Options struct {
	// ReassemblyTimeout is how long the fragments of a multi-sentence
	// message wait for the rest (default 10 s): measured in feed time when
	// the first fragment carried one, else by the Now clock.
	ReassemblyTimeout time.Duration
	// MaxPending bounds the partial messages kept (default 1,024); when
	// full, expired ones are dropped, then the oldest is evicted.
	MaxPending int
	// Now is the ingest clock used to age fragments without feed time
	// (default time.Now).
	Now func() time.Time
}

// Default option values.
const (
	DefaultReassemblyTimeout = 10 * time.Second
	DefaultMaxPending        = 1024
)

// Stats counts what a Decoder has seen. Every line lands in exactly one of
// Blank, Comments, OtherNMEA, Garbage, BadTagBlock, BadChecksum and
// Sentences; every
// sentence (AIVDM/AIVDO with a valid checksum) in exactly one of Messages
// (it completed a message), Fragments (kept, waiting for the rest of its
// message), DuplicateFragments and BadPayload.
type Stats struct {
	Lines     uint64 // lines given to Decode
	Sentences uint64 // AIVDM/AIVDO sentences with a valid checksum
	Messages  uint64 // messages completed, of any type 1-27
	Blank     uint64 // empty lines
	Comments  uint64 // lines starting with '#'
	// OtherNMEA: other NMEA sentences ($GPRMC, $PGHP, ...), whatever
	// their checksum (only a $PGHP's is checked, before its time is used).
	OtherNMEA uint64
	Garbage   uint64 // anything else, and malformed time prefixes
	// BadTagBlock: lines whose tag block is not closed or has a malformed
	// time ("c:") or group ("g:") or parameter, and lines whose tag block
	// has a wrong or missing checksum in front of anything but an AIS
	// sentence with a valid checksum (see TagBlockSumMismatch).
	BadTagBlock uint64
	BadChecksum uint64 // AIS sentences with a bad or missing checksum
	// BadPayload: sentences with malformed fields or payload, and messages
	// rejected when complete (bad armour, too short, invalid type or part).
	BadPayload uint64
	// Fragments: sentences kept as part of a message not yet complete.
	Fragments uint64
	// DuplicateFragments: fragments received twice, ignored.
	DuplicateFragments uint64
	// ReassemblyTimeouts, ReassemblyEvictions, ReassemblyDropped: partial
	// messages discarded because they timed out, because MaxPending were
	// already kept (the oldest goes), or because a different fragment with
	// the same number arrived (the sequential id was reused).
	ReassemblyTimeouts  uint64
	ReassemblyEvictions uint64
	ReassemblyDropped   uint64
	// ByType counts completed messages by type (index 0 unused).
	ByType [28]uint64
	// Unsupported counts completed messages of types not decoded field by
	// field (see Decoded).
	Unsupported uint64
	// Pending is the number of partial messages kept now.
	Pending uint64
	// TagBlockSumWithoutGroup, TagBlockSumMismatch, TagBlockSumMissing:
	// lines kept although a tag block's checksum is wrong, because the
	// sentence behind it has a valid checksum of its own (the line counts
	// as a sentence as usual): the checksum is that of the block without
	// its "g:" parameter (a receiver that adds the group after summing),
	// it is otherwise wrong, or there is none. A line whose sentence fails
	// its own checksum, or is no AIS sentence, still counts in BadTagBlock.
	TagBlockSumWithoutGroup uint64
	TagBlockSumMismatch     uint64
	TagBlockSumMissing      uint64
}

// Invalid is the number of lines rejected as invalid: garbage, bad tag
// blocks, bad sentence checksums and bad payloads (InvalidByReason splits
// it). Comments, blank lines and other NMEA sentences are not invalid.
func (s Stats) Invalid() uint64 {
	return s.Garbage + s.BadTagBlock + s.BadChecksum + s.BadPayload
}

// Reasons a line is invalid, as InvalidByReason names them (and the
// service's metrics label them).
const (
	InvalidGarbage  = "garbage"
	InvalidTagBlock = "tag_block"
	InvalidChecksum = "checksum"
	InvalidPayload  = "payload"
)

// InvalidByReason returns the invalid lines by reason.
func (s Stats) InvalidByReason() map[string]uint64 {
	return map[string]uint64{
		InvalidGarbage: s.Garbage, InvalidTagBlock: s.BadTagBlock,
		InvalidChecksum: s.BadChecksum, InvalidPayload: s.BadPayload,
	}
}

// Reasons a tag block's checksum is wrong on a line that is kept, as
// TagBlockSumByReason names them (and the service's metrics label them).
const (
	TagBlockSumWithoutGroup = "without_group" // the sum of the block without its "g:"
	TagBlockSumMismatch     = "mismatch"      // any other wrong sum
	TagBlockSumMissing      = "missing"       // no sum
)

// TagBlockSumByReason returns the lines kept with a wrong tag-block
// checksum, by reason.
func (s Stats) TagBlockSumByReason() map[string]uint64 {
	return map[string]uint64{
		TagBlockSumWithoutGroup: s.TagBlockSumWithoutGroup, TagBlockSumMismatch: s.TagBlockSumMismatch,
		TagBlockSumMissing: s.TagBlockSumMissing,
	}
}

// Decoder turns the lines of one feed into messages. Not safe for
// concurrent use.
type Decoder struct {
	opts     Options
	stats    Stats
	bits     bitBuf
	pend     reassembler
	stations map[string]string
	lastFeed time.Time // feed time of the latest line that had one
	// GateHouse $PGHP time waiting for the next message
	ghp    time.Time
	hasGHP bool
	// the recent tag-block groups that named a station or a time, for
	// their later sentences, which often carry only "g:"
	groups groupRing
}

// maxStations bounds the interned station names.
const maxStations = 4096

// NewDecoder returns a Decoder with opts (defaults filled in).
func NewDecoder(opts Options) *Decoder {
	if opts.ReassemblyTimeout <= 0 {
		opts.ReassemblyTimeout = DefaultReassemblyTimeout
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = DefaultMaxPending
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Decoder{opts: opts, pend: newReassembler(opts.MaxPending), stations: make(map[string]string)}
}

// Stats returns a copy of the counters.
func (d *Decoder) Stats() Stats {
	s := d.stats
	s.Pending = uint64(d.pend.len())
	return s
}

// intern returns b as a string, shared between lines with the same value.
func (d *Decoder) intern(b []byte) string {
	if s, ok := d.stations[string(b)]; ok {
		return s
	}
	if len(d.stations) >= maxStations {
		clear(d.stations)
	}
	s := string(b)
	d.stations[s] = s
	return s
}

// Decode reads one line (with or without its line end) and returns the
// message it completes, if any. It never keeps a reference to line.
func (d *Decoder) Decode(line []byte) (Message, bool) {
	d.stats.Lines++
	if d.stats.Lines&1023 == 0 && d.pend.len() > 0 {
		d.sweep()
	}
	line = trimSpace(line)
	if len(line) == 0 {
		d.stats.Blank++
		return Message{}, false
	}
	if line[0] == '#' {
		d.stats.Comments++
		return Message{}, false
	}
	var env envelope
	rest := line
	if isDigit(rest[0]) {
		var ok bool
		if rest, ok = parsePrefix(rest, &env); !ok {
			d.stats.Garbage++
			return Message{}, false
		}
	}
	slip := parsedOK // the first wrong tag-block checksum of the line
	for len(rest) > 0 && rest[0] == '\\' {
		var r int
		rest, r = parseTagBlock(rest, &env)
		switch {
		case r == parsedOK:
		case r >= tagSumWithoutGroup:
			if slip == parsedOK {
				slip = r
			}
		default:
			d.stats.BadTagBlock++
			return Message{}, false
		}
	}
	var s sentence
	result := parsedNotAIS
	if len(rest) > 0 {
		result = parseSentence(rest, &s)
	}
	if slip != parsedOK {
		// A wrong tag-block checksum costs the line only when the
		// sentence's own checksum does not vouch for it.
		if result != parsedOK && result != parsedMalformed {
			d.stats.BadTagBlock++
			return Message{}, false
		}
		d.countSlip(slip)
	}
	switch {
	case len(rest) == 0:
		d.stats.Garbage++
		return Message{}, false
	case result == parsedNotAIS:
		d.other(rest)
		return Message{}, false
	case result == parsedBadSum:
		d.stats.BadChecksum++
		return Message{}, false
	case result == parsedMalformed:
		d.stats.Sentences++
		d.stats.BadPayload++
		return Message{}, false
	}
	d.stats.Sentences++
	d.stamp(&s, &env)
	if s.count == 1 {
		d.bits.reset(len(s.payload))
		if !d.bits.appendArmoured(s.payload, s.fill) {
			d.stats.BadPayload++
			return Message{}, false
		}
		var station string
		if len(env.station) > 0 {
			station = d.intern(env.station)
		}
		return d.finish(&s, env.time, env.hasTime, station)
	}
	i := d.addFragment(&s, &env)
	if i < 0 {
		return Message{}, false
	}
	p := &d.pend.slots[i]
	ok := d.assemble(p)
	t, hasTime, station := p.time, p.hasTime, p.station
	d.pend.remove(i)
	if !ok {
		d.stats.BadPayload++
		return Message{}, false
	}
	return d.finish(&s, t, hasTime, station)
}

// countSlip counts a line kept despite a wrong tag-block checksum.
func (d *Decoder) countSlip(r int) {
	switch r {
	case tagSumWithoutGroup:
		d.stats.TagBlockSumWithoutGroup++
	case tagSumMissing:
		d.stats.TagBlockSumMissing++
	default:
		d.stats.TagBlockSumMismatch++
	}
}

// stamp completes env from the sentence's USCG suffix, the pending
// GateHouse time and the tag-block group, and notes the latest feed time.
func (d *Decoder) stamp(s *sentence, env *envelope) {
	parseUSCGSuffix(s.suffix, env)
	if d.hasGHP {
		// A $PGHP line stamps the message whose first sentence follows it.
		if !env.hasTime && s.num == 1 {
			env.time, env.hasTime = d.ghp, true
		}
		d.hasGHP = false
	}
	if env.hasGroup {
		d.groups.complete(env, s.channel, s.seq)
	}
	if env.hasTime {
		d.lastFeed = env.time
	}
}

// finish decodes d.bits into a message with the envelope of s.
func (d *Decoder) finish(s *sentence, t time.Time, hasTime bool, station string) (Message, bool) {
	var m Message
	if err := decodeBits(&d.bits, &m); err != nil {
		d.stats.BadPayload++
		return Message{}, false
	}
	m.Talker, m.Channel, m.Own = s.talker, s.channel, s.own
	m.Time, m.TimeFromFeed, m.Station = t, hasTime, station
	d.stats.Messages++
	d.stats.ByType[m.Type]++
	if !Decoded(m.Type) {
		d.stats.Unsupported++
	}
	return m, true
}

var pghp = []byte("$PGHP,")

// other counts a line that is not an AIS sentence; a valid GateHouse
// $PGHP sentence sets the time of the next message.
func (d *Decoder) other(s []byte) {
	if !isNMEALike(s) {
		d.stats.Garbage++
		return
	}
	d.stats.OtherNMEA++
	if bytes.HasPrefix(s, pghp) && checkSum(s) == len(s) {
		if t, ok := parsePGHP(s); ok {
			d.ghp, d.hasGHP = t, true
		}
	}
}
