package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"overwatch/postgres"
	"overwatch/write"
)

// importPICoverage loads P&I coverage files into the shared base that
// every account sees under its own imports (`overwatch import pi-coverage
// [--source S] FILE...`): each file read by write.ParsePICoverageCSV, its
// rejected rows reported, its accepted rows stored with the source (the
// file's name by default). A file with no header row imports nothing.
func importPICoverage(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import pi-coverage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	source := fs.String("source", "", "the source named on the records (default: the file's name)")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprint(stderr, "usage: overwatch import pi-coverage [--source S] FILE...\n")
		return ErrUsage
	}
	pg, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pg.Close()
	if _, err := pg.Migrate(ctx); err != nil {
		return err
	}
	for _, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rows, ans, err := write.ParsePICoverageCSV(data)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		src := *source
		if src == "" {
			src = filepath.Base(path)
		}
		n, err := pg.ImportPICoverage(ctx, 0, rows, src)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(stdout, "%s: %d rows, %d matched, %d stored in the shared base, %d rejected, unmatched clubs %q\n",
			path, ans.RowsProcessed, ans.Matched, n, ans.RejectedCount, ans.UnmatchedClubs)
		for _, r := range ans.Rejected {
			fmt.Fprintf(stdout, "%s:%d: %s\n", path, r.Line, r.Reason)
		}
	}
	return nil
}
