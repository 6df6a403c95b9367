package write

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/pandi"
	"overwatch/route"
)

// Bounds of a P&I coverage import.
const (
	MaxPICoverageBody     = 10 << 20 // bytes of an upload (the file, or the whole multipart body); more is 413
	MaxPICoverageRejected = 1000     // rejected rows listed in an answer (all are counted)
	maxPICoverageText     = 200      // characters of a vessel name (club names: 300)
)

// PICoverageSourceOwn is the source of an account's own records in GET
// /v1/pi-coverage (the shared base keeps the source it was loaded with).
const PICoverageSourceOwn = "own"

// PICoverageRow is an accepted row of a coverage file.
type PICoverageRow struct {
	Line       int // its line in the file (1 is the header)
	IMO        overwatch.IMO
	ClubName   string    // as written
	ClubID     string    // the maritime/pandi slug, "" when unmatched
	ClubKey    string    // what the record is unique by: ClubID, or the normalized name
	VesselName string    // "" when not given
	From, To   time.Time // zero: not given
}

// PICoverageRejected is a refused row: its line and why.
type PICoverageRejected struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// PICoverageImport is the answer of POST /v1/pi-coverage/import.
type PICoverageImport struct {
	RowsProcessed  int                  `json:"rows_processed"` // data rows read (accepted and rejected)
	Matched        int                  `json:"matched"`        // accepted rows whose club matched an insurer of /v1/pi-clubs
	UnmatchedClubs []string             `json:"unmatched_clubs"`
	Stored         int                  `json:"stored"` // records stored (new or updated)
	RejectedCount  int                  `json:"rejected_count"`
	Rejected       []PICoverageRejected `json:"rejected"` // the first MaxPICoverageRejected
}

// PICoverageStore keeps P&I coverage records.
type PICoverageStore interface {
	// ImportPICoverage stores the rows as the account's records (account
	// 0: the shared base, with the source given), a row replacing the
	// record of the same vessel, club and start; it returns how many
	// records it stored.
	ImportPICoverage(ctx context.Context, accountID int64, rows []PICoverageRow, source string) (int, error)
}

// piCoverageRoutes mounts the coverage import (any plan), its body read
// as it arrives: the file and its multipart framing.
func piCoverageRoutes(r route.Router, s PICoverageStore) {
	r.HandleBody(fiber.MethodPost, "/pi-coverage/import", overwatch.AccessKey,
		route.Body{Max: MaxPICoverageUpload, Stream: true}, ImportPICoverage(s))
}

// ImportPICoverage serves POST /v1/pi-coverage/import: a CSV file sent as
// the body (Content-Type text/csv) or as the one part "file" of a
// multipart/form-data body (piCoverageFile), at most MaxPICoverageBody
// bytes (413 beyond), read by ParsePICoverageCSV and stored as the
// caller's own records.
func ImportPICoverage(store PICoverageStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		data, err := piCoverageFile(c)
		if err != nil {
			return err
		}
		rows, ans, err := ParsePICoverageCSV(data)
		if err != nil {
			return err
		}
		if len(rows) > 0 {
			n, err := store.ImportPICoverage(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, rows, PICoverageSourceOwn)
			if err != nil {
				return err
			}
			ans.Stored = n
		}
		return c.JSON(ans)
	}
}

// piDateLayouts are the date formats a coverage file may use; any other
// is refused ("unknown date format"). Day/month order with slashes is
// ambiguous and refused too.
var piDateLayouts = []string{"2006-01-02", "2006/01/02", "20060102", "02.01.2006", "2.1.2006", "2 Jan 2006", "2 January 2006",
	"02-Jan-2006", "2-Jan-2006", "2006-01-02T15:04:05Z07:00"}

// piYears are the years a coverage date may fall in: a date in an
// accepted format outside them (0001-01-01, a spreadsheet's empty date)
// is out of range.
const (
	piFirstYear = 1900
	piLastYear  = 2100
)

// parsePIDate reads the date s of column col: the date, or why it is
// refused.
func parsePIDate(s, col string) (time.Time, string) {
	for _, l := range piDateLayouts {
		if d, err := time.Parse(l, s); err == nil {
			d = d.UTC()
			if d.Year() < piFirstYear || d.Year() > piLastYear {
				return time.Time{}, fmt.Sprintf("date %s in column %s is out of range (years %d to %d)", clipText(s, 40), col, piFirstYear, piLastYear)
			}
			return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC), ""
		}
	}
	return time.Time{}, fmt.Sprintf("%s %q: unknown date format (use YYYY-MM-DD)", col, clipText(s, 40))
}

// piColumns are the columns of a coverage file; imo and club are required.
var piColumns = []string{"imo", "club", "vessel_name", "effective_from", "effective_to"}

// ParsePICoverageCSV reads a coverage file: a header row naming the
// columns (any order, any case; imo and club required; vessel_name,
// effective_from and effective_to optional, each named once; other
// columns ignored), then one record per row, comma or semicolon
// separated. A row is rejected, with its line and the reason, for an IMO
// number that is not seven digits or whose check digit fails, an empty or
// overlong club or vessel name, a date in none of the accepted formats or
// outside the years 1900 to 2100, an end before the start, or a malformed
// CSV line. Blank rows are skipped. The error is for a file that cannot
// be read at all (no header, a required column missing or named twice).
func ParsePICoverageCSV(data []byte) ([]PICoverageRow, PICoverageImport, error) {
	ans := PICoverageImport{UnmatchedClubs: []string{}, Rejected: []PICoverageRejected{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, ans, overwatch.Errorf(overwatch.Invalid, "the file must be UTF-8 text without NUL bytes").With("parameter", "file")
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	if first, _, _ := bytes.Cut(data, []byte("\n")); bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		r.Comma = ';'
	}
	header, err := r.Read()
	if err != nil {
		return nil, ans, overwatch.Errorf(overwatch.Invalid, "the file has no header row naming the columns %s", strings.Join(piColumns, ", ")).With("parameter", "file")
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		j, dup := col[h]
		switch {
		case dup && slices.Contains(piColumns, h):
			return nil, ans, overwatch.Errorf(overwatch.Invalid, "the header row names the column %q twice (columns %d and %d); name each column once", h, j+1, i+1).With("parameter", "file")
		case !dup:
			col[h] = i
		}
	}
	for _, need := range piColumns[:2] {
		if _, ok := col[need]; !ok {
			return nil, ans, overwatch.Errorf(overwatch.Invalid, "the header row has no %q column; the columns are imo, club and optionally vessel_name, effective_from, effective_to", need).With("parameter", "file")
		}
	}
	field := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	unmatched := map[string]bool{}
	var rows []PICoverageRow
	reject := func(line int, format string, args ...any) {
		ans.RejectedCount++
		if len(ans.Rejected) < MaxPICoverageRejected {
			ans.Rejected = append(ans.Rejected, PICoverageRejected{Line: line, Reason: fmt.Sprintf(format, args...)})
		}
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			ans.RowsProcessed++
			reject(pe.StartLine, "malformed CSV line: %v", pe.Err)
			continue
		} else if err != nil {
			return nil, ans, overwatch.Errorf(overwatch.Invalid, "the file cannot be read as CSV: %v", err).With("parameter", "file")
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		ans.RowsProcessed++
		row, reason := piRow(rec, field)
		if reason != "" {
			reject(line, "%s", reason)
			continue
		}
		row.Line = line
		if row.ClubID != "" {
			ans.Matched++
		} else if !unmatched[row.ClubName] {
			unmatched[row.ClubName] = true
			ans.UnmatchedClubs = append(ans.UnmatchedClubs, row.ClubName)
		}
		rows = append(rows, row)
	}
	sort.Strings(ans.UnmatchedClubs)
	return rows, ans, nil
}

// piRow validates one record: the row, or the reason it is rejected.
func piRow(rec []string, field func([]string, string) string) (PICoverageRow, string) {
	var row PICoverageRow
	imo, err := overwatch.ParseIMO(field(rec, "imo"))
	if err != nil {
		return row, fmt.Sprintf("imo %q %v", clipText(field(rec, "imo"), 40), err)
	}
	row.IMO = imo
	row.ClubName = field(rec, "club")
	if row.ClubName == "" {
		return row, "club is empty"
	}
	if utf8.RuneCountInString(row.ClubName) > 300 {
		return row, "club is longer than 300 characters"
	}
	if c, ok := pandi.Match(row.ClubName); ok {
		row.ClubID, row.ClubKey = c.ID, c.ID
	} else if key := strings.Join(pandi.Key(row.ClubName), " "); key != "" {
		row.ClubKey = "name:" + key
	} else {
		row.ClubKey = "name:" + strings.ToLower(row.ClubName)
	}
	row.VesselName = field(rec, "vessel_name")
	if utf8.RuneCountInString(row.VesselName) > maxPICoverageText {
		return row, fmt.Sprintf("vessel_name is longer than %d characters", maxPICoverageText)
	}
	for _, f := range []string{"effective_from", "effective_to"} {
		s := field(rec, f)
		if s == "" {
			continue
		}
		d, reason := parsePIDate(s, f)
		if reason != "" {
			return row, reason
		}
		if f == "effective_from" {
			row.From = d
		} else {
			row.To = d
		}
	}
	if !row.From.IsZero() && !row.To.IsZero() && row.To.Before(row.From) {
		return row, "effective_to is before effective_from"
	}
	return row, ""
}
