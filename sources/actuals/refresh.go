package actuals

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"overwatch/maritime/calibration"
	"overwatch/sources"
)

// fetchGrainInspections downloads the WA_GR101 report from url
// (sources.Get: anything but a 200, a 429 or 5xx included, a body over
// the size limit, a timeout, an HTML error page is an error) and parses
// it: a body that is not a whole report (a truncated download:
// ParseGrainInspections) is an error too.
func fetchGrainInspections(ctx context.Context, failures *sources.Failures, url string) ([]calibration.Actual, error) {
	body, err := sources.Get(ctx, failures, "usda_grain_inspections", url, sources.Options{MaxBytes: MaxInspectionsBytes})
	if err != nil {
		return nil, fmt.Errorf("grain inspections: %w", err)
	}
	if !IsGrainInspections(body) {
		return nil, fmt.Errorf("grain inspections: GET %s: not a WA_GR101 report", url)
	}
	rep, err := ParseGrainInspections(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	rows, _ := InspectionActuals(rep, "")
	return rows, nil
}

// GrainInspections is the scheduled import of the WA_GR101 report
// from OVERWATCH_GRAIN_INSPECTIONS_URL: a failed fetch writes nothing, so
// the figures last imported stay, and counts as a failed run
// (overwatch_job_failures_total{job="grain_inspections"}).
func GrainInspections(store Store, url string, failures *sources.Failures) sources.Refresh {
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		if url == "" {
			return sources.Result{}, errors.New("grain_inspections: no OVERWATCH_GRAIN_INSPECTIONS_URL")
		}
		rows, err := fetchGrainInspections(ctx, failures, url)
		if err != nil {
			return sources.Result{}, err
		}
		if err := store.InsertActuals(ctx, rows); err != nil {
			return sources.Result{}, err
		}
		res := sources.Result{Rows: len(rows), Watermark: time.Now().UTC()}
		if len(rows) > 0 {
			res.From, res.To = rows[0].Week, rows[0].Week.AddDate(0, 0, 7)
			res.Detail = map[string]any{"published": rows[0].Published.Format(time.DateOnly), "source": rows[0].Source}
		}
		return res, nil
	})
}
