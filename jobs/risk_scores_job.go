package jobs

import (
	"context"
	"time"

	"overwatch"

	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"
)

// RiskScoresJob recomputes every vessel's risk score (ScoreVessels, over
// the events of the identity window, the port calls of the port-call
// window and the sanctions lists as they are now) and the hotspots
// (Hotspots, over the events of the last 30 days), as of the end of the
// data, and writes both whole as new generations. The P&I cover in force
// on that day comes from the shared base (nil: none known; when it does
// not answer, the scores are computed without it and Detail says so). It
// runs after risk_events and destination_reliability.
func RiskScores(store RiskStore, cover PICoverBase) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		_, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		from := last.Add(-max(risk.ScoreWindow, risk.IdentityWindow, risk.HotspotWindow))
		events, err := store.RiskEvents(ctx, from, last.Add(time.Second))
		if err != nil {
			return Result{}, err
		}
		calls, err := store.Calls(ctx, last.Add(-risk.PortCallsWindow), last.Add(time.Second))
		if err != nil {
			return Result{}, err
		}
		profiles, err := store.VesselProfiles(ctx)
		if err != nil {
			return Result{}, err
		}
		var matches []sanctions.Match
		if entries, err := store.SanctionsEntries(ctx); err != nil {
			return Result{}, err
		} else if len(entries) > 0 {
			identities, err := store.IdentityHistory(ctx)
			if err != nil {
				return Result{}, err
			}
			matches = sanctions.MatchVessels(entries, profileList(profiles), identities)
		}
		reliabilities, err := store.Reliabilities(ctx)
		if err != nil {
			return Result{}, err
		}
		covers, coverStatus := piCovers(ctx, cover, last)
		scores := risk.ScoreVessels(profileList(profiles), events, calls, matches, reliabilities, covers, last)
		if err := store.WriteVesselRisk(ctx, Generation(), scores); err != nil {
			return Result{}, err
		}
		hotspots := risk.Hotspots(events, last, risk.DefaultHotspotCellDeg)
		if err := store.WriteHotspots(ctx, Generation(), hotspots); err != nil {
			return Result{}, err
		}
		return Result{From: from, To: last, Rows: len(scores) + len(hotspots), Watermark: last,
			Detail: map[string]any{"vessels": len(scores), "hotspots": len(hotspots), "sanctions_matches": len(matches),
				"pi_cover": coverStatus, "pi_covered_vessels": len(covers)}}, nil
	}
}

// RiskBaselinesJob recomputes the baselines (BaselinesByVessel) over the
// BaselineWindow to the end of the data: the vessel-days observed per area
// and category, from the hourly positions, and the events that started in
// it.
func RiskBaselines(store RiskStore) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		from := maxTime(first, last.Add(-risk.BaselineWindow))
		profiles, err := store.VesselProfiles(ctx)
		if err != nil {
			return Result{}, err
		}
		categories := map[overwatch.IMO]string{}
		for imo, p := range profiles {
			if c, ok := vessel.CategoryOf(p.ShipType); ok {
				categories[imo] = c.Name
			}
		}
		vesselDays := map[[2]string]float64{}
		err = store.HourlyTracks(ctx, from, last, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
			risk.AddVesselDays(vesselDays, track, categories[imo], from, last)
			return ctx.Err()
		})
		if err != nil {
			return Result{}, err
		}
		events, err := store.RiskEvents(ctx, from, last.Add(time.Second))
		if err != nil {
			return Result{}, err
		}
		rows := risk.BaselinesByVessel(events, categories, vesselDays, from, last)
		if err := store.WriteBaselines(ctx, Generation(), rows); err != nil {
			return Result{}, err
		}
		return Result{From: from, To: last, Rows: len(rows), Watermark: last}, nil
	}
}
