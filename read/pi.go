package read

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/pandi"
	"overwatch/route"
)

// PICoverageRecord is a stored P&I coverage record of a vessel: of the
// shared base (Own false) or of the caller's account.
type PICoverageRecord struct {
	IMO        overwatch.IMO
	Own        bool
	ClubID     string // the maritime/pandi slug, "" when the name matched none
	ClubKey    string // the slug, or the normalized name
	ClubName   string // as imported
	VesselName string
	From, To   time.Time // zero: not given
	Source     string
}

// PICoverageQuery reads P&I coverage records (PostgreSQL).
type PICoverageQuery interface {
	// PICoverage returns a vessel's records of the shared base and of
	// the account, never another account's.
	PICoverage(ctx context.Context, accountID int64, imo overwatch.IMO) ([]PICoverageRecord, error)
	// PICoverageList returns the records of the vessels imos (of every
	// vessel when empty), the account's layered over the shared base by
	// LayerPICoverage's rule in the store, so that a page is exact: by
	// IMO, then as LayerPICoverage orders a vessel's; at most limit (0:
	// all). Never another account's.
	PICoverageList(ctx context.Context, accountID int64, imos []overwatch.IMO, limit int) ([]PICoverageRecord, error)
	// PIBaseUnlisted returns the distinct insurer names of the shared
	// base that match no insurer of the table (never an account's), at
	// most limit.
	PIBaseUnlisted(ctx context.Context, limit int) ([]string, error)
}

// piRoutes mounts the P&I insurer table and a vessel's coverage.
func piRoutes(r route.Router, s PICoverageQuery, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/pi-clubs", overwatch.AccessKey, PIClubs(s))
	r.Handle(fiber.MethodGet, "/pi-coverage", overwatch.AccessKey, PICoverage(s, now))
}

// PIClub is an item of GET /v1/pi-clubs.
type PIClub struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	LegalName   string   `json:"legal_name"`
	Domicile    string   `json:"domicile"`
	GroupMember bool     `json:"group_member"`
	RiskTier    string   `json:"risk_tier"`
	Reason      string   `json:"reason"`
	FormerNames []string `json:"former_names"`
	Source      string   `json:"source"`
}

// maxPIUnlisted bounds the unlisted insurer names of GET /v1/pi-clubs.
const maxPIUnlisted = 500

// PIUnlistedSource is the source of the insurers of GET /v1/pi-clubs that
// the table does not list but the shared coverage base names.
const PIUnlistedSource = "shared coverage base (name matched no insurer of the table)"

// PIClubs serves GET /v1/pi-clubs: the twelve International Group clubs,
// then the other insurers of the table, each with its risk tier and why,
// then the insurers the shared coverage base names that the table does
// not know (high, unknown cover; id "name:" and the normalized name).
// Names only an account imported are never listed.
func PIClubs(s PICoverageQuery) fiber.Handler {
	var clubs []PIClub
	for _, c := range pandi.Clubs() {
		former := c.FormerNames
		if former == nil {
			former = []string{}
		}
		clubs = append(clubs, PIClub{ID: c.ID, Name: c.Name, LegalName: c.LegalName, Domicile: c.Domicile, GroupMember: c.GroupMember,
			RiskTier: c.Tier, Reason: c.Reason, FormerNames: former, Source: c.Source})
	}
	return func(c *fiber.Ctx) error {
		names, err := s.PIBaseUnlisted(c.UserContext(), maxPIUnlisted)
		if err != nil {
			return err
		}
		out := append(make([]PIClub, 0, len(clubs)+len(names)), clubs...)
		for _, n := range names {
			u := pandi.Unknown(n)
			out = append(out, PIClub{ID: "name:" + strings.Join(pandi.Key(n), " "), Name: n, LegalName: n, Domicile: "", RiskTier: u.Tier,
				Reason: u.Reason, FormerNames: []string{}, Source: PIUnlistedSource})
		}
		return c.JSON(fiber.Map{"clubs": out, "group_members": 12, "source": pandi.Source})
	}
}

// PICoverageItem is an item of GET /v1/pi-coverage.
type PICoverageItem struct {
	IMO         string  `json:"imo_number"`
	Club        string  `json:"club"`    // the insurer's name in /v1/pi-clubs, or as imported when unmatched
	ClubID      *string `json:"club_id"` // null when unmatched
	ClubAsGiven string  `json:"club_as_given"`
	GroupMember bool    `json:"group_member"`
	RiskTier    string  `json:"risk_tier"`
	VesselName  *string `json:"vessel_name"`
	From        *string `json:"from"` // YYYY-MM-DD, null when not given
	To          *string `json:"to"`
	Current     bool    `json:"current"` // in force today (open ends count as in force)
	Source      string  `json:"source"`  // "own" for the caller's imports, else the base's source
}

// PIAssessment is the vessel's cover as the risk score reads it.
type PIAssessment struct {
	GroupCover bool    `json:"group_cover"`
	RiskTier   *string `json:"risk_tier"` // null when no current record is known
	Reason     string  `json:"reason"`
}

// LayerPICoverage puts the account's records over the base: a base
// record is hidden by an own record of the same insurer and start date;
// the rest are kept, newest start first (open starts last).
func LayerPICoverage(recs []PICoverageRecord) []PICoverageRecord {
	type k struct {
		club string
		from time.Time
	}
	own := map[k]bool{}
	for _, r := range recs {
		if r.Own {
			own[k{r.ClubKey, r.From}] = true
		}
	}
	out := []PICoverageRecord{}
	for _, r := range recs {
		if r.Own || !own[k{r.ClubKey, r.From}] {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].From.Equal(out[j].From) {
			return out[i].From.After(out[j].From)
		}
		if out[i].Own != out[j].Own {
			return out[i].Own
		}
		return out[i].ClubKey < out[j].ClubKey
	})
	return out
}

// PICoverage serves GET /v1/pi-coverage: with vessel (an IMO), the
// vessel's coverage records, the caller's own layered over the shared base
// (LayerPICoverage), at most limit, and the assessment of its current
// cover (pandi.Assess); without, the records of every vessel so layered,
// by IMO, at most limit (default 100, at most 500 and the plan's results
// per call), with vessel and assessment null.
func PICoverage(s PICoverageQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		imo, one, err := imoParam(c, "vessel", false)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 100, 500)
		if err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		at := now().UTC()
		today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
		items := []PICoverageItem{}
		if !one {
			recs, err := s.PICoverageList(c.UserContext(), caller.AccountID, nil, limit)
			if err != nil {
				return err
			}
			for _, r := range recs {
				it, _ := piItem(r, today)
				items = append(items, it)
			}
			return c.JSON(fiber.Map{"vessel": nil, "coverage": items, "assessment": nil})
		}
		recs, err := s.PICoverage(c.UserContext(), caller.AccountID, imo)
		if err != nil {
			return err
		}
		var current []pandi.Club
		for _, r := range LayerPICoverage(recs) {
			it, club := piItem(r, today)
			if it.Current {
				current = append(current, club)
			}
			if len(items) < limit {
				items = append(items, it)
			}
		}
		a := pandi.Assess(current)
		assessment := PIAssessment{GroupCover: a.GroupCover, Reason: a.Reason}
		if a.Tier != "" {
			assessment.RiskTier = &a.Tier
		}
		return c.JSON(fiber.Map{"vessel": imo, "coverage": items, "assessment": assessment})
	}
}

// piItem is a record as answered, with its insurer.
func piItem(r PICoverageRecord, today time.Time) (PICoverageItem, pandi.Club) {
	club, ok := pandi.ByID(r.ClubID)
	if !ok {
		club = pandi.Unknown(r.ClubName)
	}
	it := PICoverageItem{IMO: r.IMO.String(), Club: club.Name, ClubAsGiven: r.ClubName, GroupMember: club.GroupMember, RiskTier: club.Tier, Source: r.Source,
		Current: (r.From.IsZero() || !r.From.After(today)) && (r.To.IsZero() || !r.To.Before(today))}
	if ok {
		id := club.ID
		it.ClubID = &id
	}
	if r.VesselName != "" {
		v := r.VesselName
		it.VesselName = &v
	}
	for _, d := range []struct {
		t   time.Time
		out **string
	}{{r.From, &it.From}, {r.To, &it.To}} {
		if !d.t.IsZero() {
			s := d.t.UTC().Format(time.DateOnly)
			*d.out = &s
		}
	}
	return it, club
}
