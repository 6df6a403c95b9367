package app

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/sanctions"
	"overwatch/write"
)

// The files of the OFAC legacy SDN list, as OFAC's Sanctions List Service
// publishes them under one base URL (for example
// https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/).
const (
	sdnFile         = "SDN.CSV"
	altFile         = "ALT.CSV"
	sdnCommentsFile = "SDN_COMMENTS.CSV"
)

// Limits of a sanctions refresh: each file at most sanctionsMaxBytes, the
// three fetched within sanctionsTimeout.
const (
	sanctionsMaxBytes = 50 << 20
	sanctionsTimeout  = 60 * time.Second
)

const importSanctionsUsage = "usage: overwatch import sanctions [--list NAME] SDN.CSV [ALT.CSV [SDN_COMMENTS.CSV]]\n" +
	"       overwatch import sanctions [--list NAME] --url BASE_URL\n"

// importSanctions imports a sanctions list (`overwatch import sanctions`):
// the OFAC legacy SDN files (write.ParseSDN) from disk, or fetched from a
// base URL with --url, as the list --list (default "OFAC SDN"). The import
// replaces the list's previous one whole; the files are parsed before
// anything is written, so a broken file imports nothing.
func importSanctions(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import sanctions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.String("list", write.ListOFACSDN, "the list's name (its list_source)")
	url := fs.String("url", "", "fetch "+sdnFile+", "+altFile+" and "+sdnCommentsFile+" from this base URL instead of files")
	if err := fs.Parse(args); err != nil || (*url == "") == (fs.NArg() == 0) || fs.NArg() > 3 {
		fmt.Fprint(stderr, importSanctionsUsage)
		return ErrUsage
	}
	var entries []sanctions.Entry
	var err error
	if *url != "" {
		entries, err = fetchAndParseSanctions(ctx, *url, *list)
	} else {
		entries, err = parseSanctionsFiles(fs.Args(), *list)
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
	fmt.Fprintf(stdout, "%s: %s\n", *list, sanctionsSummary(entries))
	return nil
}

// parseSanctionsFiles parses the SDN file and the ALT and comments files
// when given.
func parseSanctionsFiles(paths []string, list string) ([]sanctions.Entry, error) {
	readers := make([]io.Reader, 3)
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		readers[i] = f
	}
	entries, err := write.ParseSDN(readers[0], readers[1], readers[2], list)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(paths, ", "), err)
	}
	return entries, nil
}

// fetchAndParseSanctions fetches the three files from the base URL and
// parses them.
func fetchAndParseSanctions(ctx context.Context, url, list string) ([]sanctions.Entry, error) {
	sdn, alt, comments, err := fetchSanctions(ctx, url)
	if err != nil {
		return nil, err
	}
	entries, err := write.ParseSDN(bytes.NewReader(sdn), bytes.NewReader(alt), bytes.NewReader(comments), list)
	if err != nil {
		return nil, fmt.Errorf("sanctions from %s: %w", url, err)
	}
	return entries, nil
}

// fetchSanctions downloads SDN.CSV, ALT.CSV and SDN_COMMENTS.CSV from the
// base URL (a "/" is added when it lacks one): every file must answer 200
// within sanctionsTimeout in all, and none may exceed sanctionsMaxBytes.
func fetchSanctions(ctx context.Context, url string) (sdn, alt, comments []byte, err error) {
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return nil, nil, nil, fmt.Errorf("sanctions URL %q must be http:// or https://", url)
	}
	if !strings.HasSuffix(url, "/") {
		url += "/"
	}
	ctx, cancel := context.WithTimeout(ctx, sanctionsTimeout)
	defer cancel()
	get := func(name string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+name, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "overwatch sanctions refresh")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, fmt.Errorf("sanctions: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("sanctions: GET %s: %s", url+name, resp.Status)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, sanctionsMaxBytes+1))
		if err != nil {
			return nil, fmt.Errorf("sanctions: GET %s: %w", url+name, err)
		}
		if len(body) > sanctionsMaxBytes {
			return nil, fmt.Errorf("sanctions: GET %s: larger than %d MB", url+name, sanctionsMaxBytes>>20)
		}
		return body, nil
	}
	if sdn, err = get(sdnFile); err != nil {
		return nil, nil, nil, err
	}
	if alt, err = get(altFile); err != nil {
		return nil, nil, nil, err
	}
	if comments, err = get(sdnCommentsFile); err != nil {
		return nil, nil, nil, err
	}
	return sdn, alt, comments, nil
}

// refreshSanctions fetches the list from the base URL and replaces its
// import in the store; it returns the entries imported.
func refreshSanctions(ctx context.Context, store write.SanctionsStore, url, list string) (int, error) {
	entries, err := fetchAndParseSanctions(ctx, url, list)
	if err != nil {
		return 0, err
	}
	if err := store.ReplaceSanctions(ctx, list, entries); err != nil {
		return 0, err
	}
	return len(entries), nil
}

// sanctionsSource is the scheduled refresh of the list from the base URL
// (OVERWATCH_SANCTIONS_URL): a fetch that fails replaces nothing.
func sanctionsSource(store write.SanctionsStore, url, list string) jobs.Source {
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		if url == "" {
			return jobs.Result{}, errors.New("sanctions_refresh: no OVERWATCH_SANCTIONS_URL")
		}
		n, err := refreshSanctions(ctx, store, url, list)
		now := time.Now().UTC()
		return jobs.Result{Rows: n, Watermark: now, Detail: map[string]any{"list": list}}, err
	})
}

// sanctionsSummary says what a list holds.
func sanctionsSummary(entries []sanctions.Entry) string {
	imo, mmsi := 0, 0
	for _, e := range entries {
		if e.IMO != 0 {
			imo++
		}
		if e.MMSI != 0 {
			mmsi++
		}
	}
	return fmt.Sprintf("%d vessel entries imported (%d with an IMO number, %d with an MMSI)", len(entries), imo, mmsi)
}
