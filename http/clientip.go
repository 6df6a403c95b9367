package http

import (
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// ClientIPs finds the client address of a request: the socket peer, unless
// the peer is a trusted proxy, in which case X-Forwarded-For is walked from
// the right and the first address that is not a trusted proxy is the
// client. Addresses a client writes itself at the left of the header are
// never believed.
type ClientIPs struct {
	Trusted []netip.Prefix
}

func (t ClientIPs) isTrusted(a netip.Addr) bool {
	for _, p := range t.Trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// of returns the client address of the request.
func (t ClientIPs) of(c *fiber.Ctx) netip.Addr {
	peer, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	peer = peer.Unmap()
	if len(t.Trusted) == 0 || !t.isTrusted(peer) {
		return peer
	}
	var hops []string
	for _, v := range c.Request().Header.PeekAll(fiber.HeaderXForwardedFor) {
		hops = append(hops, strings.Split(string(v), ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a malformed hop: trust nothing further left
		}
		client = a.Unmap()
		if !t.isTrusted(client) {
			break
		}
	}
	return client
}

// rateKey is the address as a rate-limit key: IPv6 clients are counted per
// /64, the block one subscriber usually holds, so that rotating addresses
// within it does not multiply the limits.
func rateKey(a netip.Addr) string {
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
