package http

import (
	"math"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"overwatch"
)

// The public surface's limit is the busiest draw of the service (every
// lookup takes from its client's minute and day). A store that can count
// those two windows per client address directly (MemoryRates) does so
// without building a key, a bucket list or a result per request; the
// windows, counts and headers are those of the two buckets "pub:m:<ip>"
// and "pub:d:<ip>" drawn through TakeRate.

// publicRates counts the public surface's minute and day windows of a
// client address (an IPv6 client by its /64), drawing from both or,
// when either is exhausted, from neither.
type publicRates interface {
	takePublic(now time.Time, client netip.Addr, perMinute, perDay int) (minute, day overwatch.RateCount, ok bool)
}

var _ publicRates = (*MemoryRates)(nil)

// publicShards spreads client addresses over locks.
const publicShards = 16

// publicShard is the public windows of the clients whose addresses hash to
// it.
type publicShard struct {
	mu      sync.Mutex
	clients map[netip.Addr]*publicWindows
	_       [48]byte // keeps shards on separate cache lines
}

type publicWindows struct {
	minute, day memoryWindow
}

// takePublic implements publicRates.
func (m *MemoryRates) takePublic(now time.Time, client netip.Addr, perMinute, perDay int) (minute, day overwatch.RateCount, ok bool) {
	if swept := m.publicSwept.Load(); now.UnixNano()-swept > int64(time.Minute) && m.publicSwept.CompareAndSwap(swept, now.UnixNano()) {
		m.sweepPublic(now)
	}
	s := &m.public[shardOf(client)]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clients == nil {
		s.clients = map[netip.Addr]*publicWindows{}
	}
	w := s.clients[client]
	if w == nil {
		w = &publicWindows{}
		s.clients[client] = w
	}
	if !w.minute.end.After(now) {
		_, end := overwatch.PerMinute.WindowFor(now)
		w.minute = memoryWindow{end: end}
	}
	if !w.day.end.After(now) {
		_, end := overwatch.PerUTCDay.WindowFor(now)
		w.day = memoryWindow{end: end}
	}
	ok = w.minute.used < perMinute && w.day.used < perDay
	if ok {
		w.minute.used++
		w.day.used++
	}
	return overwatch.RateCount{Used: w.minute.used, Reset: w.minute.end}, overwatch.RateCount{Used: w.day.used, Reset: w.day.end}, ok
}

// sweepPublic forgets the clients whose windows have both ended, so that
// memory follows the clients seen in the current day.
func (m *MemoryRates) sweepPublic(now time.Time) {
	for i := range m.public {
		s := &m.public[i]
		s.mu.Lock()
		for k, w := range s.clients {
			if !w.day.end.After(now) && !w.minute.end.After(now) {
				delete(s.clients, k)
			}
		}
		s.mu.Unlock()
	}
}

func shardOf(a netip.Addr) int {
	b := a.As16()
	return int(b[15]^b[14]^b[13]^b[7]) % publicShards
}

// clientKey is rateKey as an address: an IPv6 client counted per /64.
func clientKey(a netip.Addr) netip.Addr {
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}

// takePublic draws the request from the client's public windows in
// store and sets the rate-limit headers as take does.
func (l Limits) takePublic(c *fiber.Ctx, store publicRates) error {
	now := l.Now()
	minute, day, ok := store.takePublic(now, clientKey(l.IPs.of(c)), l.PublicPerMinute, l.PublicPerDay)
	h := &c.Response().Header
	setInt(h, headerLimitMinute, l.PublicPerMinute)
	setInt(h, headerRemainingMinute, max(0, l.PublicPerMinute-minute.Used))
	setInt(h, headerLimitDay, l.PublicPerDay)
	setInt(h, headerRemainingDay, max(0, l.PublicPerDay-day.Used))
	if ok {
		return nil
	}
	var reset time.Time
	if minute.Used >= l.PublicPerMinute {
		reset = minute.Reset
	}
	if day.Used >= l.PublicPerDay && day.Reset.After(reset) {
		reset = day.Reset
	}
	setInt(h, headerRetryAfter, int(math.Max(1, math.Ceil(reset.Sub(now).Seconds()))))
	return overwatch.Errorf(overwatch.TooManyRequests, "rate limit exceeded")
}

// The rate-limit headers' names, spelled as the README documents them
// (sent as set: the guard disables normalizing).
var (
	headerLimitMinute     = []byte("X-RateLimit-Limit-Minute")
	headerRemainingMinute = []byte("X-RateLimit-Remaining-Minute")
	headerLimitDay        = []byte("X-RateLimit-Limit-Day")
	headerRemainingDay    = []byte("X-RateLimit-Remaining-Day")
	headerRetryAfter      = []byte(fiber.HeaderRetryAfter)
)

// setInt sets header name to v in decimal, without a string.
func setInt(h *fasthttp.ResponseHeader, name []byte, v int) {
	var buf [20]byte
	h.SetCanonical(name, strconv.AppendInt(buf[:0], int64(v), 10))
}
