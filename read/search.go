package read

import (
	"context"
	"time"

	"overwatch/maritime/vessel"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Vessel search: GET /v1/vessels/search?q= finds vessels by IMO number,
// MMSI, call sign or name, current or former (the identity history),
// ranked by vessel.Search.

// IdentityNames asks for every identity a vessel has had.
type IdentityNames struct{}

// IdentityName is one identity of a vessel: a name, call sign and MMSI it
// broadcast together, and when it last began to.
type IdentityName struct {
	IMO      overwatch.IMO
	Name     string
	CallSign string
	MMSI     uint32
	Since    time.Time
}

// SearchStore reads the identity history for the search, ordered by IMO
// then Since.
type SearchStore interface {
	IdentityNames(ctx context.Context, req IdentityNames) ([]IdentityName, error)
}

// Search bounds.
const (
	SearchMaxQuery = 100 // characters of q
	SearchMaxLimit = 100
)

// searchRoutes mounts the search. The registry and the identity history
// are cached for the cache's TTL (ingest writes them, no job).
func searchRoutes(r route.Router, s SearchStore, registry Query[VesselFilter, []VesselRow], c *Cache, now func() time.Time) {
	names := Cached(c, "identity_names", []string{tableIdentity}, s.IdentityNames)
	r.Handle(fiber.MethodGet, "/vessels/search", overwatch.AccessKey, SearchVessels(registry, names, now))
}

// SearchVessel is an item of GET /v1/vessels/search: the vessel as GET
// /v1/vessels gives it, and why it matched.
type SearchVessel struct {
	Vessel
	Matched SearchMatched `json:"matched"`
}

// SearchMatched says why a vessel was found: the field (imo, mmsi,
// call_sign, name, former_name) and the text it held.
type SearchMatched struct {
	Field string `json:"field"`
	Text  string `json:"text"`
}

// SearchVessels serves GET /v1/vessels/search: q (required: an IMO
// number, an MMSI, a call sign or a name; case and punctuation do not
// matter, names allow typing errors), limit (default 20, at most 100 and
// the plan's results per call). Vessels last seen before the plan's
// history floor are left out.
func SearchVessels(registry Query[VesselFilter, []VesselRow], names Query[IdentityNames, []IdentityName], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		q, err := stringParam(c, "q", SearchMaxQuery)
		if err != nil {
			return err
		}
		if vessel.NormalizeSearch(q) == "" {
			return invalid("q", "q is required: an IMO number, an MMSI, a call sign or a name")
		}
		limit, err := limitParam(c, 20, SearchMaxLimit)
		if err != nil {
			return err
		}
		ctx := c.UserContext()
		floor := overwatch.CallerFrom(ctx).HistoryFloor(now())
		rows, err := registry(ctx, VesselFilter{Limit: fleetAll})
		if err != nil {
			return err
		}
		history, err := names(ctx, IdentityNames{})
		if err != nil {
			return err
		}
		cands, regs := searchCandidates(rows, history, floor)
		found := vessel.Search(q, cands, limit)
		out := make([]SearchVessel, len(found))
		for i, m := range found {
			out[i] = SearchVessel{Vessel: NewVessel(*regs[m.Index]), Matched: SearchMatched{Field: m.Field, Text: m.Text}}
		}
		return c.JSON(fiber.Map{"vessels": out})
	}
}

// searchCandidates joins the registry (the current identity) with the
// identity history (the former ones), leaving out vessels last seen
// before floor.
func searchCandidates(rows []VesselRow, history []IdentityName, floor time.Time) ([]vessel.SearchCandidate, []*VesselRow) {
	byIMO := make(map[overwatch.IMO][]IdentityName)
	for _, h := range history {
		byIMO[h.IMO] = append(byIMO[h.IMO], h)
	}
	cands := make([]vessel.SearchCandidate, 0, len(rows))
	regs := make([]*VesselRow, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		if r.LastSeen.Before(floor) {
			continue
		}
		c := vessel.SearchCandidate{IMO: uint32(r.IMO), Name: r.Name, MMSIs: []uint32{r.MMSI}, CallSigns: []string{r.CallSign}}
		hist := byIMO[r.IMO]
		for j := len(hist) - 1; j >= 0; j-- { // the newest first
			h := hist[j]
			if h.Name != "" && h.Name != r.Name && !containsString(c.FormerNames, h.Name) {
				c.FormerNames = append(c.FormerNames, h.Name)
			}
			if h.CallSign != "" && !containsString(c.CallSigns, h.CallSign) {
				c.CallSigns = append(c.CallSigns, h.CallSign)
			}
			if h.MMSI != 0 && !containsUint(c.MMSIs, h.MMSI) {
				c.MMSIs = append(c.MMSIs, h.MMSI)
			}
		}
		cands = append(cands, c)
		regs = append(regs, r)
	}
	return cands, regs
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func containsUint(s []uint32, v uint32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
