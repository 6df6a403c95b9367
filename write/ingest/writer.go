package ingest

// Writing batches: to the store, or to the spool while the store is down,
// and the replay of the spool, oldest first, once the store answers.

import (
	"context"
	"time"
)

// writeReq is a batch for the writer, or (b nil) a barrier: ack is closed
// once everything handed over before it is written or spooled.
type writeReq struct {
	b   *Batch
	ack chan struct{}
}

// writer writes the batches the loop hands over, in order, and gives each
// back as the spare once the store (or the spool) has it. It alone writes
// and spools new batches, so that none can reach the store before a
// spooled one (see write).
func (p *Pipeline) writer() {
	defer close(p.wrote)
	for req := range p.writes {
		if req.b != nil {
			p.write(req.b)
			p.spare <- req.b
		}
		if req.ack != nil {
			close(req.ack)
		}
	}
}

// write sends a batch to the store, or to the spool while the store is
// down or when the write fails.
func (p *Pipeline) write(b *Batch) {
	p.stats.batches.Add(1)
	if p.down.Load() {
		// The replay has emptied the spool: every spooled batch is in the
		// store, so this one may go there directly.
		if files, _ := p.spool.size(); files == 0 {
			p.down.Store(false)
			p.log.Info("store is back; spool replayed")
		}
	}
	if !p.down.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), p.opts.WriteTimeout)
		err := p.store.WriteBatch(ctx, b)
		cancel()
		if err == nil {
			p.stats.written.Add(uint64(b.Reports()))
			return
		}
		p.stats.writeErrors.Add(1)
		p.log.Error("batch write failed; spooling until the store is back", "rows", b.Len(), "err", err)
		p.down.Store(true)
	}
	for {
		if _, bytes := p.spool.size(); bytes < p.opts.SpoolMaxBytes {
			break
		}
		p.stats.spoolFullWaits.Add(1)
		time.Sleep(p.opts.RetryInterval) // back-pressure: the queue fills, Submit blocks
	}
	for {
		err := p.spool.put(b)
		if err == nil {
			p.stats.spooled.Add(uint64(b.Reports()))
			return
		}
		p.log.Error("cannot spool a batch; retrying", "err", err)
		time.Sleep(p.opts.RetryInterval)
	}
}

// retry replays spooled batches whenever the store answers.
func (p *Pipeline) retry() {
	t := time.NewTicker(p.opts.RetryInterval)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return // Close drains the spool
		case <-t.C:
			p.replaySpool()
		}
	}
}

// replaySpool writes spooled batches, oldest first, deleting each once the
// store has it, and lists the spool again after each round, until it is
// empty or a write fails: the writer goes on spooling new batches while the
// store is marked down, so a single round would leave those of its own
// duration for the next tick, and under a steady inflow the spool might
// never be seen empty. It never marks the store up: the writer goroutine
// does, when it finds the spool empty (write).
func (p *Pipeline) replaySpool() {
	p.replay.Lock()
	defer p.replay.Unlock()
	if files, _ := p.spool.size(); files == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.WriteTimeout)
	err := p.store.Ping(ctx)
	cancel()
	if err != nil {
		p.log.Debug("spool replay: the store does not answer yet", "err", err)
		return
	}
	for {
		names, err := p.spool.list()
		if err != nil {
			p.log.Error("cannot list the spool", "err", err)
			return
		}
		if len(names) == 0 || !p.replayRound(names) {
			return
		}
	}
}

// replayRound writes the spooled batches names, in order; false when one
// could not be written (or deleted), so that the replay waits for the next
// tick.
func (p *Pipeline) replayRound(names []string) bool {
	for _, name := range names {
		b, err := p.spool.get(name)
		if err != nil {
			p.log.Error("unreadable spooled batch moved aside", "file", name, "err", err)
			if err := p.spool.quarantine(name); err != nil {
				p.log.Error("cannot move an unreadable batch aside", "file", name, "err", err)
				return false
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), p.opts.WriteTimeout)
		err = p.store.WriteBatch(ctx, b)
		cancel()
		if err != nil {
			p.stats.writeErrors.Add(1)
			p.log.Warn("spool replay: a batch write failed; retrying at the next tick", "file", name, "err", err)
			return false
		}
		if err := p.spool.done(name); err != nil {
			p.log.Error("cannot delete a replayed batch; it will be written again (harmless)", "file", name, "err", err)
			return false
		}
		p.stats.written.Add(uint64(b.Reports()))
		p.stats.replayed.Add(uint64(b.Reports()))
	}
	return true
}
