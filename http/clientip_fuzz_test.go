package http

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

func FuzzClientIP(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "1.2.3.4, 10.0.0.1", "junk", "", ",,,", "::1, 2001:db8::1", "1.2.3.4:80", "[::1]"} {
		f.Add(s)
	}
	ips := ClientIPs{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	app := fiber.New()
	var got netip.Addr
	app.Get("/", func(c *fiber.Ctx) error { got = ips.of(c); return nil })
	h := app.Handler()
	peer := netip.MustParseAddr("10.1.1.1")
	f.Fuzz(func(t *testing.T, xff string) {
		ctx := &fasthttp.RequestCtx{}
		ctx.Request.SetRequestURI("/")
		ctx.Request.Header.Set("X-Forwarded-For", xff)
		ctx.SetRemoteAddr(netTCPAddr(peer))
		got = netip.Addr{}
		h(ctx)
		if !got.IsValid() {
			t.Fatalf("no client address for %q", xff)
		}
		if got == peer {
			return
		}
		for _, hop := range strings.Split(xff, ",") {
			if a, err := netip.ParseAddr(strings.TrimSpace(hop)); err == nil && a.Unmap() == got {
				return
			}
		}
		t.Fatalf("client %s is neither the peer nor a hop of %q", got, xff)
	})
}
