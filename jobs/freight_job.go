package jobs

import (
	"context"
	"time"
)

// FreightPublisher publishes the aggregates of the contributed freight
// rates (Postgres): each ISO week that has ended by now, once, from the
// records submitted in it, with at least minContributors accounts per
// route (0: the service's default).
type FreightPublisher interface {
	PublishFreightWeeks(ctx context.Context, now time.Time, minContributors int) (weeks, aggregates int, err error)
}

// FreightPublication publishes the weeks of contributed freight rates that
// have ended and are not published yet (a reader of GET /v1/freight-rates
// publishes one the job has not got to); a published week is never
// computed again.
func FreightPublication(p FreightPublisher, now func() time.Time, minContributors int) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		at := now().UTC()
		weeks, n, err := p.PublishFreightWeeks(ctx, at, minContributors)
		if err != nil {
			return Result{}, err
		}
		return Result{Rows: n, Watermark: at, Detail: map[string]any{"weeks": weeks}}, nil
	}
}
