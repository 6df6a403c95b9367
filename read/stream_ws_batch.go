package read

import (
	"net"
	"sync"
	"time"
)

// wsBatchMax bounds the events a WebSocket subscriber's writer sends in
// one write to its connection.
const wsBatchMax = 256

// heldWriter is the writer under a WebSocket connection's frames: it
// passes each write to the connection at once, except while held, when
// the frames wait in memory until release writes them in one call (one
// system call for the events that were waiting, where each frame would
// otherwise be one). The WebSocket library flushes every frame it
// writes; holding is how the stream batches them, as the SSE stream does
// with its flushes. Frames written meanwhile by other goroutines (pings,
// the close) join the batch in their order.
type heldWriter struct {
	conn    net.Conn
	timeout time.Duration // a release's write deadline

	mu   sync.Mutex
	held bool
	buf  []byte
}

// Write passes p to the connection, or keeps it while held.
func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		h.buf = append(h.buf, p...)
		return len(p), nil
	}
	return h.conn.Write(p)
}

// hold keeps the writes from now until release.
func (h *heldWriter) hold() {
	h.mu.Lock()
	h.held = true
	h.mu.Unlock()
}

// release writes what was kept, in one write bounded by the timeout, and
// passes writes through again.
func (h *heldWriter) release() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = false
	if len(h.buf) == 0 {
		return nil
	}
	_ = h.conn.SetWriteDeadline(time.Now().Add(h.timeout))
	_, err := h.conn.Write(h.buf)
	_ = h.conn.SetWriteDeadline(time.Time{})
	if cap(h.buf) > 1<<20 { // a burst's buffer is not kept for the stream's life
		h.buf = nil
	} else {
		h.buf = h.buf[:0]
	}
	return err
}
