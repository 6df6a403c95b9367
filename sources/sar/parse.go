package sar

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/sar"
)

// MaxBytes caps what a parser reads of one catalogue answer.
const MaxBytes = 32 << 20

// ErrTooLarge is returned for an answer over MaxBytes.
var ErrTooLarge = fmt.Errorf("larger than %d MiB", MaxBytes>>20)

// Result is a parsed catalogue answer: its Sentinel-1 products, how many
// records were not Sentinel-1 (or had no usable footprint or time), and
// the next page's URL where the catalogue pages (CDSE @odata.nextLink).
type Result struct {
	Products []sar.Product
	Skipped  int
	Next     string
}

// Parse reads a catalogue answer of any supported format, told apart by
// its first bytes and keys.
func Parse(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	head := bytes.TrimSpace(body[:min(len(body), 4096)])
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	switch {
	case len(head) == 0:
		return Result{}, errors.New("empty answer")
	case head[0] == '<':
		if bytes.Contains(bytes.ToLower(head), []byte("<html")) || bytes.Contains(bytes.ToLower(head), []byte("<!doctype html")) {
			return Result{}, errors.New("an HTML page, not a catalogue answer")
		}
		return ParseKML(bytes.NewReader(body))
	case head[0] == '"' || bytes.HasPrefix(head, []byte("Granule Name")):
		return ParseCSV(bytes.NewReader(body))
	case head[0] == '{':
		switch {
		case bytes.Contains(body, []byte(`"results"`)):
			return ParseJSONLite(bytes.NewReader(body))
		case bytes.Contains(body, []byte(`"stac_version"`)):
			return ParseSTAC(bytes.NewReader(body))
		case bytes.Contains(body, []byte(`"@odata.context"`)) || bytes.Contains(body, []byte(`"value"`)):
			return ParseOData(bytes.NewReader(body))
		case bytes.Contains(body, []byte(`"Feature`)):
			return ParseGeoJSON(bytes.NewReader(body))
		}
	}
	return Result{}, errors.New("not a catalogue answer this service reads (ASF jsonlite, jsonlite2, CSV, GeoJSON or KML; CDSE OData; STAC)")
}

// readAll reads at most MaxBytes.
func readAll(r io.Reader) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > MaxBytes {
		return nil, ErrTooLarge
	}
	return body, nil
}

// parseTime reads the catalogues' UTC times: with or without a zone and
// fractional seconds.
func parseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q is not an ISO 8601 time", truncate(s, 40))
}

// number reads a catalogue number that may be written as a string; the
// nulls ("None", "NA", "") are 0.
func number(s string) float64 {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != v || v > 1e15 || v < -1e15 {
		return 0
	}
	return v
}

// finish completes a parsed product (what its name says, the relative
// orbit from the absolute one) and keeps it when it is a Sentinel-1
// product with a start and a valid footprint.
func finish(res *Result, p sar.Product) {
	if p.Platform == "" {
		p.Platform = sar.Platform(p.Name[:min(len(p.Name), 3)])
	}
	sar.FromName(&p)
	if p.RelativeOrbit == 0 || p.RelativeOrbit > sar.OrbitsPerCycle {
		p.RelativeOrbit = sar.RelativeOrbit(p.Platform, p.AbsoluteOrbit)
	}
	if p.Stop.Before(p.Start) {
		p.Stop = p.Start
	}
	p.Direction = strings.ToUpper(strings.TrimSpace(p.Direction))
	if p.Direction != "ASCENDING" && p.Direction != "DESCENDING" {
		p.Direction = ""
	}
	if p.SizeMB < 0 || p.SizeMB > 1e7 {
		p.SizeMB = 0
	}
	if p.Platform == "" || p.Name == "" || p.Start.IsZero() || !p.Footprint.Valid() {
		res.Skipped++
		return
	}
	res.Products = append(res.Products, p)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
