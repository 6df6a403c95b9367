package actuals

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The USDA AMS weekly report WA_GR101, "Grains Inspected and/or Weighed
// for Export" (https://www.ams.usda.gov/mnreports/wa_gr101.txt): fixed-width
// text with CRLF line ends. Of its sections ParseGrainInspections reads the
// header (issue date), the week ending, and the table "GRAINS INSPECTED
// AND/OR WEIGHED FOR EXPORT BY REGION AND PORT AREA": one row per region
// and port area, one column per grain, in metric tons. docs/actuals.md
// describes the format and how its port areas map to our ports.

// InspectionsReport is what ParseGrainInspections reads of a WA_GR101 issue.
type InspectionsReport struct {
	Issued     time.Time // the publication date in the report's header
	WeekEnding time.Time // the last day (a Thursday) of the inspection week
	Grains     []string  // the port-area table's grain columns, as headed (e.g. "CORN YELLOW")
	Areas      []InspectionArea
	// Totals are the table's TOTAL line by grain column, checked against
	// the sum of its rows.
	Totals map[string]int64
}

// InspectionArea is a row of the port-area table: the metric tons of each
// grain column inspected for export in a port area of a region.
type InspectionArea struct {
	Region, Area string
	Tonnes       map[string]int64 // by grain column; the row's TOTALS is checked, not kept
}

// MaxInspectionsBytes caps a report: a real issue is about 20 kB.
const MaxInspectionsBytes = 4 << 20

// IsGrainInspections reports whether data looks like a WA_GR101 report
// rather than CSV: its first non-blank line is WA_GR101, or its first
// kilobytes have the report's title.
func IsGrainInspections(data []byte) bool {
	head := data[:min(len(data), 4096)]
	first := strings.TrimSpace(strings.TrimPrefix(string(head), "\ufeff"))
	if line, _, _ := strings.Cut(first, "\n"); strings.TrimSpace(line) == "WA_GR101" {
		return true
	}
	return bytes.Contains(head, []byte("GRAINS INSPECTED AND/OR WEIGHED FOR EXPORT"))
}

var (
	issuedRE     = regexp.MustCompile(`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(\d{1,2}),\s+(\d{4})\b`)
	weekEndingRE = regexp.MustCompile(`REPORTED IN WEEK ENDING\s+([A-Z]{3})[A-Z]*\.?\s+(\d{1,2}),\s+(\d{4})`)
	numberRE     = regexp.MustCompile(`^\d{1,3}(,\d{3})*$|^\d+$`)
)

// ParseGrainInspections reads a WA_GR101 report. It fails, naming the
// line, when the header has no issue date, the port-area table is missing,
// not in metric tons, or cut short (no TOTAL line), or when a row's
// numbers do not add up to its TOTALS, or a region's to its SUBTOTAL, or
// the rows to the TOTAL line: a truncated or garbled download imports
// nothing.
func ParseGrainInspections(r io.Reader) (InspectionsReport, error) {
	var rep InspectionsReport
	data, err := io.ReadAll(io.LimitReader(r, MaxInspectionsBytes+1))
	if err != nil {
		return rep, fmt.Errorf("grain inspections: %w", err)
	}
	if len(data) > MaxInspectionsBytes {
		return rep, fmt.Errorf("grain inspections: larger than %d MB", MaxInspectionsBytes>>20)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxInspectionsBytes)
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r \t"))
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("grain inspections: %w", err)
	}
	if !IsGrainInspections(data) {
		return rep, fmt.Errorf("grain inspections: not a WA_GR101 report (no WA_GR101 line nor its title)")
	}
	for i, l := range lines[:min(len(lines), 10)] {
		if m := issuedRE.FindStringSubmatch(l); m != nil {
			if rep.Issued, err = reportDate(m[1], m[2], m[3]); err != nil {
				return rep, fmt.Errorf("grain inspections: line %d: %w", i+1, err)
			}
			break
		}
	}
	if rep.Issued.IsZero() {
		return rep, fmt.Errorf("grain inspections: no issue date (like \"Aug 10, 2026\") in the header")
	}
	start := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "GRAINS INSPECTED AND/OR WEIGHED FOR EXPORT BY REGION AND PORT AREA") {
			start = i
			break
		}
	}
	if start < 0 {
		return rep, fmt.Errorf("grain inspections: no table \"BY REGION AND PORT AREA\" (truncated report?)")
	}
	if err := rep.parseAreaTable(lines, start); err != nil {
		return rep, fmt.Errorf("grain inspections: %w", err)
	}
	// A whole report goes on with the table by region and country of
	// destination, to its TOTAL line: a download cut after the port-area
	// table is refused too. (Its total is not always the port-area
	// table's: the issue of 30 April 2026 has 25,485 t less yellow corn
	// there.)
	if !hasCountryTotal(lines[start:]) {
		return rep, fmt.Errorf("grain inspections: the table \"BY REGION AND COUNTRY OF DESTINATION\" and its TOTAL line do not follow (truncated report?)")
	}
	return rep, nil
}

// hasCountryTotal reports whether the lines hold the table by region and
// country of destination with its TOTAL line.
func hasCountryTotal(lines []string) bool {
	in := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "GRAINS INSPECTED AND/OR WEIGHED FOR EXPORT BY REGION AND COUNTRY OF DESTINATION") {
			in = true
		}
		if f := strings.Fields(t); in && len(f) > 1 && f[0] == "TOTAL" && numberRE.MatchString(f[len(f)-1]) {
			return true
		}
	}
	return false
}

// reportDate reads a month abbreviation, day and year.
func reportDate(mon, day, year string) (time.Time, error) {
	d, err := time.Parse("Jan 2 2006", strings.ToUpper(mon[:1])+strings.ToLower(mon[1:3])+" "+day+" "+year)
	if err != nil || d.Year() < 1990 || d.Year() > 2100 {
		return time.Time{}, fmt.Errorf("bad date %s %s, %s", mon, day, year)
	}
	return d, nil
}

// parseAreaTable reads the port-area table whose title is lines[start].
func (rep *InspectionsReport) parseAreaTable(lines []string, start int) error {
	i := start + 1
	// The week ending and the unit, before the dashed rule.
	for ; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "---"); i++ {
		t := strings.TrimSpace(lines[i])
		if m := weekEndingRE.FindStringSubmatch(t); m != nil {
			d, err := reportDate(m[1], m[2], m[3])
			if err != nil {
				return fmt.Errorf("line %d: %w", i+1, err)
			}
			rep.WeekEnding = d
		}
		if strings.HasPrefix(t, "--") && strings.HasSuffix(t, "--") && strings.Trim(t, "- ") != "METRIC TONS" {
			return fmt.Errorf("line %d: the port-area table is in %q, not metric tons", i+1, strings.Trim(t, "- "))
		}
	}
	if rep.WeekEnding.IsZero() {
		return fmt.Errorf("line %d: the port-area table has no \"REPORTED IN WEEK ENDING\" line", start+1)
	}
	// The column header: the line with REGION, PORT AREA and TOTALS, and
	// the non-blank line above it (e.g. CORN over YELLOW and WHITE).
	header := -1
	for ; i < len(lines) && i < start+20; i++ {
		if u := strings.ToUpper(lines[i]); strings.Contains(u, "REGION") && strings.Contains(u, "PORT AREA") && strings.Contains(u, "TOTALS") {
			header = i
			break
		}
	}
	if header < 0 {
		return fmt.Errorf("line %d: the port-area table has no REGION / PORT AREA / TOTALS header", start+1)
	}
	cols := headerColumns(lines[header], lines[header-1])
	if len(cols) < 2 || cols[len(cols)-1] != "TOTALS" {
		return fmt.Errorf("line %d: header columns %q do not end with TOTALS", header+1, cols)
	}
	rep.Grains = cols[:len(cols)-1]
	rep.Totals = map[string]int64{}
	sum := make([]int64, len(cols))    // of every row
	subSum := make([]int64, len(cols)) // of the region's rows
	region := ""
	for i = header + 1; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "---") {
			return fmt.Errorf("line %d: the port-area table ends without a TOTAL line", i+1)
		}
		label, nums, err := splitRow(t, len(cols))
		if err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		var rowSum int64
		for _, n := range nums[:len(nums)-1] {
			rowSum += n
		}
		if rowSum != nums[len(nums)-1] {
			return fmt.Errorf("line %d: the grains add up to %d, not its TOTALS %d", i+1, rowSum, nums[len(nums)-1])
		}
		switch up := strings.ToUpper(label); up {
		case "SUBTOTAL":
			for c := range cols {
				if subSum[c] != nums[c] {
					return fmt.Errorf("line %d: %s %s rows add up to %d, not its SUBTOTAL %d", i+1, region, cols[c], subSum[c], nums[c])
				}
				subSum[c] = 0
			}
		case "TOTAL":
			for c := range cols {
				if sum[c] != nums[c] {
					return fmt.Errorf("line %d: %s rows add up to %d, not the TOTAL %d", i+1, cols[c], sum[c], nums[c])
				}
				if c < len(cols)-1 {
					rep.Totals[cols[c]] = nums[c]
				}
			}
			return nil
		default:
			area := label
			if l[0] != ' ' {
				// A region's first row: REGION  PORT AREA.
				r, a, ok := strings.Cut(label, "  ")
				if !ok {
					return fmt.Errorf("line %d: %q is not REGION  PORT AREA", i+1, label)
				}
				region, area = r, strings.TrimSpace(a)
			}
			if region == "" {
				return fmt.Errorf("line %d: port area %q before any region", i+1, area)
			}
			row := InspectionArea{Region: region, Area: area, Tonnes: map[string]int64{}}
			for c, n := range nums {
				sum[c] += n
				subSum[c] += n
				if c < len(cols)-1 {
					row.Tonnes[cols[c]] = n
				}
			}
			rep.Areas = append(rep.Areas, row)
		}
	}
	return fmt.Errorf("the port-area table ends without a TOTAL line (truncated report?)")
}

// headerColumns names the columns of a header line: its words after PORT
// AREA, each prefixed by the word of the line above that overlaps it
// (CORN over YELLOW gives "CORN YELLOW").
func headerColumns(line, above string) []string {
	at := strings.Index(strings.ToUpper(line), "PORT AREA")
	if at < 0 {
		return nil
	}
	at += len("PORT AREA")
	var cols []string
	for _, w := range words(line, at) {
		name := w.text
		for _, a := range words(above, at) {
			if a.start < w.end && w.start < a.end {
				name = a.text + " " + name
			}
		}
		cols = append(cols, strings.ToUpper(name))
	}
	return cols
}

type word struct {
	text       string
	start, end int
}

// words are the space-separated words of s from byte from on.
func words(s string, from int) []word {
	var out []word
	for i := from; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		out = append(out, word{s[i:j], i, j})
		i = j
	}
	return out
}

// splitRow splits a trimmed table row into its label (the words before
// the numbers) and its n numbers (thousands separators allowed).
func splitRow(t string, n int) (string, []int64, error) {
	f := strings.Fields(t)
	if len(f) < n+1 {
		return "", nil, fmt.Errorf("%q: want a label and %d numbers", t, n)
	}
	nums := make([]int64, n)
	for k, s := range f[len(f)-n:] {
		if !numberRE.MatchString(s) || len(s) > 15 {
			return "", nil, fmt.Errorf("%q: %q is not a number of metric tons", t, s)
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil {
			return "", nil, fmt.Errorf("%q: %w", t, err)
		}
		nums[k] = v
	}
	for _, s := range f[:len(f)-n] {
		if numberRE.MatchString(s) {
			return "", nil, fmt.Errorf("%q: more numbers than the %d columns", t, n)
		}
	}
	// The label keeps its inner spacing (REGION  PORT AREA): it ends
	// where the last word before the numbers ends.
	ws := words(t, 0)
	return t[:ws[len(ws)-n-1].end], nums, nil
}
