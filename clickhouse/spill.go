package clickhouse

import (
	"context"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// spillBytes is how much memory a derivation's GROUP BY or ORDER BY over
// a window of positions takes before it goes on to disk.
const spillBytes = 1 << 30

// spillToDisk lets the queries of ctx that group or sort a window of
// positions spill to disk past spillBytes each rather than fail at the
// server's memory limit: at the world fleet's cadence (about 19,000
// messages a second) an hour of positions is 68 million rows, and the
// port calls' tracks and the presence summary of a day failed at 7.45 GiB
// (measured by the world fleet benchmark).
func spillToDisk(ctx context.Context) context.Context {
	return ch.Context(ctx, ch.WithSettings(ch.Settings{
		"max_bytes_before_external_group_by": spillBytes,
		"max_bytes_before_external_sort":     spillBytes,
	}))
}
