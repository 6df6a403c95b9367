package sim

import "time"

// SegKind is what a vessel does during a segment of its timeline.
type SegKind uint8

// The segment kinds.
const (
	Sail   SegKind = iota + 1 // under way along a path at constant speed
	Anchor                    // at anchor, swinging about a spot
	Shift                     // between anchorage and berth at harbour speed
	Berth                     // alongside a berth zone
	Drift                     // offshore and stopped or barely moving (loitering)
	STS                       // alongside another vessel offshore, transferring cargo
)

// Segment is one stretch of a vessel's timeline.
type Segment struct {
	Kind       SegKind
	Start, End time.Time
	Path       *path   // Sail, Shift, and a slow-roll Drift: covered at constant speed
	Lat, Lon   float64 // Anchor, Berth, stationary Drift, STS: the spot
	Port, Zone string
	// Draft0 and Draft1 are the actual draught at the start and the end;
	// Reported is what the vessel reports (its crew may not update it, or
	// may report something else).
	Draft0, Draft1 float64
	Reported       float64
	Dest           string // declared destination
	Dark           bool   // AIS switched off
	Partner        int    // STS: index of the other vessel
	SlowRoll       bool   // Drift: moving at 0.5-2 kn rather than stopped
	Spoofs         []Spoof
	Misreport      *pending // the truth of an implausible draught reported here, written once one is received
}

// Spoof is a position report placed somewhere the vessel is not; truth is
// the spoofing's truth, written once one of its positions is received.
type Spoof struct {
	At       time.Time
	Lat, Lon float64
	truth    *pending
}

func (s *Segment) duration() time.Duration { return s.End.Sub(s.Start) }

// draftAt is the actual draught at time t within the segment.
func (s *Segment) draftAt(t time.Time) float64 {
	d := s.duration()
	if d <= 0 {
		return s.Draft1
	}
	f := float64(t.Sub(s.Start)) / float64(d)
	return s.Draft0 + f*(s.Draft1-s.Draft0)
}

// split cuts the segment at t into the part before and the part after.
func (s Segment) split(t time.Time) (Segment, Segment) {
	a, b := s, s
	a.End, b.Start = t, t
	if s.Path != nil && s.duration() > 0 {
		f := float64(t.Sub(s.Start)) / float64(s.duration())
		d := f * s.Path.lengthKM()
		a.Path = s.Path.sub(0, d)
		b.Path = s.Path.sub(d, s.Path.lengthKM())
	}
	mid := s.draftAt(t)
	a.Draft1, b.Draft0 = mid, mid
	a.Spoofs, b.Spoofs = nil, nil
	for _, sp := range s.Spoofs {
		if sp.At.Before(t) {
			a.Spoofs = append(a.Spoofs, sp)
		} else {
			b.Spoofs = append(b.Spoofs, sp)
		}
	}
	return a, b
}

// position is where the vessel is at time t within the segment, its speed
// over ground and course.
func (s *Segment) position(t time.Time) (lat, lon, sog, cog float64) {
	if s.Path != nil && s.duration() > 0 {
		f := float64(t.Sub(s.Start)) / float64(s.duration())
		km := s.Path.lengthKM()
		lat, lon, cog = s.Path.at(f * km)
		sog = km / 1.852 / s.duration().Hours()
		return lat, lon, sog, cog
	}
	return s.Lat, s.Lon, 0, 0
}

// timeAt is when a moving segment is the distance along its path.
func (s *Segment) timeAt(km float64) time.Time {
	total := s.Path.lengthKM()
	if total <= 0 {
		return s.Start
	}
	return s.Start.Add(time.Duration(float64(s.duration()) * km / total))
}
