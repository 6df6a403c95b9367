package write

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/write/outbound"
)

// Router is where the write side mounts its routes: the HTTP edge of cmd,
// which authenticates and limits each route by its access, and bounds its
// request body: Handle mounts a route with the edge's default body
// (SmallBody for POST, PUT, PATCH and DELETE; none for the other
// methods), HandleBody one with its own.
type Router interface {
	Handle(method, path string, access overwatch.Access, h fiber.Handler)
	HandleBody(method, path string, access overwatch.Access, body Body, h fiber.Handler)
}

// Body is the request body a route takes: at most Max bytes, refused with
// a 413 from the request's Content-Length before any of it is read (or,
// for a chunked body, once more than Max bytes have arrived). The edge
// reads a body whole before the handler runs, its buffer growing with the
// bytes received; with Stream, the handler reads it itself as it arrives
// (BodyReader), after the edge's checks (the key first).
type Body struct {
	Max    int
	Stream bool
}

// SmallBody is the body bound of a write route mounted with Handle: a
// JSON object of a few fields.
const SmallBody = 64 << 10

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
func Routes(r Router, d Deps) {
	billingRoutes(r, d.Billing, d.Accounts, d.PublicURL, time.Now, d.EventLimit)
	keyRoutes(r, d.Accounts, d.Now)
	refreshRoutes(r, d.Refresher, d.Accounts, d.Now)
	alertRoutes(r, d.Accounts, d.Now)
	webhookRoutes(r, d.Accounts, d.Outbound, d.CheckURL)
	freightRoutes(r, d.Accounts, d.Now)
	piCoverageRoutes(r, d.Accounts)
}
