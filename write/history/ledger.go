package history

import (
	"context"
	"time"

	"overwatch"
)

// Ledger keeps one record per imported file; the clickhouse package
// implements it (history_imports).
type Ledger interface {
	// ImportRecord returns the record of the file with key, if any.
	ImportRecord(ctx context.Context, key string) (Record, bool, error)
	// SaveImport writes a record, replacing the file's earlier one.
	SaveImport(ctx context.Context, r Record) error
}

// Status is where a file's import stands.
type Status string

// The statuses of an import.
const (
	// Running: under way, or stopped without a word (the process was
	// killed); a new run reads the file again from its start.
	Running Status = "running"
	// Complete: every row read and stored; a new run skips the file
	// unless forced.
	Complete Status = "complete"
	// Failed: the file is broken at Line (a truncated archive, binary
	// bytes); the rows before were stored.
	Failed Status = "failed"
	// Interrupted: stopped by the operator after Rows rows, all stored;
	// a new run resumes after them.
	Interrupted Status = "interrupted"
)

// Record is the ledger's account of one file's import.
type Record struct {
	Key    string // FileKey of the file
	File   string // the path given
	Size   int64
	Format Format
	Source overwatch.Source
	Status Status
	Stats  Stats     // the reader's counters (Rows: how far it got)
	Resume uint64    // rows of an interrupted import already stored, that a new run skips
	Error  string    // why a failed import stopped
	Start  time.Time // when this run began
	Update time.Time // when the record was written
}

// Totals sums the ledger's records, for /metrics: files by status, and
// the rows read, reports stored, rows skipped and fixed up by reason of
// every import so far.
type Totals struct {
	Files   map[Status]uint64
	Rows    uint64
	Reports uint64
	Skipped map[Reason]uint64
	Quirks  map[Reason]uint64
}
