package risk

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/vessel"
)

// Reception thresholds (after Global Fishing Watch's use of reception
// quality: a gap is suspected intentional disabling only where the sea is
// well covered, since where nobody hears the vessels a silence is the
// receivers').
const (
	// ReceptionWindow: reception is judged from every vessel's hourly
	// positions over the 30 days to the end of the data.
	ReceptionWindow = 30 * 24 * time.Hour
	// ReceptionCellDeg: on cells of 1 degree.
	ReceptionCellDeg = 1.0
	// ReceptionSilence: a vessel silent for 3 hours or more counts its
	// silent hours against the cells of the straight path between the
	// positions either side.
	ReceptionSilence = 3 * time.Hour
	// ReceptionPoor: a gap whose path crosses cells where the other
	// vessels were heard in less than half their hours there lies in poor
	// coverage (a coverage hole): it is not intentional.
	ReceptionPoor = 0.5
	// ReceptionMinHours: reception is judged from 24 vessel-hours or more
	// of the other vessels on the gap's path; with fewer it is unknown and
	// the gap stays as the geometry judged it.
	ReceptionMinHours = 24
	// ReceptionMinKnots: a silence counts against the cells of its path
	// only when the distance between its ends implies 5 knots or more: the
	// vessel sailed along it. One that comes back near where it fell
	// silent (a dark port call, a wait) was somewhere else meanwhile, and
	// its silence says nothing of the path's reception (many dark-fleet
	// tankers going dark at one spot would make it a coverage hole).
	ReceptionMinKnots = 5.0
)

// Reception is how well each cell of the sea is heard: the hours in which
// vessels were heard there and the hours they were silent crossing it, in
// all and per vessel (a gap is judged by the other vessels' hours).
type Reception struct {
	all map[recCell]*recHours
	own map[recOwn]*recHours
}

type recCell struct{ lat, lon int16 }

type recOwn struct {
	imo  overwatch.IMO
	cell recCell
}

type recHours struct{ heard, silent float64 }

// NewReception returns an empty reception map.
func NewReception() *Reception {
	return &Reception{all: map[recCell]*recHours{}, own: map[recOwn]*recHours{}}
}

func recCellOf(lat, lon float64) recCell {
	lon = math.Mod(lon+540, 360) - 180
	return recCell{int16(math.Floor(lat / ReceptionCellDeg)), int16(math.Floor(lon / ReceptionCellDeg))}
}

func (r *Reception) count(imo overwatch.IMO, lat, lon float64, heard, silent float64) {
	if !onEarth(lat, lon) {
		return
	}
	c := recCellOf(lat, lon)
	for _, h := range []*recHours{r.cell(r.all, c), r.ownCell(imo, c)} {
		h.heard += heard
		h.silent += silent
	}
}

func (r *Reception) cell(m map[recCell]*recHours, c recCell) *recHours {
	h := m[c]
	if h == nil {
		h = &recHours{}
		m[c] = h
	}
	return h
}

func (r *Reception) ownCell(imo overwatch.IMO, c recCell) *recHours {
	k := recOwn{imo, c}
	h := r.own[k]
	if h == nil {
		h = &recHours{}
		r.own[k] = h
	}
	return h
}

// Add counts a vessel's hourly track (its first position of each hour, in
// time order): each position an hour heard in its cell; each silence of
// ReceptionSilence or more, sailed at ReceptionMinKnots or more, its
// silent hours, one at each hour's point of the great circle between the
// positions either side.
func (r *Reception) Add(imo overwatch.IMO, hourly []vessel.TrackPoint) {
	for i := range hourly {
		p := &hourly[i]
		r.count(imo, p.Lat, p.Lon, 1, 0)
		if i == 0 {
			continue
		}
		q := &hourly[i-1]
		d := p.TS.Sub(q.TS)
		if d < ReceptionSilence || !onEarth(q.Lat, q.Lon) || !onEarth(p.Lat, p.Lon) {
			continue
		}
		if geo.DistanceKM(q.Lat, q.Lon, p.Lat, p.Lon)/kmPerNM/d.Hours() < ReceptionMinKnots {
			continue
		}
		hours := int(d / time.Hour)
		for k := 1; k < hours; k++ {
			lat, lon := geo.Intermediate(q.Lat, q.Lon, p.Lat, p.Lon, float64(k)/float64(hours))
			r.count(imo, lat, lon, 0, 1)
		}
	}
}

// Quality is the share of the other vessels' hours heard in the cells of
// the great circle between two points (each cell once), leaving out the
// vessel's own; known is false when the others spent fewer than
// ReceptionMinHours there.
func (r *Reception) Quality(imo overwatch.IMO, lat1, lon1, lat2, lon2 float64) (q float64, known bool) {
	if !onEarth(lat1, lon1) || !onEarth(lat2, lon2) {
		return 0, false
	}
	steps := max(1, int(geo.DistanceKM(lat1, lon1, lat2, lon2)/25))
	seen := map[recCell]bool{}
	var heard, silent float64
	for k := 0; k <= steps; k++ {
		lat, lon := geo.Intermediate(lat1, lon1, lat2, lon2, float64(k)/float64(steps))
		c := recCellOf(lat, lon)
		if seen[c] {
			continue
		}
		seen[c] = true
		if h := r.all[c]; h != nil {
			heard, silent = heard+h.heard, silent+h.silent
		}
		if h := r.own[recOwn{imo, c}]; h != nil {
			heard, silent = heard-h.heard, silent-h.silent
		}
	}
	if heard+silent < ReceptionMinHours {
		return 0, false
	}
	return heard / (heard + silent), true
}

// JudgeReception judges the suspected intentional gaps among the events
// (in place) by the reception along them: each gains reception_quality
// (the share of the other vessels' hours heard on its path, null when
// unknown), and one in poor coverage (under ReceptionPoor) is not
// intentional: its subtype, intentional flag and severity are those of a
// gap the vessel did not choose. A gap across which cargo moved (a draught
// change of GapDraughtChangeM or more) is not judged: no coverage hole
// explains it.
func JudgeReception(events []Event, r *Reception) {
	for i := range events {
		e := &events[i]
		if e.Type != EventGap || e.Subtype != "intentional" || e.End == nil {
			continue
		}
		d := e.Detail
		change := math.NaN()
		if c, ok := d["draught_change"].(float64); ok {
			change = c
		}
		if cargoMovedAcross(change) {
			continue // cargo moved while dark: no coverage hole explains it
		}
		q, known := r.Quality(e.IMO, e.Lat, e.Lon, e.EndLat, e.EndLon)
		if !known {
			continue
		}
		d["reception_quality"] = math.Round(q*100) / 100
		if q >= ReceptionPoor {
			continue
		}
		e.Subtype = ""
		d["intentional"] = false
		hours, _ := d["hours"].(float64)
		e.Severity = gapSeverity(change, false, hours)
	}
}
