package read

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/live"
	"overwatch/route"
)

// The live stream, GET /v1/stream: positions and static reports as ingest
// takes them and risk events as the derivation writes them, over
// WebSocket (a WebSocket handshake) or Server-Sent Events (any other
// GET), filtered by the position filter (filter.go) and resumable by
// last_event_id. docs/stream.md describes it for users.

// LiveHub is the live stream's hub (live.Hub) as the stream reads it.
type LiveHub interface {
	Subscribe(match func(*live.Event) bool, label string, resume bool, after uint64) (*live.Subscription, error)
}

// The transports, the transport label of overwatch_stream_subscribers.
const (
	TransportWebSocket = "websocket"
	TransportSSE       = "sse"
)

// StreamHeartbeat is how often an idle stream proves it is alive (an SSE
// comment line, a WebSocket ping) unless configured otherwise: the
// server also learns at a heartbeat that a silent client has gone.
const StreamHeartbeat = 15 * time.Second

// streamWriteTimeout bounds one write to a stream's client: a client that
// takes no bytes for that long is gone.
const streamWriteTimeout = 30 * time.Second

// streamRoutes mounts the live stream; with hub nil (a process that does
// not run ingest) it answers 503 naming the process that serves it.
// heartbeat is how often an idle stream proves it is alive (0:
// StreamHeartbeat).
func streamRoutes(r route.Router, hub LiveHub, heartbeat time.Duration) {
	if heartbeat <= 0 {
		heartbeat = StreamHeartbeat
	}
	r.Handle(fiber.MethodGet, "/stream", overwatch.AccessKey, Stream(hub, NewStreamLimiter(), heartbeat))
}

// StreamLimiter counts the stream connections of each account against its
// plan's StreamConnections, in this process.
type StreamLimiter struct {
	mu   sync.Mutex
	open map[int64]int
}

// NewStreamLimiter returns an empty limiter.
func NewStreamLimiter() *StreamLimiter { return &StreamLimiter{open: map[int64]int{}} }

// acquire takes one of the caller's connections, or returns the 429 that
// says how many its plan allows; release gives it back.
func (l *StreamLimiter) acquire(c *overwatch.Caller) (release func(), err error) {
	info := c.PlanInfo()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[c.AccountID] >= info.StreamConnections {
		return nil, overwatch.Errorf(overwatch.TooManyRequests,
			"the %s plan allows %d stream connections at once and this account has them all open; close one first",
			info.Name, info.StreamConnections)
	}
	l.open[c.AccountID]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.open[c.AccountID]--; l.open[c.AccountID] <= 0 {
				delete(l.open, c.AccountID)
			}
		})
	}, nil
}

// streamRequest is a parsed stream request.
type streamRequest struct {
	filter PositionFilter
	resume bool
	after  uint64
}

// parseStream reads the filter (start and end refused: a live stream has
// no time range) and last_event_id (the query parameter, else SSE's
// Last-Event-ID header).
func parseStream(c *fiber.Ctx) (streamRequest, error) {
	var req streamRequest
	for _, name := range []string{"start", "end"} {
		if c.Query(name) != "" {
			return req, invalid(name, "%s has no meaning for the live stream, which sends events as they happen; to resume after a disconnection give last_event_id", name)
		}
	}
	f, err := positionFilter(c)
	if err != nil {
		return req, err
	}
	req.filter = f
	raw := c.Query("last_event_id")
	if raw == "" {
		raw = strings.TrimSpace(c.Get("Last-Event-ID"))
	}
	if raw != "" {
		id, err := strconv.ParseUint(raw, 10, 64)
		if err != nil || id == 0 {
			return req, invalid("last_event_id", "last_event_id must be the id of an event of the stream, a positive integer (got '%s')", truncate(raw, 24))
		}
		req.resume, req.after = true, id
	}
	return req, nil
}

// streamMatch selects the events a filter asks for. A filter names what an
// event must match: vessels (imo: the vessel or a risk event's other
// vessel; mmsi), a ship type category (as the registry knows the vessel
// when the event is taken), an area (the event's position: static reports
// have none) and sources (risk events have none).
func streamMatch(f PositionFilter) func(*live.Event) bool {
	imos := map[overwatch.IMO]bool{}
	for _, imo := range f.IMOs {
		imos[imo] = true
	}
	mmsis := map[uint32]bool{}
	for _, m := range f.MMSIs {
		mmsis[m] = true
	}
	return func(e *live.Event) bool {
		if len(imos) > 0 && !imos[e.IMO] && (e.Other == 0 || !imos[e.Other]) {
			return false
		}
		if len(mmsis) > 0 && !mmsis[e.MMSI] {
			return false
		}
		if f.Category != nil && !inCategory(f.Category.Codes, e.ShipType) {
			return false
		}
		if f.HasArea() && (!e.HasPos || !f.InArea(e.Lat, e.Lon)) {
			return false
		}
		if len(f.Sources) > 0 {
			if e.Kind == live.KindRiskEvent {
				return false
			}
			found := false
			for _, s := range f.Sources {
				found = found || s == e.Source
			}
			if !found {
				return false
			}
		}
		return true
	}
}

func inCategory(codes [][2]uint8, code uint8) bool {
	for _, r := range codes {
		if code >= r[0] && code <= r[1] {
			return true
		}
	}
	return false
}

// Stream serves GET /v1/stream. Everything is checked before the
// transport starts, so that a refusal is an ordinary JSON error: the plan
// (403), the parameters (400 naming one), the plan's connections (429),
// the resumption (410 when the events after last_event_id are no longer
// kept). Then a WebSocket handshake gets WebSocket, any other GET
// Server-Sent Events. An idle stream proves it is alive every heartbeat.
func Stream(hub LiveHub, limiter *StreamLimiter, heartbeat time.Duration) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		if err := caller.Require(overwatch.FeatureLiveStream); err != nil {
			return err
		}
		req, err := parseStream(c)
		if err != nil {
			return err
		}
		if hub == nil {
			return overwatch.Errorf(overwatch.Unavailable, "the live stream is served by the processes that run ingest (overwatch run); this one does not")
		}
		release, err := limiter.acquire(caller)
		if err != nil {
			return err
		}
		transport := TransportSSE
		if websocketHandshake(c) {
			transport = TransportWebSocket
		}
		sub, err := hub.Subscribe(streamMatch(req.filter), transport, req.resume, req.after)
		if err != nil {
			release()
			switch {
			case errors.Is(err, live.ErrGone):
				return overwatch.Errorf(overwatch.Gone, "the events after %d are no longer kept (the stream keeps the recent ones for resumption); reconnect without last_event_id", req.after).With("parameter", "last_event_id")
			case errors.Is(err, live.ErrUnknownID):
				return invalid("last_event_id", "no event of the stream has the id %d", req.after)
			}
			return overwatch.Wrap(overwatch.Unavailable, err, "the live stream is stopping")
		}
		if transport == TransportWebSocket {
			return serveWebSocket(c, sub, release, heartbeat)
		}
		serveSSE(c, sub, release, heartbeat)
		return nil
	}
}

// websocketHandshake reports whether the request asks for a WebSocket.
func websocketHandshake(c *fiber.Ctx) bool {
	return strings.EqualFold(c.Get(fiber.HeaderUpgrade), "websocket") &&
		strings.Contains(strings.ToLower(c.Get(fiber.HeaderConnection)), "upgrade")
}

// dropMessage is what a subscriber is told when the hub drops it.
func dropMessage(reason string) string {
	switch reason {
	case live.DropSlowConsumer:
		return "slow consumer: the stream's buffer for this connection filled up; reconnect with last_event_id to resume"
	case live.DropServerBehind:
		return "the server fell behind and lost events; reconnect (events it lost cannot be resumed)"
	case live.DropShutdown:
		return "the server is shutting down; reconnect with last_event_id to resume"
	}
	return "the stream ended"
}
