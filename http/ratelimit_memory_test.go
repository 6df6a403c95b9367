package http

import (
	"context"
	"net/netip"
	"overwatch/testclock"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
)

func TestMemoryRatesExactUnderConcurrency(t *testing.T) {
	m := NewMemoryRates()
	now := time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC)
	b := []overwatch.RateBucket{{Key: "m", Limit: 60, Period: overwatch.PerMinute}, {Key: "d", Limit: 1000, Period: overwatch.PerUTCDay}}
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok, _ := m.TakeRate(context.Background(), now, b); ok {
				admitted.Add(1)
			}
		}()
	}
	wg.Wait()
	if admitted.Load() != 60 {
		t.Fatalf("admitted %d, want 60", admitted.Load())
	}
	c, ok, _ := m.TakeRate(context.Background(), now.Add(59*time.Second), b)
	if ok || c[0].Used != 60 || c[1].Used != 60 || !c[0].Reset.Equal(now.Add(time.Minute)) || !c[1].Reset.Equal(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("refused draw: %+v %v", c, ok)
	}
	// The minute window reopens 60 s after it opened; the day keeps counting.
	c, ok, _ = m.TakeRate(context.Background(), now.Add(60*time.Second), b)
	if !ok || c[0].Used != 1 || c[1].Used != 61 {
		t.Fatalf("after a minute: %+v %v", c, ok)
	}
}

func TestMemoryRatesSweepsEndedWindows(t *testing.T) {
	m := NewMemoryRates()
	now := testclock.Now()
	for i := 0; i < 1000; i++ {
		m.TakeRate(context.Background(), now, []overwatch.RateBucket{{Key: string(rune('a'+i%26)) + time.Duration(i).String(), Limit: 1, Period: overwatch.PerMinute}}) //nolint:errcheck
	}
	m.TakeRate(context.Background(), now.Add(2*time.Minute), []overwatch.RateBucket{{Key: "x", Limit: 1, Period: overwatch.PerMinute}}) //nolint:errcheck
	if len(m.windows) != 1 {
		t.Fatalf("%d windows kept after they ended", len(m.windows))
	}
}

// TestMemoryRatesPublicAsBuckets: the public surface's direct draw counts,
// refuses and resets exactly as its two buckets drawn through TakeRate,
// an IPv6 client by its /64.
func TestMemoryRatesPublicAsBuckets(t *testing.T) {
	direct, buckets := NewMemoryRates(), NewMemoryRates()
	start := time.Date(2026, 12, 5, 23, 58, 50, 0, time.UTC) // the day ends within the draws
	clients := []netip.Addr{netip.MustParseAddr("192.0.2.7"), netip.MustParseAddr("2001:db8:1:2:aaaa::1"), netip.MustParseAddr("2001:db8:1:2:bbbb::9")}
	const perMinute, perDay = 5, 12
	for i := 0; i < 400; i++ {
		now := start.Add(time.Duration(i) * 1700 * time.Millisecond)
		a := clients[i%len(clients)]
		ip := rateKey(a)
		m, d, ok := direct.takePublic(now, clientKey(a), perMinute, perDay)
		want, wantOK, _ := buckets.TakeRate(context.Background(), now, []overwatch.RateBucket{
			{Key: "pub:m:" + ip, Limit: perMinute, Period: overwatch.PerMinute},
			{Key: "pub:d:" + ip, Limit: perDay, Period: overwatch.PerUTCDay},
		})
		if ok != wantOK || m != want[0] || d != want[1] {
			t.Fatalf("draw %d (%s at %s): %v %+v %+v, want %v %+v %+v", i, a, now, ok, m, d, wantOK, want[0], want[1])
		}
	}
	if got := clientKey(clients[1]); got != clientKey(clients[2]) || got.String() != "2001:db8:1:2::" {
		t.Errorf("the /64 of %s is %s", clients[1], got)
	}
}

// TestMemoryRatesPublicSweepsEndedWindows: a client's public windows are
// forgotten once both have ended.
func TestMemoryRatesPublicSweepsEndedWindows(t *testing.T) {
	m := NewMemoryRates()
	now := time.Date(2026, 12, 5, 23, 59, 0, 0, time.UTC)
	for i := 0; i < 1000; i++ {
		m.takePublic(now, netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 60, 1000)
	}
	m.takePublic(now.Add(2*time.Minute), netip.MustParseAddr("10.9.9.9"), 60, 1000) // the next day
	n := 0
	for i := range m.public {
		n += len(m.public[i].clients)
	}
	if n != 1 {
		t.Fatalf("%d clients kept after their windows ended", n)
	}
}
