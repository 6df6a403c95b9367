package bulk

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Deps are what the export routes work with.
type Deps struct {
	Store     Store
	Source    Source
	Pool      *Pool // woken when an export is queued; its directory holds the files
	Now       func() time.Time
	PublicURL string
}

// ListMax is the most exports GET /v1/exports lists (further held to the
// plan's results per call).
const ListMax = 100

// countTimeout bounds the count of the rows an export will hold.
const countTimeout = 30 * time.Second

// Routes mounts the bulk feed: asking for an export (plans with bulk
// exports), its status, the account's exports and the download (every
// plan, for the account's own exports: another account's is a 404).
func Routes(r route.Router, d Deps) {
	key := overwatch.AccessKey
	r.Handle(fiber.MethodPost, "/exports", key, Create(d.Store, d.Source, d.Pool, d.Now, d.PublicURL))
	r.Handle(fiber.MethodGet, "/exports", key, List(d.Store, d.Now, d.PublicURL))
	r.Handle(fiber.MethodGet, "/exports/:id", key, Get(d.Store, d.Now, d.PublicURL))
	r.Handle(fiber.MethodGet, "/exports/:id/download", key, Download(d.Store, d.Pool.Dir(), d.Now))
}

// Create serves POST /v1/exports ({dataset, filters, format}): the body
// checked (ParseRequest), the rows the filters select counted against the
// plan's rows per export (403 naming export_max_rows), the export queued
// against the plan's exports per day (429 naming exports_per_day); 202
// with {"export": Export}.
func Create(store Store, src Source, pool *Pool, now func() time.Time, publicURL string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		if err := caller.Require(overwatch.FeatureBulkExport); err != nil {
			return err
		}
		req, err := ParseRequest(c.Body())
		if err != nil {
			return err
		}
		plan := caller.PlanInfo()
		ctx, cancel := context.WithTimeout(c.UserContext(), countTimeout)
		defer cancel()
		n, err := src.CountExport(ctx, Query{Dataset: req.Dataset, Filter: req.Filter})
		if err != nil {
			return overwatch.Wrap(overwatch.Unavailable, err, "the rows of the export could not be counted; try again")
		}
		if n > int64(plan.ExportMaxRows) {
			return overwatch.Errorf(overwatch.Forbidden, "the filters select %d rows; the %s plan's limit is %d rows per export (export_max_rows): narrow the filters",
				n, plan.Name, plan.ExportMaxRows)
		}
		t := now().UTC()
		e, err := store.CreateExport(c.UserContext(), NewExport{
			ID: newID(), AccountID: caller.AccountID, Dataset: req.Dataset, Format: req.Format, Filters: req.Filters,
			Estimated: n, MaxRows: int64(plan.ExportMaxRows), CreatedAt: t,
		}, Quota{PerDay: plan.ExportsPerDay, DayStart: t.Truncate(24 * time.Hour)})
		if err != nil {
			return err
		}
		pool.Wake()
		return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"export": view(e, now(), publicURL)})
	}
}

// List serves GET /v1/exports: the account's exports, newest first.
func List(store Store, now func() time.Time, publicURL string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		es, err := store.Exports(c.UserContext(), caller.AccountID, caller.ClampLimit(ListMax, ListMax))
		if err != nil {
			return err
		}
		t := now()
		for i := range es {
			es[i] = view(es[i], t, publicURL)
		}
		if es == nil {
			es = []Export{}
		}
		return c.JSON(fiber.Map{"exports": es})
	}
}

// Get serves GET /v1/exports/{id}: the export's status.
func Get(store Store, now func() time.Time, publicURL string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		e, err := own(c, store)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"export": view(e, now(), publicURL)})
	}
}

// own is the caller's export of the path's id (NotFound for another
// account's, as for one that does not exist).
func own(c *fiber.Ctx, store Store) (Export, error) {
	id := c.Params("id")
	if !validID(id) {
		return Export{}, overwatch.Errorf(overwatch.NotFound, "no export %s", truncate(id, 40))
	}
	return store.Export(c.UserContext(), overwatch.CallerFrom(c.UserContext()).AccountID, strings.Clone(id))
}

// view is the export as its owner sees it at now: completed exports past
// their expiry are expired (their file is deleted by the expiry job), the
// download address of the completed ones.
func view(e Export, now time.Time, publicURL string) Export {
	if e.Status == Completed && e.ExpiresAt != nil && !now.Before(*e.ExpiresAt) {
		e.Status = Expired
	}
	e.DownloadURL = nil
	if e.Status == Completed {
		u := DownloadURL(publicURL, e.ID)
		e.DownloadURL = &u
	}
	if e.Filters == nil {
		e.Filters = map[string]string{}
	}
	e.CreatedAt = e.CreatedAt.UTC()
	return e
}

// newID is a new export's id: "exp_" and 24 random hex digits, not
// guessable.
func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "exp_" + hex.EncodeToString(b[:])
}

func validID(id string) bool {
	if len(id) != 28 || !strings.HasPrefix(id, "exp_") {
		return false
	}
	_, err := hex.DecodeString(id[4:])
	return err == nil
}

// contentDisposition names the download's file.
func contentDisposition(e Export) string {
	return fmt.Sprintf(`attachment; filename="%s-%s.%s"`, e.Dataset, e.ID, e.Format)
}

// formatSize is n bytes as the Content-Range's complete length.
func formatSize(n int64) string { return strconv.FormatInt(n, 10) }
