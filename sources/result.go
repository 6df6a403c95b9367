package sources

import (
	"context"
	"time"
)

// Result is what one refresh of a source stored: its rows, the window
// they cover (zero: none), the newest time it has taken into account, and
// a detail per file or part.
type Result struct {
	From, To  time.Time
	Rows      int
	Watermark time.Time
	Detail    map[string]any
}

// Refresh fetches a source, parses it and stores it: what the scheduler
// runs at the source's interval. A refresh that fails stores nothing of
// the part that failed and returns the error, so what was stored last
// stays.
type Refresh func(ctx context.Context) (Result, error)
