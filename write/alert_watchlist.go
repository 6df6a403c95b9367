package write

import (
	"context"
	"strings"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// WatchlistEditor adds and removes single entries of an account's
// watchlist (kind "vessel" or "port").
type WatchlistEditor interface {
	// AddWatched watches value unless it is watched already; Conflict when
	// the account watches max of the kind.
	AddWatched(ctx context.Context, accountID int64, kind, value string, max int) error
	// RemoveWatched stops watching value; NotFound when it is not watched.
	RemoveWatched(ctx context.Context, accountID int64, kind, value string) error
}

// Watch kinds: a vessel (IMO number) or a port (slug).
const (
	WatchVessel = "vessel"
	WatchPort   = "port"
)

// watchedValue normalises the path parameter of kind: a 7-digit IMO number
// with a valid check digit (an "IMO" prefix accepted) or a port slug.
func watchedValue(kind, raw string) (string, error) {
	raw = strings.Clone(strings.TrimSpace(raw)) // fiber reuses the request buffer
	if kind == WatchPort {
		p, ok := seaport.ByRef(raw)
		if !ok {
			return "", overwatch.Errorf(overwatch.Invalid, "slug: %q is not a port slug or id (see /v1/ports)", raw)
		}
		return p.Slug, nil
	}
	v := strings.TrimSpace(strings.TrimPrefix(strings.ToUpper(raw), "IMO"))
	if _, err := overwatch.ParseIMO(v); err != nil {
		return "", overwatch.Errorf(overwatch.Invalid, "imo: %q is not an IMO number (7 digits with a valid check digit)", raw)
	}
	return v, nil
}

func watchParam(kind string) string {
	if kind == WatchPort {
		return "slug"
	}
	return "imo"
}

// AddWatched serves PUT /v1/watchlist/vessels/{imo} and PUT
// /v1/watchlist/ports/{slug}: watches one vessel or port (idempotent; 409
// once the account watches MaxWatched of the kind).
func AddWatched(store WatchlistEditor, kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		v, err := watchedValue(kind, c.Params(watchParam(kind)))
		if err != nil {
			return err
		}
		if err := store.AddWatched(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, kind, v, MaxWatched); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"kind": kind, "value": v, "watched": true})
	}
}

// RemoveWatched serves DELETE /v1/watchlist/vessels/{imo} and DELETE
// /v1/watchlist/ports/{slug}: stops watching one vessel or port (404 when
// the account does not watch it).
func RemoveWatched(store WatchlistEditor, kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		v, err := watchedValue(kind, c.Params(watchParam(kind)))
		if err != nil {
			return err
		}
		if err := store.RemoveWatched(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, kind, v); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"kind": kind, "value": v, "watched": false})
	}
}
