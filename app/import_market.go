package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"overwatch/maritime/market"
	marketsource "overwatch/sources/market"
)

// importMarket is `overwatch import prices FILE...` (FRED CSV, the World
// Bank Pink Sheet workbook, AMS report JSON) and `overwatch import
// transport [--dataset ID] FILE...` (AgTransport JSON), told apart by
// their content (marketsource.Detect). --published dates the files when
// they do not say (a World Bank workbook and an AMS report do). Each file
// is parsed whole, streaming, then stored in batches
// (importMarketFile): a bad file imports nothing of itself.
func importMarket(ctx context.Context, cfg Config, log *slog.Logger, kind string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	published := fs.String("published", "", "the files' publication date (YYYY-MM-DD), when they do not state one")
	dataset := ""
	if kind == "transport" {
		fs.StringVar(&dataset, "dataset", "", "the AgTransport dataset id (default: told from the rows' fields)")
	}
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprint(stderr, importUsage)
		return ErrUsage
	}
	var pub time.Time
	if *published != "" {
		t, err := time.Parse(time.DateOnly, *published)
		if err != nil {
			return fmt.Errorf("--published must be a date YYYY-MM-DD: %w", err)
		}
		pub = t
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	for _, path := range fs.Args() {
		if err := importMarketFile(ctx, ch, kind, path, dataset, pub, stdout); err != nil {
			return err
		}
	}
	return nil
}

// MarketStore stores parsed market files (clickhouse.DB).
type MarketStore interface {
	marketsource.PriceWriter
	marketsource.RateWriter
}

// importMarketFile imports one file in two streaming passes, so that
// memory stays flat in the file's size and a bad file stores nothing: the
// first parses it whole and keeps nothing, the second stores it batch by
// batch (marketsource.BatchSize observations each; a store error between
// batches leaves part of the file stored, which importing it again
// completes: an observation's newest import wins).
func importMarketFile(ctx context.Context, store MarketStore, kind, path, dataset string, pub time.Time, stdout io.Writer) error {
	pass := func(emit marketsource.Emit) (marketsource.Result, error) {
		f, err := os.Open(path)
		if err != nil {
			return marketsource.Result{}, err
		}
		defer f.Close()
		return marketsource.Stream(filepath.Base(path), f, dataset, pub, emit)
	}
	res, err := pass(func([]market.Price, []market.Rate) error { return nil })
	if err != nil {
		return err
	}
	switch {
	case kind == "prices" && res.Kind == marketsource.KindAgTransport:
		return fmt.Errorf("%s: a transport dataset: use overwatch import transport", path)
	case kind == "transport" && res.Kind != marketsource.KindAgTransport:
		return fmt.Errorf("%s: a price file (%s): use overwatch import prices", path, res.Kind)
	}
	n := 0
	_, err = pass(func(prices []market.Price, rates []market.Rate) error {
		if kind == "prices" {
			n += len(prices)
			return store.InsertPrices(ctx, prices)
		}
		n += len(rates)
		return store.InsertRates(ctx, rates)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if kind == "prices" {
		fmt.Fprintf(stdout, "%s: %s, %d prices imported (%d missing, %d not carried)\n", path, res.Kind, n, res.Missing, res.Skipped)
	} else {
		fmt.Fprintf(stdout, "%s: %s %s, %d rates imported (%d missing, %d not carried)\n", path, res.Kind, res.Dataset, n, res.Missing, res.Skipped)
	}
	return nil
}
