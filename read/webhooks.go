package read

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Webhook is a webhook of GET /v1/webhooks (never its secret).
type Webhook struct {
	ID                  int64      `json:"id"`
	URL                 string     `json:"url"`
	EventTypes          []string   `json:"event_types"`
	Paused              bool       `json:"paused"`
	DisabledAt          *time.Time `json:"disabled_at"`
	DisabledReason      string     `json:"disabled_reason"`
	ConsecutiveFailures int        `json:"consecutive_failures"`
	CreatedAt           time.Time  `json:"created_at"`
	// PausedByPlan is true while the account's plan has no webhooks: its
	// deliveries wait, and nothing new is queued, until an upgrade.
	PausedByPlan bool `json:"paused_by_plan"`
}

// DeliveryView is a delivery with its attempts.
type DeliveryView struct {
	ID            int64           `json:"id"`
	EventID       string          `json:"event_id"`
	EventType     string          `json:"event_type"`
	Status        string          `json:"status"`
	Attempts      int             `json:"attempts"`
	NextAttemptAt time.Time       `json:"next_attempt_at"`
	CreatedAt     time.Time       `json:"created_at"`
	DeliveredAt   *time.Time      `json:"delivered_at"`
	AttemptsJSON  string          `json:"-"`
	AttemptList   json.RawMessage `json:"attempt_log"`
}

// WebhookQuery reads an account's webhooks and their deliveries
// (NotFound for another account's webhook).
type WebhookQuery interface {
	Webhooks(ctx context.Context, accountID int64) ([]Webhook, error)
	Deliveries(ctx context.Context, accountID, webhookID int64, limit int) ([]DeliveryView, error)
}

// webhookRoutes mounts the listings of the caller's webhooks; registering
// and changing them is the write side's.
func webhookRoutes(r route.Router, s WebhookQuery) {
	r.Handle(fiber.MethodGet, "/webhooks", overwatch.AccessKey, ListWebhooks(s))
	r.Handle(fiber.MethodGet, "/webhooks/:id/deliveries", overwatch.AccessKey, ListDeliveries(s))
}

// ListWebhooks serves GET /v1/webhooks, whatever the plan: an account
// moved to a plan without webhooks still sees its webhooks, each marked
// paused_by_plan.
func ListWebhooks(store WebhookQuery) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		ws, err := store.Webhooks(c.UserContext(), caller.AccountID)
		if err != nil {
			return err
		}
		paused := caller.Require(overwatch.FeatureWebhooks) != nil
		for i := range ws {
			ws[i].PausedByPlan = paused
		}
		return c.JSON(fiber.Map{"webhooks": ws})
	}
}

// ListDeliveries serves GET /v1/webhooks/{id}/deliveries, whatever the
// plan: the newest deliveries (limit 50, max 500) with every attempt
// (time, status code, error, duration).
func ListDeliveries(store WebhookQuery) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := strconv.ParseInt(c.Params("id"), 10, 64)
		if err != nil || id <= 0 {
			return overwatch.Errorf(overwatch.Invalid, "id must be a positive integer (the id of GET /v1/webhooks)")
		}
		limit, err := limitParam(c, 50, 500)
		if err != nil {
			return err
		}
		ds, err := store.Deliveries(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, id, limit)
		if err != nil {
			return err
		}
		for i := range ds {
			ds[i].AttemptList = json.RawMessage(ds[i].AttemptsJSON)
		}
		return c.JSON(fiber.Map{"deliveries": ds})
	}
}
