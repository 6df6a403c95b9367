package write

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
	"overwatch/write/outbound"
)

// WebhookEventTypes are the event types a webhook may subscribe to: the
// alert types, the bulk exports' outcomes, and test (POST a test event
// from the delivery log).
var WebhookEventTypes = []string{"sanctions_match", "dark_fleet", "river_level", "eta_changed", "export.completed", "export.failed", "test"}

// MaxWebhooks is how many webhooks an account may hold.
const MaxWebhooks = 10

// NewWebhook is a webhook to store.
type NewWebhook struct {
	URL        string
	EventTypes []string
	Secret     string
}

// WebhookStore changes an account's webhooks (NotFound for another
// account's; Conflict beyond max).
type WebhookStore interface {
	CreateWebhook(ctx context.Context, accountID int64, w NewWebhook, max int) (id int64, created time.Time, err error)
	DeleteWebhook(ctx context.Context, accountID, id int64) error
	PauseWebhook(ctx context.Context, accountID, id int64, paused bool) error
}

type webhookBody struct {
	URL        string   `json:"url"`
	EventTypes []string `json:"event_types"`
}

// webhookRoutes mounts webhook registration and resumption (plans with
// real-time webhooks), deleting and pausing (every plan: an account moved
// to a plan without webhooks keeps its webhooks, undelivered, and may
// still clear them away) and the chat webhook test (every plan).
func webhookRoutes(r route.Router, s WebhookStore, client *outbound.Client, check func(context.Context, string) error) {
	key := overwatch.AccessKey
	r.Handle(fiber.MethodPost, "/webhooks/slack-test", key, SlackTest(client))
	r.Handle(fiber.MethodPost, "/webhooks", key, needs(overwatch.FeatureWebhooks, CreateWebhook(s, check)))
	r.Handle(fiber.MethodDelete, "/webhooks/:id", key, DeleteWebhook(s))
	r.Handle(fiber.MethodPost, "/webhooks/:id/pause", key, PauseWebhook(s, true))
	r.Handle(fiber.MethodPost, "/webhooks/:id/resume", key, needs(overwatch.FeatureWebhooks, PauseWebhook(s, false)))
}

// needs runs h for callers whose plan includes the feature (403 naming
// the plan otherwise).
func needs(f overwatch.Feature, h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := overwatch.CallerFrom(c.UserContext()).Require(f); err != nil {
			return err
		}
		return h(c)
	}
}

// CreatedWebhook is the webhook of POST /v1/webhooks's answer, with its
// signing secret, shown only there.
type CreatedWebhook struct {
	ID         int64     `json:"id"`
	URL        string    `json:"url"`
	EventTypes []string  `json:"event_types"`
	Secret     string    `json:"secret"`
	CreatedAt  time.Time `json:"created_at"`
	Warning    string    `json:"warning"`
}

// CreateWebhook serves POST /v1/webhooks ({url, event_types}): an https
// endpoint whose host is, or resolves now only to, public addresses
// (check: outbound.Client.CheckResolved; deliveries check again at every
// connection), the event types among WebhookEventTypes; 201 with
// {"webhook": CreatedWebhook}, its signing secret shown only here
// (Standard Webhooks: "whsec_..."). At most MaxWebhooks per account.
func CreateWebhook(store WebhookStore, check func(context.Context, string) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var b webhookBody
		if err := json.Unmarshal(c.Body(), &b); err != nil {
			return overwatch.Errorf(overwatch.Invalid, `body must be a JSON object like {"url": "https://...", "event_types": ["dark_fleet"]}`)
		}
		b.URL = strings.TrimSpace(b.URL)
		if b.URL == "" {
			return overwatch.Errorf(overwatch.Invalid, "url is required")
		}
		if err := check(c.UserContext(), b.URL); err != nil {
			return overwatch.Errorf(overwatch.Invalid, "url: %s", err.Error())
		}
		if len(b.EventTypes) == 0 {
			return overwatch.Errorf(overwatch.Invalid, "event_types is required: one or more of %s", strings.Join(WebhookEventTypes, ", "))
		}
		var types []string
		for _, t := range b.EventTypes {
			if !slices.Contains(WebhookEventTypes, t) {
				return overwatch.Errorf(overwatch.Invalid, "event_types: %q is not one of %s", t, strings.Join(WebhookEventTypes, ", "))
			}
			if !slices.Contains(types, t) {
				types = append(types, strings.Clone(t))
			}
		}
		secret, err := NewWebhookSecret()
		if err != nil {
			return err
		}
		id, created, err := store.CreateWebhook(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID,
			NewWebhook{URL: strings.Clone(b.URL), EventTypes: types, Secret: secret}, MaxWebhooks)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(fiber.StatusCreated).JSON(fiber.Map{"webhook": CreatedWebhook{ID: id, URL: b.URL, EventTypes: types, Secret: secret,
			CreatedAt: created.UTC(), Warning: "Store the secret now: it is shown only once. Verify every delivery's webhook-signature with it."}})
	}
}

func webhookID(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, overwatch.Errorf(overwatch.Invalid, "id must be a positive integer (the id of GET /v1/webhooks)")
	}
	return id, nil
}

// DeleteWebhook serves DELETE /v1/webhooks/{id}, with its pending
// deliveries, whatever the plan.
func DeleteWebhook(store WebhookStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := webhookID(c)
		if err != nil {
			return err
		}
		if err := store.DeleteWebhook(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, id); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"deleted": true, "id": id})
	}
}

// PauseWebhook serves POST /v1/webhooks/{id}/pause (paused) and /resume:
// a paused webhook keeps its queued deliveries without sending them;
// resuming also re-enables a webhook disabled after repeated failure.
// (The routes gate resuming by the plan, not pausing.)
func PauseWebhook(store WebhookStore, paused bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := webhookID(c)
		if err != nil {
			return err
		}
		if err := store.PauseWebhook(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, id, paused); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"id": id, "paused": paused})
	}
}

// SlackTest serves POST /v1/webhooks/slack-test ({url, message}): posts
// {"text": message} to a chat webhook URL (Slack's incoming webhooks and
// compatible ones) through the outbound client, answering {success,
// message}. A failure is success false with a generic reason
// (outbound.Reason: "destination not allowed", "connection failed", "timed
// out", "HTTP <status>"), never what the service's network said (the
// client logs that); a malformed URL is named as such.
func SlackTest(client *outbound.Client) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var b struct {
			URL     string `json:"url"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(c.Body(), &b); err != nil || strings.TrimSpace(b.URL) == "" {
			return overwatch.Errorf(overwatch.Invalid, `body must be a JSON object like {"url": "https://hooks.slack.com/services/..."}`)
		}
		text := strings.TrimSpace(b.Message)
		if text == "" {
			text = "Overwatch test message: your chat webhook works."
		}
		if len(text) > 2000 {
			return overwatch.Errorf(overwatch.Invalid, "message must be at most 2000 characters")
		}
		var bad *outbound.URLError
		if _, err := client.Check(strings.TrimSpace(b.URL)); errors.As(err, &bad) {
			return c.JSON(fiber.Map{"success": false, "message": "url refused: " + bad.Msg})
		} else if err != nil {
			return c.JSON(fiber.Map{"success": false, "message": "url refused: " + outbound.Reason(nil, err)})
		}
		body, _ := json.Marshal(map[string]string{"text": text})
		req, err := http.NewRequest(http.MethodPost, strings.TrimSpace(b.URL), strings.NewReader(string(body)))
		if err != nil {
			return c.JSON(fiber.Map{"success": false, "message": "url refused: " + outbound.ReasonNotAllowed})
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(c.UserContext(), req)
		switch reason := outbound.Reason(resp, err); {
		case reason == outbound.ReasonNotAllowed: // the name led to an address that may not be reached
			return c.JSON(fiber.Map{"success": false, "message": "url refused: " + reason})
		case resp != nil && err == nil && reason != "", errors.Is(err, outbound.ErrRedirect):
			return c.JSON(fiber.Map{"success": false, "message": "the chat service answered " + reason})
		case reason != "":
			return c.JSON(fiber.Map{"success": false, "message": "the message was not delivered: " + reason})
		}
		return c.JSON(fiber.Map{"success": true, "message": "the test message was posted"})
	}
}
