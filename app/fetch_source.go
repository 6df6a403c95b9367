package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	marketfile "overwatch/write/market"
)

// sourceTimeout bounds one fetch of an external source.
const sourceTimeout = 60 * time.Second

// fetchOptions are what a source's fetch sends and accepts besides a GET of
// its URL.
type fetchOptions struct {
	user      string        // sent as the HTTP basic user name (the MARS API key); never shown
	header    [2]string     // a header and its value (the Comtrade key); the value never shown
	maxBytes  int           // the largest body (0: marketfile.MaxBytes)
	allowHTML bool          // an HTML body is the source's answer, not an error page (GDELT's plain-text errors)
	timeout   time.Duration // of the whole fetch (0: sourceTimeout)
}

// errRetryAfter is a source's answer other than 200, with the wait it
// asked for (Retry-After of a 429 or 503).
type errRetryAfter struct {
	code   int
	status string
	wait   string
}

// Error is the status, with the wait the source asked for.
func (e errRetryAfter) Error() string {
	if e.wait == "" {
		return e.status
	}
	return e.status + " (Retry-After " + e.wait + ")"
}

// throttled reports whether the source asked to be asked later (429, 503).
func (e errRetryAfter) throttled() bool {
	return e.code == http.StatusTooManyRequests || e.code == http.StatusServiceUnavailable
}

// errUnreachable is a request that got no HTTP answer at all (no network,
// DNS, refused, timeout).
type errUnreachable struct{ err error }

// Error is the transport's error.
func (e errUnreachable) Error() string { return e.err.Error() }

// Unwrap is the transport's error.
func (e errUnreachable) Unwrap() error { return e.err }

// fetchSource downloads an external source's answer, the one fetch every
// source refresh shares: anything but a 200 is an errRetryAfter (a 429
// with its Retry-After), no answer at all an errUnreachable; a body over
// the size cap, a body cut short of its Content-Length, a timeout or
// (unless allowed) an HTML page is an error. Errors name the URL's host
// and path only: neither the query nor the credentials of o.
func fetchSource(ctx context.Context, rawURL string, o fetchOptions) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("a source URL must be an absolute http:// or https:// URL")
	}
	shown := u.Scheme + "://" + u.Host + u.Path
	max := o.maxBytes
	if max <= 0 {
		max = marketfile.MaxBytes
	}
	timeout := o.timeout
	if timeout <= 0 {
		timeout = sourceTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s: bad request", shown)
	}
	req.Header.Set("User-Agent", "overwatch source refresh")
	if o.user != "" {
		req.SetBasicAuth(o.user, "")
	}
	if o.header[0] != "" && o.header[1] != "" {
		req.Header.Set(o.header[0], o.header[1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("GET %s: %w", shown, errUnreachable{err})
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %w", shown, errRetryAfter{code: resp.StatusCode, status: resp.Status, wait: resp.Header.Get("Retry-After")})
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", shown, err)
	}
	if len(body) > max {
		return nil, fmt.Errorf("GET %s: larger than %d MiB", shown, max>>20)
	}
	head := bytes.ToLower(bytes.TrimSpace(body[:min(len(body), 512)]))
	if !o.allowHTML && (strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html"))) {
		return nil, fmt.Errorf("GET %s: an HTML page, not data", shown)
	}
	return body, nil
}
