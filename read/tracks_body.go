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
	buf = t.UTC().AppendFormat(buf, time.RFC3339)
	return append(buf, '"')
}

func appendRounded(buf []byte, v float64, digits int) []byte {
	p := math.Pow(10, float64(digits))
	return strconv.AppendFloat(buf, math.Round(v*p)/p, 'f', -1, 64)
}

// appendString writes s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced.
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
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
