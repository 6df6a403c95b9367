package history

import (
	"bytes"
	"fmt"
)

// The CSV rows of MarineCadastre and DMA, split without allocating.

// maxCols bounds the columns of a CSV header.
const maxCols = 64

// csvRow holds the fields of the current row; the slices point into the
// line (or into scratch, for quoted fields).
type csvRow struct {
	n       int
	f       [maxCols][]byte
	scratch []byte
}

// split splits a line on sep. Fields may be quoted ("a,b" and "" for a
// quote) as RFC 4180 says; a line with more than maxCols fields or a
// broken quote gives false.
func (c *csvRow) split(line []byte, sep byte) bool {
	if bytes.IndexByte(line, '"') < 0 {
		c.n = 0
		for {
			if c.n == maxCols {
				return false
			}
			i := bytes.IndexByte(line, sep)
			if i < 0 {
				c.f[c.n] = line
				c.n++
				return true
			}
			c.f[c.n] = line[:i]
			c.n++
			line = line[i+1:]
		}
	}
	return c.splitQuoted(line, sep)
}

// splitQuoted is split for lines with quotes: quoted fields are copied
// into scratch without their quotes.
func (c *csvRow) splitQuoted(line []byte, sep byte) bool {
	c.n = 0
	if cap(c.scratch) < len(line) {
		c.scratch = make([]byte, 0, len(line))
	}
	c.scratch = c.scratch[:0] // never grows past len(line): the fields stay valid
	i := 0
	for {
		if c.n == maxCols {
			return false
		}
		if i < len(line) && line[i] == '"' {
			start := len(c.scratch)
			i++
			for {
				j := bytes.IndexByte(line[i:], '"')
				if j < 0 {
					return false // unterminated
				}
				c.scratch = append(c.scratch, line[i:i+j]...)
				i += j + 1
				if i < len(line) && line[i] == '"' {
					c.scratch = append(c.scratch, '"')
					i++
					continue
				}
				break
			}
			c.f[c.n] = c.scratch[start:len(c.scratch):len(c.scratch)]
			c.n++
			if i == len(line) {
				return true
			}
			if line[i] != sep {
				return false // text after the closing quote
			}
			i++
			continue
		}
		j := bytes.IndexByte(line[i:], sep)
		if j < 0 {
			c.f[c.n] = line[i:]
			c.n++
			return true
		}
		c.f[c.n] = line[i : i+j]
		c.n++
		i += j + 1
	}
}

// field returns column i, trimmed of spaces (nil for a missing column,
// i < 0); a field of spaces only is counted as a blank_field quirk.
func (c *csvRow) field(i int, q *quirks) []byte {
	if i < 0 || i >= c.n {
		return nil
	}
	f, blankOnly := trimField(c.f[i])
	if blankOnly {
		q.add(rBlankField)
	}
	return f
}

// num reads column i as a number: ok false when it is empty; an
// unreadable value is left out and counted as bad_field.
func (c *csvRow) num(i int, q *quirks) (float64, bool) {
	f := c.field(i, q)
	if len(f) == 0 {
		return 0, false
	}
	v, ok := parseFloat(f)
	if !ok {
		q.add(rBadField)
	}
	return v, ok
}

// columns maps the normalised names of a header to column indexes: for
// each wanted column, the first of its synonyms present, or -1.
func columns(header []byte, sep byte, want [][]string) (idx []int, n int, err error) {
	names := headerNames(header, sep)
	if len(names) > maxCols {
		return nil, 0, fmt.Errorf("header has %d columns, more than %d", len(names), maxCols)
	}
	idx = make([]int, len(want))
	for k, syn := range want {
		idx[k] = -1
	search:
		for _, s := range syn {
			for i, name := range names {
				if name == s {
					idx[k] = i
					break search
				}
			}
		}
	}
	return idx, len(names), nil
}
