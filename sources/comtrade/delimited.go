package comtrade

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// requiredColumns are the header fields a bulk file must have.
var requiredColumns = []string{"reporterCode", "partnerCode", "flowCode", "cmdCode", "period"}

// parseDelimited reads a bulk file: tab-separated as the bulk API serves
// it, or comma-separated; the first line is the header (field names as in
// the JSON rows, case as given).
func parseDelimited(b []byte) ([]record, error) {
	line := b
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		line = b[:i]
	}
	cr := csv.NewReader(bytes.NewReader(b))
	cr.ReuseRecord = false
	cr.FieldsPerRecord = -1
	if bytes.Count(line, []byte{'\t'}) > bytes.Count(line, []byte{','}) {
		cr.Comma = '\t'
		cr.LazyQuotes = true
	}
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("comtrade: header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, k := range requiredColumns {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("comtrade: header has no %s column (not a Comtrade file)", k)
		}
	}
	var out []record
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("comtrade: %w", err) // a csv.ParseError names the line
		}
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		rec := record{}
		for k, i := range col {
			if i < len(row) {
				rec[k] = row[i]
			}
		}
		out = append(out, rec)
	}
	return out, nil
}
