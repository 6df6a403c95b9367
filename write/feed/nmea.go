package feed

import (
	"context"
	"time"

	"overwatch"
	"overwatch/write/ais"
	"overwatch/write/ingest"
)

// nmea decodes the lines of one NMEA connection or file and hands the
// reports to the sink, counting lines in, reports out and lines rejected.
type nmea struct {
	src     overwatch.Source
	dec     *ais.Decoder
	sink    Sink
	now     func() time.Time
	wait    bool // SubmitBatch (back-pressure) or TrySubmit (drop when full)
	last    ais.Stats
	reports uint64
	// pending are the reports not yet handed to the sink (wait mode): they
	// go ingest.ChunkSize at a time, and whenever the input has no whole
	// line ready (submit), so that a live feed's report never waits for
	// the next one.
	pending []ingest.Report
	// at is the receive time of the lines of one read: readLines sets
	// reuse while the lines it hands over were already buffered, so the
	// clock is read once per read from the peer, not once per line.
	at    time.Time
	reuse bool
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
	if !n.wait {
		r, ok := FromAIS(&m, n.src, n.now())
		if ok {
			n.reports++
			n.sink.TrySubmit(r)
		}
		return nil
	}
	if !n.reuse || n.at.IsZero() {
		n.at = n.now()
	}
	n.pending = append(n.pending, ingest.Report{})
	r := &n.pending[len(n.pending)-1]
	if !fromAIS(r, &m, n.src, n.at) {
		n.pending = n.pending[:len(n.pending)-1]
		return nil
	}
	n.reports++
	if len(n.pending) >= ingest.ChunkSize {
		return n.submit(ctx)
	}
	return nil
}

// submit hands the pending reports to the sink, waiting while it is full;
// the only error is the context's (or the sink's, closed).
func (n *nmea) submit(ctx context.Context) error {
	if len(n.pending) == 0 {
		return nil
	}
	_, err := n.sink.SubmitBatch(ctx, n.pending)
	clear(n.pending) // the strings go with the reports
	n.pending = n.pending[:0]
	return err
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

// Line handles one line; the only error is the context's. Its report may
// wait in the handler, with at most ingest.ChunkSize-1 others, until Submit
// or Flush.
func (l *Lines) Line(ctx context.Context, line []byte) error {
	l.lines++
	if l.lines%4096 == 0 {
		l.n.count()
	}
	return l.n.line(ctx, line)
}

// Submit hands the sink the reports not yet handed over.
func (l *Lines) Submit(ctx context.Context) error { return l.n.submit(ctx) }

// Flush hands the sink the reports and the counts not yet handed over.
func (l *Lines) Flush(ctx context.Context) error {
	err := l.n.submit(ctx)
	l.n.count()
	return err
}
