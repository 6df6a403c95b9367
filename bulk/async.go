package bulk

import (
	"io"
	"sync"
)

// asyncWriter hands the text writer's buffers to a goroutine that writes
// them on (the gzip stream): rows are read and formatted on one core while
// the other compresses, as clickhouse-client and gzip run side by side.
// At most asyncDepth buffers wait, so memory stays bounded.
type asyncWriter struct {
	w    io.WriteCloser
	ch   chan []byte
	free sync.Pool
	done chan struct{}
	err  error // the first write error, read after done is closed
}

const asyncDepth = 4

func newAsyncWriter(w io.WriteCloser) *asyncWriter {
	a := &asyncWriter{w: w, ch: make(chan []byte, asyncDepth), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		for b := range a.ch {
			if a.err == nil {
				_, a.err = a.w.Write(b)
			}
			a.free.Put(b[:0]) //nolint:staticcheck // a slice header; buffers are reused
		}
	}()
	return a
}

// Write queues a copy of p.
func (a *asyncWriter) Write(p []byte) (int, error) {
	b, _ := a.free.Get().([]byte)
	b = append(b, p...)
	a.ch <- b
	return len(p), nil
}

// Close writes what is queued, then closes the stream; it returns the
// first error of either.
func (a *asyncWriter) Close() error {
	close(a.ch)
	<-a.done
	if a.err != nil {
		return a.err
	}
	return a.w.Close()
}
