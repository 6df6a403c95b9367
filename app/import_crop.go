package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	cropsource "overwatch/sources/crop"
	"strings"
)

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
		if err := cropsource.ImportFile(ctx, ch, cfg.Crop, path, stdout); err != nil {
			return err
		}
	}
	return nil
}
