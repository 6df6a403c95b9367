package write

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// Limits of what an account watches.
const (
	MaxWatched       = 1000 // vessels and ports of a watchlist or a portfolio, each
	MaxPortfolios    = 50
	DefaultSnooze    = 24 * time.Hour
	MaxSnooze        = 365 * 24 * time.Hour
	portfolioNameMax = 100
	// MaxWatchBody is the body of a watchlist or a portfolio: MaxWatched
	// vessels and ports, each, with room for indentation.
	MaxWatchBody = 256 << 10
)

// WatchedSet is a portfolio to store.
type WatchedSet struct {
	ID, Name       string
	Vessels, Ports []string
}

// AlertStore changes an account's watchlist, portfolios and alert state.
type AlertStore interface {
	ReplaceWatchlist(ctx context.Context, accountID int64, vessels, ports []string) error
	// CreatePortfolio stores a new portfolio unless the account holds max
	// (Conflict) and returns when it was created.
	CreatePortfolio(ctx context.Context, accountID int64, p WatchedSet, max int) (time.Time, error)
	DeletePortfolio(ctx context.Context, accountID int64, id string) error
	SetAlertState(ctx context.Context, accountID, alertID int64, action overwatch.AlertAction, now, snoozeUntil time.Time) (overwatch.AlertTimes, error)
}

type watchBody struct {
	Vessels []string `json:"vessels"`
	Ports   []string `json:"ports"`
	Name    string   `json:"name"`
}

// validate normalises the IMO numbers (7 digits with a valid check digit)
// and port slugs, dropping duplicates.
func (b *watchBody) validate() error {
	if len(b.Vessels) > MaxWatched || len(b.Ports) > MaxWatched {
		return overwatch.Errorf(overwatch.Invalid, "vessels and ports hold at most %d entries each", MaxWatched)
	}
	seen := map[string]bool{}
	vessels := []string{}
	for _, v := range b.Vessels {
		v = strings.TrimSpace(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(v)), "IMO"))
		if _, err := overwatch.ParseIMO(v); err != nil {
			return overwatch.Errorf(overwatch.Invalid, "vessels: %q is not an IMO number (7 digits with a valid check digit)", v)
		}
		if !seen["v"+v] {
			seen["v"+v] = true
			vessels = append(vessels, v)
		}
	}
	ports := []string{}
	for _, p := range b.Ports {
		port, ok := seaport.ByRef(strings.TrimSpace(p))
		if !ok {
			return overwatch.Errorf(overwatch.Invalid, "ports: %q is not a port slug or id (see /v1/ports)", p)
		}
		if !seen["p"+port.Slug] {
			seen["p"+port.Slug] = true
			ports = append(ports, port.Slug)
		}
	}
	b.Vessels, b.Ports = vessels, ports
	return nil
}

func parseWatchBody(c *fiber.Ctx) (watchBody, error) {
	var b watchBody
	if err := json.Unmarshal(c.Body(), &b); err != nil {
		return b, overwatch.Errorf(overwatch.Invalid, `body must be a JSON object like {"vessels": ["9074729"], "ports": ["santos"]}`)
	}
	return b, b.validate()
}

// AlertEditor changes watchlists, portfolios and alert states.
type AlertEditor interface {
	AlertStore
	WatchlistEditor
}

// alertRoutes mounts the changes to the caller's watchlist, portfolios and
// alert states.
func alertRoutes(r route.Router, s AlertEditor, now func() time.Time) {
	key := overwatch.AccessKey
	r.HandleBody(fiber.MethodPut, "/watchlist", key, route.Body{Max: MaxWatchBody}, PutWatchlist(s))
	r.Handle(fiber.MethodPut, "/watchlist/vessels/:imo", key, AddWatched(s, WatchVessel))
	r.Handle(fiber.MethodDelete, "/watchlist/vessels/:imo", key, RemoveWatched(s, WatchVessel))
	r.Handle(fiber.MethodPut, "/watchlist/ports/:slug", key, AddWatched(s, WatchPort))
	r.Handle(fiber.MethodDelete, "/watchlist/ports/:slug", key, RemoveWatched(s, WatchPort))
	r.HandleBody(fiber.MethodPost, "/portfolios", key, route.Body{Max: MaxWatchBody}, CreatePortfolio(s))
	r.Handle(fiber.MethodDelete, "/portfolios/:id", key, DeletePortfolio(s))
	r.Handle(fiber.MethodPost, "/alerts/unified/state", key, SetAlertState(s, now))
}

// PutWatchlist serves PUT /v1/watchlist ({vessels, ports}): replaces the
// account's watchlist whole and answers it.
func PutWatchlist(store AlertStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b, err := parseWatchBody(c)
		if err != nil {
			return err
		}
		if err := store.ReplaceWatchlist(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, b.Vessels, b.Ports); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"watchlist": fiber.Map{"vessels": b.Vessels, "ports": b.Ports}})
	}
}

// CreatePortfolio serves POST /v1/portfolios ({name, vessels, ports}): a
// new portfolio with a new id ("pf_" and 16 hex digits), 201.
func CreatePortfolio(store AlertStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b, err := parseWatchBody(c)
		if err != nil {
			return err
		}
		b.Name = strings.TrimSpace(b.Name)
		if b.Name == "" || utf8.RuneCountInString(b.Name) > portfolioNameMax {
			return overwatch.Errorf(overwatch.Invalid, "name is required (at most %d characters)", portfolioNameMax)
		}
		var id [8]byte
		if _, err := rand.Read(id[:]); err != nil {
			return err
		}
		p := WatchedSet{ID: "pf_" + hex.EncodeToString(id[:]), Name: strings.Clone(b.Name), Vessels: b.Vessels, Ports: b.Ports}
		created, err := store.CreatePortfolio(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, p, MaxPortfolios)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusCreated).JSON(fiber.Map{"portfolio": fiber.Map{"id": p.ID, "name": p.Name,
			"vessels": p.Vessels, "ports": p.Ports, "created_at": created.UTC()}})
	}
}

// DeletePortfolio serves DELETE /v1/portfolios/{id}: another account's
// portfolio, or an unknown id, is a 404.
func DeletePortfolio(store AlertStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id := strings.Clone(c.Params("id"))
		if err := store.DeletePortfolio(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, id); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"deleted": true, "id": id})
	}
}

type stateBody struct {
	AlertID     string `json:"alert_id"`
	Action      string `json:"action"`
	SnoozeUntil string `json:"snooze_until"`
}

// AlertStateAnswer is the answer of POST /v1/alerts/unified/state.
type AlertStateAnswer struct {
	OK      bool                 `json:"ok"`
	AlertID string               `json:"alert_id"`
	Action  string               `json:"action"`
	State   overwatch.AlertTimes `json:"state"`
}

// SetAlertState serves POST /v1/alerts/unified/state: alert_id
// ("overwatch:<id>"), action (read, resolve, snooze, open) and, for
// snooze, snooze_until (an ISO timestamp ahead, at most a year; default 24
// hours after the request), as a JSON body or query parameters (the body
// wins). The transitions are overwatch.AlertTimes.Transition's: a refused
// one is a 409; another account's alert, or one of the companion product
// (source locus, none here), a 404.
func SetAlertState(store AlertStore, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b := stateBody{AlertID: c.Query("alert_id"), Action: c.Query("action"), SnoozeUntil: c.Query("snooze_until")}
		if body := strings.TrimSpace(string(c.Body())); body != "" {
			var jb stateBody
			if err := json.Unmarshal(c.Body(), &jb); err != nil {
				return overwatch.Errorf(overwatch.Invalid, `body must be a JSON object like {"alert_id": "overwatch:1", "action": "read"}`)
			}
			if jb.AlertID != "" {
				b.AlertID = jb.AlertID
			}
			if jb.Action != "" {
				b.Action = jb.Action
			}
			if jb.SnoozeUntil != "" {
				b.SnoozeUntil = jb.SnoozeUntil
			}
		}
		b = stateBody{AlertID: strings.Clone(b.AlertID), Action: strings.Clone(b.Action), SnoozeUntil: strings.Clone(b.SnoozeUntil)}
		if b.AlertID == "" {
			return overwatch.Errorf(overwatch.Invalid, "alert_id is required (<source>:<id>, e.g. overwatch:42)").With("parameter", "alert_id")
		}
		source, rawID, ok := strings.Cut(b.AlertID, ":")
		id, err := strconv.ParseInt(rawID, 10, 64)
		if !ok || err != nil || id <= 0 || (source != "overwatch" && source != "locus") {
			return overwatch.Errorf(overwatch.Invalid, "alert_id must be <source>:<id>, e.g. overwatch:42").With("parameter", "alert_id")
		}
		action := overwatch.AlertAction(b.Action)
		switch action {
		case overwatch.ActionRead, overwatch.ActionResolve, overwatch.ActionSnooze, overwatch.ActionOpen:
		case "":
			return overwatch.Errorf(overwatch.Invalid, "action is required (read, resolve, snooze or open)").With("parameter", "action")
		default:
			return overwatch.Errorf(overwatch.Invalid, "action must be one of read, resolve, snooze, open").With("parameter", "action")
		}
		t := now().UTC()
		until := t.Add(DefaultSnooze)
		if b.SnoozeUntil != "" {
			if action != overwatch.ActionSnooze {
				return overwatch.Errorf(overwatch.Invalid, "snooze_until is only for action snooze").With("parameter", "snooze_until")
			}
			u, err := time.Parse(time.RFC3339, b.SnoozeUntil)
			if err != nil {
				return overwatch.Errorf(overwatch.Invalid, "snooze_until must be an ISO 8601 timestamp like 2026-01-02T15:04:05Z").With("parameter", "snooze_until")
			}
			if !u.After(t) || u.Sub(t) > MaxSnooze {
				return overwatch.Errorf(overwatch.Invalid, "snooze_until must be ahead, at most a year from now").With("parameter", "snooze_until")
			}
			until = u
		}
		if source == "locus" {
			return overwatch.Errorf(overwatch.NotFound, "no alert %s", b.AlertID)
		}
		times, err := store.SetAlertState(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, id, action, t, until)
		if err != nil {
			return err
		}
		return c.JSON(AlertStateAnswer{OK: true, AlertID: b.AlertID, Action: string(action), State: times})
	}
}
