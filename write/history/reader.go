package history

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync"
	"sync/atomic"

	"overwatch"
	"overwatch/write/ingest"
)

// FileError is a structural failure of a file, as opposed to a quirky
// row: an unknown format, binary data, a truncated or corrupt archive.
// Reading stops there; Next keeps returning it.
type FileError struct {
	File string // the path; "path:entry" inside a zip archive
	Line uint64 // 1-based line of the entry; 0 when no line applies
	Err  error
}

// Error writes "FILE: line N: what".
func (e *FileError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s: line %d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// errClosed is returned by Next after Close.
var errClosed = errors.New("history: reader closed")

// parser reads the data lines of one format.
type parser interface {
	// row reads one non-blank data line and appends its reports with
	// r.emit; it returns why the row gave none (rNone when it gave some).
	row(r *Reader, line []byte) rid
}

// vessel is what a Reader remembers of an MMSI: the hash of its last
// kept line (duplicate check) and of its last static report (change
// check).
type vessel struct{ line, static uint64 }

// pendingLine is a line read ahead by format detection.
type pendingLine struct {
	b    []byte
	crlf bool
	n    uint64
}

// Reader streams the reports of one archive file. Next, Close and the
// rest are for one goroutine; Stats may be called from any.
type Reader struct {
	name   string
	src    overwatch.Source
	format Format // Auto until the first entry with data is read

	closers []io.Closer // the file, the decompressor (Close closes them)
	zr      *zip.Reader
	zi      int           // the next zip entry
	entry   io.ReadCloser // the open zip entry
	ename   string        // its name
	read    atomic.Int64  // bytes of the file consumed
	size    int64

	lr      *lineReader
	p       parser // nil before the first significant line of the entry
	pending []pendingLine
	lineNo  uint64

	out []ingest.Report
	oi  int
	err error

	vessels map[uint32]vessel
	cur     vessel // the current row's MMSI's state, stored back when kept
	curMMSI uint32
	curSet  bool
	q       quirks // the current row's quirks
	lastTS  int64
	hasLast bool

	rows    uint64 // rows committed, for the goroutine calling Next
	reports atomic.Uint64
	mu      sync.Mutex // guards c
	c       counts
}

func newReader(name string, f Format, src overwatch.Source) (*Reader, error) {
	if f == "" {
		f = Auto
	}
	if _, err := ParseFormat(string(f)); err != nil {
		return nil, err
	}
	r := &Reader{name: name, src: src, format: f, vessels: make(map[uint32]vessel)}
	r.c.format = f
	return r, nil
}

// NewReader reads an already opened plain (not compressed) stream; name
// is used in errors and Stats. It reads the first lines to check or
// detect the format; a *FileError says why they do not fit.
func NewReader(rd io.Reader, name string, f Format, src overwatch.Source) (*Reader, error) {
	r, err := newReader(name, f, src)
	if err != nil {
		return nil, err
	}
	r.lr = newLineReader(counter{rd, &r.read})
	if err := r.start(); err != nil {
		return nil, err
	}
	return r, nil
}

// Format returns the format being read (Auto only for an empty file read
// with Auto).
func (r *Reader) Format() Format { return r.format }

// Stats returns a snapshot of the counters; safe to call at any time,
// from any goroutine.
func (r *Reader) Stats() Stats {
	r.mu.Lock()
	s := r.c.stats()
	r.mu.Unlock()
	s.File, s.Size, s.BytesRead, s.Reports = r.name, r.size, r.read.Load(), r.reports.Load()
	if s.Size > 0 && s.BytesRead > s.Size {
		s.BytesRead = s.Size
	}
	return s
}

// Rows returns the number of rows read so far, the row of the report Next
// returned last included; cheaper than Stats, for the goroutine calling
// Next (an import resuming after its last row stored).
func (r *Reader) Rows() uint64 { return r.rows }

// Close releases the file. Next returns an error afterwards.
func (r *Reader) Close() error {
	var first error
	if r.entry != nil {
		first = r.entry.Close()
		r.entry = nil
	}
	for i := len(r.closers) - 1; i >= 0; i-- {
		if err := r.closers[i].Close(); err != nil && first == nil {
			first = err
		}
	}
	r.closers = nil
	if r.err == nil || r.err == io.EOF {
		r.err = errClosed
	}
	r.out, r.oi = r.out[:0], 0
	return first
}

// Next returns the next report, io.EOF after the last, or a *FileError
// (returned again by every later call) when the file is broken. Rows that
// give no report are counted in Stats, never returned as errors.
func (r *Reader) Next() (ingest.Report, error) {
	for r.oi >= len(r.out) {
		if r.err != nil {
			return ingest.Report{}, r.err
		}
		r.out, r.oi = r.out[:0], 0
		r.step()
	}
	rep := r.out[r.oi]
	r.oi++
	r.reports.Add(1)
	return rep, nil
}

// fileErr wraps err with the entry's name and a line.
func (r *Reader) fileErr(line uint64, err error) *FileError {
	name := r.name
	if r.ename != "" {
		name += ":" + r.ename
	}
	return &FileError{File: name, Line: line, Err: err}
}

// fail stops reading with a FileError.
func (r *Reader) fail(line uint64, err error) {
	r.err = r.fileErr(line, err)
	r.mu.Lock()
	r.c.line = r.lineNo
	r.mu.Unlock()
}

// nextLine returns the next line of the entry: those read ahead first.
func (r *Reader) nextLine() ([]byte, bool, error) {
	if len(r.pending) > 0 {
		p := r.pending[0]
		r.pending = r.pending[1:]
		r.lineNo = p.n
		return p.b, p.crlf, nil
	}
	b, crlf, err := r.lr.next()
	if err == nil || err == errLong {
		r.lineNo = r.lr.n
	}
	return b, crlf, err
}

// step reads one line and handles it: a row, the end of an entry, or a
// failure.
func (r *Reader) step() {
	line, crlf, err := r.nextLine()
	switch {
	case err == errLong:
		r.q = 0
		r.commit(rBadRow)
		return
	case err == io.EOF:
		r.endEntry()
		return
	case err != nil:
		r.fail(r.lr.n+1, err)
		return
	}
	if blank(line) {
		return
	}
	if i := binaryAt(line); i >= 0 {
		r.fail(r.lineNo, fmt.Errorf("%w (byte %#02x at column %d)", errBinary, line[i], i+1))
		return
	}
	r.q = 0
	if crlf {
		r.q.add(rCRLF)
	}
	r.curSet = false
	why := r.p.row(r, line)
	r.commit(why)
}

// commit counts the row just read: kept when it gave reports, else
// skipped for why.
func (r *Reader) commit(why rid) {
	kept := len(r.out) > r.oi
	var ts int64
	if kept {
		ts = r.out[len(r.out)-1].TS.Unix()
		if r.hasLast && ts < r.lastTS {
			r.q.add(rOutOfOrder)
		}
		r.lastTS, r.hasLast = ts, true
		if r.curSet {
			r.vessels[r.curMMSI] = r.cur
		}
	}
	r.rows++
	r.mu.Lock()
	c := &r.c
	c.rows++
	c.line = r.lineNo
	if kept {
		c.kept++
		for q := r.q; q != 0; q &= q - 1 {
			c.by[bits.TrailingZeros64(uint64(q))]++
		}
		switch {
		case !c.span:
			c.first, c.last, c.span = ts, ts, true
		case ts < c.first:
			c.first = ts
		case ts > c.last:
			c.last = ts
		}
		c.mmsis = len(r.vessels)
	} else {
		if why == rNone {
			why = rPositionUnavailable // a parser that returned nothing and no reason
		}
		c.by[why]++
	}
	r.mu.Unlock()
}

// vessel loads the state of the row's MMSI (zero for a new one); it is
// stored back if the row is kept.
func (r *Reader) vessel(mmsi uint32) *vessel {
	r.cur, r.curMMSI, r.curSet = r.vessels[mmsi], mmsi, true
	return &r.cur
}

// emit queues a report of the current row.
func (r *Reader) emit(rep *ingest.Report) { r.out = append(r.out, *rep) }
