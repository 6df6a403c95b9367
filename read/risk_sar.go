package read

import (
	"context"
	"encoding/json"
	"time"

	"overwatch/maritime/risk"
	"overwatch/maritime/sar"
)

// The verification potential of AIS gaps (docs/risk-api.md, "Verification
// potential"): each ais_gap event that /risk/events and
// /risk/vessel/{imo} list carries how close in time a Sentinel-1 pass over
// its end points comes to it, from the STORED catalogue products only (the
// sar_products cache; no catalogue is asked at request time): one store
// query per page, the computation in maritime/sar (sar.VerifyGaps).

// SARBox is a box in degrees.
type SARBox struct {
	MinLat, MaxLat, MinLon, MaxLon float64
}

// SARGapQuery selects the stored products whose footprints' bounding
// boxes meet any of Boxes, of any time (each is a known pass of its
// relative orbit), the nearest in time to From..To first.
type SARGapQuery struct {
	Boxes    []SARBox
	From, To time.Time
}

// SARGapStore reads the stored catalogue products a page of gaps needs
// (clickhouse.DB).
type SARGapStore interface {
	SARGapProducts(ctx context.Context, q SARGapQuery) ([]sar.Product, error)
}

// maxSARBoxes bounds the boxes of one query: past it, one box holding
// them all is asked instead.
const maxSARBoxes = 100

// GapVerification is the `verification` of an ais_gap event: the
// potential (high, medium, low, none: sar.PotentialOf), the hours from the
// gap's window to the closest pass (0 within it; null when no pass is
// known) and whether that pass is predicted from the 12-day cycle rather
// than a stored acquisition.
type GapVerification struct {
	Potential        string   `json:"potential"`
	ClosestPassHours *float64 `json:"closest_pass_hours"`
	Predicted        bool     `json:"predicted"`
}

// RiskSARKey keys the cached verifications of an event list: its request
// and the minute whose now ends the ongoing gaps.
type RiskSARKey struct {
	Events RiskEventsRequest
	Now    time.Time
}

// GapVerifications answers the verifications of the gaps among the rows
// a list's request answered, by event id (json null where nothing is
// stored near the gap).
type GapVerifications func(ctx context.Context, k RiskSARKey, rows []RiskEventRow) (map[string]json.RawMessage, error)

// VerifiedGaps makes the verifications query: one store query for the
// stored products around every gap of the rows, cached per list request
// and minute (the answer is kept while risk_events keeps its version, so
// it stays the rows' own).
func VerifiedGaps(c *Cache, s SARGapStore) GapVerifications {
	return func(ctx context.Context, k RiskSARKey, rows []RiskEventRow) (map[string]json.RawMessage, error) {
		return Cached(c, "risk_sar", []string{tableRiskEvents, tableSARProducts},
			func(ctx context.Context, k RiskSARKey) (map[string]json.RawMessage, error) {
				return verifyGapRows(ctx, s, rows, k.Now)
			})(ctx, k)
	}
}

// verifyGapRows verifies the ais_gap rows among rows.
func verifyGapRows(ctx context.Context, s SARGapStore, rows []RiskEventRow, now time.Time) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	var gaps []sar.Gap
	var ids []string
	var q SARGapQuery
	seen := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		if r.Type != risk.EventGap || !r.HasPosition {
			continue
		}
		g := sar.Gap{Points: []sar.Point{{Lat: r.Lat, Lng: r.Lon}}, From: r.Start, To: now}
		if r.End != nil {
			g.To = *r.End
			if r.HasEndPosition {
				g.Points = append(g.Points, sar.Point{Lat: r.EndLat, Lng: r.EndLon})
			}
		}
		if g.To.Before(g.From) {
			g.To = g.From
		}
		for _, p := range g.Points {
			a := sar.AreaAround(p.Lat, p.Lng, sar.GapRadiusKm, g.From)
			if !seen[a.Key()] {
				seen[a.Key()] = true
				q.Boxes = append(q.Boxes, SARBox{MinLat: a.MinLat, MaxLat: a.MaxLat, MinLon: a.MinLon, MaxLon: a.MaxLon})
			}
		}
		if len(gaps) == 0 || g.From.Before(q.From) {
			q.From = g.From
		}
		if len(gaps) == 0 || g.To.After(q.To) {
			q.To = g.To
		}
		gaps = append(gaps, g)
		ids = append(ids, EventID(r))
	}
	if len(gaps) == 0 {
		return out, nil
	}
	if len(q.Boxes) > maxSARBoxes {
		q.Boxes = []SARBox{unionBox(q.Boxes)}
	}
	known, err := s.SARGapProducts(ctx, q)
	if err != nil {
		return nil, err
	}
	for i, v := range sar.VerifyGaps(known, gaps, sar.GapRadiusKm) {
		out[ids[i]] = gapVerificationJSON(v)
	}
	return out, nil
}

// unionBox is the box holding every box.
func unionBox(boxes []SARBox) SARBox {
	u := boxes[0]
	for _, b := range boxes[1:] {
		u.MinLat, u.MaxLat = min(u.MinLat, b.MinLat), max(u.MaxLat, b.MaxLat)
		u.MinLon, u.MaxLon = min(u.MinLon, b.MinLon), max(u.MaxLon, b.MaxLon)
	}
	return u
}

// gapVerificationJSON encodes a verification (nil: null).
func gapVerificationJSON(v *sar.Verification) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	out := GapVerification{Potential: string(v.Potential)}
	if v.Closest != nil {
		h := v.Hours
		out.ClosestPassHours = &h
		out.Predicted = v.Closest.Predicted
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

// withVerifications sets the verification of the presented ais_gap
// events (null for a gap the verifications do not hold: it was not in
// the list they were computed for).
func withVerifications(events []RiskEvent, v map[string]json.RawMessage) []RiskEvent {
	for i := range events {
		if events[i].Type != risk.EventGap {
			continue
		}
		if b, ok := v[events[i].ID]; ok {
			events[i].Verification = b
		} else {
			events[i].Verification = json.RawMessage("null")
		}
	}
	return events
}
