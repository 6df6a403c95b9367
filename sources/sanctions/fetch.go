package sanctions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	domain "overwatch/maritime/sanctions"
	"overwatch/sources"
	"strings"
	"time"
)

// The files of the OFAC legacy SDN list, as OFAC's Sanctions List Service
// publishes them under one base URL (for example
// https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/).
const (
	SDNFile      = "SDN.CSV"
	ALTFile      = "ALT.CSV"
	CommentsFile = "SDN_COMMENTS.CSV"
)

// Limits of a sanctions refresh: each file at most maxBytes, the three
// fetched within timeout.
const (
	maxBytes = 50 << 20
	timeout  = 60 * time.Second
)

// ParseFiles parses the SDN file and the ALT and comments files
// when given.
func ParseFiles(paths []string, list string) ([]domain.Entry, error) {
	readers := make([]io.Reader, 3)
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		readers[i] = f
	}
	entries, err := ParseSDN(readers[0], readers[1], readers[2], list)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(paths, ", "), err)
	}
	return entries, nil
}

// FetchAndParse fetches the three files from the base URL and parses
// them; a failed fetch is counted on failures (nil: not counted).
func FetchAndParse(ctx context.Context, failures *sources.Failures, url, list string) ([]domain.Entry, error) {
	sdn, alt, comments, err := Fetch(ctx, url)
	if err != nil {
		failures.Add("ofac_sdn")
		return nil, err
	}
	entries, err := ParseSDN(bytes.NewReader(sdn), bytes.NewReader(alt), bytes.NewReader(comments), list)
	if err != nil {
		return nil, fmt.Errorf("sanctions from %s: %w", url, err)
	}
	return entries, nil
}

// Fetch downloads SDN.CSV, ALT.CSV and SDN_COMMENTS.CSV from the
// base URL (a "/" is added when it lacks one): every file must answer 200
// within timeout in all, and none may exceed maxBytes.
func Fetch(ctx context.Context, url string) (sdn, alt, comments []byte, err error) {
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return nil, nil, nil, fmt.Errorf("sanctions URL %q must be http:// or https://", url)
	}
	if !strings.HasSuffix(url, "/") {
		url += "/"
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
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
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
		if err != nil {
			return nil, fmt.Errorf("sanctions: GET %s: %w", url+name, err)
		}
		if len(body) > maxBytes {
			return nil, fmt.Errorf("sanctions: GET %s: larger than %d MB", url+name, maxBytes>>20)
		}
		return body, nil
	}
	if sdn, err = get(SDNFile); err != nil {
		return nil, nil, nil, err
	}
	if alt, err = get(ALTFile); err != nil {
		return nil, nil, nil, err
	}
	if comments, err = get(CommentsFile); err != nil {
		return nil, nil, nil, err
	}
	return sdn, alt, comments, nil
}

// Replace fetches the list from the base URL and replaces its import in
// the store; it returns the entries imported.
func Replace(ctx context.Context, failures *sources.Failures, store Store, url, list string) (int, error) {
	entries, err := FetchAndParse(ctx, failures, url, list)
	if err != nil {
		return 0, err
	}
	if err := store.ReplaceSanctions(ctx, list, entries); err != nil {
		return 0, err
	}
	return len(entries), nil
}

// Refresh is the scheduled refresh of the list from the base URL
// (OVERWATCH_SANCTIONS_URL): a fetch that fails replaces nothing.
func Refresh(store Store, url, list string, failures *sources.Failures) sources.Refresh {
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		if url == "" {
			return sources.Result{}, errors.New("sanctions_refresh: no OVERWATCH_SANCTIONS_URL")
		}
		n, err := Replace(ctx, failures, store, url, list)
		now := time.Now().UTC()
		return sources.Result{Rows: n, Watermark: now, Detail: map[string]any{"list": list}}, err
	})
}

// Summary says what a list holds.
func Summary(entries []domain.Entry) string {
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
