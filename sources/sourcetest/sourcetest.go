// Package sourcetest gives tests of the external sources' clients and jobs
// local HTTP servers that serve the sources' real bytes and each failure a
// source gives (5xx, 429 with Retry-After, an HTML error page served with
// 200, bodies cut short, a timeout), and recorded answers rewritten for a
// test where no recording of the wanted values exists.
package sourcetest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// The failure modes a Server or a Catalogue answers in; anything else
// serves the real bytes.
const (
	Mode5xx       = "5xx"       // 503 Service Unavailable
	Mode500       = "500"       // 500 Internal Server Error
	Mode429       = "429"       // 429 with Retry-After: 120
	ModeHTML      = "html"      // an HTML maintenance page served with 200
	ModeShort     = "short"     // half the body under a Content-Length of the whole
	ModeTruncated = "truncated" // two thirds of the body, no Content-Length
	ModeSlow      = "slow"      // nothing for 5 s (a client's timeout)
)

// fail writes the failure the mode names and reports whether it did.
func fail(w http.ResponseWriter, r *http.Request, mode string, body []byte) bool {
	switch mode {
	case Mode5xx:
		http.Error(w, "upstream down", http.StatusServiceUnavailable)
	case Mode500:
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
	case Mode429:
		w.Header().Set("Retry-After", "120")
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
	case ModeHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head><body><h1>Maintenance</h1></body></html>")) //nolint:errcheck
	case ModeShort:
		w.Header().Set("Content-Length", "999999")
		w.Write(body[:len(body)/2]) //nolint:errcheck
	case ModeTruncated:
		w.Write(body[:len(body)*2/3]) //nolint:errcheck
	case ModeSlow:
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	default:
		return false
	}
	return true
}

// Server serves files by path (a FRED series by its id parameter, as
// path?id=ID), or the failure of its mode; it is closed with the test.
type Server struct {
	*httptest.Server
	mu   sync.Mutex
	mode string
}

// NewServer serves the files given until the test ends.
func NewServer(t testing.TB, files map[string][]byte) *Server {
	s := &Server{mode: "ok"}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		mode := s.mode
		s.mu.Unlock()
		key := r.URL.Path
		if id := r.URL.Query().Get("id"); id != "" {
			key += "?id=" + id
		}
		body, ok := files[key]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !fail(w, r, mode, body) {
			w.Write(body) //nolint:errcheck
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// Set switches the server to a failure mode ("ok": the real bytes).
func (s *Server) Set(mode string) {
	s.mu.Lock()
	s.mode = mode
	s.mu.Unlock()
}

// Catalogue answers every request with one body (a catalogue's recorded
// answer) or the failure of its mode, and records the queries it was
// asked.
type Catalogue struct {
	Body    []byte
	mu      sync.Mutex
	mode    string
	queries []url.Values
}

// ServeHTTP records the query and answers it.
func (c *Catalogue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.queries = append(c.queries, r.URL.Query())
	mode := c.mode
	c.mu.Unlock()
	if !fail(w, r, mode, c.Body) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(c.Body) //nolint:errcheck
	}
}

// Set switches the catalogue to a failure mode ("": the body).
func (c *Catalogue) Set(mode string) {
	c.mu.Lock()
	c.mode = mode
	c.mu.Unlock()
}

// Asked is every query asked so far.
func (c *Catalogue) Asked() []url.Values {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]url.Values(nil), c.queries...)
}
