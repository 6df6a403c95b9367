package comtrade

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"overwatch/maritime/tradestats"
)

// MaxBytes caps what Parse reads (uncompressed).
const MaxBytes = 64 << 20

// ErrListing is returned for a bulk-file listing (rows naming files by
// fileUrl): it describes files to download and holds no flows.
var ErrListing = errors.New("comtrade: a bulk file listing, not trade flows")

// Parse reads a Comtrade file (JSON envelope, or bulk delimited text,
// gzipped or not) and returns its flows, their countries made canonical
// (tradestats.Canonical), each with Source set to source. An empty result
// ("count":0) is no error.
func Parse(r io.Reader, source string) ([]tradestats.Flow, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxBytes+1))
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("comtrade: gzip: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(io.LimitReader(zr, MaxBytes+1))
	}
	b, err := io.ReadAll(br)
	if err != nil {
		return nil, fmt.Errorf("comtrade: read: %w", err)
	}
	if len(b) > MaxBytes {
		return nil, fmt.Errorf("comtrade: file over %d bytes", MaxBytes)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return nil, errors.New("comtrade: empty file")
	}
	var rows []record
	if t[0] == '{' {
		rows, err = parseJSON(t)
	} else {
		rows, err = parseDelimited(t)
	}
	if err != nil {
		return nil, err
	}
	out := make([]tradestats.Flow, 0, len(rows))
	for i, rec := range rows {
		f, keep, err := rec.flow()
		if err != nil {
			return nil, fmt.Errorf("comtrade: row %d: %w", i+1, err)
		}
		if !keep {
			continue
		}
		f.Source = source
		out = append(out, tradestats.Canonical(f))
	}
	return out, nil
}

// record is one row, field name → value (strings; JSON null is absent).
type record map[string]string

func (r record) text(k string) string { return strings.TrimSpace(r[k]) }

// number reads a numeric field; ok false when absent or empty.
func (r record) number(k string) (float64, bool, error) {
	s := r.text(k)
	if s == "" {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("%s %q is not a number", k, truncate(s))
	}
	return v, true, nil
}

func (r record) integer(k string) (int, bool, error) {
	v, ok, err := r.number(k)
	if err != nil || !ok {
		return 0, ok, err
	}
	if v != math.Trunc(v) || math.Abs(v) > 1e9 {
		return 0, false, fmt.Errorf("%s %v is not a code", k, v)
	}
	return int(v), true, nil
}

// totalsOnly says whether a row is a total over the breakdowns the API
// repeats a flow for.
func (r record) totalsOnly() (bool, error) {
	for _, k := range []string{"motCode", "partner2Code"} {
		v, ok, err := r.integer(k)
		if err != nil {
			return false, err
		}
		if ok && v != 0 {
			return false, nil
		}
	}
	if c := r.text("customsCode"); c != "" && c != "C00" {
		return false, nil
	}
	if c := r.text("mosCode"); c != "" && c != "0" {
		return false, nil
	}
	return true, nil
}

// flow converts a row; keep false for a row that is not a total.
func (r record) flow() (tradestats.Flow, bool, error) {
	var f tradestats.Flow
	if r.text("fileUrl") != "" && r.text("flowCode") == "" {
		return f, false, ErrListing
	}
	if ok, err := r.totalsOnly(); err != nil || !ok {
		return f, false, err
	}
	var err error
	var ok bool
	if f.ReporterCode, ok, err = r.integer("reporterCode"); err != nil || !ok {
		return f, false, need(err, "reporterCode")
	}
	if f.PartnerCode, ok, err = r.integer("partnerCode"); err != nil || !ok {
		return f, false, need(err, "partnerCode")
	}
	f.ReporterISO3, f.ReporterName = r.text("reporterISO"), r.text("reporterDesc")
	f.PartnerISO3, f.PartnerName = r.text("partnerISO"), r.text("partnerDesc")
	if f.Flow, ok = tradestats.FlowOfCode(r.text("flowCode")); !ok {
		return f, false, fmt.Errorf("flowCode %q is not X, M, RX or RM", truncate(r.text("flowCode")))
	}
	f.HSCode = r.text("cmdCode")
	if f.HSCode == "" || len(f.HSCode) > 12 {
		return f, false, fmt.Errorf("cmdCode %q", truncate(f.HSCode))
	}
	if err := r.period(&f); err != nil {
		return f, false, err
	}
	f.Classification = r.text("classificationCode")
	f.NetWeightKg, f.Quantity, f.ValueUSD = -1, -1, -1
	if w, ok, err := r.number("netWgt"); err != nil {
		return f, false, err
	} else if ok && w > 0 {
		f.NetWeightKg = w
	}
	q, hasQ, err := r.number("qty")
	if err != nil {
		return f, false, err
	}
	if hasQ && q >= 0 {
		f.Quantity, f.QuantityUnit = q, r.text("qtyUnitAbbr")
		if f.QuantityUnit == "N/A" {
			f.Quantity, f.QuantityUnit = -1, ""
		}
	}
	if f.NetWeightKg < 0 && f.QuantityUnit == "kg" && f.Quantity > 0 {
		f.NetWeightKg = f.Quantity
	}
	if v, ok, err := r.number("primaryValue"); err != nil {
		return f, false, err
	} else if ok && v >= 0 {
		f.ValueUSD = v
	}
	fob, hasFOB, err := r.number("fobvalue")
	if err != nil {
		return f, false, err
	}
	cif, hasCIF, err := r.number("cifvalue")
	if err != nil {
		return f, false, err
	}
	switch {
	case hasFOB && !hasCIF:
		f.ValueBasis = "fob"
	case hasCIF && !hasFOB:
		f.ValueBasis = "cif"
	case hasFOB && f.ValueUSD == fob:
		f.ValueBasis = "fob"
	case hasCIF && f.ValueUSD == cif:
		f.ValueBasis = "cif"
	}
	return f, true, nil
}

// period reads the period ("2024" annual, "202403" monthly; refMonth 52
// means annual).
func (r record) period(f *tradestats.Flow) error {
	p := r.text("period")
	if i := strings.IndexByte(p, '.'); i > 0 && strings.Trim(p[i+1:], "0") == "" {
		p = p[:i] // a bulk file's period read as a float
	}
	n, err := strconv.Atoi(p)
	switch {
	case err == nil && len(p) == 4 && n >= 1900 && n <= 2200:
		f.Year = n
	case err == nil && len(p) == 6 && n/100 >= 1900 && n/100 <= 2200 && n%100 >= 1 && n%100 <= 12:
		f.Year, f.Month = n/100, n%100
	default:
		return fmt.Errorf("period %q is not a year or a year and month", truncate(p))
	}
	f.Period = p
	return nil
}

func need(err error, k string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s missing", k)
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// envelope is the v1 API answer.
type envelope struct {
	Count *int              `json:"count"`
	Data  []json.RawMessage `json:"data"`
	Error *string           `json:"error"`
}

func parseJSON(b []byte) ([]record, error) {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("comtrade: json: %w", err)
	}
	if env.Error != nil && strings.TrimSpace(*env.Error) != "" {
		return nil, fmt.Errorf("comtrade: the API answered an error: %s", truncate(*env.Error))
	}
	if env.Data == nil {
		return nil, errors.New(`comtrade: json without a "data" array`)
	}
	out := make([]record, 0, len(env.Data))
	for i, raw := range env.Data {
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			return nil, fmt.Errorf("comtrade: row %d: %w", i+1, err)
		}
		rec := record{}
		for k, v := range m {
			switch v := v.(type) {
			case string:
				rec[k] = v
			case json.Number:
				rec[k] = v.String()
			case bool:
				rec[k] = strconv.FormatBool(v)
			}
		}
		out = append(out, rec)
	}
	return out, nil
}
