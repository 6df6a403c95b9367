package outbound

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"overwatch/write/outbound/outboundtest"
)

// lockedBuffer is a log written from the client's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Every outcome has a reason that names nothing of the service's network
// (no address dialled, no resolver, no resolution detail), while the log
// keeps the detail.
func TestReasonIsGenericAndTheDetailLogged(t *testing.T) {
	ip := netip.MustParseAddr
	outboundtest.FakeDNS(t, map[string][][]netip.Addr{
		"hooks.private.test": {{ip("10.0.0.7")}},
	})
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("/down", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) { w.Write(make([]byte, 2048)) })
	release := make(chan struct{})
	defer close(release)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	logs := &lockedBuffer{}
	s, c := server(t, mux.ServeHTTP, Options{Timeout: 300 * time.Millisecond, MaxBody: 1024,
		Log: slog.New(slog.NewTextHandler(logs, nil))})
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String() + "/"
	closed.Close()
	port := strconv.Itoa(s.Listener.Addr().(*net.TCPAddr).Port)
	for url, want := range map[string]string{
		s.URL + "/ok":    "",
		s.URL + "/down":  "HTTP 503",
		s.URL + "/moved": "HTTP 302",
		s.URL + "/big":   ReasonTooLarge,
		s.URL + "/slow":  ReasonTimeout,
		closedURL:        ReasonConnection,
		"http://hooks.private.test:" + port + "/": ReasonNotAllowed,
		"http://hooks.unknown.test:" + port + "/": ReasonConnection,
		"http://10.0.0.7/":                        ReasonNotAllowed,
		"ftp://example.com/":                      ReasonNotAllowed,
	} {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(context.Background(), req)
		if got := Reason(resp, err); got != want {
			t.Errorf("%s: reason %q (%v), want %q", url, got, err, want)
		}
	}
	log := logs.String()
	for _, detail := range []string{"10.0.0.7", "hooks.unknown.test", "no such host", "connection refused"} {
		if !strings.Contains(log, detail) {
			t.Errorf("the log lacks %q:\n%s", detail, log)
		}
	}
}

// CheckResolved refuses a name unless it resolves, and only to addresses
// that may be reached, with one message that tells nothing of what the
// name resolved to; Allow applies as at connect time.
func TestCheckResolved(t *testing.T) {
	ip := netip.MustParseAddr
	outboundtest.FakeDNS(t, map[string][][]netip.Addr{
		"hooks.public.test":   {{ip("93.184.216.34")}},
		"hooks.private.test":  {{ip("10.0.0.7")}},
		"hooks.mixed.test":    {{ip("93.184.216.34"), ip("169.254.169.254")}},
		"hooks.loopback.test": {{ip("127.0.0.1")}},
		"hooks.v6.test":       {{ip("fd00::1")}},
		"hooks.empty.test":    {{}},
	})
	logs := &lockedBuffer{}
	c := New(Options{Log: slog.New(slog.NewTextHandler(logs, nil))})
	ctx := context.Background()
	if _, err := c.CheckResolved(ctx, "https://hooks.public.test/hook"); err != nil {
		t.Errorf("a public name: %v", err)
	}
	for _, name := range []string{"hooks.private.test", "hooks.mixed.test", "hooks.loopback.test", "hooks.v6.test", "hooks.empty.test", "hooks.unknown.test"} {
		_, err := c.CheckResolved(ctx, "https://"+name+"/hook")
		if !errors.Is(err, ErrUnreachableName) || Reason(nil, err) != ReasonNotAllowed {
			t.Errorf("%s: %v, want ErrUnreachableName", name, err)
		}
	}
	if !strings.Contains(logs.String(), "169.254.169.254") {
		t.Errorf("the refusal's detail is not logged:\n%s", logs.String())
	}
	// Check's own refusals come first; an IP literal is judged by Check.
	if _, err := c.CheckResolved(ctx, "http://hooks.public.test/"); err == nil {
		t.Error("http accepted")
	}
	var refused *RefusedError
	if _, err := c.CheckResolved(ctx, "https://10.1.2.3/"); !errors.As(err, &refused) {
		t.Errorf("a private literal: %v", err)
	}
	allowed := New(Options{AllowHTTP: true, Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	if _, err := allowed.CheckResolved(ctx, "http://hooks.loopback.test:8080/"); err != nil {
		t.Errorf("a name resolving into Allow: %v", err)
	}
	if _, err := allowed.CheckResolved(ctx, "http://hooks.private.test/"); !errors.Is(err, ErrUnreachableName) {
		t.Errorf("a name resolving outside Allow: %v", err)
	}
}
