package ais

import "time"

// envelope is what a line says about its sentence besides the sentence:
// receive time, station and tag-block group.
type envelope struct {
	time    time.Time
	hasTime bool
	station []byte // points into the line
	group   uint32 // tag block "g:" group id
	// groupNum and groupTotal: this sentence's number in the group, and
	// the group's number of sentences
	groupNum, groupTotal uint16
	hasGroup             bool
}

// parseUnix reads a decimal unix time "<digits>[.<digits>]" at the start
// of s and returns it with the rest of s. The unit follows the magnitude
// of the integer part: below 1e11 seconds, below 1e14 milliseconds, below
// 1e17 microseconds, else nanoseconds. ok is false without digits or with
// more than 19 of them.
func parseUnix(s []byte) (t time.Time, rest []byte, ok bool) {
	var v int64
	i := 0
	for i < len(s) && isDigit(s[i]) {
		if i == 19 || v > (1<<63-1-9)/10 {
			return t, s, false
		}
		v = v*10 + int64(s[i]-'0')
		i++
	}
	if i == 0 {
		return t, s, false
	}
	var frac int64 // nanoseconds of a fraction of a second
	if i < len(s) && s[i] == '.' {
		i++
		scale := int64(100000000)
		start := i
		for i < len(s) && isDigit(s[i]) {
			frac += int64(s[i]-'0') * scale
			scale /= 10
			i++
		}
		if i == start {
			return t, s, false
		}
	}
	switch {
	case v < 1e11:
		t = time.Unix(v, frac)
	case v < 1e14:
		t = time.Unix(v/1e3, (v%1e3)*1e6+frac/1e3)
	case v < 1e17:
		t = time.Unix(v/1e6, (v%1e6)*1e3+frac/1e6)
	default:
		t = time.Unix(v/1e9, v%1e9)
	}
	return t.UTC(), s[i:], true
}

// parsePrefix reads a "<unix-time> " prefix (go-ais style
// "1550303566167726840 !AIVDM,...") and returns the rest of the line.
func parsePrefix(line []byte, env *envelope) ([]byte, bool) {
	t, rest, ok := parseUnix(line)
	if !ok || len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
		return line, false
	}
	env.time, env.hasTime = t, true
	return trimSpace(rest), true
}

// parseUSCGSuffix reads the old USCG fields after the checksum,
// ",b003669710,1272412827" or ",d-107,S1234,t..,T..,r003669945,1272412827":
// the last all-digit field is the unix time in seconds, the first field
// starting with 'r' or 'b' names the station.
func parseUSCGSuffix(suffix []byte, env *envelope) {
	if len(suffix) < 2 || suffix[0] != ',' {
		return
	}
	var station []byte
	var last []byte
	for len(suffix) > 0 && suffix[0] == ',' {
		suffix = suffix[1:]
		i := 0
		for i < len(suffix) && suffix[i] != ',' {
			i++
		}
		f := suffix[:i]
		suffix = suffix[i:]
		if station == nil && len(f) > 1 && (f[0] == 'r' || f[0] == 'b') {
			station = f
		}
		last = f
	}
	if station != nil && env.station == nil {
		env.station = station
	}
	if env.hasTime || len(last) == 0 {
		return
	}
	for _, c := range last {
		if !isDigit(c) {
			return
		}
	}
	if t, rest, ok := parseUnix(last); ok && len(rest) == 0 {
		env.time, env.hasTime = t, true
	}
}

// parsePGHP reads a GateHouse timestamp sentence
// "$PGHP,1,<year>,<month>,<day>,<hour>,<min>,<sec>,<ms>,...*hh" whose
// checksum has been verified.
func parsePGHP(s []byte) (time.Time, bool) {
	// s starts with "$PGHP,"
	var v [8]int
	k := 0
	i := 6
	for k < len(v) {
		start := i
		n := 0
		for i < len(s) && isDigit(s[i]) && i-start < 6 {
			n = n*10 + int(s[i]-'0')
			i++
		}
		if i == start || i >= len(s) || (s[i] != ',' && s[i] != '*') {
			return time.Time{}, false
		}
		v[k] = n
		k++
		i++
		if s[i-1] == '*' {
			break
		}
	}
	if k < len(v) || v[0] != 1 || v[1] < 1 || v[2] < 1 || v[2] > 12 || v[3] < 1 || v[3] > 31 ||
		v[4] > 23 || v[5] > 59 || v[6] > 60 || v[7] > 999 {
		return time.Time{}, false
	}
	return time.Date(v[1], time.Month(v[2]), v[3], v[4], v[5], v[6], v[7]*1e6, time.UTC), true
}
