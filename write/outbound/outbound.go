// Package outbound is the HTTP client for URLs that users supply (webhook
// endpoints, chat webhooks): it connects only to public unicast addresses,
// checked on the address actually dialled, so that a name resolving (or
// re-resolving, DNS rebinding) to a loopback, private, link-local,
// multicast or cloud-metadata address is refused at connect time (and, for
// registration, CheckResolved refuses such a name up front); it follows no
// redirects, times out quickly and reads a bounded response. Users are
// told only a generic Reason of a failure; the detail is logged.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Defaults of Options.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 15 * time.Second
	DefaultMaxBody        = 64 << 10
)

// Options tune a Client; zero values take the defaults.
type Options struct {
	ConnectTimeout time.Duration // TCP connect and TLS handshake, each
	Timeout        time.Duration // the whole request, body read included
	MaxBody        int64         // response bytes read at most
	// AllowHTTP lets plain http:// URLs through Check (tests against a
	// local server; webhook registration never sets it).
	AllowHTTP bool
	// Allow exempts these prefixes from the address rules: only tests set
	// it, to reach an httptest server on 127.0.0.1.
	Allow []netip.Prefix
	// Log receives the detail of every failed request and refused URL
	// (addresses, the resolver's answers), which callers never show: they
	// show Reason. Nil: discarded.
	Log *slog.Logger
}

// RefusedError is the refusal of an address: the caller may show Reason.
type RefusedError struct {
	Addr   netip.Addr
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused to connect to %s: %s", e.Addr, e.Reason)
}

// ErrRedirect is returned for a 3xx answer: redirects are not followed
// (a redirect could lead to an internal address past the URL's check).
var ErrRedirect = errors.New("the endpoint answered with a redirect, which is not followed")

// ErrTooLarge is returned when the response body exceeds MaxBody.
var ErrTooLarge = errors.New("the endpoint's response is larger than allowed")

// special are the ranges no user URL may reach besides those netip
// classifies (loopback, private, link-local, multicast, unspecified), the
// narrower first (their reason wins).
var special = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("255.255.255.255/32"), "the broadcast address"},
	{netip.MustParsePrefix("100.100.100.200/32"), "a cloud metadata address"},
	{netip.MustParsePrefix("0.0.0.0/8"), "a 'this network' address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address (cloud metadata)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol assignment"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("64:ff9b::/96"), "a NAT64 address"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible IPv6 address"},
	{netip.MustParsePrefix("2002::/16"), "a 6to4 address (it embeds an IPv4 address)"},
	{netip.MustParsePrefix("2001::/32"), "a Teredo address (it embeds an IPv4 address)"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
	{netip.MustParsePrefix("100::/64"), "a discard address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("fd00:ec2::254/128"), "a cloud metadata address"},
}

// Refusal is why an address may not be reached ("" when it may): only
// public unicast addresses may. IPv4-mapped IPv6 addresses are judged as
// the IPv4 address they carry.
func Refusal(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return "not an IP address"
	case a.IsUnspecified():
		return "an unspecified address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast(), a.IsLinkLocalMulticast():
		return "a multicast address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.reason
		}
	}
	return ""
}

// Client sends requests to user-supplied URLs safely.
type Client struct {
	opts Options
	http *http.Client
}

// New returns a Client with opts.
func New(opts Options) *Client {
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	c := &Client{opts: opts}
	dialer := &net.Dialer{Timeout: opts.ConnectTimeout, Control: c.control}
	transport := &http.Transport{
		Proxy:                 nil, // never through an environment proxy: the check is on the address dialled
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   opts.ConnectTimeout,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	c.http = &http.Client{
		Transport: transport,
		Timeout:   opts.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return c
}

// control runs on every socket before it connects, with the address being
// dialled: the one place a resolved (or rebound) name cannot slip past.
func (c *Client) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("outbound: unexpected address %q", address)
	}
	return c.refuse(ap.Addr())
}

// refuse is the refusal of an address (nil when it may be reached): the
// address rules, less the prefixes of Allow.
func (c *Client) refuse(a netip.Addr) error {
	a = a.Unmap()
	for _, p := range c.opts.Allow {
		if p.Contains(a) {
			return nil
		}
	}
	if reason := Refusal(a); reason != "" {
		return &RefusedError{Addr: a, Reason: reason}
	}
	return nil
}

// Check validates a user-supplied URL before it is stored: absolute,
// https (http only with AllowHTTP), a host, no user information, and, when
// the host is an IP literal, an address that may be reached (else a
// *RefusedError; the other refusals are *URLError). A host in one of the
// other numeric forms of an IPv4 address (numericIPv4: 2130706433,
// 0x7f.1, 127.1, ...) is judged as the address it means, and refused
// either way. Names are checked again at every connection.
func (c *Client) Check(raw string) (*url.URL, error) {
	if len(raw) > 2048 {
		return nil, &URLError{"url must be at most 2048 characters"}
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return nil, &URLError{"url must be an absolute https:// URL"}
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !c.opts.AllowHTTP {
			return nil, &URLError{"url must use https"}
		}
	default:
		return nil, &URLError{"url must be an absolute https:// URL"}
	}
	if u.User != nil {
		return nil, &URLError{"url must not carry a user name or password"}
	}
	host := u.Hostname()
	if host == "" {
		return nil, &URLError{"url must name a host"}
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if err := c.refuse(a); err != nil {
			return nil, err
		}
	} else if a, numeric, ok := numericIPv4(host); numeric {
		// An IPv4 address in another form than the dotted quad: judged as
		// the address it is, never looked up; one that may be reached is
		// still refused, to be written as a dotted quad, since resolvers
		// and clients disagree on these forms.
		if !ok {
			return nil, &URLError{"url host " + strconv.Quote(host) + " ends in a number but is not an IPv4 address"}
		}
		if err := c.refuse(a); err != nil {
			return nil, err
		}
		return nil, &URLError{"url host " + strconv.Quote(host) + " is the IPv4 address " + a.String() + " in a non-standard form: write it as " + a.String()}
	} else if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") || strings.HasSuffix(strings.ToLower(strings.TrimSuffix(host, ".")), ".localhost") {
		return nil, &URLError{"url must not name localhost"}
	}
	return u, nil
}

// Response is what was read of an answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte // at most MaxBody bytes
}

// Do sends req (its URL checked with Check) and reads at most MaxBody
// bytes of the answer. A 3xx answer is returned with ErrRedirect; a
// longer body with ErrTooLarge; a refused address as a *RefusedError
// (errors.As). Errors carry details (addresses, the resolver's answers)
// that are logged here and must not be shown: show Reason.
func (c *Client) Do(ctx context.Context, req *http.Request) (*Response, error) {
	resp, err := c.do(ctx, req)
	if err != nil {
		c.opts.Log.Warn("outbound request failed", "host", req.URL.Host, "reason", Reason(resp, err), "err", err)
	}
	return resp, err
}

func (c *Client) do(ctx context.Context, req *http.Request) (*Response, error) {
	if _, err := c.Check(req.URL.String()); err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBody+1))
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
	if err != nil {
		return out, err
	}
	if int64(len(body)) > c.opts.MaxBody {
		out.Body = body[:c.opts.MaxBody]
		return out, ErrTooLarge
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return out, ErrRedirect
	}
	return out, nil
}
