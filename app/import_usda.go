package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"overwatch/jobs"
	"overwatch/write"
)

// printDropped says, for a WA_GR101 report, when its week is and which
// port areas were not imported (they are not our ports).
func printDropped(w io.Writer, path string, rows []write.ActualRow, dropped []write.DroppedArea) {
	if len(rows) > 0 && !rows[0].Published.IsZero() {
		fmt.Fprintf(w, "%s: %s, published %s, ISO week of %s\n", path, rows[0].Source,
			rows[0].Published.Format(time.DateOnly), rows[0].Week.Format(time.DateOnly))
	}
	for _, d := range dropped {
		fmt.Fprintf(w, "%s: dropped %s / %s (%d t): %s\n", path, d.Region, d.Area, d.Tonnes, d.Reason)
	}
}

// fetchGrainInspections downloads the WA_GR101 report from url
// (fetchSource: anything but a 200, a 429 or 5xx included, a body over
// the size limit, a timeout, an HTML error page is an error) and parses
// it: a body that is not a whole report (a truncated download:
// write.ParseGrainInspections) is an error too.
func fetchGrainInspections(ctx context.Context, url string) ([]write.ActualRow, error) {
	body, err := fetchSource(ctx, url, fetchOptions{maxBytes: write.MaxInspectionsBytes})
	if err != nil {
		return nil, fmt.Errorf("grain inspections: %w", err)
	}
	if !write.IsGrainInspections(body) {
		return nil, fmt.Errorf("grain inspections: GET %s: not a WA_GR101 report", url)
	}
	rep, err := write.ParseGrainInspections(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	rows, _ := write.InspectionActuals(rep, "")
	return rows, nil
}

// grainInspectionsSource is the scheduled import of the WA_GR101 report
// from OVERWATCH_GRAIN_INSPECTIONS_URL: a failed fetch writes nothing, so
// the figures last imported stay, and counts as a failed run
// (overwatch_job_failures_total{job="grain_inspections"}).
func grainInspectionsSource(store write.ActualsStore, url string) jobs.Source {
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		if url == "" {
			return jobs.Result{}, errors.New("grain_inspections: no OVERWATCH_GRAIN_INSPECTIONS_URL")
		}
		rows, err := fetchGrainInspections(ctx, url)
		if err != nil {
			return jobs.Result{}, err
		}
		if err := store.InsertActuals(ctx, rows); err != nil {
			return jobs.Result{}, err
		}
		res := jobs.Result{Rows: len(rows), Watermark: time.Now().UTC()}
		if len(rows) > 0 {
			res.From, res.To = rows[0].Week, rows[0].Week.AddDate(0, 0, 7)
			res.Detail = map[string]any{"published": rows[0].Published.Format(time.DateOnly), "source": rows[0].Source}
		}
		return res, nil
	})
}
