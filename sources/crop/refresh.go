package crop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	health "overwatch/maritime/crop"
	"overwatch/sources"
)

// Config is where the NDVI series of the crop regions is fetched from
// (an AppEEARS point-sample CSV; empty: off, the default, and the health
// endpoint gives the official view), how its categories map to regions
// and how often it is fetched (OVERWATCH_CROP_NDVI_URL,
// OVERWATCH_CROP_NDVI_REGIONS, OVERWATCH_CROP_NDVI_REFRESH).
type Config struct {
	NDVIURL     string
	NDVIRegions map[string]string // AppEEARS Category -> region slug; a category equal to a slug maps to itself
	NDVIEvery   time.Duration
	// Failures counts the failed fetches (nil: not counted).
	Failures *sources.Failures
}

// ParseRegions reads "category=region,..." (region slugs checked).
func ParseRegions(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		cat, slug, ok := strings.Cut(part, "=")
		cat, slug = strings.TrimSpace(cat), strings.TrimSpace(slug)
		if _, known := health.RegionBySlug(slug); !ok || cat == "" || !known {
			return nil, fmt.Errorf("OVERWATCH_CROP_NDVI_REGIONS: %q must be category=region-slug (see /v1/satellite/regions)", part)
		}
		out[cat] = slug
	}
	return out, nil
}

// regionOf maps an AppEEARS category to a region slug ("" for none).
func (c Config) regionOf(category string) string {
	if s, ok := c.NDVIRegions[category]; ok {
		return s
	}
	if _, ok := health.RegionBySlug(category); ok {
		return category
	}
	return ""
}

// mapNDVI sets each sample's region from its category and keeps those
// that map to one; dropped counts the others.
func (c Config) mapNDVI(samples []health.NDVISample) (kept []health.NDVISample, dropped int) {
	for _, s := range samples {
		if s.Region = c.regionOf(s.Category); s.Region == "" {
			dropped++
			continue
		}
		kept = append(kept, s)
	}
	return kept, dropped
}

// Store stores parsed crop files (clickhouse.DB).
type Store interface {
	InsertPSD(ctx context.Context, rows []health.PSDRow) error
	InsertWASDE(ctx context.Context, rows []health.WASDERow) error
	InsertNDVI(ctx context.Context, rows []health.NDVISample) error
}

// NDVI is the scheduled fetch of the NDVI series: one AppEEARS
// point-sample CSV, stored whole or not at all. A fetch that fails
// (timeout, 429, 5xx, an HTML page, a truncated or malformed body, no
// sample of a configured region) keeps the series last stored and fails
// the run, counted on /metrics as
// overwatch_job_failures_total{job="crop_ndvi_refresh"}.
func NDVI(store Store, cfg Config) sources.Refresh {
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		res := sources.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		body, err := sources.Get(ctx, cfg.Failures, "appeears", cfg.NDVIURL, sources.Options{})
		if err != nil {
			return res, err
		}
		parsed, err := Parse(bytes.NewReader(body))
		if err != nil {
			return res, err
		}
		if parsed.Kind != KindAppEEARS {
			return res, fmt.Errorf("a %s, not an AppEEARS point-sample CSV", parsed.Kind)
		}
		kept, dropped := cfg.mapNDVI(parsed.NDVI)
		if len(kept) == 0 {
			return res, fmt.Errorf("no sample of a crop region (%d samples of other categories; set OVERWATCH_CROP_NDVI_REGIONS)", dropped)
		}
		if err := store.InsertNDVI(ctx, kept); err != nil {
			return res, err
		}
		res.Rows = len(kept)
		res.Detail["samples"], res.Detail["unmapped"], res.Detail["missing"] = len(kept), dropped, parsed.Missing
		return res, nil
	})
}

// ImportFile parses and stores one crop file (`overwatch import crop`):
// PSD, WASDE or AppEEARS, told apart by its header, parsed whole before
// it is stored; it says what it stored on stdout.
func ImportFile(ctx context.Context, store Store, cfg Config, path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	res, err := Parse(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	n, dropped := 0, 0
	switch res.Kind {
	case KindPSD:
		n, err = len(res.PSD), store.InsertPSD(ctx, res.PSD)
	case KindWASDE:
		n, err = len(res.WASDE), store.InsertWASDE(ctx, res.WASDE)
	case KindAppEEARS:
		var kept []health.NDVISample
		kept, dropped = cfg.mapNDVI(res.NDVI)
		if len(kept) == 0 {
			return fmt.Errorf("%s: no sample of a crop region (%d samples of other categories; set OVERWATCH_CROP_NDVI_REGIONS)", path, dropped)
		}
		n, err = len(kept), store.InsertNDVI(ctx, kept)
	default:
		err = errors.New("unknown file kind")
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stdout, "%s: %s, %d rows imported (%d missing, %d of unmapped categories)\n", path, res.Kind, n, res.Missing, dropped)
	return nil
}
