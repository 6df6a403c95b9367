package terminals

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// csvRows reads a CSV with a header (a UTF-8 BOM and spaces around names
// allowed; rows may be ragged) that must name every one of columns, and
// calls row for each record with its line and a getter of trimmed cells
// by column name ("" for a cell the row does not have). More than max
// rows, a missing column, a malformed record or row's error stops it, the
// error prefixed by what ("gem", "wpi").
func csvRows(r io.Reader, what string, columns []string, max int, row func(line int, get func(string) string) error) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: header: %w", what, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, c := range columns {
		if _, ok := col[c]; !ok {
			return fmt.Errorf("%s: no column %q", what, c)
		}
	}
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if n >= max {
			return fmt.Errorf("%s: more than %d rows", what, max)
		}
		line, _ := cr.FieldPos(0)
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if err := row(line, get); err != nil {
			return fmt.Errorf("%s: line %d: %w", what, line, err)
		}
	}
}
