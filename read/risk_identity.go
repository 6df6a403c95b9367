package read

import (
	"time"

	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// GET /v1/risk/identity (identity-change events) and GET
// /v1/risk/identity/history (a vessel's identity timeline, from the
// registry's vessel_identity table).

// IdentityFields are the fields whose changes are identity-change events.
var IdentityFields = []string{"flag", "name", "mmsi"}

// RiskIdentity serves GET /v1/risk/identity: field (flag, name, mmsi),
// vessel (IMO), limit (default 100, max 500). Newest first, no older than
// the plan's history.
func RiskIdentity(events Query[RiskEventsRequest, []RiskEventRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := riskEventsFilter(c, now)
		if err != nil {
			return err
		}
		f.Type = risk.EventIdentity
		if f.Subtype, err = enumParam(c, "field", IdentityFields...); err != nil {
			return err
		}
		return listEvents(c, events, f)
	}
}

// IdentityPeriod is an item of the history of GET /v1/risk/identity/history.
// Changed names the fields that differ from the period before (empty for
// the first).
type IdentityPeriod struct {
	ValidFrom  string   `json:"valid_from"`
	MMSI       *uint32  `json:"mmsi"`
	Name       *string  `json:"name"`
	CallSign   *string  `json:"call_sign"`
	Flag       *string  `json:"flag"`
	ShipType   *uint8   `json:"ship_type"`
	VesselType *string  `json:"vessel_type"`
	Changed    []string `json:"changed"`
}

// IdentityHistoryBody is the body of GET /v1/risk/identity/history.
type IdentityHistoryBody struct {
	IMO     string           `json:"imo"`
	History []IdentityPeriod `json:"history"`
}

// IdentityHistory serves GET /v1/risk/identity/history: vessel (IMO,
// required). The vessel's whole identity timeline, oldest first: each time
// its MMSI, name, call sign, flag or ship type took new values, with the
// fields that changed. A vessel without identity rows is a 404 naming it.
func IdentityHistory(timeline Query[overwatch.IMO, []vessel.Identity]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		imo, _, err := imoParam(c, "vessel", true)
		if err != nil {
			return err
		}
		rows, err := timeline(c.UserContext(), imo)
		if err != nil {
			return err
		}
		history := identityPeriods(rows)
		if len(history) == 0 {
			return overwatch.Errorf(overwatch.NotFound, "no identity history for vessel %s", imo.String()).With("parameter", "vessel")
		}
		return c.JSON(IdentityHistoryBody{IMO: imo.String(), History: history})
	}
}

// identityPeriods presents the rows, dropping those that repeat the
// values of the row before.
func identityPeriods(rows []vessel.Identity) []IdentityPeriod {
	out := []IdentityPeriod{}
	var prev *vessel.Identity
	for i := range rows {
		r := &rows[i]
		changed := []string{}
		if prev != nil {
			for _, d := range []struct {
				name string
				diff bool
			}{
				{"mmsi", r.MMSI != prev.MMSI}, {"name", r.Name != prev.Name}, {"call_sign", r.CallSign != prev.CallSign},
				{"flag", r.Flag != prev.Flag}, {"ship_type", r.ShipType != prev.ShipType},
			} {
				if d.diff {
					changed = append(changed, d.name)
				}
			}
			if len(changed) == 0 {
				continue
			}
		}
		p := IdentityPeriod{
			ValidFrom: r.ValidFrom.UTC().Format(time.RFC3339), Name: optString(r.Name), CallSign: optString(r.CallSign),
			Flag: optString(r.Flag), VesselType: vesselCategory("", r.ShipType), Changed: changed,
		}
		if r.MMSI != 0 {
			mmsi := r.MMSI
			p.MMSI = &mmsi
		}
		if r.ShipType != 0 {
			st := r.ShipType
			p.ShipType = &st
		}
		out = append(out, p)
		prev = r
	}
	return out
}
