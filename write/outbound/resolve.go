package outbound

import (
	"context"
	"net"
	"net/netip"
	"net/url"
)

// ErrUnreachableName refuses a URL whose host name does not resolve, or
// resolves to an address that may not be reached. Its message is the same
// for both, so that registration cannot be used to learn what the
// service's resolver knows; the detail is logged.
var ErrUnreachableName = &URLError{ReasonNotAllowed + ": the host name must resolve, and only to public addresses"}

// CheckResolved is Check and, for a URL naming a host, the resolution of
// the name now (the process's resolver): it must resolve, and every address
// to one that may be reached (Allow applies), else ErrUnreachableName.
// Registration uses it, so that an endpoint on an internal address is
// refused up front; every connection is still checked when it is made,
// since a name may resolve elsewhere later (DNS rebinding).
func (c *Client) CheckResolved(ctx context.Context, raw string) (*url.URL, error) {
	u, err := c.Check(raw)
	if err != nil {
		return nil, err
	}
	host := u.Hostname()
	if _, err := netip.ParseAddr(host); err == nil {
		return u, nil // an IP literal: Check judged it
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	for _, a := range addrs {
		if err != nil {
			break
		}
		err = c.refuse(a)
	}
	if err != nil {
		c.opts.Log.Warn("outbound URL refused", "host", host, "addrs", addrs, "err", err)
		return nil, ErrUnreachableName
	}
	return u, nil
}
