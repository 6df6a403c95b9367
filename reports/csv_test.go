package reports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden byte for byte.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs\n got: %q\nwant: %q", path, got, want)
	}
}

// parseStrict reads RFC 4180 exactly: CRLF ends a record outside quotes, a
// quoted field keeps every byte (CR and LF included) and "" is one quote.
// encoding/csv cannot be the only oracle: it turns CRLF inside a quoted
// field into LF.
func parseStrict(t *testing.T, b []byte) [][]string {
	t.Helper()
	var recs [][]string
	var rec []string
	for len(b) > 0 {
		var f []byte
		if b[0] == '"' {
			b = b[1:]
			for {
				i := bytes.IndexByte(b, '"')
				if i < 0 {
					t.Fatalf("unterminated quoted field")
				}
				f, b = append(f, b[:i]...), b[i+1:]
				if len(b) == 0 || b[0] != '"' {
					break
				}
				f, b = append(f, '"'), b[1:]
			}
		} else {
			i := bytes.IndexAny(b, ",\r\n\"")
			if i < 0 || b[i] == '"' || b[i] == '\n' || (b[i] == '\r' && (i+1 >= len(b) || b[i+1] != '\n')) {
				t.Fatalf("bare quote, CR or LF or missing CRLF in unquoted field: %q", b)
			}
			f, b = b[:i], b[i:]
		}
		rec = append(rec, string(f))
		switch {
		case bytes.HasPrefix(b, []byte(",")):
			b = b[1:]
		case bytes.HasPrefix(b, []byte("\r\n")):
			recs, rec, b = append(recs, rec), nil, b[2:]
		default:
			t.Fatalf("field not followed by a comma or CRLF: %q", b)
		}
	}
	if rec != nil {
		t.Fatalf("last record not ended by CRLF")
	}
	return recs
}

func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("encoding/csv: %v in %q", err, b)
	}
	return recs
}

func write(t *testing.T, header []string, opts CSVOptions, rows ...[]Cell) ([]byte, *CSVWriter) {
	t.Helper()
	var buf bytes.Buffer
	w := NewCSV(&buf, header, opts)
	for _, r := range rows {
		if err := w.WriteRow(r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w
}

func texts(ss ...string) []Cell {
	cells := make([]Cell, len(ss))
	for i, s := range ss {
		cells[i] = TextCell(s)
	}
	return cells
}

func TestCSVPlain(t *testing.T) {
	t.Parallel()
	got, w := write(t, []string{"imo", "name", "port", "hours"}, CSVOptions{},
		[]Cell{IntCell(9074729), TextCell("CAPE ARIES"), TextCell("santos"), NumberCell(41.25, 2)},
		[]Cell{IntCell(9312456), TextCell("NORD STAR"), TextCell("port-hedland"), NumberCell(6, 2)},
		[]Cell{IntCell(9500001), TextCell(""), TextCell("qingdao"), NumberCell(0.5, 1)})
	golden(t, "plain", got)
	if w.Rows() != 3 || w.Truncated() {
		t.Errorf("rows %d truncated %v", w.Rows(), w.Truncated())
	}
	if r := readCSV(t, got); len(r) != 4 || r[2][1] != "NORD STAR" || r[3][3] != "0.5" {
		t.Errorf("read back %q", r)
	}
}

var quotingCells = []string{
	"Bahía Blanca, AR", `say "hello"`, "two\nlines", "carriage\rreturn", "crlf\r\nend",
	"Paranaguá", "Constanța", "青岛港", "Novorossiysk ⚓", " leading space", "trailing space ", `"`, ",", "",
}

func TestCSVQuoting(t *testing.T) {
	t.Parallel()
	var rows [][]Cell
	for i, s := range quotingCells {
		rows = append(rows, []Cell{IntCell(int64(i)), TextCell(s)})
	}
	got, _ := write(t, []string{"n", "text"}, CSVOptions{}, rows...)
	golden(t, "quoting", got)
	recs := parseStrict(t, got)
	for i, s := range quotingCells {
		if recs[i+1][1] != s {
			t.Errorf("row %d: read %q, wrote %q", i, recs[i+1][1], s)
		}
	}
	if !bytes.Contains(got, []byte("Constanța")) || !bytes.Contains(got, []byte(`"say ""hello"""`)) {
		t.Errorf("UTF-8 or quote doubling lost: %q", got)
	}
}

func TestCSVFormulaInjection(t *testing.T) {
	t.Parallel()
	rows := [][]Cell{
		texts(`=HYPERLINK("http://evil","x")`, "name with = inside"),
		texts("@SUM(1)", "a=b"),
		texts("+1", "1+1"),
		texts("-1", "1-2"),
		texts("\t=1+2", "tab"),
		texts("\r=1+2", "carriage return"),
		texts(`=1+2";=1+2`, "quote and separator"),
		texts("=cmd|' /C calc'!A0", "DDE"),
		{NumberCell(-1, 0), TextCell("numeric -1")},
		{NumberCell(-12.5, 2), TextCell("numeric -12.50")},
		{IntCell(-7), TextCell("numeric int -7")},
		{{Value: "-1e5", Numeric: true}, TextCell("numeric exponent")},
		{{Value: "=1+2", Numeric: true}, TextCell("mislabelled numeric")},
		{{Value: "-1+2", Numeric: true}, TextCell("mislabelled numeric expression")},
		{{Value: "+5", Numeric: true}, TextCell("numeric with plus")},
	}
	got, _ := write(t, []string{"=header", "note"}, CSVOptions{}, rows...)
	golden(t, "injection", got)
	want := []string{
		`'=HYPERLINK("http://evil","x")`, "'@SUM(1)", "'+1", "'-1", "'\t=1+2", "'\r=1+2", `'=1+2";=1+2`,
		"'=cmd|' /C calc'!A0", "-1", "-12.50", "-7", "-1e5", "'=1+2", "'-1+2", "'+5",
	}
	recs := parseStrict(t, got)
	if recs[0][0] != "'=header" {
		t.Errorf("header not protected: %q", recs[0][0])
	}
	for i, w := range want {
		if recs[i+1][0] != w {
			t.Errorf("row %d (%s): got %q, want %q", i, recs[i+1][1], recs[i+1][0], w)
		}
		if recs[i+1][1] != rows[i][1].Value {
			t.Errorf("row %d: safe cell changed to %q", i, recs[i+1][1])
		}
	}
}

func TestCSVRowCap(t *testing.T) {
	t.Parallel()
	var rows [][]Cell
	for i := range 5 {
		rows = append(rows, []Cell{IntCell(int64(i + 1)), TextCell("vessel " + strconv.Itoa(i+1))})
	}
	got, w := write(t, []string{"n", "name"}, CSVOptions{MaxRows: 3}, rows...)
	golden(t, "cap", got)
	if w.Rows() != 3 || !w.Truncated() || w.Summary() != (Summary{Rows: 3, Omitted: 2}) {
		t.Errorf("rows %d truncated %v summary %+v", w.Rows(), w.Truncated(), w.Summary())
	}
	if n := len(readCSV(t, got)); n != 4 {
		t.Errorf("%d records, want header and 3", n)
	}
}

func TestCSVEmpty(t *testing.T) {
	t.Parallel()
	got, w := write(t, []string{"imo", "name", "port"}, CSVOptions{MaxRows: 10})
	golden(t, "empty", got)
	if w.Rows() != 0 || w.Truncated() {
		t.Errorf("rows %d truncated %v", w.Rows(), w.Truncated())
	}
	var buf bytes.Buffer
	sum, err := WriteStructs(&buf, slices.Values([]visitRow(nil)), CSVOptions{})
	if err != nil || sum != (Summary{}) {
		t.Fatalf("%+v %v", sum, err)
	}
	golden(t, "empty_structs", buf.Bytes())
}

type position struct {
	Lat float64 `csv:"lat"`
	Lon float64 `csv:"lon"`
}

type Audit struct {
	Source string `csv:"source"`
}

// visitRow exercises gocsv's mapping: tags, options, a skipped and an
// unexported field, a pointer, a nested and an embedded struct, time.Time.
type visitRow struct {
	IMO      int       `csv:"imo"`
	Name     string    `csv:"name"`
	Port     string    `csv:"port,omitempty"`
	Arrived  time.Time `csv:"arrived"`
	Hours    float64   `csv:"hours"`
	Change   *float64  `csv:"draft_change_m"`
	Position position  `csv:"pos"`
	Secret   string    `csv:"-"`
	internal int
	Flag     string
	Audit
}

func visitRows() []visitRow {
	arrived := time.Date(2025, 5, 15, 9, 27, 38, 0, time.UTC)
	minus := -1.5
	return []visitRow{
		{IMO: 9074729, Name: "CAPE ARIES", Port: "santos", Arrived: arrived, Hours: 41.25, Change: &minus,
			Position: position{-23.98, -46.3}, Secret: "x", Flag: "PA", Audit: Audit{"aishub"}},
		{IMO: 9312456, Name: `=HYPERLINK("http://evil","x")`, Port: "qingdao", Arrived: arrived.Add(time.Hour),
			Hours: -2, Position: position{36.02, 120.26}, Flag: "-1", Audit: Audit{"@feed"}},
		{IMO: 9500001, Name: "-1", Port: "Paranaguá, BR", Hours: 0.1, Position: position{-25.5, -48.52}, Flag: "+7"},
	}
}

func TestCSVStructs(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sum, err := WriteStructs(&buf, slices.Values(visitRows()), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "structs", buf.Bytes())
	recs := parseStrict(t, buf.Bytes())
	wantHeader := []string{"imo", "name", "port", "arrived", "hours", "draft_change_m", "pos.lat", "pos.lon",
		"Flag", "source"}
	if !slices.Equal(recs[0], wantHeader) || sum.Rows != 3 {
		t.Fatalf("header %q rows %d", recs[0], sum.Rows)
	}
	// Numeric fields stay numbers; text fields that look like formulas or
	// like negative numbers are protected.
	checks := []struct {
		row, col int
		want     string
	}{
		{1, 5, "-1.5"}, {1, 7, "-46.3"}, {1, 3, "2025-05-15T09:27:38Z"}, {2, 1, `'=HYPERLINK("http://evil","x")`},
		{2, 4, "-2"}, {2, 8, "'-1"}, {2, 9, "'@feed"}, {3, 1, "'-1"}, {3, 2, "Paranaguá, BR"}, {3, 8, "'+7"}, {3, 5, ""},
	}
	for _, c := range checks {
		if got := recs[c.row][c.col]; got != c.want {
			t.Errorf("row %d %s: got %q, want %q", c.row, recs[0][c.col], got, c.want)
		}
	}
	// Pointers to structs map the same way, and the cap applies.
	buf.Reset()
	ptrs := []*visitRow{&visitRows()[0], &visitRows()[1], &visitRows()[2]}
	sum, err = WriteStructs(&buf, slices.Values(ptrs), CSVOptions{MaxRows: 2})
	if err != nil || sum != (Summary{Rows: 2, Omitted: 1}) || !sum.Truncated() {
		t.Fatalf("pointers: %+v %v", sum, err)
	}
	if recs := parseStrict(t, buf.Bytes()); len(recs) != 3 || recs[1][5] != "-1.5" {
		t.Errorf("pointers: %q", recs)
	}
}

func TestCSVStructsNotStruct(t *testing.T) {
	t.Parallel()
	if _, err := NewStructCSV[int](io.Discard, CSVOptions{}); err == nil {
		t.Error("NewStructCSV[int] accepted")
	}
	if _, err := NewStructCSV[struct{ x int }](io.Discard, CSVOptions{}); err == nil {
		t.Error("struct without exported fields accepted")
	}
}

// flushRecorder records the bytes it has received at each Flush.
type flushRecorder struct {
	bytes.Buffer
	flushes []int
}

func (f *flushRecorder) Flush() error {
	f.flushes = append(f.flushes, f.Len())
	return nil
}

func TestCSVStreams(t *testing.T) {
	t.Parallel()
	var out flushRecorder
	w := NewCSV(&out, []string{"n"}, CSVOptions{FlushRows: 100})
	for i := range 1000 {
		if err := w.Write([]string{strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if i == 150 && out.Len() == 0 {
			t.Fatal("nothing reached the writer after 150 rows")
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(out.flushes) != 11 || out.flushes[0] == 0 {
		t.Errorf("flushes at %v, want 10 periodic and 1 final", out.flushes)
	}
	// The default streams too: a large export reaches the writer in pieces.
	var big flushRecorder
	w = NewCSV(&big, []string{"a", "b"}, CSVOptions{})
	for range 10_000 {
		_ = w.Write([]string{"MV SOME VESSEL NAME", "9074729"})
	}
	_ = w.Flush()
	if len(big.flushes) < 20 {
		t.Errorf("%d flushes for 10,000 rows", len(big.flushes))
	}
}

func TestCSVFieldCountAndErrors(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := NewCSV(&buf, []string{"a", "b"}, CSVOptions{})
	if err := w.Write([]string{"1"}); !errors.Is(err, ErrFieldCount) {
		t.Errorf("short row: %v", err)
	}
	if err := w.Write([]string{"1", "2"}); err != nil {
		t.Errorf("writer unusable after a bad row: %v", err)
	}
	_ = w.Flush()
	if buf.String() != "a,b\r\n1,2\r\n" {
		t.Errorf("%q", buf.String())
	}

	fail := errors.New("client went away")
	w = NewCSV(failWriter{fail}, []string{"a"}, CSVOptions{FlushRows: 1})
	if err := w.Write([]string{"1"}); !errors.Is(err, fail) {
		t.Errorf("write error not returned: %v", err)
	}
	if err := w.Write([]string{"2"}); !errors.Is(err, fail) {
		t.Errorf("write error not kept: %v", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

func TestCSVSingleEmptyFieldAndBOM(t *testing.T) {
	t.Parallel()
	got, _ := write(t, []string{"name"}, CSVOptions{BOM: true}, texts(""), texts("x"), texts(""))
	if want := "\uFEFFname\r\n\"\"\r\nx\r\n\"\"\r\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	recs := readCSV(t, bytes.TrimPrefix(got, []byte("\uFEFF")))
	if len(recs) != 4 || recs[1][0] != "" || recs[3][0] != "" {
		t.Errorf("empty single-field rows lost: %q", recs)
	}
}

func TestNumber(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		dec  int
		want string
	}{
		{-1, 0, "-1"}, {-12.345, 2, "-12.35"}, {0.5, 0, "0"}, {-0.001, 2, "0.00"}, {-0.0, -1, "0"},
		{1e21, -1, "1000000000000000000000"}, {1.5e-7, -1, "0.00000015"}, {41.25, -1, "41.25"}, {3, 3, "3.000"},
	} {
		if got := Number(c.v, c.dec); got != c.want {
			t.Errorf("Number(%v, %d) = %q, want %q", c.v, c.dec, got, c.want)
		}
	}
	for _, v := range []float64{nan(), inf(1), inf(-1)} {
		if got := Number(v, 2); got != "" {
			t.Errorf("Number(%v) = %q, want empty", v, got)
		}
	}
}

func nan() float64         { z := 0.0; return z / z }
func inf(sign int) float64 { z := 0.0; return float64(sign) / z }

var numberRE = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// FuzzCSVCell writes an arbitrary cell between two others and reads it back
// with encoding/csv and with a strict RFC 4180 parser: the cell must come
// back exactly, with an apostrophe in front when it starts like a formula,
// unless it is a numeric cell holding a plain number.
func FuzzCSVCell(f *testing.F) {
	for _, s := range append(quotingCells, `=HYPERLINK("http://evil","x")`, "@SUM(1)", "+1", "-1", "-1.5e3",
		"\t", "\r", "\r\n", "\n\r", `""`, "'", "\xff\xfe", "a\x00b") {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, cell string, numeric bool) {
		want := cell
		if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !(numeric && numberRE.MatchString(cell)) {
			want = "'" + cell
		}
		var buf bytes.Buffer
		w := NewCSV(&buf, []string{"before", "cell", "after"}, CSVOptions{})
		if err := w.WriteRow(TextCell("x"), Cell{Value: cell, Numeric: numeric}, TextCell("y")); err != nil {
			t.Fatal(err)
		}
		single := NewCSV(&buf, nil, CSVOptions{})
		if err := single.WriteRow(Cell{Value: cell, Numeric: numeric}); err != nil {
			t.Fatal(err)
		}
		_ = w.Flush()
		_ = single.Flush()
		recs := parseStrict(t, buf.Bytes())
		if len(recs) != 3 || recs[1][1] != want || recs[2][0] != want || recs[1][0] != "x" || recs[1][2] != "y" {
			t.Fatalf("strict read %q, want %q", recs, want)
		}
		std := readCSV(t, buf.Bytes())
		stdWant := strings.ReplaceAll(want, "\r\n", "\n") // encoding/csv's own normalisation
		if len(std) != 3 || std[1][1] != stdWant || std[2][0] != stdWant {
			t.Fatalf("encoding/csv read %q, want %q", std, stdWant)
		}
	})
}

// benchRows is 10,000 rows of 12 columns shaped like a port-visit export.
func benchRows() [][]string {
	rows := make([][]string, 10_000)
	for i := range rows {
		rows[i] = []string{
			strconv.Itoa(9000000 + i), strconv.Itoa(538000000 + i), fmt.Sprintf("VESSEL %d, \"BULK\"", i), "PA",
			"bulk_carrier", "santos", "2025-05-15T09:27:38Z", "2025-05-17T02:11:00Z",
			Number(41.25+float64(i%100), 2), Number(-1.5, 1), Number(-23.98, 4), Number(-46.3, 4),
		}
	}
	return rows
}

var benchHeader = []string{"imo", "mmsi", "name", "flag", "type", "port", "arrived", "departed",
	"hours", "draft_change_m", "lat", "lon"}

func BenchmarkCSV10kRows(b *testing.B) {
	rows := benchRows()
	b.ReportAllocs()
	for b.Loop() {
		w := NewCSV(io.Discard, benchHeader, CSVOptions{MaxRows: 10_000})
		for _, r := range rows {
			if err := w.Write(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCSV10kStructs(b *testing.B) {
	base := visitRows()
	rows := make([]visitRow, 10_000)
	for i := range rows {
		rows[i] = base[i%len(base)]
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteStructs(io.Discard, slices.Values(rows), CSVOptions{MaxRows: 10_000}); err != nil {
			b.Fatal(err)
		}
	}
}
