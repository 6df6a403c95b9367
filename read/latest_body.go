package read

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"
	"time"

	"overwatch"
)

// The public lookup's 200 body is the busiest answer of the service: it is
// appended field by field into a pooled buffer, byte for byte what
// encoding/json makes of LatestPosition (latest_body_test.go holds them
// equal), with the parts that never change per publisher encoded once.

// latestBody holds the constant parts of the body for one publisher.
type latestBody struct {
	// cite is cite_as around the IMO and the timestamp, each part already
	// escaped for a JSON string.
	citeHead, citeTail []byte
	// attribution is `,"attribution":{"name":…,"url":…,"cite_as":"`: what
	// follows freshness_seconds up to cite_as's text.
	attribution []byte
	// end is cite_as's closing quote, the licence and the closing braces.
	end []byte
}

// errNotFinite is the encoding of a coordinate JSON cannot hold (NaN or
// an infinity), as encoding/json refuses it.
var errNotFinite = errors.New("json: unsupported value: a position that is not a finite number")

func newLatestBody(pub Publisher) *latestBody {
	quoted := func(s string) []byte { b, _ := json.Marshal(s); return b }
	inner := func(s string) []byte { b := quoted(s); return b[1 : len(b)-1] }
	b := &latestBody{
		// The IMO (seven digits) and the timestamp (RFC 3339) need no
		// escaping, so escaping the parts around them equals escaping
		// the whole sentence.
		citeHead: inner(pub.Name + ". AIS position of IMO "),
		citeTail: inner(". " + pub.URL + ". Licensed " + License + "."),
	}
	b.attribution = append(b.attribution, `,"attribution":{"name":`...)
	b.attribution = append(b.attribution, quoted(pub.Name)...)
	b.attribution = append(b.attribution, `,"url":`...)
	b.attribution = append(b.attribution, quoted(pub.URL)...)
	b.attribution = append(b.attribution, `,"cite_as":"`...)
	b.end = append(b.end, `","license":`...)
	b.end = append(b.end, quoted(License)...)
	b.end = append(b.end, "}}"...)
	return b
}

// bodyBuffers are the buffers bodies are appended into; a body is about
// 600 bytes.
var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendLatest appends the body of row, asked for as imo (seven digits),
// at now, to dst.
func (lb *latestBody) appendLatest(dst []byte, row *overwatch.LatestRow, imo string, now time.Time) ([]byte, error) {
	if row.Lat == nil || row.Lon == nil || !isFinite(*row.Lat) || !isFinite(*row.Lon) ||
		!finiteOrNil(row.SpeedKt) || !finiteOrNil(row.CourseDeg) || !finiteOrNil(row.DraftM) {
		return dst, errNotFinite
	}
	ts := row.TS.UTC()
	b := append(dst, `{"@context":"https://schema.org","@type":"GeoCoordinates","imo_number":`...)
	b = appendJSONString(b, imo)
	b = append(b, `,"vessel_name":`...)
	b = appendJSONStringOrNull(b, row.VesselName)
	b = append(b, `,"vessel_type":`...)
	b = appendJSONStringOrNull(b, row.VesselType)
	b = append(b, `,"flag":`...)
	b = appendJSONStringOrNull(b, row.Flag)
	b = append(b, `,"latitude":`...)
	b = appendJSONFloat(b, *row.Lat)
	b = append(b, `,"longitude":`...)
	b = appendJSONFloat(b, *row.Lon)
	b = append(b, `,"speed_kt":`...)
	b = appendJSONFloatOrNull(b, row.SpeedKt)
	b = append(b, `,"course_deg":`...)
	b = appendJSONFloatOrNull(b, row.CourseDeg)
	b = append(b, `,"draft_m":`...)
	b = appendJSONFloatOrNull(b, row.DraftM)
	b = append(b, `,"destination":`...)
	b = appendJSONStringOrNull(b, row.Destination)
	b = append(b, `,"nav_status":`...)
	b = appendJSONStringOrNull(b, row.NavStatus)
	b = append(b, `,"timestamp":"`...)
	tsAt := len(b)
	b = ts.AppendFormat(b, time.RFC3339)
	tsEnd := len(b)
	b = append(b, `","source":`...)
	if row.Source == overwatch.SourceNone {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, string(row.Source))
	}
	b = append(b, `,"freshness_seconds":`...)
	b = strconv.AppendInt(b, int64(math.Max(0, math.Floor(now.Sub(row.TS).Seconds()))), 10)
	b = append(b, lb.attribution...)
	b = append(b, lb.citeHead...)
	b = append(b, imo...)
	b = append(b, " reported at "...)
	b = append(b, b[tsAt:tsEnd]...)
	b = append(b, lb.citeTail...)
	b = append(b, lb.end...)
	return b, nil
}

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func finiteOrNil(p *float64) bool { return p == nil || isFinite(*p) }

// appendJSONString appends s as encoding/json writes it: text that needs
// no escaping (printable ASCII but the quote, the backslash and the HTML
// characters <, > and &) as it is, anything else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendJSONStringOrNull(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// appendJSONFloat appends a finite f as encoding/json writes a float64:
// the shortest decimal that reads back to f, in exponent form below 1e-6
// and from 1e21, the exponent without a leading zero.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func appendJSONFloatOrNull(b []byte, f *float64) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	return appendJSONFloat(b, *f)
}
