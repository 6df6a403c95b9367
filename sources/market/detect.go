package market

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"overwatch/maritime/market"
)

// MaxBytes caps what a parser reads of one file or response body: the
// largest real file, the World Bank workbook, is under 1 MB. Job fetchers
// read at most MaxBytes+1 bytes and refuse a body over the cap.
const MaxBytes = 64 << 20

// Kind is a file format the parsers know.
type Kind string

// The formats Detect tells apart.
const (
	KindFRED        Kind = "fred_csv"         // FRED fredgraph CSV
	KindWorldBank   Kind = "worldbank_xlsx"   // World Bank Pink Sheet workbook
	KindAMS         Kind = "ams_json"         // USDA AMS MARS report JSON
	KindAgTransport Kind = "agtransport_json" // USDA AgTransport Socrata JSON array
)

// ErrTooLarge is returned for a file over MaxBytes.
var ErrTooLarge = fmt.Errorf("larger than %d MiB", MaxBytes>>20)

// Result is what a parse produced, with the observations it left out.
type Result struct {
	Kind      Kind
	Dataset   string // AgTransport dataset id
	Prices    []market.Price
	Rates     []market.Rate
	Missing   int // observations published as missing: ".", "", "…", absent field, zero barge rate
	Skipped   int // columns, rows or series the service does not carry
	Published time.Time

	emit        Emit   // Stream's callback, nil for Parse
	beforeFlush func() // a parser's last touch before a batch leaves
	emitted     int    // observations handed to emit
}

// Detect tells the format of a file from its name and first bytes (at
// least the first 4 KiB, when the file has them): a zip archive or an
// .xlsx name is the World Bank workbook; a CSV whose header starts with
// DATE or observation_date is FRED; a JSON object with "results" is an
// AMS report; a JSON array is AgTransport. An HTML page, an empty file or
// anything else is an error.
func Detect(name string, head []byte) (Kind, error) {
	ext := strings.ToLower(filepath.Ext(name))
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return KindWorldBank, nil
	case ext == ".xlsx" || ext == ".xls":
		return "", fmt.Errorf("%s: not an xlsx workbook (no zip signature)", name)
	case len(h) == 0:
		return "", fmt.Errorf("%s: empty file", name)
	case h[0] == '<':
		return "", fmt.Errorf("%s: an HTML or XML page, not data", name)
	case h[0] == '[':
		return KindAgTransport, nil
	case h[0] == '{':
		if bytes.Contains(head, []byte(`"results"`)) || bytes.Contains(head, []byte(`"reportSection"`)) {
			return KindAMS, nil
		}
		return "", fmt.Errorf("%s: a JSON object without MARS \"results\"", name)
	}
	line, _, _ := bytes.Cut(h, []byte("\n"))
	first, _, _ := bytes.Cut(line, []byte(","))
	switch f := strings.ToLower(strings.TrimSpace(string(first))); f {
	case "date", "observation_date":
		return KindFRED, nil
	}
	return "", fmt.Errorf("%s: unknown format (not FRED CSV, World Bank xlsx, AMS or AgTransport JSON)", name)
}

// Parse detects the format of the file read from r and parses it:
// published is the publication date when the caller knows it (a job's
// fetch day is not one; zero is unknown); a date the file states (World
// Bank "Updated on", AMS published_date) wins. dataset names the
// AgTransport dataset, "" to detect it from the rows' keys.
func Parse(name string, r io.Reader, dataset string, published time.Time) (Result, error) {
	return parse(name, r, dataset, published, nil)
}

func parse(name string, r io.Reader, dataset string, published time.Time, emit Emit) (Result, error) {
	br := bufio.NewReaderSize(r, 8192)
	head, err := br.Peek(4096)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return Result{}, fmt.Errorf("%s: %w", name, err)
	}
	kind, err := Detect(name, head)
	if err != nil {
		return Result{}, err
	}
	if kind != KindWorldBank && bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		br.Discard(3) // a UTF-8 byte-order mark before CSV or JSON
	}
	res := Result{Kind: kind, Published: published, emit: emit}
	switch kind {
	case KindFRED:
		err = parseFRED(br, &res)
	case KindWorldBank:
		err = parseWorldBank(br, &res)
	case KindAMS:
		err = parseAMS(br, &res)
	case KindAgTransport:
		res.Dataset = dataset
		err = parseAgTransport(br, &res)
	}
	if err == nil {
		err = res.flush(true)
	}
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", name, err)
	}
	res.emit, res.beforeFlush = nil, nil
	return res, nil
}

// ParsePrices parses a price file (FRED CSV, World Bank xlsx, AMS JSON)
// for `overwatch import prices`; the publication date is the file's own
// where it states one, else unknown.
func ParsePrices(name string, r io.Reader) ([]market.Price, error) {
	res, err := Parse(name, r, "", time.Time{})
	if err != nil {
		return nil, err
	}
	if res.Kind == KindAgTransport {
		return nil, fmt.Errorf("%s: a transport-rate file, not prices (import it with `import transport`)", name)
	}
	return res.Prices, nil
}

// ParseRates parses an AgTransport JSON file for `overwatch import
// transport`, detecting its dataset from the rows' keys.
func ParseRates(name string, r io.Reader) ([]market.Rate, error) {
	res, err := Parse(name, r, "", time.Time{})
	if err != nil {
		return nil, err
	}
	if res.Kind != KindAgTransport {
		return nil, fmt.Errorf("%s: a price file, not transport rates (import it with `import prices`)", name)
	}
	return res.Rates, nil
}

// limited wraps r so that reading past MaxBytes fails with ErrTooLarge.
func limited(r io.Reader) io.Reader { return &capReader{r: r, n: MaxBytes} }

type capReader struct {
	r io.Reader
	n int64
}

// Read reads from the underlying reader until the cap is passed.
func (c *capReader) Read(p []byte) (int, error) {
	if c.n < 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > c.n+1 {
		p = p[:c.n+1]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	if c.n < 0 {
		return n, ErrTooLarge
	}
	return n, err
}

// utcDate is midnight UTC of y-m-d.
func utcDate(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
