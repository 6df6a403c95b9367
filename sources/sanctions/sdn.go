package sanctions

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	domain "overwatch/maritime/sanctions"

	"overwatch"
)

// Store keeps the imported sanctions lists; a list's import
// replaces its previous one whole.
type Store interface {
	ReplaceSanctions(ctx context.Context, listSource string, entries []domain.Entry) error
}

// ListOFACSDN is the list source of the OFAC Specially Designated
// Nationals list.
const ListOFACSDN = "OFAC SDN"

// MaxFileBytes caps each file of a list.
const MaxFileBytes = 64 << 20

// sdnColumns, altColumns and commentColumns are the widths of the legacy
// OFAC CSV files (no header rows): SDN.CSV is ent_num, SDN_Name, SDN_Type,
// Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag,
// Vess_owner, Remarks; ALT.CSV is ent_num, alt_num, alt_type, alt_name,
// alt_remarks; SDN_COMMENTS.CSV is ent_num, remarks continued.
const (
	sdnColumns     = 12
	altColumns     = 5
	commentColumns = 2
)

// ParseSDN reads the OFAC legacy SDN list (SDN.CSV, ALT.CSV and
// SDN_COMMENTS.CSV; alt and comments may be nil) and returns its vessel
// entries (SDN_Type "vessel") in ent_num order, tagged listSource
// (ListOFACSDN when empty). The files have no header row; `-0-` is an
// empty field; text may be Latin-1 and may end with a DOS end-of-file
// byte. Each entry gets:
//
//   - Aliases: the ALT names of its ent_num (aka, fka, nka) and the names
//     its remarks give as f.k.a., a.k.a., n.k.a. 'NAME' or Former Vessel
//     Name NAME, without repeats or its own name;
//   - Remarks: the SDN remarks continued by its comments row;
//   - IMO: the first "IMO nnnnnnn" (or "Vessel Registration Identification
//     nnnnnnn") of the remarks whose check digit holds (overwatch.IMO.Valid);
//     MMSI: the first "MMSI nnnnnnnnn";
//   - Flag: the Vess_flag column, or "Vessel Flag X" of the remarks, as an
//     ISO 3166-1 alpha-2 code (FlagCode; unknown names are kept as text,
//     "None Identified" is ""); FormerFlags: "Former Vessel Flag X" and
//     "Other Vessel Flag X";
//   - Program: the programs of "IRAN] [NPWMD] [IFSR" as "IRAN; NPWMD; IFSR".
//
// A structurally broken file (bad quoting, a row of the wrong width, an
// ent_num that is not a number, a file over MaxFileBytes) fails
// with the file and line number, and nothing is returned; anything else
// odd is tolerated: spaces before a field and runs of spaces within one,
// the case of SDN_Type, a missing last field, blank lines, repeated
// ent_nums (the first row stands), unknown flags, bad IMO check digits.
func ParseSDN(sdn, alt, comments io.Reader, listSource string) ([]domain.Entry, error) {
	if listSource = strings.TrimSpace(listSource); listSource == "" {
		listSource = ListOFACSDN
	}
	if sdn == nil {
		return nil, errors.New("sdn: no SDN file")
	}
	byID := map[int]*domain.Entry{}
	var ids []int
	err := readOFAC(sdn, "sdn", sdnColumns, func(line int, f []string) error {
		id, err := entNum(f[0])
		if err != nil {
			return err
		}
		if !strings.EqualFold(f[2], "vessel") {
			return nil
		}
		if byID[id] != nil {
			return nil // a repeated row: the first one stands
		}
		e := &domain.Entry{
			ListSource: listSource, EntryID: strconv.Itoa(id), Name: cleanName(f[1]),
			Program: programs(f[3]), CallSign: f[5], VesselType: f[6], Tonnage: tonnes(f[7]), GRT: tonnes(f[8]),
			Flag: FlagCode(f[9]), Owner: f[10], Remarks: f[11],
		}
		byID[id] = e
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if alt != nil {
		err = readOFAC(alt, "alt", altColumns, func(line int, f []string) error {
			id, err := entNum(f[0])
			if err != nil {
				return err
			}
			if e := byID[id]; e != nil {
				e.Aliases = append(e.Aliases, cleanName(f[3]))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if comments != nil {
		err = readOFAC(comments, "comments", commentColumns, func(line int, f []string) error {
			id, err := entNum(f[0])
			if err != nil {
				return err
			}
			if e := byID[id]; e != nil {
				e.Remarks += f[1]
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Ints(ids)
	out := make([]domain.Entry, 0, len(ids))
	for _, id := range ids {
		e := byID[id]
		fromRemarks(e)
		out = append(out, *e)
	}
	return out, nil
}

// readOFAC reads one legacy OFAC CSV file, calling row with each record's
// line number and its fields (`-0-` as ""; every field but the last
// trimmed, its runs of spaces made one: the last is text a comments row
// may continue mid-word); a record must have width fields (a trailing
// empty one may be missing).
func readOFAC(r io.Reader, file string, width int, row func(line int, f []string) error) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > MaxFileBytes {
		return fmt.Errorf("%s: larger than %d MB", file, MaxFileBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.TrimRight(data, "\x1a\x00 \t\r\n")
	if !utf8.Valid(data) {
		data = latin1(data)
	}
	// encoding/csv, not gocsv's struct mapping: the legacy files have no
	// header row to map columns by, rows of varying width (a missing last
	// field), `-0-` for empty, and each file's rows are joined by ent_num
	// across three files; a positional reader says all that plainly.
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord, cr.ReuseRecord, cr.TrimLeadingSpace = -1, true, true
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s: line %d: %w", file, pe.StartLine, pe.Err)
			}
			return fmt.Errorf("%s: %w", file, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line of spaces
		}
		if len(rec) == width-1 {
			rec = append(rec, "")
		}
		if len(rec) != width {
			return fmt.Errorf("%s: line %d: %d fields, want %d", file, line, len(rec), width)
		}
		for i := range rec {
			if i < width-1 {
				rec[i] = strings.Join(strings.Fields(rec[i]), " ")
			}
			if strings.TrimSpace(rec[i]) == "-0-" {
				rec[i] = ""
			}
		}
		if err := row(line, rec); err != nil {
			return fmt.Errorf("%s: line %d: %w", file, line, err)
		}
	}
}

// latin1 converts ISO 8859-1 text to UTF-8.
func latin1(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

func entNum(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("ent_num %q is not a number", s)
	}
	return n, nil
}

// cleanName trims a name and the quotes the remarks put around it.
func cleanName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "'\" .;,")
	return strings.Join(strings.Fields(s), " ")
}

// programs turns "IRAN] [NPWMD] [IFSR" into "IRAN; NPWMD; IFSR".
func programs(s string) string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '[' || r == ']' || r == ';' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// tonnes reads "99,144" as 99144; anything else is 0.
func tonnes(s string) int {
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

var (
	reIMO         = regexp.MustCompile(`(?i)(?:\bIMO|Vessel Registration Identification)\s*(?:No\.?|Number)?\s*:?\s*(?:IMO\s*)?(\d{7})\b`)
	reMMSI        = regexp.MustCompile(`(?i)\bMMSI\s*:?\s*(\d{9})\b`)
	reQuotedAlias = regexp.MustCompile(`(?i)\b[afn]\.k\.a\.?\s*'([^']+)'`)
	reFormerName  = regexp.MustCompile(`(?i)^(?:alt\.\s*)?Former Vessel Name:?\s+(.+)$`)
	reFlag        = regexp.MustCompile(`(?i)^(?:alt\.\s*)?(Former |Other )?Vessel Flag:?\s+(.+)$`)
)

// fromRemarks fills the identifiers, former names and flags the remarks
// give, and removes repeated aliases.
func fromRemarks(e *domain.Entry) {
	e.Remarks = strings.Join(strings.Fields(e.Remarks), " ")
	for _, m := range reIMO.FindAllStringSubmatch(e.Remarks, -1) {
		if n, err := strconv.ParseUint(m[1], 10, 32); err == nil && overwatch.IMO(uint32(n)).Valid() {
			e.IMO = overwatch.IMO(n)
			break
		}
	}
	if m := reMMSI.FindStringSubmatch(e.Remarks); m != nil {
		if n, err := strconv.ParseUint(m[1], 10, 32); err == nil {
			e.MMSI = uint32(n)
		}
	}
	for _, m := range reQuotedAlias.FindAllStringSubmatch(e.Remarks, -1) {
		e.Aliases = append(e.Aliases, cleanName(m[1]))
	}
	for _, part := range strings.Split(e.Remarks, ";") {
		part = strings.TrimSpace(part)
		if m := reFormerName.FindStringSubmatch(part); m != nil {
			e.Aliases = append(e.Aliases, cleanName(m[1]))
		}
		m := reFlag.FindStringSubmatch(part)
		if m == nil {
			continue
		}
		code := FlagCode(strings.TrimRight(m[2], ". "))
		if m[1] == "" {
			if e.Flag == "" {
				e.Flag = code
			}
		} else if code != "" && !contains(e.FormerFlags, code) {
			e.FormerFlags = append(e.FormerFlags, code)
		}
	}
	seen := map[string]bool{strings.ToUpper(e.Name): true}
	aliases := e.Aliases[:0]
	for _, a := range e.Aliases {
		if k := strings.ToUpper(a); a != "" && !seen[k] {
			seen[k] = true
			aliases = append(aliases, a)
		}
	}
	e.Aliases = aliases
	if len(e.Aliases) == 0 {
		e.Aliases = nil
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
