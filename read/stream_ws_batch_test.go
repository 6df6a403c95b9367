package read

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// countingConn counts the writes made on a real (in-memory) connection.
type countingConn struct {
	net.Conn
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes++
	return c.Conn.Write(p)
}

// TestHeldWriterBatches: writes pass through one by one; held, they reach
// the connection in one write, in their order, at release.
func TestHeldWriterBatches(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	conn := &countingConn{Conn: server}
	h := &heldWriter{conn: conn, timeout: time.Second}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(client)
		got <- b
	}()
	for _, s := range []string{"a", "b"} {
		if _, err := h.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if conn.writes != 2 {
		t.Fatalf("%d writes passing through, want 2", conn.writes)
	}
	h.hold()
	for _, s := range []string{"c", "d", "e"} {
		if n, err := h.Write([]byte(s)); n != 1 || err != nil {
			t.Fatal(n, err)
		}
	}
	if conn.writes != 2 {
		t.Fatalf("%d writes while held, want still 2", conn.writes)
	}
	if err := h.release(); err != nil {
		t.Fatal(err)
	}
	if conn.writes != 3 {
		t.Fatalf("%d writes after release, want 3 (one for the held frames)", conn.writes)
	}
	if err := h.release(); err != nil || conn.writes != 3 {
		t.Fatalf("an empty release wrote: %v, %d writes", err, conn.writes)
	}
	server.Close()
	if b := <-got; !bytes.Equal(b, []byte("abcde")) {
		t.Fatalf("the client read %q", b)
	}
}

// TestHeldWriterReleaseTimesOut: a client that takes nothing fails the
// release at its deadline instead of holding the stream's writer.
func TestHeldWriterReleaseTimesOut(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	defer server.Close()
	h := &heldWriter{conn: server, timeout: 50 * time.Millisecond}
	h.hold()
	h.Write([]byte("never read")) //nolint:errcheck
	if err := h.release(); err == nil {
		t.Fatal("release to a client reading nothing succeeded")
	}
}
