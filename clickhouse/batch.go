package clickhouse

import (
	"context"

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
	own, cancel := context.WithCancel(context.WithoutCancel(ctx))
	detach := context.AfterFunc(ctx, cancel)
	b, err := db.conn.PrepareBatch(own, insert)
	if err != nil {
		detach()
		cancel()
		return sendBatch{}, err
	}
	return sendBatch{Batch: b, detach: detach}, nil
}
