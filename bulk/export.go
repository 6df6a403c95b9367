package bulk

import (
	"context"
	"time"

	"overwatch/read"
)

// Status is where an export is in its life.
type Status string

// The statuses of an export.
const (
	Queued    Status = "queued"
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	Expired   Status = "expired"
)

// Export is an export as its owner sees it (null where not known yet).
type Export struct {
	ID          string            `json:"id"`
	Dataset     Dataset           `json:"dataset"`
	Format      Format            `json:"format"`
	Filters     map[string]string `json:"filters"`
	Status      Status            `json:"status"`
	Rows        *int64            `json:"rows"`
	Bytes       *int64            `json:"bytes"`
	Progress    float64           `json:"progress"`
	CreatedAt   time.Time         `json:"created_at"`
	CompletedAt *time.Time        `json:"completed_at"`
	ExpiresAt   *time.Time        `json:"expires_at"`
	DownloadURL *string           `json:"download_url"`
	Error       *string           `json:"error"`

	AccountID int64  `json:"-"`
	File      string `json:"-"` // the file's name under the export directory ("" until completed)
}

// NewExport is an export to store, queued.
type NewExport struct {
	ID        string
	AccountID int64
	Dataset   Dataset
	Format    Format
	Filters   map[string]string
	Estimated int64 // the rows the filters select, as counted when asked for (the progress's denominator)
	MaxRows   int64 // the plan's rows per export when asked for
	CreatedAt time.Time
}

// Quota is what the account's plan allows: exports started per UTC day
// (counted from DayStart).
type Quota struct {
	PerDay   int
	DayStart time.Time
}

// Claim is an export a worker took: what to write.
type Claim struct {
	ID        string
	AccountID int64
	Dataset   Dataset
	Format    Format
	Filters   map[string]string
	Estimated int64
	MaxRows   int64
	Attempt   int
}

// Event is a webhook event queued with the export's outcome, in the same
// transaction (export.completed, export.failed).
type Event struct {
	Type    string
	ID      string
	Payload []byte
}

// Store keeps the exports (PostgreSQL). An export is seen by its account
// only: another account's is NotFound.
type Store interface {
	// CreateExport stores a queued export unless the account started
	// quota.PerDay since quota.DayStart (TooManyRequests naming the limit).
	CreateExport(ctx context.Context, e NewExport, quota Quota) (Export, error)
	// Export is one of the account's exports (NotFound otherwise).
	Export(ctx context.Context, accountID int64, id string) (Export, error)
	// Exports are the account's exports, newest first, at most limit.
	Exports(ctx context.Context, accountID int64, limit int) ([]Export, error)
	// ClaimExport takes the oldest queued export, or a running one whose
	// lease ended before now (its worker stopped), and leases it until
	// now+lease; nil when there is none. A running one already tried
	// maxAttempts times is failed instead, with the message given.
	ClaimExport(ctx context.Context, now time.Time, lease time.Duration, maxAttempts int, gaveUp string) (*Claim, error)
	// ProgressExport records the rows written so far and extends the lease.
	ProgressExport(ctx context.Context, id string, progress float64, leaseUntil time.Time) error
	// CompleteExport records the file written and queues the event.
	CompleteExport(ctx context.Context, id, file string, rows, bytes int64, completedAt, expiresAt time.Time, ev Event) error
	// FailExport records the failure and queues the event.
	FailExport(ctx context.Context, id, message string, ev Event) error
	// ReleaseExport queues a running export again (its worker stops).
	ReleaseExport(ctx context.Context, id string) error
	// ExpireExports marks the completed exports whose expiry is before now
	// expired and returns their files.
	ExpireExports(ctx context.Context, now time.Time) ([]string, error)
}

// Query is what a worker reads: the dataset's rows the filter selects,
// and for port calls the ports in the filter's area (nil: no area).
type Query struct {
	Dataset Dataset
	Filter  read.PositionFilter
}

// Rows are the rows of a query, streamed: Next scans the next row into
// dest (a *string, *int64 or *float64 per column, by kind: String and Text
// strings, Int, ID and Time int64, Float float64).
type Rows interface {
	Next(dest []any) bool
	Err() error
	Close() error
}

// Source reads the datasets (ClickHouse).
type Source interface {
	// CountExport counts the rows the query selects (an upper bound: rows
	// stored twice before a merge count twice).
	CountExport(ctx context.Context, q Query) (int64, error)
	// ExportRows streams the rows the query selects, each once.
	ExportRows(ctx context.Context, q Query) (Rows, error)
}
