package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"overwatch/maritime/calibration"
	"overwatch/sources/actuals"
	"time"
)

// importCommand imports history and reference data: `overwatch import
// history ...` (AIS archives, importHistory), `overwatch import actuals
// [--source S] FILE...` (official export figures: the CSV of
// actuals.ParseActuals or USDA WA_GR101 reports, told apart by their content,
// actuals.ReadActuals) and `overwatch import sanctions [--list L] [--url
// U] FILE...` (importSanctions), `overwatch import prices|transport
// FILE...` (market data: importMarket). Each file is parsed whole before anything
// is written, so a bad row imports nothing of its file.
func importCommand(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 {
		fmt.Fprint(stderr, importUsage)
		return ErrUsage
	}
	switch args[0] {
	case "history":
		return importHistory(ctx, cfg, log, args[1:], stdout, stderr)
	case "prices", "transport":
		return importMarket(ctx, cfg, log, args[0], args[1:], stdout, stderr)
	case "crop":
		return importCrop(ctx, cfg, log, args[1:], stdout, stderr)
	case "trade":
		return importTrade(ctx, cfg, log, args[1:], stdout, stderr)
	case "river", "sar", "news", "portwatch":
		return importSignals(ctx, cfg, log, args[0], args[1:], stdout, stderr)
	case "pi-coverage":
		return importPICoverage(ctx, cfg, args[1:], stdout, stderr)
	case "sanctions":
		return importSanctions(ctx, cfg, log, args[1:], stdout, stderr)
	case "actuals":
		fs := flag.NewFlagSet("import actuals", flag.ContinueOnError)
		fs.SetOutput(stderr)
		source := fs.String("source", "", "the source of the figures, for rows without a source column")
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() == 0 {
			fmt.Fprint(stderr, "usage: overwatch import actuals [--source S] FILE...\n")
			return ErrUsage
		}
		ch, pg, err := stores(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer ch.Close()
		defer pg.Close()
		for _, path := range fs.Args() {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			rows, dropped, err := actuals.ReadActuals(f, *source)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if err := ch.InsertActuals(ctx, rows); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			fmt.Fprintf(stdout, "%s: %d export figures imported\n", path, len(rows))
			printDropped(stdout, path, rows, dropped)
		}
		return nil
	}
	fmt.Fprintf(stderr, "overwatch import: unknown kind %q (want history, actuals, sanctions, prices, transport, crop or trade)\n%s", args[0], importUsage)
	return ErrUsage
}

const importUsage = `usage: overwatch import history [--source PROVIDER] [--format FORMAT] [--force] FILE...
       overwatch import actuals [--source S] FILE...
       overwatch import sanctions [--list L] SDN.CSV ALT.CSV SDN_COMMENTS.CSV
       overwatch import sanctions [--list L] --url BASE_URL
       overwatch import prices [--published YYYY-MM-DD] FILE...      (FRED CSV, World Bank xlsx, AMS JSON)
       overwatch import transport [--dataset ID] [--published YYYY-MM-DD] FILE...   (AgTransport JSON)
       overwatch import river FILE...     (USGS NWIS instantaneous values JSON, Water Data OGC API JSON)
       overwatch import sar FILE...       (Sentinel-1 catalogue answers: ASF jsonlite/CSV/GeoJSON/KML, CDSE OData, STAC)
       overwatch import news --subject SLUG FILE...   (GDELT DOC ArtList JSON about a port or chokepoint)
       overwatch import portwatch FILE... (IMF PortWatch daily chokepoint transits)
       overwatch import crop FILE...      (USDA PSD CSV, WASDE report data CSV, AppEEARS point-sample CSV)
       overwatch import trade FILE...     (UN Comtrade API JSON, bulk TSV/CSV, .gz too)
       overwatch import pi-coverage [--source S] FILE...   (P&I coverage CSV into the shared base: imo, club, ...)
`

// printDropped says, for a WA_GR101 report, when its week is and which
// port areas were not imported (they are not our ports).
func printDropped(w io.Writer, path string, rows []calibration.Actual, dropped []actuals.DroppedArea) {
	if len(rows) > 0 && !rows[0].Published.IsZero() {
		fmt.Fprintf(w, "%s: %s, published %s, ISO week of %s\n", path, rows[0].Source,
			rows[0].Published.Format(time.DateOnly), rows[0].Week.Format(time.DateOnly))
	}
	for _, d := range dropped {
		fmt.Fprintf(w, "%s: dropped %s / %s (%d t): %s\n", path, d.Region, d.Area, d.Tonnes, d.Reason)
	}
}
