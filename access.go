package overwatch

// Access is what an endpoint asks of its callers before its handler runs:
// the HTTP edge authenticates and limits each route by it. Plan features
// are checked by the handlers (Caller.Require), which know what they serve.
type Access uint8

// The kinds of access.
const (
	// AccessPublic needs no key: the public surface, limited per client IP.
	AccessPublic Access = iota
	// AccessOptionalKey reads a key when one is presented (the plan's
	// tier then applies) and needs none (/ports, /health, /billing/plans).
	AccessOptionalKey
	// AccessKey needs a valid API key; the per-IP minute and the
	// account's daily quota apply.
	AccessKey
	// AccessSigned needs no key: the request carries a signature its
	// handler verifies (the payment provider's events). No per-IP limit
	// applies before it; the handler draws from the endpoint's own budget
	// once the signature verifies.
	AccessSigned
)
