package read

import (
	"bufio"
	"bytes"
	"sync"
	"time"

	"overwatch/reports"
)

// The written exports a handler keeps: at most csvMemoFiles files and
// csvMemoBytes bytes in all (10,000 visits are about 2 MB of CSV).
const (
	csvMemoFiles = 16
	csvMemoBytes = 64 << 20
)

// csvChunk is how much of a kept file goes to the client per flush.
const csvChunk = 64 << 10

// csvKey identifies an export file: its type, the store's answer (its
// slice, by the address of its first row, and its length) and the row cap.
type csvKey struct {
	kind     string
	first    any // *VisitRow, *EstimateRow; nil for no rows
	n, limit int
}

// csvOf returns the CSV file of rows (header, then a line of cells per
// row, at most limit), written once per store answer.
func csvOf[T any](m *csvMemo, kind string, rows []T, limit int, header []string, cells func(T) []reports.Cell) ([]byte, error) {
	var head any
	if len(rows) > 0 {
		head = &rows[0]
	}
	return m.file(csvKey{kind: kind, first: head, n: len(rows), limit: limit}, rows, header, func(out *reports.CSVWriter) error {
		for _, r := range rows {
			if err := out.WriteRow(cells(r)...); err != nil {
				return err
			}
		}
		return nil
	})
}

// csvMemo keeps the export files as written, per store answer. The store
// hands out the same slice for the same filter until its data changes (its
// read cache), and a new slice (a new key) after; an entry holds its slice
// so that the slice's address is not reused while it is a key. Writing a
// file of 1,500 visits costs about 2 ms of CPU; streaming the kept bytes
// costs a copy. Concurrent requests for a file being written wait for it.
type csvMemo struct {
	mu      sync.Mutex
	entries map[csvKey]*csvEntry
	size    int
}

type csvEntry struct {
	rows  any // the store's slice, pinned
	ready chan struct{}
	body  []byte
	err   error
	used  time.Time
}

// file returns the CSV file of rows (header, then write's rows, at most
// limit), written once per key.
func (m *csvMemo) file(key csvKey, rows any, header []string, write func(*reports.CSVWriter) error) ([]byte, error) {
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[csvKey]*csvEntry{}
	}
	e, ok := m.entries[key]
	if ok {
		e.used = time.Now()
		m.mu.Unlock()
		<-e.ready
		return e.body, e.err
	}
	e = &csvEntry{rows: rows, ready: make(chan struct{}), used: time.Now()}
	m.entries[key] = e
	m.mu.Unlock()

	var buf bytes.Buffer
	out := reports.NewCSV(&buf, header, reports.CSVOptions{MaxRows: key.limit})
	e.err = write(out)
	if e.err == nil {
		e.err = out.Flush()
	}
	e.body = buf.Bytes()
	close(e.ready)

	m.mu.Lock()
	defer m.mu.Unlock()
	if e.err != nil {
		delete(m.entries, key)
		return nil, e.err
	}
	m.size += len(e.body)
	m.evict(key)
	return e.body, nil
}

// evict drops the least recently used finished files (never keep) while
// there are too many or they are too big. m.mu is held.
func (m *csvMemo) evict(keep csvKey) {
	for len(m.entries) > csvMemoFiles || m.size > csvMemoBytes {
		var (
			oldest csvKey
			at     time.Time
			found  bool
		)
		for k, e := range m.entries {
			select {
			case <-e.ready:
			default:
				continue // being written
			}
			if k != keep && (!found || e.used.Before(at)) {
				oldest, at, found = k, e.used, true
			}
		}
		if !found {
			return
		}
		m.size -= len(m.entries[oldest].body)
		delete(m.entries, oldest)
	}
}

// streamBytes is a body stream writer that sends body in chunks, flushing
// each, and stops when the client goes away.
func streamBytes(body []byte) func(w *bufio.Writer) {
	return func(w *bufio.Writer) {
		for len(body) > 0 {
			n := min(len(body), csvChunk)
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			if err := w.Flush(); err != nil {
				return
			}
			body = body[n:]
		}
	}
}
