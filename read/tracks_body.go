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
	req    trackRequest
	one    bool // the single-vessel form: a Track, or a Feature
	tracks map[overwatch.IMO]*shapedTrack
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

// appendHeader writes a track's opening members.
func (b trackBody) appendHeader(buf []byte, imo overwatch.IMO, t *shapedTrack) []byte {
	buf = append(buf, `"imo_number":"`...)
	buf = append(buf, imo.String()...)
	buf = append(buf, `","start":`...)
	buf = appendTime(buf, b.req.filter.Start)
	buf = append(buf, `,"end":`...)
	buf = appendTime(buf, b.req.filter.End)
	buf = append(buf, `,"gap_hours":`...)
	buf = strconv.AppendFloat(buf, TrackGap.Hours(), 'f', -1, 64)
	segments := 0
	if t != nil && len(t.segs) > 0 {
		segments = int(t.segs[len(t.segs)-1])
	}
	buf = append(buf, `,"segments":`...)
	buf = strconv.AppendInt(buf, int64(segments), 10)
	return buf
}

// json is the JSON body: a Track, or {"tracks": [Track, ...]}.
func (b trackBody) json() []byte {
	buf := make([]byte, 0, 4096)
	if !b.one {
		buf = append(buf, `{"tracks":[`...)
	}
	for i, imo := range b.imos() {
		if i > 0 {
			buf = append(buf, ',')
		}
		t := b.tracks[imo]
		buf = append(buf, '{')
		buf = b.appendHeader(buf, imo, t)
		buf = append(buf, `,"fixes":[`...)
		if t != nil {
			for j := range t.fixes {
				if j > 0 {
					buf = append(buf, ',')
				}
				buf = appendFixJSON(buf, &t.fixes[j], int(t.segs[j]), b.req.exact)
			}
		}
		buf = append(buf, "]}"...)
	}
	if !b.one {
		buf = append(buf, "]}"...)
	}
	return buf
}

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

// geoJSON is the GeoJSON body: a Feature per vessel whose geometry is a
// MultiLineString, one line per segment (a segment of one fix repeats it,
// as a line needs two positions), with the fixes' times in the
// "timestamps" property, line by line; null for callers without exact
// coordinates. The single-vessel form is the Feature alone.
func (b trackBody) geoJSON() []byte {
	buf := make([]byte, 0, 4096)
	if !b.one {
		buf = append(buf, `{"type":"FeatureCollection","features":[`...)
	}
	for i, imo := range b.imos() {
		if i > 0 {
			buf = append(buf, ',')
		}
		t := b.tracks[imo]
		if t == nil {
			t = &shapedTrack{}
		}
		buf = append(buf, `{"type":"Feature","geometry":`...)
		if !b.req.exact || len(t.fixes) == 0 {
			buf = append(buf, "null"...)
		} else {
			buf = append(buf, `{"type":"MultiLineString","coordinates":[`...)
			buf = eachSegment(buf, t, func(buf []byte, f *Fix) []byte {
				buf = append(buf, '[')
				buf = appendRounded(buf, f.Lon, 5)
				buf = append(buf, ',')
				buf = appendRounded(buf, f.Lat, 5)
				return append(buf, ']')
			})
			buf = append(buf, "]}"...)
		}
		buf = append(buf, `,"properties":{`...)
		buf = b.appendHeader(buf, imo, t)
		buf = append(buf, `,"fixes":`...)
		buf = strconv.AppendInt(buf, int64(len(t.fixes)), 10)
		buf = append(buf, `,"timestamps":[`...)
		buf = eachSegment(buf, t, func(buf []byte, f *Fix) []byte { return appendTime(buf, f.TS) })
		buf = append(buf, "]}}"...)
	}
	if !b.one {
		buf = append(buf, "]}"...)
	}
	return buf
}

// eachSegment writes the track's segments as arrays of items, an item
// repeated in a segment of one fix.
func eachSegment(buf []byte, t *shapedTrack, item func([]byte, *Fix) []byte) []byte {
	for j := 0; j < len(t.fixes); {
		k := j
		for k < len(t.fixes) && t.segs[k] == t.segs[j] {
			k++
		}
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		for i := j; i < k; i++ {
			if i > j {
				buf = append(buf, ',')
			}
			buf = item(buf, &t.fixes[i])
		}
		if k-j == 1 {
			buf = append(buf, ',')
			buf = item(buf, &t.fixes[j])
		}
		buf = append(buf, ']')
		j = k
	}
	return buf
}
