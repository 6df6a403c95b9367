package reports

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// DefaultFlushRows is how many data rows a CSVWriter buffers at most
// between flushes unless CSVOptions.FlushRows says otherwise.
const DefaultFlushRows = 500

// bufSize is the buffer size past which rows go to the io.Writer at once.
const bufSize = 32 << 10

// ErrFieldCount is returned, wrapped, for a row whose number of fields is
// not the header's. Such a row is not written; the writer stays usable.
var ErrFieldCount = errors.New("reports: row has the wrong number of fields")

// CSVOptions configure a CSV export.
type CSVOptions struct {
	// MaxRows caps the data rows written; rows offered beyond it are
	// counted (Summary.Omitted), not written. Zero or less: no cap.
	MaxRows int
	// BOM starts the output with a UTF-8 byte-order mark, which Excel needs
	// to read a CSV file as UTF-8 rather than in the Windows code page.
	BOM bool
	// FlushRows is the most data rows buffered between flushes (zero or
	// less: DefaultFlushRows).
	FlushRows int
}

// Summary tells what an export wrote: Rows data rows (the header not
// counted), and Omitted rows offered beyond CSVOptions.MaxRows.
type Summary struct{ Rows, Omitted int }

// Truncated reports whether rows were left out because of the row cap.
func (s Summary) Truncated() bool { return s.Omitted > 0 }

// Cell is one field of a row written with CSVWriter.WriteRow.
//
// Numbers are formatted by the caller (Number, NumberCell, IntCell), so the
// writer cannot tell the number -1 from the text "-1" typed by a crew as a
// vessel name: both arrive as strings. Text cells are protected against
// formula injection, which would turn every negative number into the text
// '-1, so negative numbers must take the separate numeric path: a cell with
// Numeric set is written unprefixed, but only if Value is a plain decimal
// number (-?digits[.digits][e[+-]digits]); anything else in a numeric cell
// is protected like text, so a mislabelled cell can never carry a formula.
type Cell struct {
	Value   string
	Numeric bool
}

// TextCell is a text cell: protected against formula injection.
func TextCell(s string) Cell { return Cell{Value: s} }

// NumberCell is a numeric cell holding Number(v, decimals).
func NumberCell(v float64, decimals int) Cell { return Cell{Value: Number(v, decimals), Numeric: true} }

// IntCell is a numeric cell holding the integer v in decimal.
func IntCell(v int64) Cell { return Cell{Value: strconv.FormatInt(v, 10), Numeric: true} }

// Number formats v for a numeric cell: fixed-point with decimals digits
// after the point (decimals < 0: the fewest digits that read back as v),
// never an exponent, "." as the decimal separator, no sign on a value that
// rounds to zero ("0.00", not "-0.00"), and "" (an empty cell) for NaN and
// the infinities.
func Number(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	if decimals < 0 {
		decimals = -1
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if s[0] == '-' && strings.Trim(s[1:], "0.") == "" {
		s = s[1:]
	}
	return s
}

// CSVWriter streams an RFC 4180 CSV file: comma-separated, CRLF line
// endings, a header row first, every row with the header's number of
// fields. A field is quoted when it contains a comma, a double quote, CR or
// LF, with quotes doubled; everything else, UTF-8 included, is written
// byte for byte. A row made of one empty field is written as "" so that a
// reader does not take it for a blank line.
//
// Formula injection (OWASP "CSV Injection"): Excel, LibreOffice and Google
// Sheets evaluate a cell that begins with = + - @, a tab or a carriage
// return as a formula, and vessel names are typed into AIS by crews. A text
// cell (and every header cell) that begins with one of these six characters
// is written with a leading apostrophe, '=HYPERLINK(...) for example, and
// quoted as needed, so spreadsheets show it as text; the apostrophe is part
// of the field for any other reader. Numeric cells are exempt (see Cell).
//
// Rows are appended to a buffer that goes to the io.Writer every FlushRows
// rows or 32 KiB, whichever comes first, and at Flush; if the io.Writer has
// a Flush method (bufio.Writer, http.Flusher, Fiber's stream writer) it is
// flushed too, so a 10,000-row export reaches the client as it is made.
// Call Flush once at the end. The first write error is kept and returned by
// every later call. A CSVWriter is not safe for concurrent use.
type CSVWriter struct {
	w                  io.Writer
	buf                []byte
	cols, max, rows    int
	flushRows, pending int
	omitted            int
	err                error
}

// NewCSV starts a CSV export to w: the byte-order mark if asked, then the
// header row. An empty header writes no header row, and the first data row
// then fixes the number of fields.
func NewCSV(w io.Writer, header []string, opts CSVOptions) *CSVWriter {
	c := newCSV(w, opts)
	c.writeHeader(header)
	return c
}

func newCSV(w io.Writer, opts CSVOptions) *CSVWriter {
	c := &CSVWriter{w: w, buf: make([]byte, 0, 4<<10), max: opts.MaxRows,
		flushRows: cmp.Or(max(opts.FlushRows, 0), DefaultFlushRows)}
	if opts.BOM {
		c.buf = append(c.buf, "\uFEFF"...)
	}
	return c
}

func (c *CSVWriter) writeHeader(header []string) {
	c.cols = len(header)
	for i, s := range header {
		c.appendField(i, len(header), s, false)
	}
	if len(header) > 0 {
		c.buf = append(c.buf, '\r', '\n')
	}
}

// Write writes a row of text cells, each protected against formula
// injection. Beyond MaxRows the row is counted and not written.
func (c *CSVWriter) Write(row []string) error { return c.writeMasked(row, nil) }

// writeMasked writes row; numeric[i] marks field i as a numeric cell.
func (c *CSVWriter) writeMasked(row []string, numeric []bool) error {
	if ok, err := c.admit(len(row)); !ok {
		return err
	}
	for i, s := range row {
		c.appendField(i, len(row), s, numeric != nil && numeric[i])
	}
	return c.endRow()
}

// WriteRow writes a row of typed cells: text cells are protected against
// formula injection, numeric cells are not (see Cell). Beyond MaxRows the
// row is counted and not written.
func (c *CSVWriter) WriteRow(cells ...Cell) error {
	if ok, err := c.admit(len(cells)); !ok {
		return err
	}
	for i, cell := range cells {
		c.appendField(i, len(cells), cell.Value, cell.Numeric)
	}
	return c.endRow()
}

// Flush sends the buffered rows to the io.Writer and flushes it if it has a
// Flush method. Call it once after the last row.
func (c *CSVWriter) Flush() error {
	if err := c.drain(); err != nil {
		return err
	}
	c.pending = 0
	switch f := c.w.(type) {
	case interface{ Flush() error }:
		c.err = f.Flush()
	case interface{ Flush() }:
		f.Flush()
	}
	return c.err
}

// Rows is the number of data rows written so far.
func (c *CSVWriter) Rows() int { return c.rows }

// Truncated reports whether rows were left out because of MaxRows.
func (c *CSVWriter) Truncated() bool { return c.omitted > 0 }

// Summary returns the rows written and omitted so far.
func (c *CSVWriter) Summary() Summary { return Summary{Rows: c.rows, Omitted: c.omitted} }

// admit checks a row of n fields before it is written: the kept error, the
// field count, the row cap.
func (c *CSVWriter) admit(n int) (bool, error) {
	if c.err != nil {
		return false, c.err
	}
	if c.cols == 0 && n > 0 {
		c.cols = n
	}
	if n == 0 || n != c.cols {
		return false, fmt.Errorf("%w: %d, header has %d", ErrFieldCount, n, c.cols)
	}
	if c.max > 0 && c.rows >= c.max {
		c.omitted++
		return false, nil
	}
	return true, nil
}

// appendField appends s as field i of n: a comma before it, an apostrophe
// if it could start a formula (unless numeric and a plain number), quotes
// if needed, and "" for a row that is one empty field.
func (c *CSVWriter) appendField(i, n int, s string, numeric bool) {
	if i > 0 {
		c.buf = append(c.buf, ',')
	} else if n == 1 && s == "" {
		c.buf = append(c.buf, `""`...)
		return
	}
	guard := len(s) > 0 && formulaStart[s[0]] && !(numeric && plainNumber(s))
	quote := false
	for j := 0; j < len(s) && !quote; j++ {
		quote = special[s[j]]
	}
	if quote {
		c.buf = append(c.buf, '"')
	}
	if guard {
		c.buf = append(c.buf, '\'')
	}
	if !quote {
		c.buf = append(c.buf, s...)
		return
	}
	for j := strings.IndexByte(s, '"'); j >= 0; j = strings.IndexByte(s, '"') {
		c.buf = append(append(c.buf, s[:j+1]...), '"')
		s = s[j+1:]
	}
	c.buf = append(append(c.buf, s...), '"')
}

func (c *CSVWriter) endRow() error {
	c.buf = append(c.buf, '\r', '\n')
	c.rows++
	c.pending++
	if c.pending >= c.flushRows {
		return c.Flush()
	}
	if len(c.buf) >= bufSize {
		return c.drain()
	}
	return nil
}

// drain writes the buffer to the io.Writer.
func (c *CSVWriter) drain() error {
	if c.err == nil && len(c.buf) > 0 {
		_, c.err = c.w.Write(c.buf)
		c.buf = c.buf[:0]
	}
	return c.err
}

// special marks the bytes that force quoting; formulaStart the first bytes
// that spreadsheets read as the start of a formula.
var (
	special      = [256]bool{',': true, '"': true, '\r': true, '\n': true}
	formulaStart = [256]bool{'=': true, '+': true, '-': true, '@': true, '\t': true, '\r': true}
)

// plainNumber reports whether s is -?digits[.digits][(e|E)[+-]digits].
func plainNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp := s[i+1:]
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if !allDigits(exp) {
			return false
		}
		s = s[:i]
	}
	whole, frac, dot := strings.Cut(s, ".")
	return allDigits(whole) && (!dot || allDigits(frac))
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
