package jobs

import (
	"context"
	"time"

	"overwatch"
	"overwatch/maritime/pandi"
)

// PICoverBase is the shared base of P&I coverage records (PostgreSQL, the
// records `overwatch import pi-coverage` loads, never an account's own)
// that the risk score's pi_cover factor reads.
type PICoverBase interface {
	// PIBaseCurrent are the base records in force on day (open ends count
	// as in force).
	PIBaseCurrent(ctx context.Context, day time.Time) ([]PICover, error)
}

// PICover is one base record in force: the vessel and its insurer, by the
// P&I table's id (pandi.ByID) or, when it matched none, by the name as
// imported.
type PICover struct {
	IMO      overwatch.IMO
	ClubID   string
	ClubName string
}

// coverAssessments assesses each vessel's cover in force (pandi.Assess)
// from the base records.
func coverAssessments(records []PICover) map[overwatch.IMO]pandi.Assessment {
	clubs := map[overwatch.IMO][]pandi.Club{}
	for _, r := range records {
		club, ok := pandi.ByID(r.ClubID)
		if !ok {
			club = pandi.Unknown(r.ClubName)
		}
		clubs[r.IMO] = append(clubs[r.IMO], club)
	}
	out := make(map[overwatch.IMO]pandi.Assessment, len(clubs))
	for imo, cs := range clubs {
		out[imo] = pandi.Assess(cs)
	}
	return out
}

// piCovers reads the base's cover in force on the day of at and assesses
// it; without a base (nil) or when it does not answer, no vessel has a
// cover known, and status says which ("none", "unavailable"), so that the
// score is computed still.
func piCovers(ctx context.Context, base PICoverBase, at time.Time) (map[overwatch.IMO]pandi.Assessment, string) {
	if base == nil {
		return nil, "none"
	}
	day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	records, err := base.PIBaseCurrent(ctx, day)
	if err != nil {
		return nil, "unavailable"
	}
	return coverAssessments(records), "read"
}
