package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Key is an API key as its owner sees it: never the secret, only its
// visible prefix.
type Key struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	Plan       string     `json:"plan"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

// KeyLister lists an account's keys, newest first.
type KeyLister interface {
	ListKeys(ctx context.Context, accountID int64) ([]Key, error)
}

// keyRoutes mounts the listing of the caller's keys.
func keyRoutes(r route.Router, s KeyLister) {
	r.Handle(fiber.MethodGet, "/keys", overwatch.AccessKey, ListKeys(s))
}

// ListKeys serves GET /v1/keys: the caller's keys, active and revoked.
func ListKeys(store KeyLister) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		keys, err := store.ListKeys(c.UserContext(), caller.AccountID)
		if err != nil {
			return err
		}
		if keys == nil {
			keys = []Key{}
		}
		return c.JSON(fiber.Map{"keys": keys})
	}
}
