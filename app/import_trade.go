package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	tradesource "overwatch/sources/comtrade"
	"strings"
)

// importTrade is `overwatch import trade FILE...`: Comtrade API answers
// (JSON) and bulk files (tab- or comma-separated, gzipped or not). Each
// file is parsed whole before it is stored: a bad file stores nothing of
// itself.
func importTrade(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, "usage: overwatch import trade FILE...   (UN Comtrade API JSON or bulk TSV/CSV, .gz too)\n")
		return ErrUsage
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	for _, path := range args {
		if err := tradesource.ImportFile(ctx, ch, path, stdout); err != nil {
			return err
		}
	}
	return nil
}
