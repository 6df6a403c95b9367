package write

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// CheckoutRequest is a request for a payment page for a plan.
type CheckoutRequest struct {
	AccountID  int64
	Email      string
	Plan       overwatch.Plan
	SuccessURL string
	CancelURL  string
}

// PaymentEvent is a verified event of the payment provider.
type PaymentEvent struct {
	ID        string
	Type      string
	AccountID int64          // 0 when the event names none
	Plan      overwatch.Plan // "" when none or unknown
	Paid      bool
}

// CheckoutCompleted is the event of a finished checkout; it changes the
// account's plan when the session is paid.
const CheckoutCompleted = "checkout.session.completed"

// CheckoutAsyncSucceeded is the event of a delayed payment (a bank debit)
// that succeeded after its checkout completed unpaid; it changes the plan
// then.
const CheckoutAsyncSucceeded = "checkout.session.async_payment_succeeded"

// PaymentProvider creates payment pages and verifies the provider's
// signed events (write/stripe implements it).
type PaymentProvider interface {
	CheckoutURL(ctx context.Context, r CheckoutRequest) (string, error)
	ParseEvent(payload []byte, signature string, now time.Time) (PaymentEvent, error)
}

// ErrBillingNotConfigured is what a provider returns when it lacks its
// keys or the plan's price.
var ErrBillingNotConfigured = errors.New("billing is not configured")

// ErrMalformedEvent is what a provider returns for an event whose
// signature verifies but whose payload is not an event it can read.
var ErrMalformedEvent = errors.New("the event is not a JSON event object with an id and a type")

// PlanChanger applies a completed payment: it sets the account's plan
// once per event id (applied false for an event already applied), and
// NotFound for an unknown account.
type PlanChanger interface {
	ApplyPayment(ctx context.Context, eventID string, accountID int64, plan overwatch.Plan) (applied bool, err error)
}

// Entitlements is the body of GET /v1/billing/entitlements.
type Entitlements struct {
	Entitlements Entitlement `json:"entitlements"`
}

// Entitlement is what the caller's plan gives: product is the product the
// plan buys ("overwatch", or "supply_chain_risk" for the bundle of this
// service and its companion product Locus).
type Entitlement struct {
	Plan               overwatch.Plan `json:"plan"`
	Product            string         `json:"product"`
	HasBundle          bool           `json:"hasBundle"`
	CanAccessOverwatch bool           `json:"canAccessOverwatch"`
	CanAccessLocus     bool           `json:"canAccessLocus"`
}

// EntitlementOf is the entitlement of a plan.
func EntitlementOf(p overwatch.Plan) Entitlement {
	bundle := p == overwatch.PlanSupplyChainRisk
	e := Entitlement{Plan: p, Product: "overwatch", HasBundle: bundle, CanAccessOverwatch: true, CanAccessLocus: bundle}
	if bundle {
		e.Product = "supply_chain_risk"
	}
	return e
}

// MaxEventBody is the body of a payment provider's event: its objects
// whole, with room to spare (events are a few kilobytes).
const MaxEventBody = 1 << 20

// billingRoutes mounts the billing endpoints: the caller's entitlements,
// checkout, and the payment provider's signed events (public: the
// signature authenticates them).
func billingRoutes(r route.Router, p PaymentProvider, store PlanChanger, publicURL string, now func() time.Time, limit func(*fiber.Ctx) error) {
	r.Handle(fiber.MethodGet, "/billing/entitlements", overwatch.AccessKey, BillingEntitlements())
	r.Handle(fiber.MethodPost, "/billing/checkout", overwatch.AccessKey, BillingCheckout(p, publicURL))
	r.HandleBody(fiber.MethodPost, "/billing/webhook", overwatch.AccessSigned, route.Body{Max: MaxEventBody}, BillingWebhook(p, store, now, limit))
}

// BillingEntitlements serves GET /v1/billing/entitlements: the caller's
// plan and the products it opens, as of this request (a plan change
// applies at once).
func BillingEntitlements() fiber.Handler {
	return func(c *fiber.Ctx) error {
		return c.JSON(Entitlements{Entitlements: EntitlementOf(overwatch.CallerFrom(c.UserContext()).Plan)})
	}
}

// CheckoutBody is the body of POST /v1/billing/checkout.
type CheckoutBody struct {
	Plan string `json:"plan"`
}

// CheckoutAnswer is the answer of POST /v1/billing/checkout.
type CheckoutAnswer struct {
	URL string `json:"url"`
}

// BillingCheckout serves POST /v1/billing/checkout ({"plan": "starter" |
// "pro" | "supply_chain_risk"}): the payment page for the plan, where the
// caller pays; the plan changes when the provider's event says the payment
// completed (BillingWebhook). The free plan, or the plan the account is
// already on, is refused (400, 409); without provider keys, 503.
func BillingCheckout(provider PaymentProvider, publicURL string) fiber.Handler {
	base := strings.TrimSuffix(publicURL, "/")
	return func(c *fiber.Ctx) error {
		var body CheckoutBody
		if err := json.Unmarshal(c.Body(), &body); err != nil {
			return overwatch.Errorf(overwatch.Invalid, `body must be a JSON object like {"plan": "pro"}`)
		}
		plan, ok := overwatch.ParsePlan(strings.TrimSpace(body.Plan))
		switch {
		case strings.TrimSpace(body.Plan) == "":
			return overwatch.Errorf(overwatch.Invalid, "plan is required (starter, pro or supply_chain_risk)")
		case !ok:
			return overwatch.Errorf(overwatch.Invalid, "plan must be one of starter, pro, supply_chain_risk")
		case plan == overwatch.PlanFree:
			return overwatch.Errorf(overwatch.Invalid, "plan free needs no checkout")
		}
		caller := overwatch.CallerFrom(c.UserContext())
		if caller.Plan == plan {
			return overwatch.Errorf(overwatch.Conflict, "the account is already on plan %s", plan)
		}
		url, err := provider.CheckoutURL(c.UserContext(), CheckoutRequest{AccountID: caller.AccountID, Email: caller.Email, Plan: plan,
			SuccessURL: base + "/billing/success?session_id={CHECKOUT_SESSION_ID}", CancelURL: base + "/billing/cancel"})
		if errors.Is(err, ErrBillingNotConfigured) {
			return overwatch.Wrap(overwatch.Unavailable, err, "billing is not configured on this server")
		}
		if err != nil {
			return overwatch.Wrap(overwatch.Unavailable, err, "the payment provider did not answer; try again")
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.JSON(CheckoutAnswer{URL: url})
	}
}

// WebhookAnswer is the answer to the payment provider's event.
type WebhookAnswer struct {
	Received bool `json:"received"`
	Applied  bool `json:"applied"`
}

// BillingWebhook serves POST /v1/billing/webhook, the payment provider's
// signed events (no API key: the signature is the authentication). A
// checkout.session.completed event of a paid session, or the
// checkout.session.async_payment_succeeded event of a delayed payment that
// cleared, changes the account's plan at once, once per event id (the
// provider retries until it gets a 2xx); other events are acknowledged and
// ignored. A bad signature is a 400; a verified event then draws from the
// endpoint's own budget (limit: a 429 the provider retries later), and a
// verified payload that is not an event is a 400 saying so; an event for
// an unknown account is acknowledged with applied false (retrying would
// not help).
func BillingWebhook(provider PaymentProvider, store PlanChanger, now func() time.Time, limit func(*fiber.Ctx) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ev, err := provider.ParseEvent(c.Body(), c.Get("Stripe-Signature"), now())
		if errors.Is(err, ErrBillingNotConfigured) {
			return overwatch.Wrap(overwatch.Unavailable, err, "billing is not configured on this server")
		}
		if err != nil && !errors.Is(err, ErrMalformedEvent) {
			return overwatch.Wrap(overwatch.Invalid, err, "the event's signature does not verify")
		}
		if limit != nil {
			if lerr := limit(c); lerr != nil {
				return lerr
			}
		}
		if err != nil {
			return overwatch.Wrap(overwatch.Invalid, err, ErrMalformedEvent.Error())
		}
		if (ev.Type != CheckoutCompleted && ev.Type != CheckoutAsyncSucceeded) || !ev.Paid || ev.AccountID <= 0 || ev.Plan == "" || ev.Plan == overwatch.PlanFree {
			return c.JSON(WebhookAnswer{Received: true})
		}
		applied, err := store.ApplyPayment(c.UserContext(), ev.ID, ev.AccountID, ev.Plan)
		var oe *overwatch.Error
		if errors.As(err, &oe) && oe.Code == overwatch.NotFound {
			return c.JSON(WebhookAnswer{Received: true})
		}
		if err != nil {
			return err
		}
		return c.JSON(WebhookAnswer{Received: true, Applied: applied})
	}
}
