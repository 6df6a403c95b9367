package live

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Options tune the hub; zero values take the defaults.
type Options struct {
	// Buffer is the events a subscriber's buffer holds (4,096): a
	// subscriber that lets it fill is dropped as a slow consumer.
	Buffer int
	// RingSize and RingAge bound the events kept for resumption
	// (100,000 events, 5 minutes): the older go.
	RingSize int
	RingAge  time.Duration
	// Queue is the chunks of published events waiting for the hub
	// (1,024); beyond, a chunk is lost and every subscriber dropped.
	Queue int
	// Start numbers the events: the first is Start's Unix second times a
	// million (time.Now), so that a restarted hub numbers above the last
	// while it publishes under a million events a second on average.
	Start time.Time
	Log   *slog.Logger
}

func (o *Options) defaults() {
	if o.Buffer <= 0 {
		o.Buffer = 4096
	}
	if o.RingSize <= 0 {
		o.RingSize = 100000
	}
	if o.RingAge <= 0 {
		o.RingAge = 5 * time.Minute
	}
	if o.Queue <= 0 {
		o.Queue = 1024
	}
	if o.Start.IsZero() {
		o.Start = time.Now()
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
}

// The reasons a subscriber is dropped, the reason label of
// overwatch_stream_dropped_total.
const (
	// DropSlowConsumer: its buffer was full when an event came.
	DropSlowConsumer = "slow_consumer"
	// DropServerBehind: the hub lost events (its queue was full), so the
	// subscriber's stream has a gap.
	DropServerBehind = "server_behind"
	// DropShutdown: the server is stopping (not counted as a drop).
	DropShutdown = "shutdown"
)

// DropReasons are the reasons counted on /metrics.
var DropReasons = []string{DropSlowConsumer, DropServerBehind}

// Errors of Subscribe.
var (
	// ErrGone: events after the one named are no longer kept.
	ErrGone = errors.New("live: the events after this id are no longer kept")
	// ErrUnknownID: the id is above every event numbered so far.
	ErrUnknownID = errors.New("live: no event has this id yet")
	// ErrClosed: the hub has stopped.
	ErrClosed = errors.New("live: the stream has stopped")
)

// Hub numbers published events, keeps the recent ones, and fans them out.
type Hub struct {
	opts   Options
	in     chan []Event
	behind atomic.Bool // a chunk was lost since the hub last looked

	mu     sync.Mutex
	subs   map[*Subscription]struct{}
	labels map[string]int
	ring   []*Event // circular, oldest at head
	head   int
	n      int
	next   uint64
	closed bool

	published atomic.Uint64
	lost      atomic.Uint64
	dropped   map[string]*atomic.Uint64
}

// New returns a hub; Run it.
func New(opts Options) *Hub {
	opts.defaults()
	h := &Hub{
		opts: opts, in: make(chan []Event, opts.Queue),
		subs: map[*Subscription]struct{}{}, labels: map[string]int{},
		ring:    make([]*Event, opts.RingSize),
		next:    uint64(opts.Start.Unix()) * 1000000,
		dropped: map[string]*atomic.Uint64{},
	}
	for _, r := range DropReasons {
		h.dropped[r] = &atomic.Uint64{}
	}
	return h
}

// Publish hands the hub a chunk of events, which it owns from then on.
// It never blocks: when the hub's queue is full the chunk is lost
// (counted), and every subscriber is dropped as its stream has a gap.
func (h *Hub) Publish(events []Event) {
	if len(events) == 0 {
		return
	}
	select {
	case h.in <- events:
	default:
		h.lost.Add(uint64(len(events)))
		h.behind.Store(true)
	}
}

// Run numbers, keeps and fans out the published events until ctx ends;
// then it closes every subscription.
func (h *Hub) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			h.mu.Lock()
			h.closed = true
			for s := range h.subs {
				h.drop(s, DropShutdown)
			}
			h.mu.Unlock()
			return
		case chunk := <-h.in:
			h.take(chunk)
		}
	}
}

func (h *Hub) take(chunk []Event) {
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.behind.Swap(false) {
		for s := range h.subs {
			h.drop(s, DropServerBehind)
		}
	}
	for i := range chunk {
		e := &chunk[i]
		h.next++
		e.ID, e.At = h.next, now
		if err := e.encode(); err != nil {
			h.opts.Log.Error("live: an event could not be encoded", "kind", e.Kind.String(), "err", err)
			continue
		}
		h.keep(e, now)
		h.published.Add(1)
		for s := range h.subs {
			if s.match != nil && !s.match(e) {
				continue
			}
			select {
			case s.c <- e:
			default:
				h.drop(s, DropSlowConsumer)
			}
		}
	}
}

// keep puts e in the ring, dropping the oldest when it is full, and
// those older than RingAge.
func (h *Hub) keep(e *Event, now time.Time) {
	if h.n == len(h.ring) {
		h.ring[h.head] = nil
		h.head = (h.head + 1) % len(h.ring)
		h.n--
	}
	h.ring[(h.head+h.n)%len(h.ring)] = e
	h.n++
	h.expire(now)
}

func (h *Hub) expire(now time.Time) {
	for h.n > 0 && now.Sub(h.ring[h.head].At) > h.opts.RingAge {
		h.ring[h.head] = nil
		h.head = (h.head + 1) % len(h.ring)
		h.n--
	}
}

// drop ends a subscription (h.mu held).
func (h *Hub) drop(s *Subscription, reason string) {
	if _, ok := h.subs[s]; !ok {
		return
	}
	delete(h.subs, s)
	h.labels[s.label]--
	s.reason = reason
	close(s.c)
	if c := h.dropped[reason]; c != nil {
		c.Add(1)
	}
}

// Subscription is one subscriber: its backlog (the kept events after the
// id it resumed from), then its channel, closed when the hub drops it
// (Reason says why) or when it is closed.
type Subscription struct {
	hub     *Hub
	match   func(*Event) bool
	label   string
	c       chan *Event
	backlog []*Event
	reason  string // set before c is closed
}

// Subscribe adds a subscriber. match selects its events (nil: all);
// label is counted in Subscribers (the transport). With resume, the
// events numbered after after that are still kept and match come first
// (Backlog); ErrGone when some of them are no longer kept, ErrUnknownID
// when after is above every id so far.
func (h *Hub) Subscribe(match func(*Event) bool, label string, resume bool, after uint64) (*Subscription, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	s := &Subscription{hub: h, match: match, label: label, c: make(chan *Event, h.opts.Buffer)}
	if resume {
		if after > h.next {
			return nil, ErrUnknownID
		}
		h.expire(time.Now())
		oldest := h.next + 1 // the next event's id when none is kept
		if h.n > 0 {
			oldest = h.ring[h.head].ID
		}
		if after+1 < oldest {
			return nil, ErrGone
		}
		for i := 0; i < h.n; i++ {
			e := h.ring[(h.head+i)%len(h.ring)]
			if e.ID > after && (match == nil || match(e)) {
				s.backlog = append(s.backlog, e)
			}
		}
	}
	h.subs[s] = struct{}{}
	h.labels[label]++
	return s, nil
}

// Backlog are the kept events the subscription resumes with, in order;
// the channel's come after them.
func (s *Subscription) Backlog() []*Event { return s.backlog }

// C delivers the events as they come; it is closed when the subscription
// ends.
func (s *Subscription) C() <-chan *Event { return s.c }

// Reason says why the hub ended the subscription (a Drop constant), once
// C is closed; "" when the subscriber closed it.
func (s *Subscription) Reason() string { return s.reason }

// Close ends the subscription (the subscriber has gone).
func (s *Subscription) Close() {
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		h.labels[s.label]--
		close(s.c)
	}
}

// Stats are the hub's counters.
type Stats struct {
	Published uint64            // events numbered and fanned out
	Lost      uint64            // events lost as the hub's queue was full
	Dropped   map[string]uint64 // subscribers dropped, by reason
	Kept      int               // events in the ring
}

// Stats returns the counters.
func (h *Hub) Stats() Stats {
	st := Stats{Published: h.published.Load(), Lost: h.lost.Load(), Dropped: map[string]uint64{}}
	for r, c := range h.dropped {
		st.Dropped[r] = c.Load()
	}
	h.mu.Lock()
	st.Kept = h.n
	h.mu.Unlock()
	return st
}

// Subscribers is the number of subscribers with the label.
func (h *Hub) Subscribers(label string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.labels[label]
}

// LastID is the id of the newest event (below the first id while none
// has been published).
func (h *Hub) LastID() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.next
}
