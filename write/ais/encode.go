package ais

import (
	"strconv"
	"time"
)

// EncodeOptions shape the sentences of an encoded message.
type EncodeOptions struct {
	// Talker is the two-letter talker (default "AI"). Message.Own selects
	// VDO instead of VDM.
	Talker string
	// Channel is 'A' or 'B' (default 'A').
	Channel byte
	// SeqID is the sequential message id (0-9, taken modulo 10) of
	// multi-sentence messages.
	SeqID uint8
	// TagBlock precedes the sentences with an NMEA 4.0 tag block: "c:"
	// with Time in unix seconds (when Time is not zero), "s:" with Station
	// (when not empty) and, for multi-sentence messages, "g:" groups with
	// GroupID (0 means SeqID+1).
	TagBlock bool
	Time     time.Time
	Station  string
	GroupID  uint32
	// MaxPayloadChars is the longest payload of one sentence (default 60).
	// Types 5 and 19 always take two sentences (as transmitters do); a
	// payload that fits in one sentence is then cut in halves.
	MaxPayloadChars int
}

// Encode turns a message of type 1, 2, 3, 5, 18, 19, 24 or 27 into its
// complete NMEA lines (see EncodePayload for how values are written).
func Encode(m Message, opts EncodeOptions) ([]string, error) {
	payload, fill, err := EncodePayload(&m)
	if err != nil {
		return nil, err
	}
	return sentences(payload, fill, m.Type == 5 || m.Type == 19, m.Own, opts)
}

// EncodePosition encodes a position report: types 1, 2, 3, 18 and 27 (by
// m.Type).
func EncodePosition(m Message, opts EncodeOptions) ([]string, error) {
	switch m.Type {
	case 1, 2, 3, 18, 27:
		return Encode(m, opts)
	}
	return nil, ErrEncodeType
}

// EncodeStatic encodes a static report: types 5, 19 and 24 (part A or B by
// m.PartNumber).
func EncodeStatic(m Message, opts EncodeOptions) ([]string, error) {
	switch m.Type {
	case 5, 19, 24:
		return Encode(m, opts)
	}
	return nil, ErrEncodeType
}

// validStation reports a station name that fits a tag block field.
func validStation(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c > '~' || c == ',' || c == '*' || c == '\\' || c == '!' || c == '$' {
			return false
		}
	}
	return true
}

// nmeaSum is the XOR of the bytes of s.
func nmeaSum(s []byte) byte {
	var x byte
	for _, c := range s {
		x ^= c
	}
	return x
}

const hexDigits = "0123456789ABCDEF"

func appendSum(b []byte, sum byte) []byte {
	return append(b, '*', hexDigits[sum>>4], hexDigits[sum&15])
}

// sentences cuts an armoured payload into complete lines.
func sentences(payload string, fill int, twoSlots, own bool, o EncodeOptions) ([]string, error) {
	talker := o.Talker
	if talker == "" {
		talker = "AI"
	}
	if len(talker) != 2 || !isUpper(talker[0]) || !isUpper(talker[1]) {
		return nil, ErrEncodeOptions
	}
	channel := o.Channel
	if channel == 0 {
		channel = 'A'
	}
	if channel != 'A' && channel != 'B' {
		return nil, ErrEncodeOptions
	}
	if o.TagBlock && !validStation(o.Station) {
		return nil, ErrEncodeOptions
	}
	per := o.MaxPayloadChars
	if per <= 0 {
		per = 60
	}
	count := (len(payload) + per - 1) / per
	if twoSlots && count < 2 {
		count = 2
		per = (len(payload) + 1) / 2
	}
	if count > 9 {
		return nil, ErrEncodeOptions
	}
	seq := o.SeqID % 10
	group := o.GroupID
	if group == 0 {
		group = uint32(seq) + 1
	}
	kind := "VDM"
	if own {
		kind = "VDO"
	}
	out := make([]string, 0, count)
	buf := make([]byte, 0, 128)
	for k := 1; k <= count; k++ {
		part := payload[(k-1)*per : min(k*per, len(payload))]
		buf = buf[:0]
		if o.TagBlock {
			buf = appendTagBlock(buf, o, k, count, group)
		}
		start := len(buf)
		buf = append(buf, '!')
		buf = append(buf, talker...)
		buf = append(buf, kind...)
		buf = append(buf, ',', byte('0'+count), ',', byte('0'+k), ',')
		if count > 1 {
			buf = append(buf, byte('0'+seq))
		}
		buf = append(buf, ',', channel, ',')
		buf = append(buf, part...)
		f := 0
		if k == count {
			f = fill
		}
		buf = append(buf, ',', byte('0'+f))
		buf = appendSum(buf, nmeaSum(buf[start+1:]))
		out = append(out, string(buf))
	}
	return out, nil
}

// appendTagBlock writes "\g:k-n-id,s:station,c:unix*hh\" (each field only
// when it applies; c: and s: on the first sentence only).
func appendTagBlock(buf []byte, o EncodeOptions, k, count int, group uint32) []byte {
	buf = append(buf, '\\')
	start := len(buf)
	sep := func() {
		if len(buf) > start {
			buf = append(buf, ',')
		}
	}
	if count > 1 {
		buf = append(buf, "g:"...)
		buf = strconv.AppendInt(buf, int64(k), 10)
		buf = append(buf, '-')
		buf = strconv.AppendInt(buf, int64(count), 10)
		buf = append(buf, '-')
		buf = strconv.AppendUint(buf, uint64(group), 10)
	}
	if k == 1 {
		if o.Station != "" {
			sep()
			buf = append(buf, "s:"...)
			buf = append(buf, o.Station...)
		}
		if !o.Time.IsZero() {
			sep()
			buf = append(buf, "c:"...)
			buf = strconv.AppendInt(buf, o.Time.Unix(), 10)
		}
	}
	if len(buf) == start {
		return buf[:start-1] // nothing to say: no tag block
	}
	sum := nmeaSum(buf[start:])
	buf = appendSum(buf, sum)
	return append(buf, '\\')
}

// Encoder encodes messages for one simulated feed, rotating the
// sequential id (0-9) and the tag-block group id of multi-sentence
// messages. Not safe for concurrent use.
type Encoder struct {
	opts  EncodeOptions
	seq   uint8
	group uint32
}

// NewEncoder returns an Encoder using opts for every message (SeqID and
// GroupID are managed by the Encoder).
func NewEncoder(opts EncodeOptions) *Encoder { return &Encoder{opts: opts} }

// Encode encodes m stamped with t (the tag block "c:" when the options ask
// for a tag block; zero t leaves it out).
func (e *Encoder) Encode(m Message, t time.Time) ([]string, error) {
	o := e.opts
	o.Time = t
	o.SeqID = e.seq
	e.group = e.group%4294967294 + 1 // 1 .. 2^32-1, never 0
	o.GroupID = e.group
	lines, err := Encode(m, o)
	if err == nil && len(lines) > 1 {
		e.seq = (e.seq + 1) % 10
	}
	return lines, err
}
