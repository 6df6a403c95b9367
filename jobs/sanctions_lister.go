package jobs

import (
	"context"

	"overwatch/maritime/sanctions"
)

// SanctionsLister lists the entries of the newest import of every
// sanctions list.
type SanctionsLister interface {
	SanctionsEntries(ctx context.Context) ([]sanctions.Entry, error)
}
