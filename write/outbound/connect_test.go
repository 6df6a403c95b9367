package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"overwatch/write/outbound/outboundtest"
)

// Every refusal class is refused by the dialler itself, on the address
// about to be connected (the Control hook runs after the socket exists and
// before connect, so no packet leaves): the transport is called directly,
// past Check, as a URL naming a host that resolves there would be.
func TestDiallerRefusesEveryClass(t *testing.T) {
	c := New(Options{AllowHTTP: true, ConnectTimeout: time.Second, Timeout: 2 * time.Second})
	for addr, want := range map[string]string{
		"127.0.0.1":              "loopback",
		"127.53.0.1":             "loopback",
		"::1":                    "loopback",
		"::ffff:127.0.0.1":       "loopback",
		"10.0.0.1":               "private",
		"172.31.255.1":           "private",
		"192.168.0.1":            "private",
		"::ffff:192.168.0.1":     "private",
		"fc00::1":                "private",
		"fd00:ec2::254":          "", // AWS metadata over IPv6: inside fc00::/7, refused as private
		"169.254.169.254":        "link-local",
		"::ffff:169.254.169.254": "link-local",
		"169.254.1.1":            "link-local",
		"fe80::1":                "link-local",
		"100.100.100.200":        "metadata",
		"100.64.0.1":             "carrier-grade",
		"::ffff:100.64.0.1":      "carrier-grade",
		"0.0.0.0":                "unspecified",
		"::":                     "unspecified",
		"0.1.2.3":                "this network",
		"255.255.255.255":        "broadcast",
		"224.0.0.251":            "multicast",
		"ff02::1":                "multicast",
		"ff05::2":                "multicast",
	} {
		a := netip.MustParseAddr(addr)
		url := "http://" + netip.AddrPortFrom(a, 80).String() + "/"
		_, err := c.http.Get(url)
		var refused *RefusedError
		switch {
		case errors.As(err, &refused):
			if !strings.Contains(refused.Reason, want) {
				t.Errorf("%s: refused as %q, want %q", addr, refused.Reason, want)
			}
			if refused.Addr != a.Unmap() {
				t.Errorf("%s: the error names %s", addr, refused.Addr)
			}
		case err != nil && a.Is6() && !a.Is4In6() && strings.Contains(err.Error(), "address family not supported"):
			t.Logf("%s: no IPv6 sockets here (%v)", addr, err)
		default:
			t.Errorf("%s: %v, want a refusal (%s)", addr, err, want)
		}
	}
}

// Names that a DNS server resolves to refused addresses pass Check (names
// are not resolved before the connection) and are refused through Do when
// the dialler sees the address; the local server behind them is never
// reached. "rebind" answers a public address to the first resolution (a
// check made ahead of the request would pass it) and 127.0.0.1 afterwards.
func TestNamesResolvingToRefusedAddresses(t *testing.T) {
	var hits atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer s.Close()
	port := s.Listener.Addr().(*net.TCPAddr).Port
	ip := netip.MustParseAddr
	outboundtest.FakeDNS(t, map[string][][]netip.Addr{
		"hooks.loopback.test": {{ip("127.0.0.1")}},
		"hooks.mapped.test":   {{ip("::ffff:127.0.0.1")}},
		"hooks.meta.test":     {{ip("169.254.169.254")}},
		"hooks.mixed.test":    {{ip("10.0.0.7"), ip("127.0.0.1")}},
		"hooks.rebind.test":   {{ip("93.184.216.34")}, {ip("127.0.0.1")}},
	})
	// The fake resolver is the one the dialler uses.
	if got, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip4", "hooks.rebind.test"); err != nil || len(got) != 1 || got[0] != ip("93.184.216.34") {
		t.Fatalf("first resolution of the rebinding name: %v %v", got, err)
	}
	c := New(Options{AllowHTTP: true, ConnectTimeout: time.Second, Timeout: 3 * time.Second})
	for name, want := range map[string]string{
		"hooks.loopback.test": "loopback",
		"hooks.mapped.test":   "loopback",
		"hooks.meta.test":     "link-local",
		"hooks.mixed.test":    "", // private or loopback, whichever is dialled first
		"hooks.rebind.test":   "loopback",
	} {
		url := "http://" + net.JoinHostPort(name, strconv.Itoa(port)) + "/hook"
		if _, err := c.Check(url); err != nil {
			t.Fatalf("%s: Check refused the name itself: %v", name, err)
		}
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
		resp, err := c.Do(context.Background(), req)
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, want) {
			t.Errorf("%s: %+v %v, want a refusal (%s)", name, resp, err, want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server was reached %d times", n)
	}
}

// Allow exempts exactly its prefixes: a test allowed 127.0.0.1/32 still
// cannot reach 127.0.0.2, nor a private address.
func TestAllowIsNarrow(t *testing.T) {
	c := New(Options{AllowHTTP: true, Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	for _, a := range []string{"127.0.0.2", "10.0.0.1", "169.254.169.254"} {
		err := c.control("tcp4", a+":443", nil)
		var refused *RefusedError
		if !errors.As(err, &refused) {
			t.Errorf("%s: %v, want a refusal", a, err)
		}
	}
	if err := c.control("tcp4", "127.0.0.1:443", nil); err != nil {
		t.Errorf("the allowed address: %v", err)
	}
	if err := c.control("tcp6", "[::ffff:127.0.0.1]:443", nil); err != nil {
		t.Errorf("the allowed address, IPv4-mapped: %v", err)
	}
	if _, err := New(Options{}).Check("http://8.8.8.8/"); err == nil {
		t.Error("a client without AllowHTTP accepted http://")
	}
}

// The total timeout covers the body too: an endpoint that sends its
// headers and then trickles (or stalls) is cut off.
func TestTimeoutCoversTheBody(t *testing.T) {
	release := make(chan struct{})
	s, c := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, Options{Timeout: 300 * time.Millisecond})
	defer close(release)
	start := time.Now()
	if _, err := get(t, c, s.URL); err == nil {
		t.Error("a stalled body did not time out")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the timeout took %s", took)
	}
}

// Every redirect status comes back as it is, with ErrRedirect, and the
// Location is not contacted, even one on the same allowed server.
func TestEveryRedirectStatusIsReturned(t *testing.T) {
	var followed atomic.Int32
	for _, code := range []int{301, 302, 303, 307, 308} {
		mux := http.NewServeMux()
		mux.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "/elsewhere")
			w.WriteHeader(code)
		})
		mux.HandleFunc("/elsewhere", func(http.ResponseWriter, *http.Request) { followed.Add(1) })
		s, c := server(t, mux.ServeHTTP, Options{})
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/hook", strings.NewReader(`{}`))
		resp, err := c.Do(context.Background(), req)
		if !errors.Is(err, ErrRedirect) || resp == nil || resp.Status != code || resp.Header.Get("Location") != "/elsewhere" {
			t.Errorf("%d: %+v %v", code, resp, err)
		}
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("redirects followed %d times", n)
	}
}
