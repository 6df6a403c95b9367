package main

import (
	"github.com/gofiber/fiber/v2"
)

// cors runs first on every request. Every response allows any origin: the public surface is meant for
// browsers, and the keyed surface takes no cookies, only keys in headers.
// Browsers may read the rate-limit headers.
func cors(c *fiber.Ctx) error {
	// Response header names go out exactly as set (X-RateLimit-*, as the
	// spec spells them); request headers are still matched case-insensitively.
	c.Response().Header.DisableNormalizing()
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	if c.Method() != fiber.MethodOptions {
		c.Set(fiber.HeaderAccessControlExposeHeaders,
			"Retry-After, X-RateLimit-Limit-Minute, X-RateLimit-Remaining-Minute, X-RateLimit-Limit-Day, X-RateLimit-Remaining-Day")
	}
	return c.Next()
}

// publicPreflight answers OPTIONS on the public surface: always 204 with
// exactly the three CORS headers of the spec.
func publicPreflight(c *fiber.Ctx) error {
	c.Set(fiber.HeaderAccessControlAllowMethods, "GET, OPTIONS")
	c.Set(fiber.HeaderAccessControlAllowHeaders, "Content-Type")
	return c.SendStatus(fiber.StatusNoContent)
}

// keyedPreflight answers OPTIONS on the keyed surface, where browsers must
// be allowed to send the key headers.
func keyedPreflight(c *fiber.Ctx) error {
	c.Set(fiber.HeaderAccessControlAllowMethods, "GET, POST, DELETE, OPTIONS")
	c.Set(fiber.HeaderAccessControlAllowHeaders, "Authorization, Content-Type, X-API-Key")
	c.Set(fiber.HeaderAccessControlMaxAge, "600")
	return c.SendStatus(fiber.StatusNoContent)
}
