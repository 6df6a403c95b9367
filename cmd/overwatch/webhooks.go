package main

import (
	"bytes"
	"context"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"overwatch/jobs"
	"overwatch/write"
	"overwatch/write/outbound"
)

// newOutbound is the client for user-supplied URLs (webhook deliveries,
// the chat test). OVERWATCH_OUTBOUND_ALLOW exempts address prefixes from
// its refusals: the end-to-end tests set it to reach receivers on
// 127.0.0.1; production never does.
func newOutbound(cfg config) *outbound.Client {
	return outbound.New(outbound.Options{Allow: cfg.OutboundAllow, AllowHTTP: len(cfg.OutboundAllow) > 0})
}

// parsePrefixes reads a comma-separated list of CIDR prefixes.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		pf, err := netip.ParsePrefix(p)
		if err != nil {
			return nil, err
		}
		out = append(out, pf)
	}
	return out, nil
}

// webhookPoster sends deliveries signed the Standard Webhooks way through
// the outbound client.
type webhookPoster struct{ client *outbound.Client }

// Post implements jobs.Poster.
func (p webhookPoster) Post(ctx context.Context, d jobs.Delivery, now time.Time) (int, error) {
	sig, err := write.SignWebhook(d.Secret, d.EventID, now, d.Payload)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequest(http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Overwatch-Webhooks/1")
	req.Header.Set("webhook-id", d.EventID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := p.client.Do(ctx, req)
	if resp != nil {
		return resp.Status, err
	}
	return 0, err
}

// checkURL validates a webhook URL with the outbound client's rules.
func (d *deps) checkURL(raw string) error {
	c := d.outbound
	if c == nil {
		c = outbound.New(outbound.Options{})
	}
	_, err := c.Check(raw)
	return err
}
