package feed

import (
	"context"

	"overwatch/write/ingest"
)

// Reasons the JSON feeds reject input, as CountFeed names them (the NMEA
// feeds' reasons are the decoder's: ais.InvalidGarbage and the others).
const (
	InvalidRecord  = "record"  // an AISHub record that is not a vessel report
	InvalidMessage = "message" // an aisstream.io message that does not parse
)

// Sink takes the reports of a feed; the ingest pipeline is one.
type Sink interface {
	// Submit waits while the sink is full: back-pressure.
	Submit(ctx context.Context, r ingest.Report) error
	// TrySubmit drops (and counts) the report when the sink is full.
	TrySubmit(r ingest.Report) bool
	// CountFeed adds input units received, reports produced and input
	// rejected as invalid, by reason (see ingest.Pipeline.CountFeed).
	CountFeed(received, decoded uint64, invalid map[string]uint64)
	// CountTagBlockSums adds the NMEA lines kept although a tag block's
	// checksum is wrong, by reason (ais.TagBlockSumWithoutGroup and the
	// others).
	CountTagBlockSums(byReason map[string]uint64)
}
