package history

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"overwatch"
)

// Open opens an archive file: plain text, gzip (one or more members) or
// zip (every file entry in the archive's order, each with its own header
// for the CSV formats), told apart by their first bytes. It checks the
// format (f), or detects it (Auto) from the first lines, and returns a
// Reader; a *FileError says why the file does not fit.
func Open(path string, f Format, src overwatch.Source) (*Reader, error) {
	r, err := newReader(path, f, src)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r.closers = append(r.closers, file)
	fi, err := file.Stat()
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("history: %w", err)
	}
	r.size = fi.Size()
	var magic [4]byte
	n, _ := io.ReadFull(file, magic[:])
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		r.Close()
		return nil, fmt.Errorf("history: %w", err)
	}
	switch {
	case n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		gz, err := gzip.NewReader(bufio.NewReaderSize(counter{file, &r.read}, bufSize))
		if err != nil {
			r.Close()
			return nil, r.fileErr(1, fmt.Errorf("gzip: %w", err))
		}
		r.closers = append(r.closers, gz)
		r.lr = newLineReader(gz)
	case n == 4 && (bytes.Equal(magic[:], []byte("PK\x03\x04")) || bytes.Equal(magic[:], []byte("PK\x05\x06"))):
		zr, err := zip.NewReader(counterAt{file, &r.read}, r.size)
		if err != nil {
			r.Close()
			return nil, r.fileErr(0, fmt.Errorf("zip: %w", err))
		}
		r.zr = zr
		r.read.Store(0) // the central directory read: progress counts entries
	default:
		r.lr = newLineReader(counter{file, &r.read})
	}
	if err := r.start(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// start moves to the first entry with data and makes its parser.
func (r *Reader) start() error {
	if r.zr != nil {
		more, err := r.nextEntry()
		if err != nil {
			return err
		}
		if !more {
			return r.noData()
		}
	}
	for {
		ok, err := r.begin()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		more, err := r.nextEntry()
		if err != nil {
			return err
		}
		if !more {
			return r.noData()
		}
	}
}

// noData ends a file without any significant line: an error when the
// format was to be detected, the end of the reports otherwise.
func (r *Reader) noData() error {
	if r.format == Auto {
		r.ename = ""
		return r.fileErr(0, fmt.Errorf("no data (the file is empty): cannot detect its format; %s", understood))
	}
	r.err = io.EOF
	return nil
}

// endEntry moves to the next entry with data, or ends the reading.
func (r *Reader) endEntry() {
	for {
		more, err := r.nextEntry()
		if err != nil {
			r.err = err
			return
		}
		if !more {
			r.err = io.EOF
			if r.size > 0 {
				r.read.Store(r.size) // all consumed, whatever the archive's layout
			}
			return
		}
		ok, err := r.begin()
		if err != nil {
			r.err = err
			return
		}
		if ok {
			return
		}
	}
}

// nextEntry opens the next file entry of a zip archive; false when there
// are no more (or the file is not a zip archive).
func (r *Reader) nextEntry() (bool, error) {
	if r.zr == nil {
		return false, nil
	}
	if r.entry != nil {
		r.entry.Close()
		r.entry = nil
	}
	for r.zi < len(r.zr.File) {
		f := r.zr.File[r.zi]
		r.zi++
		if f.FileInfo().IsDir() || strings.HasSuffix(f.Name, "/") || strings.HasPrefix(f.Name, "__MACOSX/") {
			continue
		}
		r.ename = f.Name
		rc, err := f.Open()
		if err != nil {
			return false, r.fileErr(0, fmt.Errorf("zip: %w", err))
		}
		r.entry = rc
		if r.lr == nil {
			r.lr = newLineReader(rc)
		} else {
			r.lr.br.Reset(rc)
			r.lr.n = 0
		}
		r.lineNo = 0
		r.p = nil
		r.mu.Lock()
		r.c.entry, r.c.line = f.Name, 0
		r.mu.Unlock()
		return true, nil
	}
	return false, nil
}

// maxComments and maxCommentBytes bound the "#" lines read ahead while
// looking for the line that names the format.
const (
	maxComments     = 100
	maxCommentBytes = 64 << 10
)

// begin reads the entry up to its first significant line, checks or
// detects the format and makes the parser; false at the end of an entry
// without data.
func (r *Reader) begin() (bool, error) {
	r.p = nil
	r.pending = r.pending[:0]
	held := 0
	for {
		b, crlf, err := r.lr.next()
		switch {
		case err == io.EOF:
			return false, nil
		case err == errLong:
			return false, r.fileErr(r.lr.n, fmt.Errorf("%w before any record: not an AIS archive; %s", errLong, understood))
		case err != nil:
			return false, r.fileErr(r.lr.n+1, err)
		}
		if blank(b) {
			continue
		}
		if i := binaryAt(b); i >= 0 {
			return false, r.fileErr(r.lr.n, fmt.Errorf("%w (byte %#02x at column %d); %s", errBinary, b[i], i+1, understood))
		}
		if !utf8.Valid(b) && detect(b) == "" {
			return false, r.fileErr(r.lr.n, fmt.Errorf("%w (not UTF-8 text); %s", errBinary, understood))
		}
		line := pendingLine{b: bytes.Clone(b), crlf: crlf, n: r.lr.n}
		if b[0] == '#' && detect(b) == "" && len(r.pending) < maxComments && held+len(b) <= maxCommentBytes {
			r.pending = append(r.pending, line) // a comment of an NMEA capture
			held += len(b)
			continue
		}
		f, err := checkFormat(b, r.format)
		if err != nil {
			return false, r.fileErr(r.lr.n, err)
		}
		p, header, err := newParser(f, b)
		if err != nil {
			return false, r.fileErr(r.lr.n, err)
		}
		if !header {
			r.pending = append(r.pending, line)
		}
		r.format, r.p = f, p
		r.mu.Lock()
		r.c.format, r.c.line = f, r.lr.n
		r.mu.Unlock()
		return true, nil
	}
}

// newParser makes the parser of a format from its first significant
// line; header reports whether that line was a header (consumed).
func newParser(f Format, first []byte) (p parser, header bool, err error) {
	switch f {
	case MarineCadastre:
		p, err := newMarineCadastre(first)
		return p, true, err
	case DMA:
		p, err := newDMA(first)
		return p, true, err
	case BarentsWatch:
		return &barentsWatch{}, false, nil
	case GFW:
		return &gfw{}, false, nil
	case NMEA:
		return newNMEA(), false, nil
	case CSV:
		p, err := newGeneric(first)
		return p, true, err
	}
	return nil, false, errors.New("no parser for format " + string(f))
}
