package sources

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
)

// Timeout bounds one fetch of an external source (Options.Timeout 0).
const Timeout = 60 * time.Second

// MaxBytes caps the body of one fetch (Options.MaxBytes 0): the largest
// real file, the World Bank workbook, is under 1 MB.
const MaxBytes = 64 << 20

// Options are what a source's fetch sends and accepts besides a GET of
// its URL.
type Options struct {
	// User is sent as the HTTP basic user name (the MARS API key); never
	// shown.
	User string
	// Header is a header and its value (the Comtrade key); the value is
	// never shown.
	Header [2]string
	// MaxBytes is the largest body (0: MaxBytes).
	MaxBytes int
	// AllowHTML: an HTML body is the source's answer, not an error page
	// (GDELT's plain-text errors).
	AllowHTML bool
	// Timeout bounds the whole fetch (0: Timeout).
	Timeout time.Duration
}

// StatusError is a source's answer other than 200, with the wait it
// asked for (Retry-After of a 429 or 503).
type StatusError struct {
	Code   int
	Status string
	Wait   string
}

// Error is the status, with the wait the source asked for.
func (e StatusError) Error() string {
	if e.Wait == "" {
		return e.Status
	}
	return e.Status + " (Retry-After " + e.Wait + ")"
}

// Throttled reports whether the source asked to be asked later (429, 503).
func (e StatusError) Throttled() bool {
	return e.Code == http.StatusTooManyRequests || e.Code == http.StatusServiceUnavailable
}

// UnreachableError is a request that got no HTTP answer at all (no
// network, DNS, refused, timeout).
type UnreachableError struct{ Err error }

// Error is the transport's error.
func (e UnreachableError) Error() string { return e.Err.Error() }

// Unwrap is the transport's error.
func (e UnreachableError) Unwrap() error { return e.Err }

// Get downloads an external source's answer, the one fetch every source
// shares: anything but a 200 is a StatusError (a 429 with its
// Retry-After), no answer at all an UnreachableError; a body over the
// size cap, a body cut short of its Content-Length, a timeout or (unless
// allowed) an HTML page is an error. Errors name the URL's host and path
// only: neither the query nor the credentials of o. A failure is counted
// on failures under source (nil: not counted).
func Get(ctx context.Context, failures *Failures, source, rawURL string, o Options) ([]byte, error) {
	body, err := get(ctx, rawURL, o)
	if err != nil {
		failures.Add(source)
	}
	return body, err
}

func get(ctx context.Context, rawURL string, o Options) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("a source URL must be an absolute http:// or https:// URL")
	}
	shown := u.Scheme + "://" + u.Host + u.Path
	max := o.MaxBytes
	if max <= 0 {
		max = MaxBytes
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s: bad request", shown)
	}
	req.Header.Set("User-Agent", "overwatch source refresh")
	if o.User != "" {
		req.SetBasicAuth(o.User, "")
	}
	if o.Header[0] != "" && o.Header[1] != "" {
		req.Header.Set(o.Header[0], o.Header[1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("GET %s: %w", shown, UnreachableError{err})
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %w", shown, StatusError{Code: resp.StatusCode, Status: resp.Status, Wait: resp.Header.Get("Retry-After")})
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", shown, err)
	}
	if len(body) > max {
		return nil, fmt.Errorf("GET %s: larger than %d MiB", shown, max>>20)
	}
	head := bytes.ToLower(bytes.TrimSpace(body[:min(len(body), 512)]))
	if !o.AllowHTML && (strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html"))) {
		return nil, fmt.Errorf("GET %s: an HTML page, not data", shown)
	}
	return body, nil
}
