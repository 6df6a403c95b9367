package feed

import (
	"context"

	"overwatch/write/ingest"
)

// Sink takes the reports of a feed; the ingest pipeline is one.
type Sink interface {
	// Submit waits while the sink is full: back-pressure.
	Submit(ctx context.Context, r ingest.Report) error
	// TrySubmit drops (and counts) the report when the sink is full.
	TrySubmit(r ingest.Report) bool
	// CountFeed adds input units received, reports produced and input
	// rejected as invalid.
	CountFeed(received, decoded, invalid uint64)
}
