package feed

import (
	"context"
	"time"

	"overwatch"
	"overwatch/write/ais"
)

// nmea decodes the lines of one NMEA connection or file and hands the
// reports to the sink, counting lines in, reports out and lines rejected.
type nmea struct {
	src     overwatch.Source
	dec     *ais.Decoder
	sink    Sink
	now     func() time.Time
	wait    bool // Submit (back-pressure) or TrySubmit (drop when full)
	last    ais.Stats
	reports uint64
}

func newNMEA(src overwatch.Source, sink Sink, now func() time.Time, wait bool) *nmea {
	if now == nil {
		now = time.Now
	}
	return &nmea{src: src, dec: ais.NewDecoder(ais.Options{Now: now}), sink: sink, now: now, wait: wait}
}

// line handles one line; the only error is the context's.
func (n *nmea) line(ctx context.Context, b []byte) error {
	m, ok := n.dec.Decode(b)
	if !ok {
		return nil
	}
	r, ok := FromAIS(&m, n.src, n.now())
	if !ok {
		return nil
	}
	n.reports++
	if n.wait {
		return n.sink.Submit(ctx, r)
	}
	n.sink.TrySubmit(r)
	return nil
}

// count hands the sink the counts since the last call.
func (n *nmea) count() {
	s := n.dec.Stats()
	now, before := s.InvalidByReason(), n.last.InvalidByReason()
	for reason := range now {
		now[reason] -= before[reason]
	}
	n.sink.CountFeed(s.Lines-n.last.Lines, n.reports, now)
	slips, before := s.TagBlockSumByReason(), n.last.TagBlockSumByReason()
	var any uint64
	for reason := range slips {
		slips[reason] -= before[reason]
		any += slips[reason]
	}
	if any > 0 {
		n.sink.CountTagBlockSums(slips)
	}
	n.last, n.reports = s, 0
}

// Stats returns the decoder's counters.
func (n *nmea) stats() ais.Stats { return n.dec.Stats() }

// Lines decodes NMEA lines handed over one at a time by an in-process
// source (the fleet simulator) exactly as a TCP feed's lines are decoded,
// and submits the reports to the sink, waiting when it is full. Not safe
// for concurrent use.
type Lines struct {
	n     *nmea
	lines int
}

// NewLines returns the line handler of one provider.
func NewLines(src overwatch.Source, sink Sink, now func() time.Time) *Lines {
	return &Lines{n: newNMEA(src, sink, now, true)}
}

// Line handles one line; the only error is the context's.
func (l *Lines) Line(ctx context.Context, line []byte) error {
	l.lines++
	if l.lines%4096 == 0 {
		l.n.count()
	}
	return l.n.line(ctx, line)
}

// Flush hands the sink the counts not yet handed over.
func (l *Lines) Flush() { l.n.count() }
