package ingest

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// spool is the write-ahead store of batches the database did not take:
// one file per batch, written to a temporary name, synced and renamed, so a
// crash leaves either a whole batch or none. Files are replayed in name
// (time) order and deleted only once the database has taken them.
type spool struct {
	dir string

	mu    sync.Mutex
	files int
	bytes int64
	seq   uint64
}

const spoolExt = ".batch"

func openSpool(dir string) (*spool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	s := &spool{dir: dir}
	names, err := s.list()
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil {
			s.files++
			s.bytes += fi.Size()
		}
	}
	// Leftovers of an interrupted write are not batches.
	tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	for _, t := range tmps {
		os.Remove(t)
	}
	return s, nil
}

// list returns the spooled batch files, oldest first.
func (s *spool) list() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), spoolExt) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// put writes the batch durably.
func (s *spool) put(b *Batch) error {
	s.mu.Lock()
	s.seq++
	name := fmt.Sprintf("%020d-%08d%s", time.Now().UnixNano(), s.seq, spoolExt)
	s.mu.Unlock()
	path := filepath.Join(s.dir, name)
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = gob.NewEncoder(w).Encode(b)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	var size int64
	if fi, serr := f.Stat(); serr == nil {
		size = fi.Size()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(path+".tmp", path)
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return fmt.Errorf("spool: %w", err)
	}
	if d, err := os.Open(s.dir); err == nil {
		d.Sync() //nolint:errcheck // best effort: the rename is already durable on most file systems
		d.Close()
	}
	s.mu.Lock()
	s.files++
	s.bytes += size
	s.mu.Unlock()
	return nil
}

// get reads one spooled batch.
func (s *spool) get(name string) (*Batch, error) {
	f, err := os.Open(filepath.Join(s.dir, name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b Batch
	if err := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&b); err != nil {
		return nil, err
	}
	return &b, nil
}

// done deletes a batch the database has taken.
func (s *spool) done(name string) error {
	path := filepath.Join(s.dir, name)
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	s.mu.Lock()
	s.files--
	s.bytes -= fi.Size()
	s.mu.Unlock()
	return nil
}

// quarantine moves an unreadable file aside; it is never deleted silently.
func (s *spool) quarantine(name string) error {
	dir := filepath.Join(s.dir, "unreadable")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fi, _ := os.Stat(filepath.Join(s.dir, name))
	if err := os.Rename(filepath.Join(s.dir, name), filepath.Join(dir, name)); err != nil {
		return err
	}
	s.mu.Lock()
	s.files--
	if fi != nil {
		s.bytes -= fi.Size()
	}
	s.mu.Unlock()
	return nil
}

func (s *spool) size() (files int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files, s.bytes
}

var errSpoolFull = errors.New("spool is full")
