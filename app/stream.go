package app

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"overwatch"
	"overwatch/jobs"
	"overwatch/live"
	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
	"overwatch/read"
)

// StreamConfig is the live stream's configuration (OVERWATCH_STREAM_*).
type StreamConfig struct {
	Buffer       int           // events waiting for one subscriber
	ResumeEvents int           // events kept for resumption
	ResumeWindow time.Duration // how long they are kept
	MaxAge       time.Duration // older reports (report time) are not streamed
	Heartbeat    time.Duration // how often an idle stream proves it is alive
}

// startStream starts the live stream's hub, which runs until ctx ends,
// and registers its metrics. Only a process that runs ingest has one: the
// hub is fed in process (docs/stream.md).
func startStream(ctx context.Context, cfg StreamConfig, reg *prometheus.Registry, log *slog.Logger) *live.Hub {
	hub := live.New(live.Options{Buffer: cfg.Buffer, RingSize: cfg.ResumeEvents, RingAge: cfg.ResumeWindow, Log: log})
	go hub.Run(ctx)
	if reg != nil {
		registerStream(reg, hub)
	}
	return hub
}

// registerStream exposes the hub's counters on /metrics.
func registerStream(reg *prometheus.Registry, hub *live.Hub) {
	for _, transport := range []string{read.TransportWebSocket, read.TransportSSE} {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "overwatch_stream_subscribers", Help: "Subscribers of GET /v1/stream now, by transport.",
			ConstLabels: prometheus.Labels{"transport": transport},
		}, func() float64 { return float64(hub.Subscribers(transport)) }))
	}
	for _, reason := range live.DropReasons {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "overwatch_stream_dropped_total", Help: "Subscribers of GET /v1/stream dropped, by reason (slow_consumer: its buffer was full; server_behind: the hub lost events).",
			ConstLabels: prometheus.Labels{"reason": reason},
		}, func() float64 { return float64(hub.Stats().Dropped[reason]) }))
	}
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "overwatch_stream_events_total", Help: "Events the live stream numbered and fanned out.",
	}, func() float64 { return float64(hub.Stats().Published) }))
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "overwatch_stream_events_lost_total", Help: "Events the live stream lost because its hub's queue was full (ingest never waits for it).",
	}, func() float64 { return float64(hub.Stats().Lost) }))
}

// riskTap is the risk jobs' store with the live stream told of what each
// risk-event derivation writes: the events its previous write (in this
// process) did not have, new ones and ones that have ended since. The
// first write after a start publishes every event it writes.
type riskTap struct {
	jobs.RiskStore
	hub  *live.Hub
	mu   sync.Mutex
	last map[string]bool // the keys of the previous write's events
}

// WriteRiskEvents writes, then publishes the events that are new.
func (t *riskTap) WriteRiskEvents(ctx context.Context, gen uint64, days []time.Time, events []risk.Event, identity map[overwatch.IMO]vessel.Profile, dataEnd time.Time) error {
	if err := t.RiskStore.WriteRiskEvents(ctx, gen, days, events, identity, dataEnd); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	seen := make(map[string]bool, len(events))
	var out []live.Event
	for i := range events {
		e := &events[i]
		key := riskKey(e)
		seen[key] = true
		if t.last[key] {
			continue
		}
		out = append(out, riskEvent(e, identity[e.IMO].ShipType))
	}
	t.last = seen
	t.hub.Publish(out)
	return nil
}

// riskKey tells events apart: the same event ended is another key.
func riskKey(e *risk.Event) string {
	end := "ongoing"
	if e.End != nil {
		end = e.End.UTC().Format(time.RFC3339)
	}
	return e.Type + "|" + e.Subtype + "|" + strconv.FormatUint(uint64(e.IMO), 10) + "|" + strconv.FormatUint(uint64(e.Other), 10) +
		"|" + e.Start.UTC().Format(time.RFC3339) + "|" + end
}

func riskEvent(e *risk.Event, shipType uint8) live.Event {
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	body := live.RiskEvent{
		EventType: e.Type, Subtype: str(e.Subtype), IMO: e.IMO.String(), StartedAt: live.Time(e.Start),
		Ongoing: e.Ongoing(), Port: str(e.Port), Severity: e.Severity,
	}
	if e.Detail != nil {
		body.Detail, _ = json.Marshal(e.Detail) // now: the job owns the map
	}
	if e.Other != 0 {
		body.OtherIMO = str(e.Other.String())
	}
	if e.End != nil {
		body.EndedAt = str(live.Time(*e.End))
	}
	if e.HasPosition {
		lat, lon := e.Lat, e.Lon
		body.Latitude, body.Longitude = &lat, &lon
	}
	return live.Event{
		Kind: live.KindRiskEvent, IMO: e.IMO, Other: e.Other, ShipType: shipType,
		HasPos: e.HasPosition, Lat: e.Lat, Lon: e.Lon, Body: body,
	}
}
