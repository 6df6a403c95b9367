package history

import (
	"fmt"
	"time"
)

// Stats counts what a Reader has read. Every row lands in exactly one of
// Skipped or the rows that gave at least one report (Kept), so that
// Rows == Kept + the sum of Skipped; Quirks count kept rows again, once
// per reason that applied to them.
type Stats struct {
	File   string // the path (or name) given to Open or NewReader
	Format Format // the format read (Auto until it is known)

	// Rows counts records read: CSV rows (not the header), JSON lines,
	// NMEA lines. Blank lines are not records.
	Rows uint64
	// Kept counts rows that gave at least one report.
	Kept uint64
	// Reports counts reports returned by Next.
	Reports uint64
	// Line is the number (1-based) of the last line read in the current
	// entry (a zip archive starts again at 1 for each entry).
	Line uint64
	// Entry names the zip entry being read ("" for other files).
	Entry string

	// BytesRead is how much of the file on disk has been consumed
	// (compressed bytes for .gz and .zip), Size its size (0 when unknown,
	// as for NewReader): for progress and ETA.
	BytesRead, Size int64

	// Skipped counts rows that gave no report, by reason.
	Skipped map[Reason]uint64
	// Quirks counts kept rows that were fixed up, by reason.
	Quirks map[Reason]uint64

	// First and Last bound the times of the reports returned so far (zero
	// before the first).
	First, Last time.Time
	// MMSIs counts the distinct MMSIs of the reports so far.
	MMSIs int
}

// SkippedTotal is the sum of Skipped.
func (s Stats) SkippedTotal() uint64 {
	var n uint64
	for _, v := range s.Skipped {
		n += v
	}
	return n
}

// String summarises the counts on one line.
func (s Stats) String() string {
	return fmt.Sprintf("%s (%s): %d rows, %d kept, %d reports, %d skipped, %d MMSIs",
		s.File, s.Format, s.Rows, s.Kept, s.Reports, s.SkippedTotal(), s.MMSIs)
}

// counts is the Reader's running tally, guarded by Reader.mu.
type counts struct {
	format      Format
	entry       string
	rows, kept  uint64
	reports     uint64
	line        uint64
	by          [nReasons]uint64
	first, last int64 // unix seconds of the reports, when span
	span        bool
	mmsis       int
}

// stats builds the exported snapshot.
func (c *counts) stats() Stats {
	s := Stats{Format: c.format, Entry: c.entry, Rows: c.rows, Kept: c.kept, Reports: c.reports, Line: c.line,
		MMSIs: c.mmsis, Skipped: map[Reason]uint64{}, Quirks: map[Reason]uint64{}}
	for i := rNone + 1; i < nReasons; i++ {
		if c.by[i] == 0 {
			continue
		}
		if i < firstQuirk {
			s.Skipped[reasons[i]] = c.by[i]
		} else {
			s.Quirks[reasons[i]] = c.by[i]
		}
	}
	if c.span {
		s.First, s.Last = time.Unix(c.first, 0).UTC(), time.Unix(c.last, 0).UTC()
	}
	return s
}
