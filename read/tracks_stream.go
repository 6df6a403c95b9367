package read

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// Streaming of the track answers: the rows are written to the response as
// the store returns them, in every format, and a store error in the middle
// of a body aborts the connection (the chunked body is never terminated),
// so that a client cannot take a cut body for a complete one.

// streamBody answers with the body write produces, sent chunked as it is
// written. An error from write (a store error after the headers were
// sent) ends the body without its final chunk and closes the connection.
// release frees what write reads; it is called once, when the body was
// written or abandoned.
func streamBody(c *fiber.Ctx, write func(w *bufio.Writer) error, release func()) {
	c.Context().SetBodyStream(&bodyStream{write: write, release: release}, -1)
}

// bodyStream is a response body that fasthttp writes by calling WriteTo
// on its connection's writer (each Write a chunk, sent at once): no
// goroutine, no pipe, no 4 KB copies. Read, for any other reader of the
// body, runs write into a pipe.
type bodyStream struct {
	write   func(w *bufio.Writer) error
	release func()
	once    sync.Once
	used    bool
	pr      *io.PipeReader
}

// SupportsBodyWriteTo tells fasthttp that WriteTo may replace Read.
func (b *bodyStream) SupportsBodyWriteTo() bool { return true }

// WriteTo writes the whole body to w, in writes of about
// trackFlushBytes, each in the socket while the next is encoded.
func (b *bodyStream) WriteTo(w io.Writer) (int64, error) {
	if b.used {
		return 0, errors.New("read: a streamed body is read once")
	}
	b.used = true
	defer b.once.Do(b.release)
	aw := newAheadWriter(w, trackFlushBytes)
	bw := bufio.NewWriterSize(aw, trackFlushBytes)
	err := b.write(bw)
	if err == nil {
		err = bw.Flush()
	}
	n, werr := aw.Close()
	if err == nil {
		err = werr
	}
	return n, err
}

// Read implements io.Reader.
func (b *bodyStream) Read(p []byte) (int, error) {
	if b.pr == nil {
		if b.used {
			return 0, errors.New("read: a streamed body is read once")
		}
		b.used = true
		pr, pw := io.Pipe()
		b.pr = pr
		go func() {
			w := bufio.NewWriterSize(pw, trackFlushBytes)
			err := b.write(w)
			if err == nil {
				err = w.Flush()
			}
			b.once.Do(b.release)   // before the reader sees the end
			pw.CloseWithError(err) //nolint:errcheck // nil closes the body as complete
		}()
	}
	return b.pr.Read(p)
}

// Close releases the body: a writer still running stops at its next
// write.
func (b *bodyStream) Close() error {
	if b.pr != nil {
		return b.pr.Close()
	}
	b.once.Do(b.release)
	return nil
}

// streamTracks answers with the fixes in the request's format, written as
// the store returns them: the query is opened here (so that its failure is
// still an error status), the rows are read and written by the response's
// stream, under their own deadline, and never held whole (a segment is,
// when simplifying; the GeoJSON timestamps are, as formatted text, since
// they follow the geometry).
func streamTracks(c *fiber.Ctx, store TrackStore, r trackRequest, one bool) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), TrackTimeout)
	rows, err := store.Fixes(ctx, r.filter)
	if err != nil {
		cancel()
		return err
	}
	var enc trackEncoder
	switch r.format {
	case "csv":
		name := "tracks"
		if len(r.filter.IMOs) == 1 {
			name = "track-" + r.filter.IMOs[0].String()
		}
		c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="overwatch-`+name+`-`+r.filter.End.Format("20060102")+`.csv"`)
		enc = &csvTrackEncoder{}
	case "geojson":
		c.Set(fiber.HeaderContentType, "application/geo+json")
		enc = newJSONTrackEncoder(r, one, true)
	default:
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		enc = newJSONTrackEncoder(r, one, false)
	}
	streamBody(c, func(w *bufio.Writer) error { return encodeTracks(w, rows, r, enc) },
		func() { rows.Close(); cancel() })
	return nil
}

// trackEncoder writes the kept fixes of a track answer into a buffer.
type trackEncoder interface {
	begin(buf []byte) []byte
	fix(buf []byte, f *Fix, seg int) []byte
	end(buf []byte) []byte
}

// encodeTracks reads the rows through the shaper into enc, sending the
// buffer on to w whenever it holds trackFlushBytes. It returns the store's
// error, or the client's (gone), if either ended the rows early.
func encodeTracks(w *bufio.Writer, rows FixRows, r trackRequest, enc trackEncoder) error {
	buf := make([]byte, 0, trackFlushBytes+4096)
	buf = enc.begin(buf)
	var werr error
	sh := newShaper(r, func(f *Fix, seg int) {
		if werr != nil {
			return
		}
		buf = enc.fix(buf, f, seg)
		if len(buf) >= trackFlushBytes {
			_, werr = w.Write(buf)
			buf = buf[:0]
		}
	})
	var f Fix
	for werr == nil && rows.Next(&f) {
		sh.add(&f)
	}
	if werr != nil {
		return werr
	}
	if err := rows.Err(); err != nil {
		return err
	}
	sh.flush()
	buf = enc.end(buf)
	if werr == nil {
		_, werr = w.Write(buf)
	}
	return werr
}

// csvTrackEncoder writes CSV records under trackCSVHeader.
type csvTrackEncoder struct{}

func (csvTrackEncoder) begin(buf []byte) []byte { return append(buf, trackCSVHeader...) }
func (csvTrackEncoder) fix(buf []byte, f *Fix, seg int) []byte {
	return appendFixCSV(buf, f, seg)
}
func (csvTrackEncoder) end(buf []byte) []byte { return buf }

// jsonTrackEncoder writes the JSON (a Track, or {"tracks": [...]}) or the
// GeoJSON (a Feature, or a FeatureCollection) body: one member per vessel
// asked, in IMO order, a vessel without fixes in range written empty
// between those with fixes (which the rows give in IMO order).
type jsonTrackEncoder struct {
	body trackBody
	geo  bool
	imos []overwatch.IMO
	next int // imos[next] is the next vessel to write

	open    bool // a vessel with fixes is being written
	wrote   bool // a vessel was written
	fixes   int  // of the open vessel
	seg     int  // the segment of the open vessel's last fix
	segLen  int  // fixes in that segment
	first   []byte
	firstTS []byte
	ts      []byte // GeoJSON: the open vessel's "timestamps" items
}

func newJSONTrackEncoder(r trackRequest, one, geo bool) *jsonTrackEncoder {
	b := trackBody{req: r, one: one}
	return &jsonTrackEncoder{body: b, geo: geo, imos: b.imos()}
}

func (e *jsonTrackEncoder) begin(buf []byte) []byte {
	if e.body.one {
		return buf
	}
	if e.geo {
		return append(buf, `{"type":"FeatureCollection","features":[`...)
	}
	return append(buf, `{"tracks":[`...)
}

func (e *jsonTrackEncoder) fix(buf []byte, f *Fix, seg int) []byte {
	if !e.open || f.IMO != e.imos[e.next] {
		buf = e.closeVessel(buf)
		for e.next < len(e.imos) && e.imos[e.next] < f.IMO {
			buf = e.empty(buf)
		}
		if e.next == len(e.imos) || e.imos[e.next] != f.IMO {
			return buf // not asked: the store's filter keeps this from happening
		}
		buf = e.openVessel(buf)
	}
	if !e.geo {
		if e.fixes > 0 {
			buf = append(buf, ',')
		}
		buf = appendFixJSON(buf, f, seg, e.body.req.exact)
		e.fixes++
		e.seg = seg
		return buf
	}
	if e.fixes > 0 && seg != e.seg {
		buf = e.closeSegment(buf)
	}
	if e.fixes == 0 || seg != e.seg {
		if e.fixes > 0 {
			e.ts = append(e.ts, ',')
			if e.body.req.exact {
				buf = append(buf, ',')
			}
		}
		e.ts = append(e.ts, '[')
		if e.body.req.exact {
			buf = append(buf, '[')
		}
		e.segLen = 0
	}
	if e.segLen > 0 {
		e.ts = append(e.ts, ',')
		if e.body.req.exact {
			buf = append(buf, ',')
		}
	}
	n := len(e.ts)
	e.ts = appendTime(e.ts, f.TS)
	if e.segLen == 0 {
		e.firstTS = append(e.firstTS[:0], e.ts[n:]...)
	}
	if e.body.req.exact {
		n = len(buf)
		buf = append(buf, '[')
		buf = appendRounded(buf, f.Lon, 5)
		buf = append(buf, ',')
		buf = appendRounded(buf, f.Lat, 5)
		buf = append(buf, ']')
		if e.segLen == 0 {
			e.first = append(e.first[:0], buf[n:]...)
		}
	}
	e.segLen++
	e.fixes++
	e.seg = seg
	return buf
}

// closeSegment ends the GeoJSON segment: a segment of one fix repeats it,
// as a line needs two positions.
func (e *jsonTrackEncoder) closeSegment(buf []byte) []byte {
	if e.segLen == 1 {
		e.ts = append(append(e.ts, ','), e.firstTS...)
		if e.body.req.exact {
			buf = append(append(buf, ','), e.first...)
		}
	}
	e.ts = append(e.ts, ']')
	if e.body.req.exact {
		buf = append(buf, ']')
	}
	return buf
}

// openVessel starts the vessel imos[next], which has fixes.
func (e *jsonTrackEncoder) openVessel(buf []byte) []byte {
	if e.wrote {
		buf = append(buf, ',')
	}
	e.open, e.wrote, e.fixes, e.seg, e.segLen, e.ts = true, true, 0, 0, 0, e.ts[:0]
	imo := e.imos[e.next]
	if !e.geo {
		buf = append(buf, '{')
		buf = e.body.appendHeaderStart(buf, imo)
		return append(buf, `,"fixes":[`...)
	}
	buf = append(buf, `{"type":"Feature","geometry":`...)
	if e.body.req.exact {
		return append(buf, `{"type":"MultiLineString","coordinates":[`...)
	}
	return append(buf, "null"...)
}

// closeVessel ends the open vessel, if any.
func (e *jsonTrackEncoder) closeVessel(buf []byte) []byte {
	if !e.open {
		return buf
	}
	e.open = false
	imo := e.imos[e.next]
	e.next++
	if !e.geo {
		buf = append(buf, `],"segments":`...)
		buf = appendInt(buf, e.seg)
		return append(buf, '}')
	}
	buf = e.closeSegment(buf)
	if e.body.req.exact {
		buf = append(buf, "]}"...)
	}
	return e.appendProperties(buf, imo)
}

// appendProperties writes the GeoJSON Feature's properties and ends it.
func (e *jsonTrackEncoder) appendProperties(buf []byte, imo overwatch.IMO) []byte {
	buf = append(buf, `,"properties":{`...)
	buf = e.body.appendHeaderStart(buf, imo)
	buf = append(buf, `,"segments":`...)
	buf = appendInt(buf, e.seg)
	buf = append(buf, `,"fixes":`...)
	buf = appendInt(buf, e.fixes)
	buf = append(buf, `,"timestamps":[`...)
	buf = append(buf, e.ts...)
	return append(buf, "]}}"...)
}

// empty writes the vessel imos[next], which has no fix in range.
func (e *jsonTrackEncoder) empty(buf []byte) []byte {
	if e.wrote {
		buf = append(buf, ',')
	}
	e.wrote = true
	e.fixes, e.seg, e.ts = 0, 0, e.ts[:0]
	imo := e.imos[e.next]
	e.next++
	if !e.geo {
		buf = append(buf, '{')
		buf = e.body.appendHeaderStart(buf, imo)
		return append(buf, `,"fixes":[],"segments":0}`...)
	}
	buf = append(buf, `{"type":"Feature","geometry":null`...)
	return e.appendProperties(buf, imo)
}

func (e *jsonTrackEncoder) end(buf []byte) []byte {
	buf = e.closeVessel(buf)
	for e.next < len(e.imos) {
		buf = e.empty(buf)
	}
	if !e.body.one {
		buf = append(buf, "]}"...)
	}
	return buf
}
