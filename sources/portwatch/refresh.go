package portwatch

import (
	"context"
	"errors"
	"strings"
	"time"

	"overwatch/maritime/chokepoint"
	"overwatch/sources"
)

// Writer stores IMF PortWatch's daily counts (clickhouse.DB).
type Writer interface {
	InsertPortWatch(ctx context.Context, rows []chokepoint.PortWatchDay) error
}

// defaultQuery is added to a PortWatch URL given without a query: the
// newest 1,000 rows (some five weeks of the 28 chokepoints), as JSON.
const defaultQuery = "where=1%3D1&outFields=*&orderByFields=date%20DESC&resultRecordCount=1000&f=json"

// Transits fetches IMF PortWatch's daily chokepoint transits where an
// operator configured it (its terms do not allow redistributing them:
// nothing is bundled or fetched by default): the rows of the eight watched
// chokepoints are stored, the newest fetch of a day winning. A fetch that
// fails (any status but 200, an HTML page, an {"error": ...} answer sent
// with 200, a truncated body, no row of a watched chokepoint) keeps what
// is stored and counts in overwatch_job_failures_total{job="portwatch_refresh"}.
func Transits(store Writer, rawURL string, failures *sources.Failures) sources.Refresh {
	if !strings.Contains(rawURL, "?") {
		rawURL += "?" + defaultQuery
	}
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		body, err := sources.Get(ctx, failures, "portwatch", rawURL, sources.Options{})
		if err != nil {
			return sources.Result{}, err
		}
		days, _, err := Parse(body)
		if err != nil {
			return sources.Result{}, err
		}
		var rows []chokepoint.PortWatchDay
		for _, d := range days {
			if slug := Slug(d.PortID, d.PortName); slug != "" {
				rows = append(rows, chokepoint.PortWatchDay{Chokepoint: slug, Day: d.Date, Container: d.Container, DryBulk: d.DryBulk,
					GeneralCargo: d.GeneralCargo, RoRo: d.RoRo, Tanker: d.Tanker, Total: d.Total})
			}
		}
		if len(rows) == 0 {
			return sources.Result{}, errors.New("portwatch: no row of a watched chokepoint in the answer")
		}
		if err := store.InsertPortWatch(ctx, rows); err != nil {
			return sources.Result{}, err
		}
		return sources.Result{Rows: len(rows), Watermark: time.Now().UTC()}, nil
	})
}
