package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/crop"
	cropfile "overwatch/write/crop"
)

// CropConfig is where the NDVI series of the crop regions is fetched from
// (an AppEEARS point-sample CSV; empty: off, the default, and the health
// endpoint gives the official view), how its categories map to regions
// and how often it is fetched.
type CropConfig struct {
	NDVIURL     string
	NDVIRegions map[string]string // AppEEARS Category -> region slug; a category equal to a slug maps to itself
	NDVIEvery   time.Duration
}

// ParseCropRegions reads "category=region,..." (region slugs checked).
func ParseCropRegions(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range list(v) {
		cat, slug, ok := strings.Cut(part, "=")
		cat, slug = strings.TrimSpace(cat), strings.TrimSpace(slug)
		if _, known := crop.RegionBySlug(slug); !ok || cat == "" || !known {
			return nil, fmt.Errorf("OVERWATCH_CROP_NDVI_REGIONS: %q must be category=region-slug (see /v1/satellite/regions)", part)
		}
		out[cat] = slug
	}
	return out, nil
}

// regionOf maps an AppEEARS category to a region slug ("" for none).
func (c CropConfig) regionOf(category string) string {
	if s, ok := c.NDVIRegions[category]; ok {
		return s
	}
	if _, ok := crop.RegionBySlug(category); ok {
		return category
	}
	return ""
}

// mapNDVI sets each sample's region from its category and keeps those
// that map to one; dropped counts the others.
func (c CropConfig) mapNDVI(samples []crop.NDVISample) (kept []crop.NDVISample, dropped int) {
	for _, s := range samples {
		if s.Region = c.regionOf(s.Category); s.Region == "" {
			dropped++
			continue
		}
		kept = append(kept, s)
	}
	return kept, dropped
}

// CropStore stores parsed crop files (clickhouse.DB).
type CropStore interface {
	InsertPSD(ctx context.Context, rows []crop.PSDRow) error
	InsertWASDE(ctx context.Context, rows []crop.WASDERow) error
	InsertNDVI(ctx context.Context, rows []crop.NDVISample) error
}

// CropNDVISource is the scheduled fetch of the NDVI series: one AppEEARS
// point-sample CSV, stored whole or not at all. A fetch that fails
// (timeout, 429, 5xx, an HTML page, a truncated or malformed body, no
// sample of a configured region) keeps the series last stored and fails
// the run, counted on /metrics as
// overwatch_job_failures_total{job="crop_ndvi_refresh"}.
func CropNDVISource(store CropStore, cfg CropConfig) jobs.Source {
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		res := jobs.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		body, err := fetchSource(ctx, cfg.NDVIURL, fetchOptions{})
		if err != nil {
			return res, err
		}
		parsed, err := cropfile.Parse(bytes.NewReader(body))
		if err != nil {
			return res, err
		}
		if parsed.Kind != cropfile.KindAppEEARS {
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

// CropSources is the NDVI fetch of the job table, with its source when
// the configuration turns it on.
func CropSources(cfg CropConfig, store CropStore) jobs.SourceRefresh {
	r := jobs.SourceRefresh{Every: cfg.NDVIEvery, Setting: "OVERWATCH_CROP_NDVI_URL"}
	if cfg.NDVIURL != "" {
		r.Source = CropNDVISource(store, cfg)
	}
	return r
}

// importCrop is `overwatch import crop FILE...`: USDA PSD Online CSVs,
// the WASDE report data CSV and AppEEARS point-sample CSVs (their
// categories mapped to regions by OVERWATCH_CROP_NDVI_REGIONS), told
// apart by their header. Each file is parsed whole before it is stored:
// a bad file stores nothing of itself.
func importCrop(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, importUsage)
		return ErrUsage
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	for _, path := range args {
		if err := importCropFile(ctx, ch, cfg.Crop, path, stdout); err != nil {
			return err
		}
	}
	return nil
}

// importCropFile parses and stores one crop file.
func importCropFile(ctx context.Context, store CropStore, cfg CropConfig, path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	res, err := cropfile.Parse(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	n, dropped := 0, 0
	switch res.Kind {
	case cropfile.KindPSD:
		n, err = len(res.PSD), store.InsertPSD(ctx, res.PSD)
	case cropfile.KindWASDE:
		n, err = len(res.WASDE), store.InsertWASDE(ctx, res.WASDE)
	case cropfile.KindAppEEARS:
		var kept []crop.NDVISample
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
