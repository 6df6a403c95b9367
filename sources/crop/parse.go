package crop

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"overwatch/maritime/crop"
)

// MaxBytes caps a file (the full PSD grains bulk CSV is about 50 MB).
const MaxBytes = 128 << 20

// ErrTooLarge is a file over MaxBytes.
var ErrTooLarge = errors.New("file larger than 128 MiB")

// Kinds of file.
const (
	KindPSD      = "USDA PSD CSV"
	KindWASDE    = "USDA WASDE report data CSV"
	KindAppEEARS = "AppEEARS point-sample CSV"
)

// Result is a parsed file.
type Result struct {
	Kind  string
	PSD   []crop.PSDRow
	WASDE []crop.WASDERow
	NDVI  []crop.NDVISample
	// Missing counts rows kept out: WASDE rows without a value, AppEEARS
	// rows whose NDVI is empty.
	Missing int
}

// Rows is how many records the file gave.
func (r Result) Rows() int { return len(r.PSD) + len(r.WASDE) + len(r.NDVI) }

// Parse reads a PSD, WASDE or AppEEARS file, told apart by its header.
func Parse(r io.Reader) (Result, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxBytes+1))
	head, _ := br.Peek(512)
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	lower := strings.ToLower(string(head))
	cr := &countingReader{r: br}
	var res Result
	var err error
	switch {
	case strings.HasPrefix(lower, "commodity_code,"):
		res.Kind = KindPSD
		res.PSD, err = parsePSD(cr)
	case strings.HasPrefix(lower, `"wasdenumber"`) || strings.HasPrefix(lower, "wasdenumber,"):
		res.Kind = KindWASDE
		res.WASDE, res.Missing, err = parseWASDE(cr)
	case strings.HasPrefix(lower, "category,id,"):
		res.Kind = KindAppEEARS
		res.NDVI, res.Missing, err = parseAppEEARS(cr)
	case strings.HasPrefix(strings.TrimSpace(lower), "<"):
		return Result{}, errors.New("an HTML or XML page, not a crop data file")
	case len(bytes.TrimSpace(head)) == 0:
		return Result{}, errors.New("an empty file")
	default:
		return Result{}, errors.New("not a PSD, WASDE or AppEEARS CSV (unknown header)")
	}
	if cr.n > MaxBytes {
		return Result{}, ErrTooLarge
	}
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", res.Kind, err)
	}
	if res.Rows() == 0 {
		return Result{}, fmt.Errorf("%s: no rows", res.Kind)
	}
	return res, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// table reads a CSV with a header row, giving each record by column name.
type table struct {
	r    *csv.Reader
	cols map[string]int
	line int
}

func newTable(r io.Reader, required ...string) (*table, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	cr.FieldsPerRecord = 0
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	t := &table{r: cr, cols: map[string]int{}, line: 1}
	for i, h := range head {
		h = strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
		if _, dup := t.cols[h]; !dup {
			t.cols[h] = i
		}
	}
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			return nil, fmt.Errorf("header: no column %s", c)
		}
	}
	return t, nil
}

// next is the next record (io.EOF at the end).
func (t *table) next() ([]string, error) {
	rec, err := t.r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("line %d: %w", t.line+1, err)
	}
	t.line++
	return rec, nil
}

func (t *table) get(rec []string, col string) string {
	i, ok := t.cols[col]
	if !ok || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

func (t *table) errorf(format string, a ...any) error {
	return fmt.Errorf("line %d: %s", t.line, fmt.Sprintf(format, a...))
}
