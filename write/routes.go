package write

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch/route"
	"overwatch/write/outbound"
)

// Accounts is what the write side's endpoints change in the account store
// (PostgreSQL).
type Accounts interface {
	KeyStore
	AlertEditor
	WebhookStore
	PlanChanger
	RefreshGate
	FreightRateStore
	PICoverageStore
}

// Deps are what the write routes work with.
type Deps struct {
	Accounts  Accounts
	Billing   PaymentProvider
	Refresher Refresher
	Outbound  *outbound.Client                    // the client for user-supplied URLs
	CheckURL  func(context.Context, string) error // refuses a webhook URL that may not be reached
	PublicURL string                              // the service's own address (checkout's return pages)
	// Now is the service's clock. The payment provider's signatures are
	// checked against the real time, which the provider signs with.
	Now func() time.Time
	// EventLimit draws one verified event of the payment provider from
	// the endpoint's own budget: nil, or the 429 to answer.
	EventLimit func(*fiber.Ctx) error
}

// Routes mounts every write route, area by area; each area's file lists its
// routes beside their handlers.
func Routes(r route.Router, d Deps) {
	billingRoutes(r, d.Billing, d.Accounts, d.PublicURL, time.Now, d.EventLimit)
	keyRoutes(r, d.Accounts, d.Now)
	refreshRoutes(r, d.Refresher, d.Accounts, d.Now)
	alertRoutes(r, d.Accounts, d.Now)
	webhookRoutes(r, d.Accounts, d.Outbound, d.CheckURL)
	freightRoutes(r, d.Accounts, d.Now)
	piCoverageRoutes(r, d.Accounts)
}
