package bulk

import (
	"bufio"
	"compress/gzip"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// rowWriter writes a dataset's rows in one format: Write takes the row's
// values (the scan destinations, by kind), Close ends the file.
type rowWriter interface {
	Write(vals []any) error
	Close() error
}

// flushAt is the size at which a text writer hands its buffer on.
const flushAt = 64 << 10

// newRowWriter starts a file of the format on w.
func newRowWriter(f Format, d Dataset, w io.Writer) (rowWriter, error) {
	switch f {
	case CSVGzip:
		z, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
		if err != nil {
			return nil, err
		}
		a := newAsyncWriter(z)
		return newCSVWriter(d, a, a), nil
	case Parquet:
		return newParquetWriter(d, w), nil
	case GeoJSON:
		return newGeoJSONWriter(d, w), nil
	}
	return newCSVWriter(d, w, nil), nil
}

// csvWriter writes RFC 4180 CSV (a header row, CRLF line endings, empty
// for null), crew-typed text formula-safe.
type csvWriter struct {
	cols   []Column
	w      io.Writer
	closer io.Closer // the gzip stream, closed at the end; nil for plain CSV
	buf    []byte
}

func newCSVWriter(d Dataset, w io.Writer, closer io.Closer) *csvWriter {
	c := &csvWriter{cols: d.Columns(), w: w, closer: closer, buf: make([]byte, 0, flushAt+4096)}
	for i, col := range c.cols {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = append(c.buf, col.Name...)
	}
	c.buf = append(c.buf, '\r', '\n')
	return c
}

func (c *csvWriter) Write(vals []any) error {
	b := c.buf
	for i, col := range c.cols {
		if i > 0 {
			b = append(b, ',')
		}
		switch col.Kind {
		case String, Text:
			b = appendCSVText(b, *vals[i].(*string), col.Kind == Text)
		case Int:
			b = strconv.AppendInt(b, *vals[i].(*int64), 10)
		case ID:
			if v := *vals[i].(*int64); v != 0 {
				b = strconv.AppendInt(b, v, 10)
			}
		case Float:
			if v := *vals[i].(*float64); !math.IsNaN(v) && !math.IsInf(v, 0) {
				b = strconv.AppendFloat(b, v, 'f', -1, 64)
			}
		case Time:
			if v := *vals[i].(*int64); v != 0 {
				b = appendTime(b, v)
			}
		}
	}
	c.buf = append(b, '\r', '\n')
	if len(c.buf) >= flushAt {
		return c.flush()
	}
	return nil
}

func (c *csvWriter) flush() error {
	_, err := c.w.Write(c.buf)
	c.buf = c.buf[:0]
	return err
}

func (c *csvWriter) Close() error {
	if err := c.flush(); err != nil {
		return err
	}
	if c.closer != nil {
		return c.closer.Close()
	}
	return nil
}

// appendCSVText appends a field, quoted when it holds a comma, a quote or
// a line break; crew-typed text that a spreadsheet would read as a formula
// (starting with = + - @, a tab or a CR) is prefixed with an apostrophe.
func appendCSVText(b []byte, s string, crew bool) []byte {
	if crew && s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		s = "'" + s
	}
	quote := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// appendTime appends Unix seconds as RFC 3339 UTC, digit by digit.
func appendTime(b []byte, unix int64) []byte {
	days := unix / 86400
	secs := unix % 86400
	if secs < 0 {
		secs += 86400
		days--
	}
	y, m, d := civil(days)
	b = append4(b, y)
	b = append(b, '-')
	b = append2(b, m)
	b = append(b, '-')
	b = append2(b, d)
	b = append(b, 'T')
	b = append2(b, int(secs/3600))
	b = append(b, ':')
	b = append2(b, int(secs/60%60))
	b = append(b, ':')
	b = append2(b, int(secs%60))
	return append(b, 'Z')
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days_from_civil inverse).
func civil(z int64) (y, m, d int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	y = int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return y, m, d
}

func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
func append4(b []byte, v int) []byte {
	return append(b, byte('0'+v/1000%10), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

// geoJSONWriter writes a FeatureCollection: a Point feature per row at its
// latitude and longitude (a null geometry when unknown), the other
// columns its properties.
type geoJSONWriter struct {
	cols     []Column
	lat, lon int
	w        io.Writer
	buf      []byte
	n        int64
}

func newGeoJSONWriter(d Dataset, w io.Writer) *geoJSONWriter {
	g := &geoJSONWriter{cols: d.Columns(), w: w, buf: make([]byte, 0, flushAt+4096)}
	g.lat, g.lon = d.coordinates()
	g.buf = append(g.buf, `{"type":"FeatureCollection","features":[`...)
	return g
}

func (g *geoJSONWriter) Write(vals []any) error {
	b := g.buf
	if g.n > 0 {
		b = append(b, ',')
	}
	g.n++
	b = append(b, "\n"+`{"type":"Feature","geometry":`...)
	lat, lon := *vals[g.lat].(*float64), *vals[g.lon].(*float64)
	if math.IsNaN(lat) || math.IsNaN(lon) {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"type":"Point","coordinates":[`...)
		b = strconv.AppendFloat(b, lon, 'f', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, lat, 'f', -1, 64)
		b = append(b, "]}"...)
	}
	b = append(b, `,"properties":{`...)
	first := true
	for i, col := range g.cols {
		if i == g.lat || i == g.lon {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, col.Name...)
		b = append(b, '"', ':')
		switch col.Kind {
		case String, Text:
			b = appendJSONString(b, *vals[i].(*string))
		case Int:
			b = strconv.AppendInt(b, *vals[i].(*int64), 10)
		case ID:
			if v := *vals[i].(*int64); v != 0 {
				b = strconv.AppendInt(b, v, 10)
			} else {
				b = append(b, "null"...)
			}
		case Float:
			if v := *vals[i].(*float64); !math.IsNaN(v) && !math.IsInf(v, 0) {
				b = strconv.AppendFloat(b, v, 'f', -1, 64)
			} else {
				b = append(b, "null"...)
			}
		case Time:
			if v := *vals[i].(*int64); v != 0 {
				b = append(b, '"')
				b = appendTime(b, v)
				b = append(b, '"')
			} else {
				b = append(b, "null"...)
			}
		}
	}
	g.buf = append(b, "}}"...)
	if len(g.buf) >= flushAt {
		_, err := g.w.Write(g.buf)
		g.buf = g.buf[:0]
		return err
	}
	return nil
}

func (g *geoJSONWriter) Close() error {
	g.buf = append(g.buf, "\n]}\n"...)
	_, err := g.w.Write(g.buf)
	return err
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes
// U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// bufferedFile is the file a worker writes, buffered.
func bufferedFile(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 256<<10) }
