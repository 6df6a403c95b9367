package read

import (
	"context"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/seaport"
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

// EntityPort is a port the vessel called at: its slug and name, the
// arrival and the departure (null while in port).
type EntityPort struct {
	Port      string  `json:"port"`
	PortName  *string `json:"port_name"`
	Arrival   string  `json:"arrival"`
	Departure *string `json:"departure"`
}

// EntitySanction is a link of the vessel to a sanctions entry
// (sanctioned_entity: the entry's name).
type EntitySanction struct {
	ListSource       string   `json:"list_source"`
	EntryID          string   `json:"entry_id"`
	SanctionedEntity string   `json:"sanctioned_entity"`
	Program          string   `json:"program"`
	MatchType        string   `json:"match_type"`
	MatchedOn        string   `json:"matched_on"`
	Confidence       *float64 `json:"confidence"`
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

// TradeEntity is an item of view=entity: the vessel's graph. port_name is
// the port of its latest call (the one it is in while in port), null when
// no call is known; is_sanctioned is whether any sanctions entry matches
// it (sanctions lists them).
type TradeEntity struct {
	IMO            string           `json:"imo_number"`
	VesselName     string           `json:"vessel_name"`
	Flag           string           `json:"flag"`
	PortName       *string          `json:"port_name"`
	IsSanctioned   bool             `json:"is_sanctioned"`
	DarkEventCount int              `json:"dark_event_count"`
	RiskScore      *float64         `json:"risk_score"`
	RiskTier       *string          `json:"risk_tier"`
	Owners         []EntityOwner    `json:"owners"`
	PortsVisited   []EntityPort     `json:"ports_visited"`
	Sanctions      []EntitySanction `json:"sanctions"`
	PICoverage     []EntityCoverage `json:"pi_coverage"`
	Identities     []EntityIdentity `json:"identities"`
}

// tradeEntity answers view=entity: with imo, that vessel's graph (none
// when the service knows nothing of it); without, the graphs of the
// vessels most worth a look, by risk score (highest first, as
// /v1/risk/vessels ranks them), at most limit. P&I coverage comes from the
// coverage store (the shared base with the caller's account's own
// records layered over it).
func tradeEntity(c *fiber.Ctx, s TradeStore, pi PICoverageQuery, limit int) error {
	imo, one, err := imoParam(c, "imo", false)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	r := VesselRisksRequest{Limit: limit}
	if one {
		r = VesselRisksRequest{IMO: imo, Limit: 1}
	}
	scores, err := s.VesselRisks(ctx, r)
	if err != nil {
		return err
	}
	imos := []overwatch.IMO{imo}
	if !one {
		imos = make([]overwatch.IMO, len(scores))
		for i, sc := range scores {
			imos[i] = sc.IMO
		}
	}
	out, err := tradeEntities(ctx, s, pi, imos, scores)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"entities": out})
}

// tradeEntities builds the graphs of the vessels imos, in their order,
// each with its score of scores; a vessel the service knows nothing of is
// left out.
func tradeEntities(ctx context.Context, s TradeStore, pi PICoverageQuery, imos []overwatch.IMO, scores []risk.VesselScore) ([]TradeEntity, error) {
	out := []TradeEntity{}
	if len(imos) == 0 {
		return out, nil
	}
	entries, err := s.SanctionsEntries(ctx)
	if err != nil {
		return nil, err
	}
	profiles, err := s.VesselProfiles(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := s.IdentityHistory(ctx, imos...)
	if err != nil {
		return nil, err
	}
	visits, err := s.VesselPortVisits(ctx, imos, entityPortVisits)
	if err != nil {
		return nil, err
	}
	dark, err := s.DarkEventCounts(ctx, imos)
	if err != nil {
		return nil, err
	}
	cover, err := pi.PICoverageList(ctx, overwatch.CallerFrom(ctx).AccountID, imos, 0)
	if err != nil {
		return nil, err
	}
	var own []vessel.Profile
	for _, imo := range imos {
		if p, ok := profiles[imo]; ok {
			own = append(own, p)
		}
	}
	var ms []sanctions.Match
	if len(entries) > 0 {
		// The risk job's matcher on these vessels alone (a vessel's
		// matches do not depend on the other vessels).
		ms = sanctions.MatchVessels(entries, own, ids)
	}
	score := map[overwatch.IMO]*risk.VesselScore{}
	for i := range scores {
		score[scores[i].IMO] = &scores[i]
	}
	idents := map[overwatch.IMO][]vessel.Identity{}
	for _, id := range ids {
		idents[id.IMO] = append(idents[id.IMO], id)
	}
	matches := map[overwatch.IMO][]sanctions.Match{}
	for _, m := range ms {
		matches[m.IMO] = append(matches[m.IMO], m)
	}
	recs := map[overwatch.IMO][]PICoverageRecord{}
	for _, r := range cover {
		recs[r.IMO] = append(recs[r.IMO], r)
	}
	for _, imo := range imos {
		p, known := profiles[imo]
		if !known && len(idents[imo]) == 0 && len(visits[imo]) == 0 && score[imo] == nil && len(matches[imo]) == 0 && len(recs[imo]) == 0 {
			continue
		}
		out = append(out, newTradeEntity(imo, p, score[imo], idents[imo], matches[imo], visits[imo], dark[imo], recs[imo]))
	}
	return out, nil
}

// newTradeEntity presents a vessel's graph from its parts.
func newTradeEntity(imo overwatch.IMO, p vessel.Profile, score *risk.VesselScore, ids []vessel.Identity, ms []sanctions.Match,
	visits []PortVisit, dark int, cover []PICoverageRecord) TradeEntity {
	e := TradeEntity{IMO: imo.String(), VesselName: p.Name, Flag: p.Flag, Owners: []EntityOwner{}, PortsVisited: []EntityPort{},
		Sanctions: []EntitySanction{}, PICoverage: []EntityCoverage{}, DarkEventCount: dark, Identities: []EntityIdentity{}}
	owners := map[string]bool{}
	for _, m := range ms {
		e.Sanctions = append(e.Sanctions, EntitySanction{ListSource: m.Entry.ListSource, EntryID: m.Entry.EntryID, SanctionedEntity: m.Entry.Name,
			Program: m.Entry.Program, MatchType: m.MatchType, MatchedOn: m.MatchedOn, Confidence: finite(m.Confidence, 2)})
		if o := m.Entry.Owner; o != "" && !owners[o] {
			owners[o] = true
			e.Owners = append(e.Owners, EntityOwner{Name: o, Role: "owner", Source: m.Entry.ListSource + " " + m.Entry.EntryID})
		}
	}
	e.IsSanctioned = len(e.Sanctions) > 0
	for _, v := range visits {
		ep := EntityPort{Port: v.Port, Arrival: v.Arrival}
		if sp, ok := seaport.BySlug(v.Port); ok {
			name := sp.Name
			ep.PortName = &name
		}
		if v.Departure != "" {
			d := v.Departure
			ep.Departure = &d
		}
		e.PortsVisited = append(e.PortsVisited, ep)
	}
	if len(e.PortsVisited) > 0 { // newest first: the latest call
		e.PortName = e.PortsVisited[0].PortName
	}
	for _, r := range cover {
		e.PICoverage = append(e.PICoverage, newEntityCoverage(r))
	}
	for _, id := range ids {
		e.Identities = append(e.Identities, newEntityIdentity(id))
	}
	if score != nil {
		e.RiskScore = finite(score.Score, 1)
		t := score.Tier
		e.RiskTier = &t
		if e.VesselName == "" {
			e.VesselName, e.Flag = score.Name, score.Flag
		}
	}
	if len(ids) > 0 && e.VesselName == "" {
		last := ids[len(ids)-1]
		e.VesselName, e.Flag = last.Name, last.Flag
	}
	return e
}
func newEntityIdentity(id vessel.Identity) EntityIdentity {
	out := EntityIdentity{ValidFrom: id.ValidFrom.UTC().Format("2006-01-02T15:04:05Z"), Name: id.Name, Flag: id.Flag}
	if id.MMSI != 0 {
		out.MMSI = strconv.FormatUint(uint64(id.MMSI), 10)
	}
	return out
}
