package history

import (
	"bufio"
	"errors"
	"io"
	"sync/atomic"
)

// MaxLine is the longest line a Reader reads (1 MiB): a longer line is
// skipped as a bad_row, without being held in memory.
const MaxLine = 1 << 20

// bufSize is the read buffer of a lineReader; longer lines are gathered
// in a separate buffer up to MaxLine.
const bufSize = 64 << 10

// errLong marks a line longer than MaxLine.
var errLong = errors.New("line longer than 1 MiB")

// lineReader reads lines of bounded length from a stream.
type lineReader struct {
	br   *bufio.Reader
	long []byte
	n    uint64 // lines read, including the current one
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, bufSize)}
}

// next returns the next line without its line end (the slice is valid
// until the following call) and whether it ended in CR LF. At the end of
// the stream it returns io.EOF; a line cut by a read error (a truncated
// gzip stream) is dropped and the error returned. A line longer than
// MaxLine gives errLong, and reading goes on after it.
func (l *lineReader) next() (line []byte, crlf bool, err error) {
	b, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = l.br.ReadSlice('\n')
			if len(l.long)+len(b) > MaxLine {
				for err == bufio.ErrBufferFull {
					_, err = l.br.ReadSlice('\n')
				}
				if err != nil && err != io.EOF {
					return nil, false, err
				}
				l.n++
				if cap(l.long) > 4*bufSize {
					l.long = nil // do not keep a megabyte for one odd line
				}
				return nil, false, errLong
			}
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	if len(b) == 0 {
		return nil, false, io.EOF
	}
	l.n++
	if b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b, crlf = b[:len(b)-1], true
	}
	return b, crlf, nil
}

// binaryAt returns the index of the first byte that no text archive
// holds (NUL and the C0 controls other than tab, vertical tab, form feed,
// carriage return and the DOS end-of-file mark), or -1.
func binaryAt(line []byte) int {
	for i, c := range line {
		if c < 0x20 && c != '\t' && c != '\r' && c != '\v' && c != '\f' && c != 0x1a {
			return i
		}
	}
	return -1
}

// blank reports whether a line holds only spaces and tabs.
func blank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// counter counts the bytes read through it; safe to read concurrently.
type counter struct {
	r io.Reader
	n *atomic.Int64
}

func (c counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// counterAt counts the bytes read through ReadAt (a zip archive).
type counterAt struct {
	r io.ReaderAt
	n *atomic.Int64
}

func (c counterAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}
