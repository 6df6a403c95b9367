package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"overwatch"
	"overwatch/testclock"
	"overwatch/write/ais"
	"overwatch/write/feed"
	"overwatch/write/ingest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// The live stream's test kit: an NMEA TCP feed the test pushes lines
// into, and the two real clients, Server-Sent Events over net/http and
// WebSocket over coder/websocket.

// pushFeed is an NMEA feed on a TCP listener: lines sent on lines reach
// the connected server in order.
type pushFeed struct {
	addr  string
	lines chan []string
}

func newPushFeed(t *testing.T) *pushFeed {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	f := &pushFeed{addr: ln.Addr().String(), lines: make(chan []string)}
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		w := bufio.NewWriterSize(c, 64<<10)
		for batch := range f.lines {
			for _, l := range batch {
				fmt.Fprintf(w, "%s\r\n", l)
			}
			if w.Flush() != nil {
				return
			}
		}
	}()
	return f
}

// streamMsg is one message of the stream, as a client reads it.
type streamMsg struct {
	ID        uint64   `json:"id"`
	Type      string   `json:"type"`
	IMO       *string  `json:"imo"`
	MMSI      uint32   `json:"mmsi"`
	Source    string   `json:"source"`
	Timestamp string   `json:"timestamp"`
	Received  string   `json:"received_at"`
	Lat       *float64 `json:"latitude"`
	Lon       *float64 `json:"longitude"`
	EventType string   `json:"event_type"`
	raw       string
	sseID     string // the SSE id line
}

// fixKey identifies a position report in the stream and in the input.
func fixKey(mmsi uint32, ts time.Time, lat, lon float64) string {
	return fmt.Sprintf("%d|%s|%.7f|%.7f", mmsi, ts.UTC().Format(time.RFC3339), lat, lon)
}

func (m streamMsg) fixKey(t *testing.T) string {
	ts, err := time.Parse(time.RFC3339Nano, m.Timestamp)
	if err != nil || m.Lat == nil || m.Lon == nil {
		t.Fatalf("position message without time or position: %s", m.raw)
	}
	return fixKey(m.MMSI, ts, *m.Lat, *m.Lon)
}

// collector gathers a stream's messages as a client reads them.
type collector struct {
	mu     sync.Mutex
	msgs   []streamMsg
	errEvt string // SSE: the data of a final `event: error`
	beats  int    // SSE: the heartbeats (comment lines) read
	closed error  // why reading stopped
	done   chan struct{}
}

func (c *collector) add(m streamMsg) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}

// heartbeats is how many heartbeats an SSE stream has read so far.
func (c *collector) heartbeats() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.beats
}

func (c *collector) snapshot() []streamMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]streamMsg(nil), c.msgs...)
}

// positions are the fix keys of the position messages so far.
func (c *collector) positions(t *testing.T) map[string]int {
	out := map[string]int{}
	for _, m := range c.snapshot() {
		if m.Type == "position" {
			out[m.fixKey(t)]++
		}
	}
	return out
}

func decodeMsg(t *testing.T, data string) streamMsg {
	var m streamMsg
	if err := json.Unmarshal([]byte(data), &m); err != nil || m.ID == 0 || m.Type == "" {
		t.Errorf("stream message without id or type: %s (%v)", data, err)
	}
	m.raw = data
	return m
}

// openSSE connects with Accept: text/event-stream and returns the answer
// when it is not a 200, else a collector reading it until ctx ends.
func openSSE(t *testing.T, ctx context.Context, base, key, query string, header map[string]string) (*collector, *http.Response) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v1/stream"+query, nil)
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		return nil, resp
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("SSE content type %q", ct)
	}
	c := &collector{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		var id, event, data string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if data != "" {
					if event == "error" {
						c.mu.Lock()
						c.errEvt = data
						c.mu.Unlock()
					} else {
						m := decodeMsg(t, data)
						m.sseID = id
						c.add(m)
					}
				}
				id, event, data = "", "", ""
			case strings.HasPrefix(line, "id: "):
				id = line[4:]
			case strings.HasPrefix(line, "event: "):
				event = line[7:]
			case strings.HasPrefix(line, "data: "):
				data = line[6:]
			case strings.HasPrefix(line, ": keep-alive"):
				c.mu.Lock()
				c.beats++
				c.mu.Unlock()
			}
		}
		c.mu.Lock()
		c.closed = sc.Err()
		if c.closed == nil {
			c.closed = io.EOF
		}
		c.mu.Unlock()
	}()
	return c, resp
}

// openWS dials the stream as a WebSocket; with read false nothing is
// read (a slow consumer) until readAll is called.
func openWS(t *testing.T, ctx context.Context, base, key, query string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/v1/stream"+query, &websocket.DialOptions{
		HTTPHeader: http.Header{"X-API-Key": []string{key}},
	})
	if conn != nil {
		conn.SetReadLimit(1 << 20)
	}
	return conn, resp, err
}

// readWS reads a WebSocket's messages into a collector until it closes.
func readWS(t *testing.T, ctx context.Context, conn *websocket.Conn) *collector {
	c := &collector{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				c.mu.Lock()
				c.closed = err
				c.mu.Unlock()
				return
			}
			c.add(decodeMsg(t, string(b)))
		}
	}()
	return c
}

// inputReports decodes NMEA lines as the feed does.
func inputReports(lines []string) []ingest.Report {
	dec := ais.NewDecoder(ais.Options{Now: testclock.Now})
	var out []ingest.Report
	for _, l := range lines {
		m, ok := dec.Decode([]byte(l))
		if !ok {
			continue
		}
		if r, ok := feed.FromAIS(&m, overwatch.SourceAISHub, testclock.Now()); ok {
			out = append(out, r)
		}
	}
	return out
}
