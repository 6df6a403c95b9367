package app

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
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
// the chat test, registration's check), logging the detail of failures to
// log. OVERWATCH_OUTBOUND_ALLOW exempts address prefixes from its
// refusals: the end-to-end tests set it to reach receivers on 127.0.0.1;
// production never does.
func newOutbound(cfg Config, log *slog.Logger) *outbound.Client {
	return outbound.New(outbound.Options{Allow: cfg.OutboundAllow, AllowHTTP: len(cfg.OutboundAllow) > 0, Log: log})
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

// WebhookPoster sends deliveries signed the Standard Webhooks way through
// the outbound client.
type WebhookPoster struct{ client *outbound.Client }

// NewWebhookPoster is the poster that sends deliveries through client.
func NewWebhookPoster(client *outbound.Client) WebhookPoster { return WebhookPoster{client} }

// Post implements jobs.Poster. Its error is the generic reason
// (outbound.Reason), which the delivery log shows to the webhook's owner;
// the client logs the detail.
func (p WebhookPoster) Post(ctx context.Context, d jobs.Delivery, now time.Time) (int, error) {
	resp, err := p.post(ctx, d, now)
	status := 0
	if resp != nil {
		status = resp.Status
	}
	if err != nil {
		return status, errors.New(outbound.Reason(resp, err))
	}
	return status, nil
}

func (p WebhookPoster) post(ctx context.Context, d jobs.Delivery, now time.Time) (*outbound.Response, error) {
	sig, err := write.SignWebhook(d.Secret, d.EventID, now, d.Payload)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Overwatch-Webhooks/1")
	req.Header.Set("webhook-id", d.EventID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	return p.client.Do(ctx, req)
}
