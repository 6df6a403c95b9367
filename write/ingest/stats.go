package ingest

import (
	"maps"
	"sync"
	"sync/atomic"
)

type counters struct {
	invalidMu                                         sync.Mutex
	invalidByReason                                   map[string]uint64
	tagBlockSums                                      map[string]uint64 // under invalidMu
	received, decoded, invalid                        atomic.Uint64
	submitted, dropped, processed, duplicates         atomic.Uint64
	unattributed, batches, written, spooled, replayed atomic.Uint64
	writeErrors, spoolFullWaits, invalidIMO           atomic.Uint64
	reattributed                                      atomic.Uint64
}

// Stats is a snapshot of the pipeline's counters. Received, Decoded and
// Invalid are counted by the feeds (lines or records in, reports out,
// rejected input); the rest by the pipeline. Queued, Pending, SpoolFiles,
// SpoolBytes and StoreDown are gauges.
type Stats struct {
	Received, Decoded, Invalid          uint64
	InvalidByReason                     map[string]uint64 // Invalid by reason (the feeds' names)
	TagBlockSums                        map[string]uint64 // NMEA lines kept despite a wrong tag-block checksum, by reason
	Submitted, Dropped, Processed       uint64
	Duplicates, Unattributed            uint64
	Batches, Written, Spooled, Replayed uint64
	WriteErrors, SpoolFullWaits         uint64
	InvalidIMO                          uint64 // static reports whose IMO fails the check digit
	Reattributed                        uint64 // MMSIs whose orphaned positions a later IMO claimed
	Queued, Pending, SpoolFiles         int
	SpoolBytes                          int64
	StoreDown                           bool
}

// CountFeed adds a feed's counts: input units received, reports decoded
// from them, and input rejected as invalid, by reason.
func (p *Pipeline) CountFeed(received, decoded uint64, invalid map[string]uint64) {
	p.stats.received.Add(received)
	p.stats.decoded.Add(decoded)
	var total uint64
	for _, n := range invalid {
		total += n
	}
	if total == 0 {
		return
	}
	p.stats.invalid.Add(total)
	p.stats.invalidMu.Lock()
	defer p.stats.invalidMu.Unlock()
	if p.stats.invalidByReason == nil {
		p.stats.invalidByReason = map[string]uint64{}
	}
	for reason, n := range invalid {
		if n > 0 {
			p.stats.invalidByReason[reason] += n
		}
	}
}

// CountTagBlockSums adds the NMEA lines a feed kept although a tag block's
// checksum was wrong (the sentence's own checksum held), by reason.
func (p *Pipeline) CountTagBlockSums(byReason map[string]uint64) {
	p.stats.invalidMu.Lock()
	defer p.stats.invalidMu.Unlock()
	for reason, n := range byReason {
		if n == 0 {
			continue
		}
		if p.stats.tagBlockSums == nil {
			p.stats.tagBlockSums = map[string]uint64{}
		}
		p.stats.tagBlockSums[reason] += n
	}
}

// Stats returns a snapshot of the counters.
func (p *Pipeline) Stats() Stats {
	files, bytes := p.spool.size()
	c := &p.stats
	c.invalidMu.Lock()
	byReason, sums := maps.Clone(c.invalidByReason), maps.Clone(c.tagBlockSums)
	c.invalidMu.Unlock()
	return Stats{
		InvalidByReason: byReason, TagBlockSums: sums,
		Received: c.received.Load(), Decoded: c.decoded.Load(), Invalid: c.invalid.Load(),
		Submitted: c.submitted.Load(), Dropped: c.dropped.Load(), Processed: c.processed.Load(),
		Duplicates: c.duplicates.Load(), Unattributed: c.unattributed.Load(),
		Batches: c.batches.Load(), Written: c.written.Load(), Spooled: c.spooled.Load(), Replayed: c.replayed.Load(),
		WriteErrors: c.writeErrors.Load(), SpoolFullWaits: c.spoolFullWaits.Load(), InvalidIMO: c.invalidIMO.Load(), Reattributed: c.reattributed.Load(),
		Queued: len(p.queue) + int(p.chunked.Load()), Pending: p.pendingCount(), SpoolFiles: files, SpoolBytes: bytes,
		StoreDown: p.down.Load() && files > 0, // the spool replayed, the next batch goes to the store
	}
}

// pendingCount is read racily from outside the pipeline goroutine; it is
// a gauge and only ever an int.
func (p *Pipeline) pendingCount() int { return int(p.pending.Load()) }
