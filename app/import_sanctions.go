package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	sanctionsource "overwatch/sources/sanctions"

	"overwatch/maritime/sanctions"
)

const importSanctionsUsage = "usage: overwatch import sanctions [--list NAME] SDN.CSV [ALT.CSV [SDN_COMMENTS.CSV]]\n" +
	"       overwatch import sanctions [--list NAME] --url BASE_URL\n"

// importSanctions imports a sanctions list (`overwatch import sanctions`):
// the OFAC legacy SDN files (sanctionsource.ParseSDN) from disk, or fetched from a
// base URL with --url, as the list --list (default "OFAC SDN"). The import
// replaces the list's previous one whole; the files are parsed before
// anything is written, so a broken file imports nothing.
func importSanctions(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import sanctions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.String("list", sanctionsource.ListOFACSDN, "the list's name (its list_source)")
	url := fs.String("url", "", "fetch "+sanctionsource.SDNFile+", "+sanctionsource.ALTFile+" and "+sanctionsource.CommentsFile+" from this base URL instead of files")
	if err := fs.Parse(args); err != nil || (*url == "") == (fs.NArg() == 0) || fs.NArg() > 3 {
		fmt.Fprint(stderr, importSanctionsUsage)
		return ErrUsage
	}
	var entries []sanctions.Entry
	var err error
	if *url != "" {
		entries, err = sanctionsource.FetchAndParse(ctx, nil, *url, *list)
	} else {
		entries, err = sanctionsource.ParseFiles(fs.Args(), *list)
	}
	if err != nil {
		return err
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	if err := ch.ReplaceSanctions(ctx, *list, entries); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s\n", *list, sanctionsource.Summary(entries))
	return nil
}
