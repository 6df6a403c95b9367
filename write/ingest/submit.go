package ingest

import (
	"context"
	"errors"
	"sync"
)

// Submit queues a report, waiting while the queue is full: back-pressure
// that slows a file replay or a TCP feed down to what the store takes.
func (p *Pipeline) Submit(ctx context.Context, r Report) error {
	p.submit.RLock()
	defer p.submit.RUnlock()
	if p.stopped.Load() {
		return errors.New("ingest: pipeline closed")
	}
	select {
	case p.queue <- r:
		p.stats.submitted.Add(1)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-p.closed:
		return errors.New("ingest: pipeline closed")
	}
}

// TrySubmit queues a report unless the queue is full, in which case the
// report is dropped and counted: for feeds that cannot wait (UDP).
func (p *Pipeline) TrySubmit(r Report) bool {
	p.submit.RLock()
	defer p.submit.RUnlock()
	if p.stopped.Load() {
		p.stats.dropped.Add(1)
		return false
	}
	select {
	case p.queue <- r:
		p.stats.submitted.Add(1)
		return true
	default:
		p.stats.dropped.Add(1)
		return false
	}
}

// ChunkSize is how many reports SubmitBatch queues together.
const ChunkSize = 256

var chunkPool = sync.Pool{New: func() any { s := make([]Report, 0, ChunkSize); return &s }}

// SubmitBatch queues reports in order, ChunkSize at a time, waiting while
// the queue is full; rs may be reused when it returns. It costs one queue
// operation per chunk where Submit costs one per report: for bulk sources
// (history imports). A source uses one of Submit and SubmitBatch: the two
// are not ordered against each other. On an error, the reports of the
// chunks queued before it are in (n of them), the others not.
func (p *Pipeline) SubmitBatch(ctx context.Context, rs []Report) (n int, err error) {
	p.submit.RLock()
	defer p.submit.RUnlock()
	for len(rs) > 0 {
		if p.stopped.Load() {
			return n, errors.New("ingest: pipeline closed")
		}
		k := min(len(rs), ChunkSize)
		c := chunkPool.Get().(*[]Report)
		*c = append((*c)[:0], rs[:k]...)
		p.chunked.Add(int64(k))
		select {
		case p.chunks <- c:
			p.stats.submitted.Add(uint64(k))
			n, rs = n+k, rs[k:]
		case <-ctx.Done():
			p.chunked.Add(-int64(k))
			return n, ctx.Err()
		case <-p.closed:
			p.chunked.Add(-int64(k))
			return n, errors.New("ingest: pipeline closed")
		}
	}
	return n, nil
}

// takeChunk processes the reports of a chunk and returns it to the pool.
func (p *Pipeline) takeChunk(c *[]Report) {
	for i := range *c {
		p.take(&(*c)[i])
	}
	p.chunked.Add(-int64(len(*c)))
	clear(*c) // the strings go with the reports
	*c = (*c)[:0]
	chunkPool.Put(c)
}
