package sources

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A 200 is the body; a 429 keeps its status and Retry-After, an HTML page
// and a file URL are refused; each failure is counted under its source,
// and an answer is not.
func TestGetCountsFailures(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Write([]byte("a,b\n1,2\n"))
		case "/busy":
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/html":
			w.Write([]byte("<!DOCTYPE html><html>maintenance</html>"))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	var f Failures
	if body, err := Get(ctx, &f, "a", srv.URL+"/ok", Options{}); err != nil || string(body) != "a,b\n1,2\n" {
		t.Fatalf("%q %v", body, err)
	}
	_, err := Get(ctx, &f, "a", srv.URL+"/busy?key=secret", Options{})
	var st StatusError
	if !errors.As(err, &st) || !st.Throttled() || st.Wait != "30" || strings.Contains(err.Error(), "secret") {
		t.Errorf("429: %v", err)
	}
	if _, err := Get(ctx, &f, "b", srv.URL+"/html", Options{}); err == nil || !strings.Contains(err.Error(), "HTML") {
		t.Errorf("html: %v", err)
	}
	if _, err := Get(ctx, &f, "b", "file:///etc/passwd", Options{}); err == nil {
		t.Error("a file URL was fetched")
	}
	if got := f.Counts(); got["a"] != 1 || got["b"] != 2 || len(got) != 2 {
		t.Errorf("failures %v", got)
	}
	var none *Failures
	none.Add("a") // a nil count counts nothing
	if none.Counts() != nil {
		t.Error("a nil count counted")
	}
}
