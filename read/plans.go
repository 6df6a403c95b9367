package read

import (
	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// Plans serves GET /v1/billing/plans (public): the four plans, with their limits and features.
func Plans() fiber.Handler {
	return func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"plans": overwatch.Plans()})
	}
}
