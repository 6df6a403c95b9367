package clickhouse

import (
	"overwatch"
	"overwatch/maritime/vessel"
)

// vesselTracks gathers the rows of a read ordered by vessel into one track
// per vessel, handed to fn when the next vessel's row comes (add) and at
// the end (done). The track's slice is reused: fn must not keep it.
type vesselTracks struct {
	fn    func(imo overwatch.IMO, track []vessel.TrackPoint) error
	cur   overwatch.IMO
	track []vessel.TrackPoint
}

// add appends p to imo's track, first handing on the previous vessel's.
func (v *vesselTracks) add(imo overwatch.IMO, p vessel.TrackPoint) error {
	if imo != v.cur && len(v.track) > 0 {
		if err := v.fn(v.cur, v.track); err != nil {
			return err
		}
		v.track = v.track[:0]
	}
	v.cur = imo
	v.track = append(v.track, p)
	return nil
}

// last is the newest point of the current vessel's track, if any.
func (v *vesselTracks) last(imo overwatch.IMO) (vessel.TrackPoint, bool) {
	if imo != v.cur || len(v.track) == 0 {
		return vessel.TrackPoint{}, false
	}
	return v.track[len(v.track)-1], true
}

// done hands on the last vessel's track.
func (v *vesselTracks) done() error {
	if len(v.track) > 0 {
		return v.fn(v.cur, v.track)
	}
	return nil
}
