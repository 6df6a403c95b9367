package history

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// JSON values of the JSON-lines formats. Each field takes whatever type
// the archive wrote (gpsdio writes implied_speed as a string, ints and
// floats mix, null is "not available") without failing the line: a value
// of the wrong kind is a bad field, not a bad row.

// jnum is a number written as a JSON number or string; null, "" and
// "None" are absent.
type jnum struct {
	v       float64
	ok, bad bool
}

// UnmarshalJSON never fails: unreadable values set bad.
func (n *jnum) UnmarshalJSON(b []byte) error {
	*n = jnum{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			n.bad = true
			return nil
		}
		if s == "" || s == "None" || s == "null" || s == "NaN" {
			return nil
		}
		b = []byte(s)
	}
	v, ok := parseFloat(b)
	if !ok {
		v, ok = slowFloat(b) // exponents
	}
	n.v, n.ok, n.bad = v, ok, !ok
	return nil
}

// int returns the value as an integer when it is one.
func (n jnum) int() (int64, bool) {
	if !n.ok || n.v != math.Trunc(n.v) || math.Abs(n.v) > 1<<53 {
		return 0, false
	}
	return int64(n.v), true
}

// get returns the value, counting a bad one.
func (n jnum) get(q *quirks) (float64, bool) {
	if n.bad {
		q.add(rBadField)
	}
	return n.v, n.ok
}

// jtext is a string; null is absent, a number is taken as its text.
type jtext struct {
	s       string
	ok, bad bool
}

// UnmarshalJSON never fails: objects, arrays and booleans set bad.
func (t *jtext) UnmarshalJSON(b []byte) error {
	*t = jtext{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	switch b[0] {
	case '"':
		if json.Unmarshal(b, &t.s) != nil {
			t.bad = true
			return nil
		}
		t.ok = true
	case '{', '[', 't', 'f':
		t.bad = true
	default:
		t.s, t.ok = string(b), true
	}
	return nil
}

// bytes returns the text, counting a bad value.
func (t jtext) bytes(q *quirks) []byte {
	if t.bad {
		q.add(rBadField)
	}
	return []byte(t.s)
}

// mmsiOf reads an MMSI given as a JSON number or string.
func mmsiOf(n jnum) (uint32, bool) {
	v, ok := n.int()
	if !ok || v < 0 || !validMMSI(uint64(v)) {
		return 0, false
	}
	return uint32(v), true
}

// jsonTime reads an ISO 8601 time, or unix seconds.
func jsonTime(t jtext) (int64, bool) {
	if !t.ok {
		return 0, false
	}
	if ts, ok := parseISO([]byte(t.s)); ok {
		return ts, true
	}
	f, err := strconv.ParseFloat(t.s, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1e11 {
		return 0, false
	}
	ts := int64(f)
	if y := time.Unix(ts, 0).UTC().Year(); y < minYear || y > maxYear {
		return 0, false
	}
	return ts, true
}

// decodeObject decodes a line that must be a JSON object.
func decodeObject(line []byte, v any) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	return json.Unmarshal(line, v) == nil
}
