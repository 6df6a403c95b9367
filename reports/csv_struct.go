package reports

import (
	"encoding"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strings"

	"github.com/gocarina/gocsv"
)

// StructCSV streams values of a struct type T (or pointer to struct) as CSV
// rows whose columns are described by `csv:"name"` struct tags, as gocsv
// reads them: tag or field name, "-" to skip, embedded structs flattened,
// nested structs as "outer.inner", time.Time and other TextMarshalers and
// gocsv TypeMarshalers as one field.
//
// gocsv does the struct mapping only (header, field order, each field's
// text); CSVWriter writes the bytes. gocsv writes through encoding/csv,
// which has no hook for formula protection, hands a writer []string that no
// longer tells the number -1 from a crew's text "-1", and with UseCRLF (RFC
// 4180) drops a bare CR inside a field and turns LF into CRLF; its
// MarshalChan needs a chan interface{}, writes no header for an empty
// result and abandons the channel on a write error. So gocsv renders rows
// in batches into a gocsv.CSVWriter that feeds CSVWriter, and the columns
// whose Go type is an integer or a float (found by walking T with gocsv's
// tag rules, matched to gocsv's header by name) are numeric cells. A column
// the walk cannot match (an unusual layout, a duplicate name, a header
// normalizer) is text: the mapping can err only towards an apostrophe.
type StructCSV[T any] struct {
	csv   *CSVWriter
	sink  *structSink
	batch []T
}

// structBatch is how many values gocsv renders per call.
const structBatch = 64

// NewStructCSV starts a CSV export of T values to w and writes the header
// from T's struct tags. It fails if T is not a struct or pointer to struct.
func NewStructCSV[T any](w io.Writer, opts CSVOptions) (*StructCSV[T], error) {
	c := newCSV(w, opts)
	s := &StructCSV[T]{csv: c, sink: &structSink{c: c, numeric: numericColumns(reflect.TypeFor[T]())}}
	if err := gocsv.MarshalCSV([]T{}, s.sink); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	if !s.sink.header {
		return nil, fmt.Errorf("reports: %v has no CSV columns", reflect.TypeFor[T]())
	}
	return s, nil
}

// Write writes v as a row; beyond MaxRows it is counted and not written.
func (s *StructCSV[T]) Write(v T) error {
	c := s.csv
	if c.err != nil {
		return c.err
	}
	if c.max > 0 && c.rows+len(s.batch) >= c.max {
		c.omitted++
		return nil
	}
	s.batch = append(s.batch, v)
	if len(s.batch) >= structBatch {
		return s.render()
	}
	return nil
}

// Flush writes the pending rows and flushes as CSVWriter.Flush does. Call
// it once after the last row.
func (s *StructCSV[T]) Flush() error {
	if err := s.render(); err != nil {
		return err
	}
	return s.csv.Flush()
}

// Summary returns the rows accepted (written or pending) and omitted so far.
func (s *StructCSV[T]) Summary() Summary {
	return Summary{Rows: s.csv.rows + len(s.batch), Omitted: s.csv.omitted}
}

func (s *StructCSV[T]) render() error {
	if len(s.batch) == 0 {
		return s.csv.err
	}
	err := gocsv.MarshalCSVWithoutHeaders(s.batch, s.sink)
	clear(s.batch)
	s.batch = s.batch[:0]
	if err != nil && s.csv.err == nil {
		s.csv.err = fmt.Errorf("reports: %w", err)
	}
	return s.csv.err
}

// WriteStructs writes a header from T's struct tags and then every value of
// rows (slices.Values for a slice; a database cursor wrapped in an
// iter.Seq for a stream), capped at MaxRows, and flushes. Rows beyond the
// cap are still consumed and counted, so bound the query at MaxRows+1.
func WriteStructs[T any](w io.Writer, rows iter.Seq[T], opts CSVOptions) (Summary, error) {
	s, err := NewStructCSV[T](w, opts)
	if err != nil {
		return Summary{}, err
	}
	for v := range rows {
		if err := s.Write(v); err != nil {
			return s.Summary(), err
		}
	}
	return s.Summary(), s.Flush()
}

// structSink is the gocsv.CSVWriter that gocsv renders into: its first row
// is the header, every later row goes to CSVWriter with the numeric mask.
type structSink struct {
	c       *CSVWriter
	numeric map[string]bool
	mask    []bool
	header  bool
}

var _ gocsv.CSVWriter = (*structSink)(nil)

func (s *structSink) Write(row []string) error {
	if s.header {
		return s.c.writeMasked(row, s.mask)
	}
	if len(row) == 0 {
		return nil
	}
	s.header = true
	s.mask = make([]bool, len(row))
	for i, name := range row {
		s.mask[i] = s.numeric[name]
	}
	s.c.writeHeader(row)
	return nil
}

func (s *structSink) Flush() {}

func (s *structSink) Error() error { return s.c.err }

// numericColumns maps the CSV column names of t to whether the column holds
// an integer or float kind; names that occur twice map to false.
func numericColumns(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	seen := map[string]bool{}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		walkColumns(t, "", func(name string, numeric bool) {
			out[name] = numeric && !seen[name]
			seen[name] = true
		})
	}
	return out
}

var (
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	csvMarshaler  = reflect.TypeFor[gocsv.TypeMarshaller]()
)

// walkColumns calls column for each CSV column of the struct type t, named
// as gocsv names it.
func walkColumns(t reflect.Type, prefix string, column func(name string, numeric bool)) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := ""
		if !f.Anonymous {
			if name = tagName(f.Tag.Get(gocsv.TagName)); name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if prefix != "" {
				name = prefix + gocsv.FieldsCombiner + name
			}
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && !marshals(ft) {
			p := prefix
			if !f.Anonymous {
				p = name
			}
			walkColumns(ft, p, column)
			continue
		}
		if f.Anonymous {
			continue
		}
		k := ft.Kind()
		column(name, k >= reflect.Int && k <= reflect.Uint64 || k == reflect.Float32 || k == reflect.Float64)
	}
}

// tagName is the column name in a csv tag: its first entry that is not an
// option (omitempty, partial, default=...).
func tagName(tag string) string {
	for e := range strings.SplitSeq(tag, gocsv.TagSeparator) {
		e = strings.TrimSpace(e)
		if e == "omitempty" || strings.HasPrefix(e, "partial") || strings.HasPrefix(e, "default=") {
			continue
		}
		return e
	}
	return ""
}

func marshals(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(textMarshaler) || t.Implements(csvMarshaler) ||
		p.Implements(textMarshaler) || p.Implements(csvMarshaler)
}
