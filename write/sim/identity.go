package sim

import (
	"time"

	"overwatch"
)

// scheduleIdentityChanges draws, per vessel, a change of identity in the
// first 30 days after the start (three times as likely in the dark fleet):
// a new name, a new flag (and so a new MMSI, whose MID is the flag's), or a
// new MMSI under the same flag.
func (p *Planner) scheduleIdentityChanges() {
	window := 30 * 24 * time.Hour
	for _, t := range p.tracks {
		rate := p.cfg.Rates.Identity
		if t.v.DarkFleet {
			rate *= 3
		}
		if t.r.Float64() >= rate {
			continue
		}
		at := p.cfg.Start.Add(time.Duration(t.r.Float64() * float64(window))).Truncate(time.Minute)
		old := t.identities[len(t.identities)-1].Identity
		next := old
		kind := t.r.IntN(10)
		switch {
		case kind < 4:
			for next.Name == old.Name {
				next.Name = newName(t.r, t.v, map[string]bool{old.Name: true})
			}
			p.identityTruth(t, at, "name", old.Name, next.Name)
		case kind < 7:
			for next.Flag == old.Flag {
				next.Flag = darkFlags[t.r.IntN(len(darkFlags))]
				if !t.v.DarkFleet {
					next.Flag = pickFlag(t.r)
				}
			}
			next.MMSI = NewMMSI(t.r, next.Flag, p.usedMMS)
			next.CallSign = newCallSign(t.r, next.Flag)
			p.identityTruth(t, at, "flag", old.Flag, next.Flag)
			p.identityTruth(t, at, "mmsi", old.MMSI, next.MMSI)
		default:
			next.MMSI = NewMMSI(t.r, old.Flag, p.usedMMS)
			p.identityTruth(t, at, "mmsi", old.MMSI, next.MMSI)
		}
		t.identities = append(t.identities, epoch{Since: at, Identity: next})
	}
}

func (p *Planner) identityTruth(t *track, at time.Time, field string, old, new any) {
	p.truth.write(Truth{Type: "identity_change", Subtype: field, Vessels: []overwatch.IMO{t.v.IMO}, Start: tp(at), End: tp(at),
		Detail: map[string]any{"old": old, "new": new}})
}
