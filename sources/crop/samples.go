package crop

import (
	"context"
	"embed"
	"log/slog"
)

// cropSamples are the real USDA PSD Online and WASDE files of November
// 2025 (copied byte for byte from ../shared/data/crop; origins and
// checksums in samples/README.md), which `overwatch run` loads into empty
// crop tables so that /v1/satellite/health and /production answer out of
// the box with the official view, dated as USDA published it (each row
// keeps its revision or release date). No NDVI sample is bundled: the
// only real AppEEARS file is over a forest, not a crop region.
//
//go:embed samples/*.csv
var cropSamples embed.FS

// SampleStore is the crop tables the samples fill when they are empty
// (clickhouse.DB).
type SampleStore interface {
	Store
	CropRows(ctx context.Context) (psd, wasde uint64, err error)
}

// LoadSamples stores the bundled samples when the PSD and WASDE tables
// are empty; a sample that fails to load is logged and skipped.
func LoadSamples(ctx context.Context, ch SampleStore, log *slog.Logger) {
	psd, wasde, err := ch.CropRows(ctx)
	if err != nil {
		log.Warn("crop samples: cannot count the crop tables", "err", err)
		return
	}
	entries, err := cropSamples.ReadDir("samples")
	if err != nil {
		log.Warn("crop samples", "err", err)
		return
	}
	var nPSD, nWASDE int
	for _, e := range entries {
		f, err := cropSamples.Open("samples/" + e.Name())
		if err != nil {
			continue
		}
		res, err := Parse(f)
		f.Close()
		if err != nil {
			log.Warn("crop samples: not loaded", "file", e.Name(), "err", err)
			continue
		}
		switch {
		case len(res.PSD) > 0 && psd == 0:
			err = ch.InsertPSD(ctx, res.PSD)
			nPSD += len(res.PSD)
		case len(res.WASDE) > 0 && wasde == 0:
			err = ch.InsertWASDE(ctx, res.WASDE)
			nWASDE += len(res.WASDE)
		}
		if err != nil {
			log.Warn("crop samples: not stored", "file", e.Name(), "err", err)
		}
	}
	if nPSD+nWASDE > 0 {
		log.Info("crop samples loaded (USDA PSD and WASDE of 2025-11, dated as published; imports replace them)", "psd", nPSD, "wasde", nWASDE)
	}
}
