package read

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"
)

// entityPortVisits is how many of a vessel's latest port calls the entity
// view lists.
const entityPortVisits = 100

// EntityOwner is a vessel's owner or manager, where known. The service
// holds no registry of owners: the only source is a sanctions entry that
// names one (its Owner field).
type EntityOwner struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Source string `json:"source"`
}

// EntityPort is a port the vessel called at.
type EntityPort struct {
	Port      string  `json:"port"`
	Arrival   string  `json:"arrival"`
	Departure *string `json:"departure"`
}

// EntitySanction is a link of the vessel to a sanctions entry.
type EntitySanction struct {
	ListSource string   `json:"list_source"`
	EntryID    string   `json:"entry_id"`
	EntryName  string   `json:"entry_name"`
	Program    string   `json:"program"`
	MatchType  string   `json:"match_type"`
	MatchedOn  string   `json:"matched_on"`
	Confidence *float64 `json:"confidence"`
}

// EntityIdentity is one interval of the vessel's broadcast identity: the
// flag and name it used from ValidFrom on.
type EntityIdentity struct {
	ValidFrom string `json:"valid_from"`
	Name      string `json:"name"`
	Flag      string `json:"flag"`
	MMSI      string `json:"mmsi"`
}

// EntityCoverage is a P&I coverage record of the vessel (the shared
// base and the caller's own imports, as GET /v1/pi-coverage gives them).
type EntityCoverage struct {
	Club   string  `json:"club"`
	ClubID *string `json:"club_id"`
	From   *string `json:"from"`
	To     *string `json:"to"`
	Source string  `json:"source"`
}

func newEntityCoverage(r PICoverageRecord) EntityCoverage {
	out := EntityCoverage{Club: r.ClubName, Source: r.Source}
	if r.ClubID != "" {
		id := r.ClubID
		out.ClubID = &id
	}
	for _, d := range []struct {
		t   time.Time
		dst **string
	}{{r.From, &out.From}, {r.To, &out.To}} {
		if !d.t.IsZero() {
			v := d.t.UTC().Format("2006-01-02")
			*d.dst = &v
		}
	}
	return out
}

// TradeEntity is an item of view=entity: the vessel's graph.
type TradeEntity struct {
	IMO            string           `json:"imo"`
	Name           string           `json:"name"`
	Flag           string           `json:"flag"`
	Owners         []EntityOwner    `json:"owners"`
	PortsVisited   []EntityPort     `json:"ports_visited"`
	Sanctions      []EntitySanction `json:"sanctions"`
	PICoverage     []EntityCoverage `json:"pi_coverage"`
	DarkEventCount int              `json:"dark_event_count"`
	RiskScore      *float64         `json:"risk_score"`
	RiskTier       *string          `json:"risk_tier"`
	Identities     []EntityIdentity `json:"identities"`
}

// tradeEntity answers view=entity with imo (required): one entity, or
// none when the service knows nothing of the vessel. P&I coverage comes
// from the coverage store (the shared base and the caller's account's
// own records).
func tradeEntity(c *fiber.Ctx, s TradeStore, pi PICoverageQuery) error {
	imo, _, err := imoParam(c, "imo", true)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	entries, err := s.SanctionsEntries(ctx)
	if err != nil {
		return err
	}
	profiles, err := s.VesselProfiles(ctx)
	if err != nil {
		return err
	}
	ids, err := s.IdentityHistory(ctx, imo)
	if err != nil {
		return err
	}
	p, known := profiles[imo]
	var ms []sanctions.Match
	if len(entries) > 0 {
		// The risk job's matcher on this vessel alone (its matches do not
		// depend on the other vessels).
		var own []vessel.Profile
		if known {
			own = []vessel.Profile{p}
		}
		ms = sanctions.MatchVessels(entries, own, ids)
	}
	visits, err := s.VesselPortVisits(ctx, imo, entityPortVisits)
	if err != nil {
		return err
	}
	dark, err := s.DarkEventCount(ctx, imo)
	if err != nil {
		return err
	}
	scores, err := s.VesselRisks(ctx, VesselRisksRequest{IMO: imo, Limit: 1})
	if err != nil {
		return err
	}
	cover, err := pi.PICoverage(ctx, overwatch.CallerFrom(ctx).AccountID, imo)
	if err != nil {
		return err
	}
	e := TradeEntity{IMO: imo.String(), Name: p.Name, Flag: p.Flag, Owners: []EntityOwner{}, PortsVisited: []EntityPort{},
		Sanctions: []EntitySanction{}, PICoverage: []EntityCoverage{}, DarkEventCount: dark, Identities: []EntityIdentity{}}
	owners := map[string]bool{}
	for _, m := range ms {
		if m.IMO != imo {
			continue
		}
		e.Sanctions = append(e.Sanctions, EntitySanction{ListSource: m.Entry.ListSource, EntryID: m.Entry.EntryID, EntryName: m.Entry.Name,
			Program: m.Entry.Program, MatchType: m.MatchType, MatchedOn: m.MatchedOn, Confidence: finite(m.Confidence, 2)})
		if o := m.Entry.Owner; o != "" && !owners[o] {
			owners[o] = true
			e.Owners = append(e.Owners, EntityOwner{Name: o, Role: "owner", Source: m.Entry.ListSource + " " + m.Entry.EntryID})
		}
	}
	for _, v := range visits {
		ep := EntityPort{Port: v.Port, Arrival: v.Arrival}
		if v.Departure != "" {
			d := v.Departure
			ep.Departure = &d
		}
		e.PortsVisited = append(e.PortsVisited, ep)
	}
	for _, r := range cover {
		e.PICoverage = append(e.PICoverage, newEntityCoverage(r))
	}
	for _, id := range ids {
		e.Identities = append(e.Identities, newEntityIdentity(id))
	}
	if len(scores) > 0 {
		e.RiskScore = finite(scores[0].Score, 1)
		t := scores[0].Tier
		e.RiskTier = &t
		if e.Name == "" {
			e.Name, e.Flag = scores[0].Name, scores[0].Flag
		}
	}
	if len(ids) > 0 && e.Name == "" {
		last := ids[len(ids)-1]
		e.Name, e.Flag = last.Name, last.Flag
	}
	out := []TradeEntity{}
	if known || len(ids) > 0 || len(visits) > 0 || len(scores) > 0 || len(e.Sanctions) > 0 || len(cover) > 0 {
		out = append(out, e)
	}
	return c.JSON(fiber.Map{"entities": out})
}

func newEntityIdentity(id vessel.Identity) EntityIdentity {
	out := EntityIdentity{ValidFrom: id.ValidFrom.UTC().Format("2006-01-02T15:04:05Z"), Name: id.Name, Flag: id.Flag}
	if id.MMSI != 0 {
		out.MMSI = strconv.FormatUint(uint64(id.MMSI), 10)
	}
	return out
}
