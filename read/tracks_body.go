package read

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"overwatch"
)

// The JSON and GeoJSON bodies of the tracks, written by hand: a year of
// fixes is about 100,000 objects, which encoding/json would take several
// times longer to write.

// trackBody is the answer of a track request.
type trackBody struct {
	req trackRequest
	one bool // the single-vessel form: a Track, or a Feature
}

// imos are the vessels of the answer in IMO order: every vessel asked.
func (b trackBody) imos() []overwatch.IMO {
	out := slices.Clone(b.req.filter.IMOs)
	slices.Sort(out)
	return slices.Compact(out)
}

func appendTime(buf []byte, t time.Time) []byte {
	buf = append(buf, '"')
	buf = appendRFC3339(buf, t)
	return append(buf, '"')
}

// appendRFC3339 writes t in UTC as time.RFC3339 does (whole seconds, "Z"),
// digit by digit: the layout interpreter of AppendFormat is most of a
// fix's encoding time.
func appendRFC3339(buf []byte, t time.Time) []byte {
	t = t.UTC()
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.AppendFormat(buf, time.RFC3339)
	}
	h, mi, s := t.Clock()
	return append(buf, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+mo/10), byte('0'+mo%10), '-', byte('0'+d/10), byte('0'+d%10), 'T',
		byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+s/10), byte('0'+s%10), 'Z')
}

// pow10 are the scales of appendRounded's digits.
var pow10 = [...]uint64{1, 10, 100, 1000, 1e4, 1e5, 1e6}

// appendRounded writes v rounded to digits decimals (at most 6), as
// strconv.AppendFloat(math.Round(v*p)/p, 'f', -1, 64) does, but from the
// rounded integer: below 1e15 the shortest decimal of the double nearest
// n/p is n/p itself, trailing zeros dropped.
func appendRounded(buf []byte, v float64, digits int) []byte {
	p := pow10[digits]
	r := math.Round(v * float64(p))
	if !(math.Abs(r) < 1e15) { // also NaN
		return strconv.AppendFloat(buf, r/float64(p), 'f', -1, 64)
	}
	if math.Signbit(r) {
		buf = append(buf, '-')
	}
	n := uint64(math.Abs(r))
	buf = strconv.AppendUint(buf, n/p, 10)
	frac := n % p
	if frac == 0 {
		return buf
	}
	var d [6]byte
	k := digits
	for frac%10 == 0 {
		frac /= 10
		k--
	}
	for i := k - 1; i >= 0; i-- {
		d[i] = byte('0' + frac%10)
		frac /= 10
	}
	buf = append(buf, '.')
	return append(buf, d[:k]...)
}

// appendString writes s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced.
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	if plainASCII(s) { // the usual text: a provider, a station, a status
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"')
	}
	buf = append(buf, '"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			buf = append(buf, '\\', byte(r))
		case r < 0x20:
			buf = append(buf, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		default:
			buf = utf8.AppendRune(buf, r)
		}
	}
	return append(buf, '"')
}

// plainASCII says whether s is printable ASCII with no quote or backslash:
// its JSON string is s between quotes.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// appendHeaderStart writes a track's opening members but its segments,
// which are known once its fixes are written.
func (b trackBody) appendHeaderStart(buf []byte, imo overwatch.IMO) []byte {
	buf = append(buf, `"imo_number":"`...)
	buf = append(buf, imo.String()...)
	buf = append(buf, `","start":`...)
	buf = appendTime(buf, b.req.filter.Start)
	buf = append(buf, `,"end":`...)
	buf = appendTime(buf, b.req.filter.End)
	buf = append(buf, `,"gap_hours":`...)
	return strconv.AppendFloat(buf, TrackGap.Hours(), 'f', -1, 64)
}

func appendInt(buf []byte, v int) []byte { return strconv.AppendInt(buf, int64(v), 10) }

// appendFixJSON writes one fix as a JSON object (a TrackFix of the
// OpenAPI document).
func appendFixJSON(buf []byte, f *Fix, seg int, exact bool) []byte {
	buf = append(buf, `{"timestamp":`...)
	buf = appendTime(buf, f.TS)
	if exact {
		buf = append(buf, `,"latitude":`...)
		buf = appendRounded(buf, f.Lat, 5)
		buf = append(buf, `,"longitude":`...)
		buf = appendRounded(buf, f.Lon, 5)
	} else {
		buf = append(buf, `,"latitude":null,"longitude":null`...)
	}
	buf = append(buf, `,"speed_kt":`...)
	buf = appendOptFloat(buf, f.SpeedKt)
	buf = append(buf, `,"course_deg":`...)
	buf = appendOptFloat(buf, f.CourseDeg)
	buf = append(buf, `,"heading":`...)
	if f.Heading >= 0 {
		buf = strconv.AppendInt(buf, int64(f.Heading), 10)
	} else {
		buf = append(buf, "null"...)
	}
	buf = append(buf, `,"nav_status":`...)
	if f.NavStatus != overwatch.NavStatusUndefined {
		buf = appendString(buf, overwatch.NavStatusText(f.NavStatus))
	} else {
		buf = append(buf, "null"...)
	}
	buf = append(buf, `,"source":`...)
	buf = appendOptString(buf, string(f.Source))
	buf = append(buf, `,"station":`...)
	buf = appendOptString(buf, f.Station)
	buf = append(buf, `,"received_at":`...)
	buf = appendTime(buf, f.ReceivedAt)
	buf = append(buf, `,"age_seconds":`...)
	buf = strconv.AppendInt(buf, ageSeconds(f), 10)
	buf = append(buf, `,"segment":`...)
	buf = strconv.AppendInt(buf, int64(seg), 10)
	return append(buf, '}')
}

// ageSeconds is how long after the fix its report was received.
func ageSeconds(f *Fix) int64 { return int64(f.ReceivedAt.Sub(f.TS) / time.Second) }

func appendOptFloat(buf []byte, v float64) []byte {
	if math.IsNaN(v) {
		return append(buf, "null"...)
	}
	return appendRounded(buf, v, 1)
}

func appendOptString(buf []byte, s string) []byte {
	if s == "" {
		return append(buf, "null"...)
	}
	return appendString(buf, s)
}
