package sim

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"time"

	"overwatch"
	"overwatch/write/ais"
)

// Deliver takes one message as NMEA lines (with an NMEA 4.0 tag block
// stamping the time it was sent), with the providers that received it.
type Deliver func(at time.Time, lines []string, providers []overwatch.Source) error

// Simulation emits the fleet's AIS messages in time order.
type Simulation struct {
	cfg      Config
	planner  *Planner
	truth    *truthWriter
	emitters []*emitter
	queue    emitHeap
	waiting  []*emitter
	enc      [2]*ais.Encoder // channels A and B
	at       time.Time       // emitted up to here
	messages uint64
}

// New plans the fleet from its seed; truth, if not nil, receives the
// ground truth as JSON lines.
func New(cfg Config, truth io.Writer) (*Simulation, error) {
	tw := newTruthWriter(truth)
	p, err := NewPlanner(cfg, tw)
	if err != nil {
		return nil, err
	}
	s := &Simulation{cfg: p.cfg, planner: p, truth: tw, at: p.cfg.Start}
	shore := map[[2]int32]float64{}
	for _, t := range p.tracks {
		e := newEmitter(p, t, p.cfg.Start, shore)
		s.emitters = append(s.emitters, e)
		s.waiting = append(s.waiting, e)
	}
	s.enc[0] = ais.NewEncoder(ais.EncodeOptions{Channel: 'A', TagBlock: true})
	s.enc[1] = ais.NewEncoder(ais.EncodeOptions{Channel: 'B', TagBlock: true})
	return s, nil
}

// Fleet returns the simulated vessels.
func (s *Simulation) Fleet() []*Vessel { return s.planner.fleet }

// Messages is how many messages have been emitted.
func (s *Simulation) Messages() uint64 { return s.messages }

// At is the time emitted up to.
func (s *Simulation) At() time.Time { return s.at }

// planAhead is how far beyond the emitted time the planner runs, so every
// vessel's timeline covers what is emitted next.
const planAhead = 72 * time.Hour

// EmitUntil emits every message up to until, in time order (vessel order on
// a tie), through deliver; a nil deliver fast-forwards without encoding
// (to resume a simulation whose messages are already stored).
func (s *Simulation) EmitUntil(ctx context.Context, until time.Time, deliver Deliver) error {
	for s.at.Before(until) {
		step := s.at.Add(6 * time.Hour)
		if step.After(until) {
			step = until
		}
		if err := s.planner.Run(step.Add(planAhead)); err != nil {
			return err
		}
		waiting := s.waiting
		s.waiting = nil
		for _, e := range waiting {
			s.refill(e, step)
		}
		for s.queue.Len() > 0 && !s.queue[0].pending.At.After(step) {
			if err := ctx.Err(); err != nil {
				return err
			}
			e := heap.Pop(&s.queue).(*emitter)
			if deliver != nil {
				if err := s.deliver(e.pending, deliver); err != nil {
					return err
				}
			}
			s.refill(e, step)
		}
		s.at = step
	}
	return nil
}

func (s *Simulation) refill(e *emitter, limit time.Time) {
	r, ok := e.next(limit)
	if !ok {
		s.waiting = append(s.waiting, e)
		return
	}
	e.pending = r
	heap.Push(&s.queue, e)
}

func (s *Simulation) deliver(r Report, deliver Deliver) error {
	lines, err := s.enc[r.Vessel%2].Encode(r.Msg, r.At)
	if err != nil {
		return fmt.Errorf("sim: encode type %d of %d: %w", r.Msg.Type, r.Msg.MMSI, err)
	}
	s.messages++
	return deliver(r.At, lines, providersOf(r.Providers))
}

// Finish records the gaps and the shuttles' waits still open at the end of
// a backfill.
func (s *Simulation) Finish() {
	for _, e := range s.emitters {
		e.gap.finish(s.at)
	}
	for _, a := range s.planner.areas {
		for _, sh := range a.shuttles {
			sh.idled(s.planner, s.at, true)
		}
	}
}

// Live keeps emitting in real time, checking every tick, until ctx ends;
// now is the clock it follows (the service's).
func (s *Simulation) Live(ctx context.Context, tick time.Duration, now func() time.Time, deliver Deliver) error {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		if err := s.EmitUntil(ctx, now().UTC(), deliver); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

type emitHeap []*emitter

func (h emitHeap) Len() int { return len(h) }
func (h emitHeap) Less(i, j int) bool {
	a, b := h[i].pending, h[j].pending
	if !a.At.Equal(b.At) {
		return a.At.Before(b.At)
	}
	return a.Vessel < b.Vessel
}
func (h emitHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *emitHeap) Push(x any)   { *h = append(*h, x.(*emitter)) }
func (h *emitHeap) Pop() any     { old := *h; e := old[len(old)-1]; *h = old[:len(old)-1]; return e }
