package read

import (
	"io"
	"sync"
)

// aheadWriter writes to w in a goroutine of its own, so that the next part
// of a streamed body is encoded while the last one is in the socket's
// write (a year's track is 12 MB: about a sixth of its answer's time is the
// kernel's copy of it). Each Write copies p into one of a few buffers
// (the caller reuses p); Close waits for every write and returns the first
// error. Only the goroutine touches w until Close returns.
type aheadWriter struct {
	w     io.Writer
	queue chan []byte
	free  chan []byte
	done  chan struct{}

	mu  sync.Mutex
	n   int64
	err error
}

// aheadBuffers is how many parts may wait for the socket.
const aheadBuffers = 3

func newAheadWriter(w io.Writer, size int) *aheadWriter {
	a := &aheadWriter{w: w, queue: make(chan []byte, aheadBuffers), free: make(chan []byte, aheadBuffers+1), done: make(chan struct{})}
	for i := 0; i < aheadBuffers+1; i++ {
		a.free <- make([]byte, 0, size)
	}
	go a.run()
	return a
}

func (a *aheadWriter) run() {
	defer close(a.done)
	for p := range a.queue {
		if a.failed() == nil {
			n, err := a.w.Write(p)
			a.mu.Lock()
			a.n += int64(n)
			if err != nil && a.err == nil {
				a.err = err
			}
			a.mu.Unlock()
		}
		a.free <- p[:0]
	}
}

func (a *aheadWriter) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Write queues a copy of p.
func (a *aheadWriter) Write(p []byte) (int, error) {
	if err := a.failed(); err != nil {
		return 0, err
	}
	buf := append(<-a.free, p...)
	a.queue <- buf
	return len(p), nil
}

// Close waits for the queued writes; it returns how many bytes were
// written and the first error.
func (a *aheadWriter) Close() (int64, error) {
	close(a.queue)
	<-a.done
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n, a.err
}
