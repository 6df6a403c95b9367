package clickhouse

import (
	"context"
	"errors"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// sendBatch is a prepared INSERT whose context follows the caller's only
// until it is sent or aborted.
//
// clickhouse-go (v2.50) watches the batch's context during Send and closes
// the connection when it ends. A caller that cancels its context just
// after Send returned (a deferred cancel) can have the watcher, not yet
// scheduled, close the connection after Send put it back in the pool: the
// next query on it fails with "use of closed network connection"
// (ClickHouse/clickhouse-go#2032, open). So the batch gets a context of its
// own, cancelled with the caller's while the batch is live and detached
// from it once sent: the watcher then only ever sees Send finish.
type sendBatch struct {
	driver.Batch
	detach func() bool
}

// Send sends the batch and detaches its context from the caller's.
func (b sendBatch) Send() error {
	defer b.detach()
	return b.Batch.Send()
}

// Abort abandons the batch and detaches its context from the caller's.
func (b sendBatch) Abort() error {
	defer b.detach()
	return b.Batch.Abort()
}

// prepareBatch prepares an INSERT (its columns named) as a sendBatch.
func (db *DB) prepareBatch(ctx context.Context, insert string) (sendBatch, error) {
	return prepareOn(ctx, db.conn, insert)
}

// prepareOn prepares an INSERT as a sendBatch on the pool c.
func prepareOn(ctx context.Context, c driver.Conn, insert string) (sendBatch, error) {
	own, cancel := context.WithCancel(context.WithoutCancel(ctx))
	detach := context.AfterFunc(ctx, cancel)
	b, err := c.PrepareBatch(own, insert)
	if err != nil {
		detach()
		cancel()
		return sendBatch{}, err
	}
	return sendBatch{Batch: b, detach: detach}, nil
}

// sendRetrying prepares a batch, fills it and sends it. In cluster mode a
// batch that fails for a reason another node (or a moment later, the same
// node) may not have is filled again with the same rows and sent again, up
// to clusterSendAttempts times: the new connection goes to the first node
// of the URL that answers, and the replicas' block deduplication drops a
// block that the failed attempt stored after all. On a single node a
// failure is returned at once (the ingest pipeline spools the batch).
func (db *DB) sendRetrying(ctx context.Context, insert string, fill func(sendBatch) error) error {
	return db.retrying(ctx, func() error { return db.sendOnce(ctx, insert, fill) })
}

// execRetrying runs an INSERT ... SELECT like sendRetrying sends a batch:
// the SELECT reads the same rows again, and the blocks it writes are
// deduplicated the same way.
func (db *DB) execRetrying(ctx context.Context, insert string, args ...any) error {
	return db.retrying(ctx, func() error { return db.conn.Exec(ctx, insert, args...) })
}

// retrying calls attempt until it succeeds, fails for good, or has been
// tried clusterSendAttempts times (once on a single node).
func (db *DB) retrying(ctx context.Context, attempt func() error) error {
	attempts := 1
	if db.cluster != "" {
		attempts = clusterSendAttempts
	}
	var err error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(time.Duration(i*i) * 200 * time.Millisecond):
			}
		}
		if err = attempt(); err == nil || !retryable(err) {
			return err
		}
	}
	return err
}

// clusterSendAttempts is how many times a batch is sent in cluster mode.
const clusterSendAttempts = 4

func (db *DB) sendOnce(ctx context.Context, insert string, fill func(sendBatch) error) error {
	batch, err := db.prepareBatch(ctx, insert)
	if err != nil {
		return err
	}
	defer batch.Abort() //nolint:errcheck // a no-op once sent
	if err := fill(batch); err != nil {
		return errFill{err}
	}
	return batch.Send()
}

// errFill is an error filling a batch: the rows, not the server, are at
// fault, and sending them again would not help.
type errFill struct{ error }

// Unwrap returns the error of the fill, for errors.Is and errors.As.
func (e errFill) Unwrap() error { return e.error }

// retryableCodes are the server errors after which an identical insert may
// succeed: network and timeout errors, a replica read-only or without
// ZooKeeper, too many parts, an insert whose quorum or status is unknown,
// every replica of a shard unreachable.
var retryableCodes = map[int32]bool{
	3: true, 159: true, 209: true, 210: true, 225: true, 242: true, 252: true,
	279: true, 285: true, 286: true, 319: true, 999: true,
}

// retryable reports whether an insert that failed with err may be sent
// again: not when the caller gave up or the rows are at fault.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var fe errFill
	if errors.As(err, &fe) {
		return false
	}
	var ex *ch.Exception
	if errors.As(err, &ex) {
		return retryableCodes[ex.Code]
	}
	return true // the connection failed: EOF, reset, refused
}
