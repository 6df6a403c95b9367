package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestRefusal(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"127.0.0.1", "loopback"}, {"127.9.9.9", "loopback"}, {"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"}, {"10.1.2.3", "private"}, {"172.16.0.1", "private"},
		{"192.168.1.1", "private"}, {"::ffff:10.0.0.1", "private"}, {"fc00::1", "private"}, {"fd12::1", "private"},
		{"169.254.169.254", "link-local"}, {"fe80::1", "link-local"}, {"100.100.100.200", "metadata"},
		{"fd00:ec2::254", "private"}, {"224.0.0.1", "multicast"}, {"ff02::1", "multicast"}, {"239.1.1.1", "multicast"},
		{"0.0.0.0", "unspecified"}, {"::", "unspecified"}, {"0.1.2.3", "this network"}, {"100.64.0.1", "carrier-grade"},
		{"255.255.255.255", "broadcast"}, {"240.0.0.1", "reserved"}, {"192.0.2.1", "documentation"},
		{"::7f00:1", "IPv4-compatible"}, {"2002:7f00:1::", "6to4"}, {"2001:0:4136:e378::1", "Teredo"}, {"fec0::1", "site-local"},
		{"8.8.8.8", ""}, {"1.1.1.1", ""}, {"2606:4700:4700::1111", ""}, {"::ffff:8.8.8.8", ""},
	} {
		got := Refusal(netip.MustParseAddr(c.addr))
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.addr, got, c.want)
		}
	}
	if Refusal(netip.Addr{}) == "" {
		t.Error("the zero address is allowed")
	}
}

func TestCheck(t *testing.T) {
	c := New(Options{})
	for raw, want := range map[string]string{
		"https://hooks.example.com/x?y=1":          "",
		"https://8.8.8.8/hook":                     "",
		"http://hooks.example.com/x":               "must use https",
		"ftp://hooks.example.com/x":                "absolute https",
		"/relative":                                "absolute https",
		"https://":                                 "absolute https",
		"https://user:pw@hooks.example.com/":       "user name",
		"https://localhost/hook":                   "localhost",
		"https://LOCALHOST./hook":                  "localhost",
		"https://a.localhost/hook":                 "localhost",
		"https://127.0.0.1/hook":                   "loopback",
		"https://[::1]:8443/hook":                  "loopback",
		"https://[::ffff:127.0.0.1]/hook":          "loopback",
		"https://169.254.169.254/latest/meta-data": "link-local",
		"https://10.0.0.5/":                        "private",
		"https://" + strings.Repeat("a", 2050):     "2048",
		"mailto:someone@example.com":               "absolute https",
	} {
		_, err := c.Check(raw)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", raw, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}

// server is a local endpoint and a client allowed to reach it.
func server(t *testing.T, h http.HandlerFunc, opts Options) (*httptest.Server, *Client) {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	opts.AllowHTTP = true
	opts.Allow = append(opts.Allow, netip.MustParsePrefix("127.0.0.0/8"))
	return s, New(opts)
}

func get(t *testing.T, c *Client, url string) (*Response, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.Do(context.Background(), req)
}

// A name that resolves to 127.0.0.1 passes any check made before the
// connection (DNS rebinding: it may have resolved elsewhere then) and is
// refused when the socket connects, whatever the URL checks said.
func TestConnectTimeRefusal(t *testing.T) {
	hit := false
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }))
	defer s.Close()
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	c := New(Options{AllowHTTP: true})
	for _, url := range []string{"http://localhost:" + port + "/", "http://127.0.0.1:" + port + "/", "http://[::ffff:127.0.0.1]:" + port + "/"} {
		// Past Check, straight to the transport: only the dialler stands.
		_, err := c.http.Get(url)
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, "loopback") {
			t.Errorf("%s: %v, want a loopback refusal", url, err)
		}
	}
	// Through Do, the same URLs are refused too (by Check for literals and
	// localhost, by the dialler otherwise).
	if _, err := get(t, c, "http://localhost:"+port+"/"); err == nil {
		t.Error("Do reached localhost")
	}
	if hit {
		t.Error("the local server was reached")
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	followed := false
	mux := http.NewServeMux()
	mux.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/internal", http.StatusFound)
	})
	mux.HandleFunc("/internal", func(w http.ResponseWriter, r *http.Request) { followed = true })
	s, c := server(t, mux.ServeHTTP, Options{})
	resp, err := get(t, c, s.URL+"/hook")
	if !errors.Is(err, ErrRedirect) || resp == nil || resp.Status != http.StatusFound || followed {
		t.Errorf("redirect: %+v %v (followed %t)", resp, err, followed)
	}
}

func TestResponseSizeCap(t *testing.T) {
	s, c := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 1<<20)))
	}, Options{MaxBody: 1024})
	resp, err := get(t, c, s.URL)
	if !errors.Is(err, ErrTooLarge) || resp == nil || len(resp.Body) != 1024 {
		t.Errorf("size cap: %v, %d bytes", err, len(resp.Body))
	}
	s2, c2 := server(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }, Options{MaxBody: 1024})
	if resp, err := get(t, c2, s2.URL); err != nil || string(resp.Body) != "ok" || resp.Status != 200 {
		t.Errorf("small answer: %+v %v", resp, err)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	s, c := server(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, Options{Timeout: 200 * time.Millisecond})
	defer close(release)
	start := time.Now()
	if _, err := get(t, c, s.URL); err == nil {
		t.Error("no timeout")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the timeout took %s", took)
	}
}

// FuzzCheck: Check never panics, and what it accepts is an https URL with a
// host that is not a refused address or localhost.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"https://hooks.example.com/x", "https://[::ffff:127.0.0.1]/", "http://x", "https://0x7f000001/", "https://2130706433/", "https://127.1/", "https://%31%32%37.0.0.1/"} {
		f.Add(s)
	}
	c := New(Options{})
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := c.Check(raw)
		if err != nil {
			return
		}
		if u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
			t.Fatalf("accepted %q: %+v", raw, u)
		}
		if a, err := netip.ParseAddr(u.Hostname()); err == nil && Refusal(a) != "" {
			t.Fatalf("accepted the refused address of %q", raw)
		}
	})
}
