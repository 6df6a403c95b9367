package feed

import (
	"context"
	"fmt"
	"net"
	"overwatch/testclock"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
)

// A fake NMEA server sends the first half of a real capture, drops the
// connection, and sends the rest when the feed reconnects.
func TestTCPFeedReconnectsAndLosesNothing(t *testing.T) {
	lines := captureLines(t)
	half := len(lines) / 2
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			part := lines[:half]
			if conns.Add(1) > 1 {
				part = lines[half:]
			}
			for _, l := range part {
				fmt.Fprintf(c, "%s\r\n", l)
			}
			if conns.Load() == 1 {
				c.Close() // drop the first connection
			} else {
				go func() { time.Sleep(time.Minute); c.Close() }()
			}
		}
	}()
	rec := &recorder{}
	now := testclock.Now()
	f := &TCP{Addr: ln.Addr().String(), Source: overwatch.SourceSpire, Sink: rec, MinBackoff: 10 * time.Millisecond, Now: func() time.Time { return now }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()
	want := expected(t, lines, overwatch.SourceSpire, now)
	got := rec.waitFor(t, len(want))
	cancel()
	<-done
	if conns.Load() != 2 {
		t.Errorf("%d connections, want 2", conns.Load())
	}
	sameReports(t, got, want)
	if c := rec.counts(); c.received != uint64(len(lines)) || c.decoded != uint64(len(want)) {
		t.Errorf("counted %d lines and %d reports, want %d and %d", c.received, c.decoded, len(lines), len(want))
	}
}

func TestTCPFeedReconnectsAfterSilence(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			defer c.Close() // silent: never writes
		}
	}()
	f := &TCP{Addr: ln.Addr().String(), Source: overwatch.SourceSpire, Sink: &recorder{}, IdleTimeout: 50 * time.Millisecond, MinBackoff: 10 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go f.Run(ctx) //nolint:errcheck
	deadline := time.Now().Add(2 * time.Second)
	for conns.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if conns.Load() < 3 {
		t.Fatalf("a silent server was not left: %d connections", conns.Load())
	}
}

func TestUDPFeed(t *testing.T) {
	lines := captureLines(t)
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	now := testclock.Now()
	f := &UDP{Conn: conn, Source: overwatch.SourceSatellite, Sink: rec, Now: func() time.Time { return now }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()
	out, err := net.Dial("udp", conn.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	// Receivers send one or a few sentences per datagram. UDP has no
	// back-pressure and loopback drops datagrams beyond the socket buffer
	// when the receiver is short of CPU (two cores, test packages in
	// parallel), so the sender lets it catch up every 60 lines: the
	// reports of all but the last 60 lines sent must have arrived.
	for i := 0; i < len(lines); i += 3 {
		if i >= 120 && i%60 == 0 {
			target := len(expected(t, lines[:i-60], overwatch.SourceSatellite, now))
			for deadline := time.Now().Add(5 * time.Second); len(rec.snapshot()) < target && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
		}
		var dgram string
		for _, l := range lines[i:min(i+3, len(lines))] {
			dgram += l + "\r\n"
		}
		if _, err := out.Write([]byte(dgram)); err != nil {
			t.Fatal(err)
		}
	}
	want := expected(t, lines, overwatch.SourceSatellite, now)
	got := rec.waitFor(t, len(want))
	cancel()
	<-done
	sameReports(t, got, want)
}
