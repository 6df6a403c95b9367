package live

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func positions(mmsis ...uint32) []Event {
	out := make([]Event, len(mmsis))
	for i, m := range mmsis {
		out[i] = Event{Kind: KindPosition, MMSI: m, Body: map[string]any{"mmsi": m}}
	}
	return out
}

func recv(t *testing.T, s *Subscription) *Event {
	t.Helper()
	select {
	case e, ok := <-s.C():
		if !ok {
			t.Fatalf("subscription closed: %s", s.Reason())
		}
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
	}
	return nil
}

func TestHubFansOutMatchingEventsInOrder(t *testing.T) {
	h := New(Options{Start: time.Unix(1000, 0)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	odd, _ := h.Subscribe(func(e *Event) bool { return e.MMSI%2 == 1 }, "sse", false, 0)
	all, _ := h.Subscribe(nil, "ws", false, 0)
	if h.Subscribers("sse") != 1 || h.Subscribers("ws") != 1 {
		t.Fatalf("subscribers sse %d ws %d", h.Subscribers("sse"), h.Subscribers("ws"))
	}
	h.Publish(positions(1, 2, 3))
	for _, want := range []uint32{1, 3} {
		if e := recv(t, odd); e.MMSI != want {
			t.Fatalf("odd got mmsi %d, want %d", e.MMSI, want)
		}
	}
	var prev uint64
	for i := 0; i < 3; i++ {
		e := recv(t, all)
		if e.ID <= prev || e.ID <= 1000*1000000 {
			t.Fatalf("id %d after %d", e.ID, prev)
		}
		prev = e.ID
		var m map[string]any
		if err := json.Unmarshal(e.JSON, &m); err != nil || m["type"] != "position" || uint64(m["id"].(float64)) != e.ID || m["mmsi"] == nil {
			t.Fatalf("message %s: %v", e.JSON, err)
		}
	}
	odd.Close()
	if h.Subscribers("sse") != 0 {
		t.Fatal("closed subscription still counted")
	}
}

func TestHubDropsSlowConsumerWithoutBlocking(t *testing.T) {
	h := New(Options{Buffer: 2})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	slow, _ := h.Subscribe(nil, "ws", false, 0)
	fast, _ := h.Subscribe(nil, "ws", false, 0)
	for i := 0; i < 3; i++ {
		h.Publish(positions(uint32(i + 1)))
		recv(t, fast)
	}
	n := 0
	for range slow.C() {
		n++
	}
	if n != 2 || slow.Reason() != DropSlowConsumer {
		t.Fatalf("slow got %d events, reason %q", n, slow.Reason())
	}
	if got := h.Stats().Dropped[DropSlowConsumer]; got != 1 {
		t.Fatalf("dropped %d", got)
	}
}

func TestHubLosesChunksRatherThanBlockAndDropsSubscribers(t *testing.T) {
	h := New(Options{Queue: 1})
	s, _ := h.Subscribe(nil, "ws", false, 0)
	h.Publish(positions(1))
	done := make(chan struct{})
	go func() { h.Publish(positions(2, 3)); close(done) }() // the hub is not running: the queue is full
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked")
	}
	if h.Stats().Lost != 2 {
		t.Fatalf("lost %d", h.Stats().Lost)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	for range s.C() {
	}
	if s.Reason() != DropServerBehind {
		t.Fatalf("reason %q", s.Reason())
	}
}

func TestHubResumesFromKeptEvents(t *testing.T) {
	h := New(Options{RingSize: 3})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	w, _ := h.Subscribe(nil, "ws", false, 0)
	h.Publish(positions(1, 2, 3, 4, 5))
	var ids []uint64
	for i := 0; i < 5; i++ {
		ids = append(ids, recv(t, w).ID)
	}
	r, err := h.Subscribe(func(e *Event) bool { return e.MMSI != 4 }, "sse", true, ids[2])
	if err != nil {
		t.Fatal(err)
	}
	if b := r.Backlog(); len(b) != 1 || b[0].ID != ids[4] {
		t.Fatalf("backlog %v", b)
	}
	if _, err := h.Subscribe(nil, "sse", true, ids[0]); !errors.Is(err, ErrGone) {
		t.Fatalf("resume after an evicted event: %v", err)
	}
	if _, err := h.Subscribe(nil, "sse", true, ids[1]); err != nil {
		t.Fatalf("resume after the event before the oldest kept: %v", err)
	}
	if _, err := h.Subscribe(nil, "sse", true, ids[4]+1); !errors.Is(err, ErrUnknownID) {
		t.Fatalf("resume after a future id: %v", err)
	}
	cancel()
	for range r.C() {
	}
	if r.Reason() != DropShutdown {
		t.Fatalf("reason at shutdown %q", r.Reason())
	}
}
