package http

import (
	"net"
	"net/netip"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

func TestClientIP(t *testing.T) {
	proxies := ClientIPs{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.1/32")}}
	cases := []struct {
		name string
		ips  ClientIPs
		peer string
		xff  []string
		want string
	}{
		{"no proxies: the peer", ClientIPs{}, "203.0.113.7", []string{"1.2.3.4"}, "203.0.113.7"},
		{"untrusted peer: XFF ignored", proxies, "203.0.113.7", []string{"1.2.3.4"}, "203.0.113.7"},
		{"trusted peer: last hop", proxies, "10.1.2.3", []string{"1.2.3.4"}, "1.2.3.4"},
		{"spoofed left entries ignored", proxies, "10.1.2.3", []string{"6.6.6.6, 1.2.3.4"}, "1.2.3.4"},
		{"chain of trusted proxies", proxies, "10.1.2.3", []string{"6.6.6.6, 1.2.3.4, 192.168.1.1, 10.9.9.9"}, "1.2.3.4"},
		{"several headers", proxies, "10.1.2.3", []string{"6.6.6.6", "1.2.3.4"}, "1.2.3.4"},
		{"malformed hop stops the walk", proxies, "10.1.2.3", []string{"1.2.3.4, junk"}, "10.1.2.3"},
		{"only trusted hops", proxies, "10.1.2.3", []string{"10.0.0.1"}, "10.0.0.1"},
		{"no header from a trusted peer", proxies, "10.1.2.3", nil, "10.1.2.3"},
		{"ipv6 client", proxies, "10.1.2.3", []string{"2001:db8::1"}, "2001:db8::1"},
		{"ipv4-mapped peer", ClientIPs{}, "::ffff:198.51.100.4", nil, "198.51.100.4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got netip.Addr
			app := fiber.New()
			app.Get("/", func(c *fiber.Ctx) error { got = tc.ips.of(c); return nil })
			ctx := &fasthttp.RequestCtx{}
			ctx.Request.SetRequestURI("/")
			for _, v := range tc.xff {
				ctx.Request.Header.Add("X-Forwarded-For", v)
			}
			peer := netip.MustParseAddr(tc.peer)
			ctx.SetRemoteAddr(netTCPAddr(peer))
			app.Handler()(ctx)
			if got.String() != tc.want {
				t.Errorf("client %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRateKey(t *testing.T) {
	if got := rateKey(netip.MustParseAddr("198.51.100.4")); got != "198.51.100.4" {
		t.Errorf("ipv4 key %s", got)
	}
	a := rateKey(netip.MustParseAddr("2001:db8:1:2:aaaa::1"))
	b := rateKey(netip.MustParseAddr("2001:db8:1:2:bbbb::9"))
	c := rateKey(netip.MustParseAddr("2001:db8:1:3::1"))
	if a != b || a == c || a != "2001:db8:1:2::/64" {
		t.Errorf("ipv6 keys %s %s %s", a, b, c)
	}
}

func netTCPAddr(a netip.Addr) *net.TCPAddr {
	return net.TCPAddrFromAddrPort(netip.AddrPortFrom(a, 40000))
}
