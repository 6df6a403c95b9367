package history

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"overwatch"
	"overwatch/write/ingest"
)

// Sink takes the reports of an import: the ingest pipeline, which
// attributes them to IMOs and writes them where the live feeds' go.
type Sink interface {
	// SubmitBatch queues reports in order, waiting while the sink is
	// full; it returns how many it took before an error. rs may be reused
	// when it returns.
	SubmitBatch(ctx context.Context, rs []ingest.Report) (int, error)
	// Close writes everything queued (positions still waiting for their
	// IMO included) and stops the sink.
	Close(ctx context.Context) error
}

// ErrAlreadyImported is returned, wrapped, for a file the ledger records
// as completely imported.
var ErrAlreadyImported = errors.New("already imported")

// Outcome is what Run did with one file: its record, and whether it was
// skipped as already imported.
type Outcome struct {
	Record
	AlreadyImported bool
}

// Importer reads archive files into a Sink, keeping the ledger up to date.
type Importer struct {
	Sink   Sink
	Ledger Ledger
	Format Format           // Auto or a forced format
	Source overwatch.Source // the provider the rows are stored under
	Force  bool             // import files the ledger records as complete again
	// Progress, when set, is called about four times a second during an
	// import with the current file's counters.
	Progress func(Stats)
	// Checkpoint is how often the ledger's record of a running import is
	// rewritten (for /metrics; default 10 s).
	Checkpoint time.Duration
	Now        func() time.Time
}

// Run imports the files in order, then closes the sink, and only then
// records the files it read whole as complete. It stops at the first
// broken file (or when ctx ends): that file is recorded as failed (or
// interrupted) with how far it got, the files after it are not read. The
// outcomes of the files read, skipped or stopped at are returned in order.
func (im *Importer) Run(ctx context.Context, paths []string) ([]Outcome, error) {
	if im.Now == nil {
		im.Now = time.Now
	}
	if im.Checkpoint <= 0 {
		im.Checkpoint = 10 * time.Second
	}
	var recs []Outcome
	var runErr error
	for _, path := range paths {
		rec, err := im.file(ctx, path)
		if errors.Is(err, ErrAlreadyImported) {
			recs = append(recs, Outcome{Record: rec, AlreadyImported: true})
			continue
		}
		if rec.Key != "" {
			recs = append(recs, Outcome{Record: rec})
		}
		if err != nil {
			runErr = err
			break
		}
	}
	// The sink is closed whatever happened: what was read is stored (or
	// spooled) before the ledger says so.
	closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Minute)
	defer cancel()
	closeErr := im.Sink.Close(closeCtx)
	for i := range recs {
		r := &recs[i].Record
		if recs[i].AlreadyImported {
			continue
		}
		switch {
		case closeErr != nil:
			r.Status, r.Error = Failed, "the store did not take every row: "+closeErr.Error()
		case r.Error != "" && ctx.Err() != nil:
			r.Status, r.Resume = Interrupted, r.Stats.Rows
		case r.Error != "":
			r.Status = Failed
		default:
			r.Status = Complete
		}
		r.Update = im.Now().UTC()
		if err := im.Ledger.SaveImport(closeCtx, *r); err != nil {
			runErr = errors.Join(runErr, err)
		}
	}
	return recs, errors.Join(runErr, closeErr)
}

// file imports one file into the sink and returns its record, status
// Running (Run decides the final one), with Error set when it stopped.
func (im *Importer) file(ctx context.Context, path string) (Record, error) {
	key, size, err := FileKey(path)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Key: key, File: path, Size: size, Format: im.Format, Source: im.Source, Status: Running, Start: im.Now().UTC()}
	prev, found, err := im.Ledger.ImportRecord(ctx, key)
	if err != nil {
		return Record{}, err
	}
	if found && prev.Status == Complete && !im.Force {
		return prev, fmt.Errorf("%s: %w on %s (%d rows); --force imports it again",
			path, ErrAlreadyImported, prev.Update.Format(time.RFC3339), prev.Stats.Rows)
	}
	if found && prev.Status == Interrupted && !im.Force {
		rec.Resume = prev.Resume
	}
	r, err := Open(path, im.Format, im.Source)
	if err != nil {
		rec.Status, rec.Error = Failed, err.Error()
		rec.Update = rec.Start
		if serr := im.Ledger.SaveImport(ctx, rec); serr != nil {
			err = errors.Join(err, serr)
		}
		return Record{}, err
	}
	defer r.Close()
	rec.Format = r.Format()
	save := func() error {
		rec.Stats, rec.Update = r.Stats(), im.Now().UTC()
		return im.Ledger.SaveImport(ctx, rec)
	}
	if err := save(); err != nil {
		return rec, err
	}
	lastProgress, lastSave := time.Now(), time.Now()
	// Reports go to the sink ingest.ChunkSize at a time, each with its
	// row, so that an interruption knows the last row handed over whole.
	chunk := make([]ingest.Report, 0, ingest.ChunkSize)
	rows := make([]uint64, 0, ingest.ChunkSize)
	send := func() error {
		n, err := im.Sink.SubmitBatch(ctx, chunk)
		if err != nil {
			// Only the context stops the sink: the rows before the
			// first report not taken were handed over whole.
			done := rec.Resume
			if n < len(rows) && rows[n] > 0 {
				done = max(done, rows[n]-1)
			}
			rec.Stats, rec.Error = r.Stats(), "interrupted: "+err.Error()
			rec.Stats.Rows = done
			return err
		}
		chunk, rows = chunk[:0], rows[:0]
		return nil
	}
	for n := 0; ; n++ {
		rep, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if serr := send(); serr != nil {
				return rec, serr
			}
			rec.Stats, rec.Error = r.Stats(), err.Error()
			return rec, err
		}
		if row := r.Rows(); row > rec.Resume {
			chunk, rows = append(chunk, rep), append(rows, row)
			if len(chunk) == cap(chunk) {
				if err := send(); err != nil {
					return rec, err
				}
			}
		}
		if n&4095 == 0 {
			if now := time.Now(); im.Progress != nil && now.Sub(lastProgress) >= 250*time.Millisecond {
				im.Progress(r.Stats())
				lastProgress = now
			}
			if now := time.Now(); now.Sub(lastSave) >= im.Checkpoint {
				if err := save(); err != nil {
					return rec, err
				}
				lastSave = now
			}
		}
	}
	if err := send(); err != nil {
		return rec, err
	}
	rec.Stats = r.Stats()
	if im.Progress != nil {
		im.Progress(rec.Stats)
	}
	return rec, nil
}
