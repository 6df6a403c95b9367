package http

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// authenticator resolves a key hash to its account; an unknown or revoked
// key is a NotFound error.
type authenticator interface {
	Authenticate(ctx context.Context, hash overwatch.KeyHash) (*overwatch.Caller, error)
}

// apiKey returns the key a request presents in X-API-Key or in
// Authorization: Bearer, and whether it presents one at all.
func apiKey(c *fiber.Ctx) (string, bool) {
	if v := strings.TrimSpace(c.Get("X-API-Key")); v != "" {
		return v, true
	}
	auth := strings.TrimSpace(c.Get(fiber.HeaderAuthorization))
	if auth == "" {
		return "", false
	}
	scheme, token, _ := strings.Cut(auth, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true // some other scheme: a credential, but not ours
	}
	return strings.TrimSpace(token), true
}

// authenticate puts the caller in the request context. With required set,
// a request without a key is refused; without it (the public keyed
// endpoints), a key is optional but must be valid when presented. A key
// that does not authenticate draws from the client address's failed-key
// budget (KeyGuard), and no key is looked up for an address that spent it.
func authenticate(keys authenticator, g *KeyGuard, required bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key, present := apiKey(c)
		if !present {
			if required {
				c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="overwatch"`)
				return overwatch.Errorf(overwatch.Unauthorized, "missing API key")
			}
			return c.Next()
		}
		ip, now := rateKey(g.ips.of(c)), g.now()
		if err := g.refuse(c, ip, now); err != nil {
			return err
		}
		hash, ok := overwatch.ParseAPIKey(key)
		if !ok {
			return g.failed(c, ip, now)
		}
		caller, err := g.lookup(c.UserContext(), keys, hash, now)
		if overwatch.ErrorCode(err) == overwatch.NotFound {
			return g.failed(c, ip, now)
		}
		if err != nil {
			return overwatch.Wrap(overwatch.Unavailable, err, "service unavailable")
		}
		c.SetUserContext(overwatch.WithCaller(c.UserContext(), caller))
		return c.Next()
	}
}
