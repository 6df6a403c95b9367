package bulk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"overwatch/read"
)

// The pool's bounds: how long a worker's claim holds without news (it is
// extended at every progress report), how often progress is reported, and
// how many times an export interrupted by a stopping worker is taken up
// again before it fails.
const (
	Lease         = time.Minute
	progressEvery = 2 * time.Second
	MaxAttempts   = 3
	pollEvery     = time.Second
)

// PoolConfig is what the worker pool works with.
type PoolConfig struct {
	Store   Store
	Source  Source
	Dir     string        // where the files are written (created if missing)
	TTL     time.Duration // how long a completed export's file is kept
	Workers int           // exports written at once (at least 1)
	// Now is the service's clock: completion and expiry times. Leases keep
	// the real time.
	Now       func() time.Time
	PublicURL string // the service's address, for download_url
	Log       *slog.Logger
}

// Pool writes the queued exports in the background, Workers at a time.
// The queue is the store's: an export is taken by one worker (of any
// instance sharing the store), and one whose worker stopped without
// finishing (a crash, a restart) is taken again when its lease ends, its
// partial file rewritten from the start, at most MaxAttempts times.
type Pool struct {
	cfg  PoolConfig
	wake chan struct{}
}

// NewPool returns a pool; Run starts its workers.
func NewPool(cfg PoolConfig) *Pool {
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Pool{cfg: cfg, wake: make(chan struct{}, 1)}
}

// Dir is the directory of the files.
func (p *Pool) Dir() string { return p.cfg.Dir }

// Wake tells an idle worker that an export was queued.
func (p *Pool) Wake() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run runs the workers until ctx ends; an export being written then is
// queued again (its partial file removed) for the next start.
func (p *Pool) Run(ctx context.Context) {
	if err := os.MkdirAll(p.cfg.Dir, 0o750); err != nil {
		p.cfg.Log.Error("export directory", "dir", p.cfg.Dir, "err", err)
	}
	var wg sync.WaitGroup
	for range p.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx)
		}()
	}
	wg.Wait()
}

func (p *Pool) work(ctx context.Context) {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for ctx.Err() == nil {
		c, err := p.cfg.Store.ClaimExport(ctx, time.Now(), Lease, MaxAttempts,
			fmt.Sprintf("the export was interrupted %d times (the server stopped while writing it); ask for it again", MaxAttempts))
		if err != nil && ctx.Err() == nil {
			p.cfg.Log.Error("export claim", "err", err)
		}
		if c != nil {
			p.run(ctx, c)
			continue // another may be waiting
		}
		select {
		case <-ctx.Done():
		case <-p.wake:
		case <-tick.C:
		}
	}
}

// fileName is the name of an export's file under the directory.
func fileName(id string, f Format) string { return id + "." + string(f) }

// run writes one export and records its outcome.
func (p *Pool) run(ctx context.Context, c *Claim) {
	log := p.cfg.Log.With("export", c.ID, "dataset", c.Dataset, "format", c.Format)
	started := time.Now()
	name := fileName(c.ID, c.Format)
	part := filepath.Join(p.cfg.Dir, name+".part")
	rows, bytes, err := p.write(ctx, c, part)
	store := context.WithoutCancel(ctx)
	if err != nil {
		os.Remove(part) //nolint:errcheck // it may not exist
		if ctx.Err() != nil {
			log.Info("export interrupted; queued again", "err", err)
			if err := p.cfg.Store.ReleaseExport(store, c.ID); err != nil {
				log.Error("export release", "err", err)
			}
			return
		}
		msg := "the export could not be written; try again"
		var ue userError
		if errors.As(err, &ue) {
			msg = ue.msg
		}
		log.Error("export failed", "err", err, "rows", rows)
		payload, _ := json.Marshal(map[string]any{"type": EventFailed, "export": map[string]any{
			"id": c.ID, "dataset": c.Dataset, "format": c.Format, "error": msg}})
		if err := p.cfg.Store.FailExport(store, c.ID, msg, Event{Type: EventFailed, ID: "export_" + c.ID + "_failed", Payload: payload}); err != nil {
			log.Error("export fail record", "err", err)
		}
		return
	}
	if err := os.Rename(part, filepath.Join(p.cfg.Dir, name)); err != nil {
		log.Error("export rename", "err", err)
		os.Remove(part)                                                                            //nolint:errcheck
		p.cfg.Store.FailExport(store, c.ID, "the export could not be written; try again", Event{}) //nolint:errcheck
		return
	}
	now := p.cfg.Now().UTC()
	expires := now.Add(p.cfg.TTL)
	url := DownloadURL(p.cfg.PublicURL, c.ID)
	payload, _ := json.Marshal(map[string]any{"type": EventCompleted, "export": map[string]any{
		"id": c.ID, "dataset": c.Dataset, "format": c.Format, "rows": rows, "bytes": bytes,
		"download_url": url, "expires_at": expires}})
	if err := p.cfg.Store.CompleteExport(store, c.ID, name, rows, bytes, now, expires,
		Event{Type: EventCompleted, ID: "export_" + c.ID + "_completed", Payload: payload}); err != nil {
		log.Error("export complete record", "err", err)
		return
	}
	log.Info("export completed", "rows", rows, "bytes", bytes, "took", time.Since(started).Round(time.Millisecond))
}

// The webhook events of an export's outcome.
const (
	EventCompleted = "export.completed"
	EventFailed    = "export.failed"
)

// DownloadURL is the address an export is downloaded from.
func DownloadURL(publicURL, id string) string {
	return strings.TrimSuffix(publicURL, "/") + "/v1/exports/" + id + "/download"
}

// userError is a failure whose message the export's owner is shown.
type userError struct {
	msg string
}

func (e userError) Error() string { return e.msg }

// write streams the export's rows into the file at path and returns the
// rows and bytes written.
func (p *Pool) write(ctx context.Context, c *Claim, path string) (rows, size int64, err error) {
	filter, err := read.ParsePositionFilter(func(name string) string { return c.Filters[name] })
	if err != nil {
		return 0, 0, userError{"the stored filters no longer parse: " + err.Error()}
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, fmt.Errorf("create: %w", err)
	}
	defer f.Close()
	bw := bufferedFile(f)
	w, err := newRowWriter(c.Format, c.Dataset, bw)
	if err != nil {
		return 0, 0, err
	}
	src, err := p.cfg.Source.ExportRows(ctx, Query{Dataset: c.Dataset, Filter: filter})
	if err != nil {
		return 0, 0, err
	}
	defer src.Close()
	dest := scanDest(c.Dataset)
	next := time.Now().Add(progressEvery)
	for src.Next(dest) {
		if rows == c.MaxRows {
			return rows, 0, userError{fmt.Sprintf("the filters select more than %d rows, the plan's rows per export (export_max_rows): narrow them", c.MaxRows)}
		}
		if err := w.Write(dest); err != nil {
			return rows, 0, fmt.Errorf("write: %w", err)
		}
		rows++
		if rows%4096 == 0 && time.Now().After(next) {
			next = time.Now().Add(progressEvery)
			progress := 0.0
			if c.Estimated > 0 {
				progress = min(float64(rows)/float64(c.Estimated), 0.99)
			}
			if err := p.cfg.Store.ProgressExport(ctx, c.ID, progress, time.Now().Add(Lease)); err != nil {
				return rows, 0, fmt.Errorf("progress: %w", err)
			}
		}
	}
	if err := src.Err(); err != nil {
		return rows, 0, err
	}
	if err := w.Close(); err != nil {
		return rows, 0, fmt.Errorf("close: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return rows, 0, fmt.Errorf("flush: %w", err)
	}
	if err := f.Sync(); err != nil {
		return rows, 0, fmt.Errorf("sync: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return rows, 0, err
	}
	return rows, st.Size(), f.Close()
}

// scanDest are a row's scan destinations, by the dataset's column kinds.
func scanDest(d Dataset) []any {
	cols := d.Columns()
	dest := make([]any, len(cols))
	for i, c := range cols {
		switch c.Kind {
		case String, Text:
			dest[i] = new(string)
		case Float:
			dest[i] = new(float64)
		default:
			dest[i] = new(int64)
		}
	}
	return dest
}

// Expire marks the exports whose expiry has passed (the service's clock)
// expired and deletes their files, and removes partial files no worker
// has touched for two leases (left by a process that died); it returns
// how many files it deleted. The expiry job of the job table runs it.
func (p *Pool) Expire(ctx context.Context) (int64, error) {
	files, err := p.cfg.Store.ExpireExports(ctx, p.cfg.Now())
	if err != nil {
		return 0, err
	}
	var n int64
	for _, name := range files {
		if name == "" || strings.ContainsAny(name, `/\`) {
			continue
		}
		if err := os.Remove(filepath.Join(p.cfg.Dir, name)); err == nil {
			n++
		} else if !errors.Is(err, os.ErrNotExist) {
			p.cfg.Log.Error("export expiry", "file", name, "err", err)
		}
	}
	parts, _ := filepath.Glob(filepath.Join(p.cfg.Dir, "*.part"))
	for _, path := range parts {
		if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > 2*Lease {
			if os.Remove(path) == nil {
				n++
			}
		}
	}
	return n, nil
}
