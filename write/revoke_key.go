package write

import (
	"context"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// KeyRevoker revokes one of an account's active keys: a key of another
// account, or one already revoked, is NotFound.
type KeyRevoker interface {
	RevokeKey(ctx context.Context, accountID, keyID int64) error
}

// RevokedKey is the body of DELETE /v1/keys/{id}.
type RevokedKey struct {
	ID        int64  `json:"id"`
	Revoked   bool   `json:"revoked"`
	RevokedAt string `json:"revoked_at"`
}

// RevokeKey serves DELETE /v1/keys/{id}: revokes one of the caller's keys
// at once (the next request with it is a 401), including the key making
// the request. The id is that of GET /v1/keys; a malformed id is a 400, a
// key of another account or one already revoked a 404, so that nobody
// learns which ids exist.
func RevokeKey(store KeyRevoker, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := strconv.ParseInt(c.Params("id"), 10, 64)
		if err != nil || id <= 0 {
			return overwatch.Errorf(overwatch.Invalid, "id must be a positive integer (the id of GET /v1/keys)")
		}
		caller := overwatch.CallerFrom(c.UserContext())
		if caller.AccountID <= 0 {
			return overwatch.Errorf(overwatch.NotFound, "no active key %d", id)
		}
		if err := store.RevokeKey(c.UserContext(), caller.AccountID, id); err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.JSON(RevokedKey{ID: id, Revoked: true, RevokedAt: now().UTC().Format(time.RFC3339)})
	}
}
