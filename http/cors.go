package http

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// publicPreflight answers OPTIONS on the public surface: always 204 with
// exactly three CORS headers: Allow-Origin * (the common headers'),
// Allow-Methods GET, OPTIONS and Allow-Headers Content-Type.
func publicPreflight(c *fiber.Ctx) error {
	c.Set(fiber.HeaderAccessControlAllowMethods, "GET, OPTIONS")
	c.Set(fiber.HeaderAccessControlAllowHeaders, "Content-Type")
	return c.SendStatus(fiber.StatusNoContent)
}

// keyedMethods are the methods of the keyed surface's routes, collected
// as they are mounted, for its preflight.
type keyedMethods struct {
	list []string
}

func (m *keyedMethods) add(method string) {
	if !slices.Contains(m.list, method) {
		m.list = append(m.list, method)
	}
}

// header is the methods for Access-Control-Allow-Methods, in the order of
// the HTTP methods, OPTIONS last.
func (m *keyedMethods) header() string {
	var out []string
	for _, method := range fiber.DefaultMethods {
		if slices.Contains(m.list, method) && method != fiber.MethodOptions {
			out = append(out, method)
		}
	}
	return strings.Join(append(out, fiber.MethodOptions), ", ")
}

// keyedPreflight answers OPTIONS on the keyed surface, where browsers must
// be allowed to send the key headers and every method the surface uses.
func keyedPreflight(methods *keyedMethods) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderAccessControlAllowMethods, methods.header())
		c.Set(fiber.HeaderAccessControlAllowHeaders, "Authorization, Content-Type, X-API-Key")
		c.Set(fiber.HeaderAccessControlMaxAge, "600")
		return c.SendStatus(fiber.StatusNoContent)
	}
}
