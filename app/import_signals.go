package app

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/oasdiff/yaml"

	"overwatch/maritime/chokepoint"
	"overwatch/maritime/seaport"
	"overwatch/sources/gdelt"
	"overwatch/sources/portwatch"
	riversource "overwatch/sources/river"
	sarsource "overwatch/sources/sar"
)

// maxSignalFile bounds a file of `overwatch import river|sar|news|portwatch`
// (each is read whole: the sources answer pages of a few MB at most).
const maxSignalFile = 64 << 20

// importSignals imports the external signals' files offline, in the
// formats their refreshes fetch: `river` (USGS NWIS instantaneous values,
// WaterML JSON, or the Water Data OGC API), `sar` (Sentinel-1 catalogue
// answers: ASF jsonlite, CSV, GeoJSON (also as YAML), KML; CDSE OData; STAC
// items), `news --subject SLUG` (a GDELT DOC ArtList JSON answer about a
// port or chokepoint) and `portwatch` (IMF PortWatch daily chokepoint
// transits). Each file is parsed whole before anything of it is stored.
func importSignals(ctx context.Context, cfg Config, log *slog.Logger, kind string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	subject := ""
	if kind == "news" {
		fs.StringVar(&subject, "subject", "", "the port or chokepoint slug the articles are about (required)")
	}
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 || (kind == "news" && subject == "") {
		fmt.Fprint(stderr, importUsage)
		return ErrUsage
	}
	var sub gdelt.Subject
	if kind == "news" {
		if p, ok := seaport.BySlug(subject); ok {
			sub.Port = p.Slug
		} else if c, ok := chokepointBySlug(subject); ok {
			sub.Chokepoint = c
		} else {
			return fmt.Errorf("--subject %q is neither a port slug (see /v1/ports) nor a chokepoint (%s)", subject, strings.Join(chokepointSlugs(), ", "))
		}
	}
	// Parse every file first: a bad one stores nothing.
	type parsed struct {
		path string
		n    int
		save func(context.Context) error
	}
	var files []parsed
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	for _, path := range fs.Args() {
		body, err := readBounded(path)
		if err != nil {
			return err
		}
		switch kind {
		case "river":
			rows, err := riversource.Parse(body)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			files = append(files, parsed{path, len(rows), func(ctx context.Context) error { return ch.InsertRiverReadings(ctx, rows) }})
		case "sar":
			if strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".yaml") {
				if body, err = yaml.YAMLToJSON(body); err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
			}
			res, err := sarsource.Parse(bytes.NewReader(body))
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			files = append(files, parsed{path, len(res.Products), func(ctx context.Context) error { return ch.InsertSARProducts(ctx, res.Products) }})
		case "news":
			arts, _, err := gdelt.Parse(body)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			// An ArtList carries no tone: the articles keep any stored.
			files = append(files, parsed{path, len(arts), func(ctx context.Context) error { return gdelt.Store(ctx, ch, sub, arts, nil) }})
		case "portwatch":
			days, _, err := portwatch.Parse(body)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			var rows []chokepoint.PortWatchDay
			for _, d := range days {
				if slug := portwatch.Slug(d.PortID, d.PortName); slug != "" {
					rows = append(rows, chokepoint.PortWatchDay{Chokepoint: slug, Day: d.Date, Container: d.Container, DryBulk: d.DryBulk,
						GeneralCargo: d.GeneralCargo, RoRo: d.RoRo, Tanker: d.Tanker, Total: d.Total})
				}
			}
			files = append(files, parsed{path, len(rows), func(ctx context.Context) error { return ch.InsertPortWatch(ctx, rows) }})
		}
	}
	for _, f := range files {
		if f.n == 0 {
			fmt.Fprintf(stdout, "%s: nothing to import\n", f.path)
			continue
		}
		if err := f.save(ctx); err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
		fmt.Fprintf(stdout, "%s: %d %s rows imported\n", f.path, f.n, kind)
	}
	return nil
}

// readBounded reads a file of at most maxSignalFile bytes.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxSignalFile+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxSignalFile {
		return nil, errors.New(path + ": larger than 64 MiB")
	}
	return body, nil
}

// chokepointBySlug is the chokepoint of a slug.
func chokepointBySlug(slug string) (string, bool) {
	for _, c := range chokepoint.All() {
		if c.Slug == slug {
			return c.Slug, true
		}
	}
	return "", false
}

// chokepointSlugs are the chokepoints' slugs.
func chokepointSlugs() []string {
	var out []string
	for _, c := range chokepoint.All() {
		out = append(out, c.Slug)
	}
	return out
}
