package read

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Watchlist is what an account watches: IMO numbers and port slugs.
type Watchlist struct {
	Vessels []string `json:"vessels"`
	Ports   []string `json:"ports"`
}

// Portfolio is a named set of vessels and ports of an account; its id is
// the companion product's portfolio id.
type Portfolio struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Vessels   []string  `json:"vessels"`
	Ports     []string  `json:"ports"`
	CreatedAt time.Time `json:"created_at"`
}

// AlertRow is a stored alert of an account.
type AlertRow struct {
	ID                 int64
	Type, Severity     string
	Title, Message     string
	IMO, Port          string
	EventAt, CreatedAt time.Time
	Times              overwatch.AlertTimes
}

// WatchSet restricts alerts to those of these vessels or ports.
type WatchSet struct{ Vessels, Ports []string }

// AlertFilter selects an account's alerts, newest first.
type AlertFilter struct {
	Severity, Type string
	Watch          *WatchSet // nil: any
	Unacknowledged bool      // neither read nor resolved
	State          overwatch.AlertState
	Now            time.Time
	BeforeAt       time.Time // the cursor: strictly before (BeforeAt, BeforeID), when BeforeID > 0
	BeforeID       int64     // 1 with BeforeAt: raised strictly before BeforeAt (ids start at 1)
	Limit          int
}

// AlertQuery reads an account's watchlist, portfolios and alerts.
type AlertQuery interface {
	Watchlist(ctx context.Context, accountID int64) (Watchlist, error)
	Portfolios(ctx context.Context, accountID int64) ([]Portfolio, error)
	Portfolio(ctx context.Context, accountID int64, id string) (Portfolio, error)
	Alerts(ctx context.Context, accountID int64, f AlertFilter) ([]AlertRow, error)
	// CountAlerts counts all the alerts matching f, its limit aside.
	CountAlerts(ctx context.Context, accountID int64, f AlertFilter) (int, error)
}

// alertRoutes mounts the reads of the caller's watchlist, portfolios and
// alerts.
func alertRoutes(r route.Router, s AlertQuery, now func() time.Time) {
	get := func(path string, h fiber.Handler) { r.Handle(fiber.MethodGet, path, overwatch.AccessKey, h) }
	get("/watchlist", GetWatchlist(s))
	get("/portfolios", ListPortfolios(s))
	get("/portfolios/:id", GetPortfolio(s))
	get("/alerts", ListAlerts(s, now))
	get("/alerts/unified", UnifiedAlerts(s, now))
}

// GetWatchlist serves GET /v1/watchlist.
func GetWatchlist(store AlertQuery) fiber.Handler {
	return func(c *fiber.Ctx) error {
		w, err := store.Watchlist(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"watchlist": w})
	}
}

// ListPortfolios serves GET /v1/portfolios.
func ListPortfolios(store AlertQuery) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ps, err := store.Portfolios(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"portfolios": ps})
	}
}

// GetPortfolio serves GET /v1/portfolios/{id}: one of the account's
// portfolios; another account's, or an unknown id, is a 404.
func GetPortfolio(store AlertQuery) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := store.Portfolio(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, strings.Clone(c.Params("id")))
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"portfolio": p})
	}
}

// Alert is an alert of GET /v1/alerts.
type Alert struct {
	ID           int64     `json:"id"`
	Type         string    `json:"type"`
	Severity     string    `json:"severity"`
	Title        string    `json:"title"`
	Message      string    `json:"message"`
	IMO          *string   `json:"imo"`
	Port         *string   `json:"port"`
	EventAt      time.Time `json:"event_at"`
	CreatedAt    time.Time `json:"created_at"`
	Acknowledged bool      `json:"acknowledged"`
}

// AlertsLimit is how many alerts GET /v1/alerts lists at most (and the
// plan's results per call).
const AlertsLimit = 100

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ListAlerts serves GET /v1/alerts: the account's platform alerts, newest
// first (at most 100 and the plan's results per call): severity
// (critical, warning, info), type (sanctions_match, river_level,
// dark_fleet, eta_changed: a watched vessel's predicted ETA moved or its
// predicted next port changed, and webhook_disabled: one of the account's
// webhooks was disabled after repeated failure), unacknowledged ('true': neither read
// nor resolved). count is the alerts listed; unacknowledged is how many of
// the account's alerts of that severity and type are unacknowledged in
// all, beyond the listed 100 too (a badge count).
func ListAlerts(store AlertQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f AlertFilter
		var err error
		if f.Severity, err = enumParam(c, "severity", "critical", "warning", "info"); err != nil {
			return err
		}
		if f.Type, err = enumParam(c, "type", "sanctions_match", "river_level", "dark_fleet", "webhook_disabled", "eta_changed"); err != nil {
			return err
		}
		if f.Unacknowledged, err = boolParam(c, "unacknowledged", false); err != nil {
			return err
		}
		f.Now, f.Limit = now(), overwatch.CallerFrom(c.UserContext()).ClampLimit(AlertsLimit, AlertsLimit)
		rows, err := store.Alerts(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, f)
		if err != nil {
			return err
		}
		all := f
		all.Unacknowledged = true
		unack, err := store.CountAlerts(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, all)
		if err != nil {
			return err
		}
		out := make([]Alert, len(rows))
		for i, r := range rows {
			ack := r.Times.ReadAt != nil || r.Times.ResolvedAt != nil
			out[i] = Alert{ID: r.ID, Type: r.Type, Severity: r.Severity, Title: r.Title, Message: r.Message, IMO: nonEmpty(r.IMO),
				Port: nonEmpty(r.Port), EventAt: r.EventAt.UTC(), CreatedAt: r.CreatedAt.UTC(), Acknowledged: ack}
		}
		return c.JSON(fiber.Map{"alerts": out, "count": len(out), "unacknowledged": unack})
	}
}

// UnifiedAlert is an alert of the unified feed.
type UnifiedAlert struct {
	AlertID   string               `json:"alert_id"`
	Source    string               `json:"source"`
	Product   string               `json:"product"`
	Type      string               `json:"type"`
	Severity  string               `json:"severity"`
	Title     string               `json:"title"`
	Message   string               `json:"message"`
	IMO       *string              `json:"imo"`
	Port      *string              `json:"port"`
	EventAt   time.Time            `json:"event_at"`
	CreatedAt time.Time            `json:"created_at"`
	State     overwatch.AlertState `json:"state"`
	overwatch.AlertTimes
}

// UnifiedLimit is the default and the maximum of the unified feed's limit.
const (
	UnifiedDefault = 25
	UnifiedMax     = 100
)

// UnifiedAlerts serves GET /v1/alerts/unified: the account's alerts of
// both products as one chronological feed, newest first. This service's
// alerts have source and product "overwatch" (alert_id
// "overwatch:<id>"); the companion product Locus has none here yet, so
// product=locus is an empty feed. Filters: product (all, overwatch,
// locus), severity, watchlist ('true': alerts of the vessels and ports of
// the watchlist), portfolio (one of the account's portfolio ids: alerts of
// its vessels and ports; another account's is a 404), state (all, open,
// read, resolved, snoozed; a passed snooze is open again), cursor (the
// next_cursor of the page before, or an ISO 8601 timestamp: the alerts
// raised before it), limit (25, max 100 and the plan's results per call).
func UnifiedAlerts(store AlertQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		var f AlertFilter
		var err error
		product, err := enumParam(c, "product", "all", "overwatch", "locus")
		if err != nil {
			return err
		}
		if f.Severity, err = enumParam(c, "severity", "critical", "warning", "info"); err != nil {
			return err
		}
		state, err := enumParam(c, "state", "all", "open", "read", "resolved", "snoozed")
		if err != nil {
			return err
		}
		if state != "all" {
			f.State = overwatch.AlertState(state)
		}
		watchlist, err := boolParam(c, "watchlist", false)
		if err != nil {
			return err
		}
		if f.Limit, err = limitParam(c, UnifiedDefault, UnifiedMax); err != nil {
			return err
		}
		if f.BeforeAt, f.BeforeID, err = alertCursorParam(c); err != nil {
			return err
		}
		portfolio := strings.Clone(c.Query("portfolio"))
		switch {
		case watchlist:
			w, err := store.Watchlist(c.UserContext(), caller.AccountID)
			if err != nil {
				return err
			}
			f.Watch = &WatchSet{Vessels: w.Vessels, Ports: w.Ports}
		case portfolio != "":
			p, err := store.Portfolio(c.UserContext(), caller.AccountID, portfolio)
			if err != nil {
				return err
			}
			f.Watch = &WatchSet{Vessels: p.Vessels, Ports: p.Ports}
		}
		if watchlist && portfolio != "" {
			p, err := store.Portfolio(c.UserContext(), caller.AccountID, portfolio)
			if err != nil {
				return err
			}
			f.Watch.Vessels = intersect(f.Watch.Vessels, p.Vessels)
			f.Watch.Ports = intersect(f.Watch.Ports, p.Ports)
		}
		f.Now = now()
		out := []UnifiedAlert{}
		var rows []AlertRow
		if product != "locus" {
			want := f.Limit
			f.Limit++
			if rows, err = store.Alerts(c.UserContext(), caller.AccountID, f); err != nil {
				return err
			}
			f.Limit = want
		}
		more := len(rows) > f.Limit
		if more {
			rows = rows[:f.Limit]
		}
		for _, r := range rows {
			out = append(out, UnifiedAlert{AlertID: "overwatch:" + strconv.FormatInt(r.ID, 10), Source: "overwatch", Product: "overwatch",
				Type: r.Type, Severity: r.Severity, Title: r.Title, Message: r.Message, IMO: nonEmpty(r.IMO), Port: nonEmpty(r.Port),
				EventAt: r.EventAt.UTC(), CreatedAt: r.CreatedAt.UTC(), State: r.Times.StateAt(f.Now), AlertTimes: utcTimes(r.Times)})
		}
		var next *string
		if more {
			last := rows[len(rows)-1]
			s := formatAlertCursor(last.CreatedAt, last.ID)
			next = &s
		}
		if product == "" {
			product = "all"
		}
		if state == "" {
			state = "all"
		}
		return c.JSON(fiber.Map{"alerts": out, "count": len(out),
			"pagination": fiber.Map{"has_more": more, "next_cursor": next},
			"filters": fiber.Map{"product": product, "severity": nonEmpty(f.Severity), "watchlist": watchlist,
				"portfolio": nonEmpty(portfolio), "state": state}})
	}
}

func utcTimes(t overwatch.AlertTimes) overwatch.AlertTimes {
	for _, p := range []**time.Time{&t.ReadAt, &t.ResolvedAt, &t.SnoozedUntil} {
		if *p != nil {
			u := (*p).UTC()
			*p = &u
		}
	}
	return t
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	out := []string{}
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

// formatAlertCursor is the opaque cursor after an alert: its creation time
// and id (the feed's keyset, stable while alerts are added).
func formatAlertCursor(at time.Time, id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("a1:%d:%d", at.UnixMicro(), id)))
}

// alertCursorParam reads the feed's cursor, the keyset (created_at, id)
// the page starts strictly before: a next_cursor, or an ISO 8601
// timestamp (or date) T, the alerts raised before T: (T rounded up to the
// microsecond the store keeps, 1), as ids start at 1. Absent: id 0, no
// cursor.
func alertCursorParam(c *fiber.Ctx) (time.Time, int64, error) {
	raw := c.Query("cursor")
	if raw == "" {
		return time.Time{}, 0, nil
	}
	if t, ok := parseISOTime(raw); ok {
		if r := t.Truncate(time.Microsecond); r.Before(t) {
			t = r.Add(time.Microsecond)
		}
		return t, 1, nil
	}
	at, id, err := parseAlertCursor(raw)
	if err != nil {
		return time.Time{}, 0, overwatch.Errorf(overwatch.Invalid,
			"cursor must be an ISO 8601 timestamp like 2026-01-31T00:00:00Z (the alerts raised before it) or the next_cursor of a previous page").
			With("parameter", "cursor")
	}
	return at, id, nil
}

func parseAlertCursor(raw string) (time.Time, int64, error) {
	bad := overwatch.Errorf(overwatch.Invalid, "cursor must be the next_cursor of a previous page")
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return time.Time{}, 0, bad
	}
	parts := strings.Split(string(b), ":")
	if len(parts) != 3 || parts[0] != "a1" {
		return time.Time{}, 0, bad
	}
	us, err1 := strconv.ParseInt(parts[1], 10, 64)
	id, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || id <= 0 {
		return time.Time{}, 0, bad
	}
	return time.UnixMicro(us).UTC(), id, nil
}
