package read

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"overwatch/maritime/risk"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// GET /v1/risk/vessels and GET /v1/risk/vessel/{imo}: the vessels' risk
// scores from vessel_risk, recomputed by the risk job.

// RiskFactor is one factor of a vessel's score.
type RiskFactor struct {
	Name         string  `json:"name"`
	Weight       float64 `json:"weight"`
	Value        float64 `json:"value"`
	Contribution float64 `json:"contribution"`
	Reason       string  `json:"reason"`
}

// VesselRisksRequest selects vessel scores: of one vessel (IMO 0: any), of
// a tier, a ship type category and a flag ("" for any), at most Limit.
type VesselRisksRequest struct {
	IMO      overwatch.IMO
	Tier     string
	Category string
	Flag     string
	Limit    int
}

// RiskVessel is an item of GET /v1/risk/vessels. TopFactors names the
// factors that contribute most, largest first (at most three, only those
// contributing).
type RiskVessel struct {
	IMO        string   `json:"imo"`
	Name       *string  `json:"name"`
	Flag       *string  `json:"flag"`
	VesselType *string  `json:"vessel_type"`
	Score      float64  `json:"score"`
	Tier       string   `json:"tier"`
	TopFactors []string `json:"top_factors"`
	ComputedAt string   `json:"computed_at"`
}

// flagCode matches a flag-state code (ISO 3166-1 alpha-2).
var flagCode = regexp.MustCompile(`^[A-Za-z]{2}$`)

// RiskVessels serves GET /v1/risk/vessels: tier (critical, high, medium,
// low), type (a ship type category), flag (an ISO 3166-1 alpha-2 code),
// limit (default 500, at most 500 and the plan's results per call).
// Highest score first.
func RiskVessels(scores Query[VesselRisksRequest, []risk.VesselScore]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f VesselRisksRequest
		var err error
		if f.Tier, err = enumParam(c, "tier", RiskTiers...); err != nil {
			return err
		}
		cat, err := categoryParam(c, "type")
		if err != nil {
			return err
		}
		if cat != nil {
			f.Category = cat.Name
		}
		if raw := c.Query("flag"); raw != "" {
			if !flagCode.MatchString(raw) {
				return overwatch.Errorf(overwatch.Invalid, "flag must be a 2-letter flag-state code (ISO 3166-1 alpha-2)")
			}
			f.Flag = strings.ToUpper(raw)
		}
		if f.Limit, err = limitParam(c, 500, 500); err != nil {
			return err
		}
		rows, err := scores(c.UserContext(), f)
		if err != nil {
			return err
		}
		out := make([]RiskVessel, len(rows))
		for i, r := range rows {
			out[i] = RiskVessel{
				IMO: r.IMO.String(), Name: optString(r.Name), Flag: optString(r.Flag), VesselType: vesselCategory(r.Category, r.ShipType),
				Score: roundTo(r.Score, 1), Tier: r.Tier, TopFactors: topFactors(r.Factors, 3),
				ComputedAt: r.ComputedAt.UTC().Format(time.RFC3339),
			}
		}
		return c.JSON(fiber.Map{"vessels": out})
	}
}

// topFactors names the n factors of largest positive contribution.
func topFactors(fs []risk.Factor, n int) []string {
	pos := make([]risk.Factor, 0, len(fs))
	for _, f := range fs {
		if f.Contribution > 0 {
			pos = append(pos, f)
		}
	}
	sort.SliceStable(pos, func(i, j int) bool { return pos[i].Contribution > pos[j].Contribution })
	out := []string{}
	for i := 0; i < len(pos) && i < n; i++ {
		out = append(out, pos[i].Name)
	}
	return out
}

// SanctionsListing is a sanctions-list entry a vessel matched, from its
// sanctions_match events.
type SanctionsListing struct {
	ListSource       *string  `json:"list_source"`
	EntryID          *string  `json:"entry_id"`
	SanctionedEntity *string  `json:"sanctioned_entity"`
	Program          *string  `json:"program"`
	MatchType        string   `json:"match_type"`
	MatchedOn        *string  `json:"matched_on"`
	Confidence       *float64 `json:"confidence"`
	Since            string   `json:"since"`
}

// RiskVesselProfile is the vessel of GET /v1/risk/vessel/{imo}.
type RiskVesselProfile struct {
	IMO        string             `json:"imo"`
	Name       *string            `json:"name"`
	Flag       *string            `json:"flag"`
	VesselType *string            `json:"vessel_type"`
	Score      float64            `json:"score"`
	Tier       string             `json:"tier"`
	Factors    []RiskFactor       `json:"factors"`
	ComputedAt string             `json:"computed_at"`
	Sanctions  []SanctionsListing `json:"sanctions"`
}

// RiskVesselBody is the body of GET /v1/risk/vessel/{imo}.
type RiskVesselBody struct {
	Vessel     RiskVesselProfile `json:"vessel"`
	DarkEvents []RiskEvent       `json:"dark_events"`
}

// DarkEventsLimit is how many AIS gaps the vessel profile lists at most
// (and at most the plan's results per call).
const DarkEventsLimit = 100

// RiskVesselHandler serves GET /v1/risk/vessel/{imo}: the vessel's score,
// tier and every factor with its weight, value, contribution and reason;
// the sanctions-list entries it matched (every match, whatever the plan's
// history); and its AIS gaps (dark_events), newest first, at most 100 and
// the plan's results per call, no older than the plan's history unless
// they go on, each with its SAR verification potential. A malformed IMO is a 400, a vessel without a score a 404
// naming it.
func RiskVesselHandler(scores Query[VesselRisksRequest, []risk.VesselScore], events Query[RiskEventsRequest, []RiskEventRow],
	verify GapVerifications, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		imo, err := overwatch.ParseIMO(c.Params("imo"))
		if err != nil {
			return overwatch.Errorf(overwatch.Invalid, "imo %v", err)
		}
		ctx := c.UserContext()
		caller := overwatch.CallerFrom(ctx)
		rows, err := scores(ctx, VesselRisksRequest{IMO: imo, Limit: 1})
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return overwatch.Errorf(overwatch.NotFound, "no risk score for vessel %s", imo.String())
		}
		r := rows[0]
		sanctions, err := events(ctx, RiskEventsRequest{Type: risk.EventSanctions, IMO: imo, Limit: 500})
		if err != nil {
			return err
		}
		gapsReq := RiskEventsRequest{Type: risk.EventGap, IMO: imo,
			Since: Minute(caller.HistoryFloor(now())), Limit: caller.ClampLimit(DarkEventsLimit, DarkEventsLimit)}
		gaps, err := events(ctx, gapsReq)
		if err != nil {
			return err
		}
		verified, err := verify(ctx, RiskSARKey{Events: gapsReq, Now: Minute(now())}, gaps)
		if err != nil {
			return err
		}
		v := RiskVesselProfile{
			IMO: imo.String(), Name: optString(r.Name), Flag: optString(r.Flag), VesselType: vesselCategory(r.Category, r.ShipType),
			Score: roundTo(r.Score, 1), Tier: r.Tier, Factors: make([]RiskFactor, len(r.Factors)),
			ComputedAt: r.ComputedAt.UTC().Format(time.RFC3339), Sanctions: make([]SanctionsListing, len(sanctions)),
		}
		for i, f := range r.Factors {
			v.Factors[i] = RiskFactor{Name: f.Name, Weight: roundTo(f.Weight, 3), Value: roundTo(f.Value, 3),
				Contribution: roundTo(f.Contribution, 2), Reason: f.Reason}
		}
		for i, s := range sanctions {
			v.Sanctions[i] = SanctionsListing{
				ListSource: optString(detailString(s.Detail, "list_source")), EntryID: optString(detailString(s.Detail, "entry_id")),
				SanctionedEntity: optString(detailString(s.Detail, "sanctioned_entity")),
				Program:          optString(detailString(s.Detail, "program")), MatchType: s.Subtype,
				MatchedOn: optString(detailString(s.Detail, "matched_on")), Confidence: detailNumber(s.Detail, "confidence"),
				Since: s.Start.UTC().Format(time.RFC3339),
			}
		}
		return c.JSON(RiskVesselBody{Vessel: v, DarkEvents: withVerifications(presentEvents(gaps, caller), verified)})
	}
}
