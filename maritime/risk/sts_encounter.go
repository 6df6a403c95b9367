package risk

import (
	"math"
	"sort"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/vessel"
)

// stsEnc is an encounter of two runs: when it started and ended, the
// closest the vessels came, and how much of it was observed directly.
type stsEnc struct {
	start, end time.Time
	minDist    float64
	observed   time.Duration
	closesRun  bool // it lasts to the end of the shorter run
}

// stsEncounters returns the encounters of STSMinDuration or more between
// two runs. Between consecutive positions of either vessel both move in
// straight lines (on a plane tangent at run a's first position), so their
// separation is a quadratic in time, solved exactly for the moments they
// are within STSMaxDistanceM.
func stsEncounters(c []SlowPoint, a, b *stsRun) []stsEnc {
	t0, t1 := maxTime(c[a.lo].TS, c[b.lo].TS), minTime(c[a.hi].TS, c[b.hi].TS)
	if t1.Sub(t0) < STSMinDuration {
		return nil
	}
	pl := stsPlane{lat0: c[a.lo].Lat, lon0: c[a.lo].Lon}
	pl.cos = math.Cos(pl.lat0 * math.Pi / 180)
	adv := func(i, hi int, t time.Time) int {
		for i+1 < hi && !c[i+1].TS.After(t) {
			i++
		}
		return i
	}
	var out []stsEnc
	cur := stsEnc{minDist: math.Inf(1)}
	open := false
	keep := func() {
		if open && cur.end.Sub(cur.start) >= STSMinDuration {
			out = append(out, cur)
		}
		cur, open = stsEnc{minDist: math.Inf(1)}, false
	}
	const r2 = STSMaxDistanceM * STSMaxDistanceM
	ia, ib := a.lo, b.lo
	for tk := t0; tk.Before(t1); {
		ia, ib = adv(ia, a.hi, tk), adv(ib, b.hi, tk)
		tk1 := minTime(t1, minTime(c[ia+1].TS, c[ib+1].TS))
		ax0, ay0 := pl.at(&c[ia], &c[ia+1], tk)
		ax1, ay1 := pl.at(&c[ia], &c[ia+1], tk1)
		bx0, by0 := pl.at(&c[ib], &c[ib+1], tk)
		bx1, by1 := pl.at(&c[ib], &c[ib+1], tk1)
		dx, dy := ax0-bx0, ay0-by0
		vx, vy := (ax1-bx1)-dx, (ay1-by1)-dy
		qa, qb, qc := vx*vx+vy*vy, 2*(dx*vx+dy*vy), dx*dx+dy*dy-r2
		s1, s2 := 0.0, 1.0
		close := true
		if qa < 1e-9 {
			close = qc <= 0
		} else if disc := qb*qb - 4*qa*qc; disc < 0 {
			close = false
		} else {
			sq := math.Sqrt(disc)
			s1, s2 = math.Max(0, (-qb-sq)/(2*qa)), math.Min(1, (-qb+sq)/(2*qa))
			close = s1 <= s2
		}
		span := tk1.Sub(tk)
		if close && !math.IsNaN(s1) && !math.IsNaN(s2) {
			ts, te := tk.Add(time.Duration(s1*float64(span))), tk.Add(time.Duration(s2*float64(span)))
			if !open || ts.Sub(cur.end) > time.Second {
				keep()
				cur.start, open = ts, true
			}
			cur.end = te
			s := 0.0
			if qa >= 1e-9 {
				s = math.Min(s2, math.Max(s1, -qb/(2*qa)))
			} else {
				s = s1
			}
			x, y := dx+s*vx, dy+s*vy
			cur.minDist = math.Min(cur.minDist, math.Sqrt(x*x+y*y))
			if c[ia+1].TS.Sub(c[ia].TS) <= STSDenseGap && c[ib+1].TS.Sub(c[ib].TS) <= STSDenseGap {
				cur.observed += te.Sub(ts)
			}
			cur.closesRun = !te.Before(t1.Add(-time.Second))
		}
		tk = tk1
	}
	keep()
	return out
}

// stsPlane maps positions to metres on a plane tangent at (lat0, lon0).
type stsPlane struct{ lat0, lon0, cos float64 }

func (pl stsPlane) xy(lat, lon float64) (x, y float64) {
	dLon := math.Mod(lon-pl.lon0+540, 360) - 180
	return dLon * pl.cos * kmPerDegree * 1000, (lat - pl.lat0) * kmPerDegree * 1000
}

// at is the position at t between p and q, moving in a straight line.
func (pl stsPlane) at(p, q *SlowPoint, t time.Time) (x, y float64) {
	px, py := pl.xy(p.Lat, p.Lon)
	qx, qy := pl.xy(q.Lat, q.Lon)
	f := 0.0
	if d := q.TS.Sub(p.TS); d > 0 {
		f = math.Min(1, math.Max(0, float64(t.Sub(p.TS))/float64(d)))
	}
	return px + f*(qx-px), py + f*(qy-py)
}

// stsAt is the position of run r's vessel at t, interpolated.
func stsAt(c []SlowPoint, r *stsRun, t time.Time) (lat, lon float64) {
	i := r.lo + sort.Search(r.hi-r.lo+1, func(k int) bool { return c[r.lo+k].TS.After(t) }) - 1
	if i < r.lo {
		return c[r.lo].Lat, c[r.lo].Lon
	}
	if i >= r.hi {
		return c[r.hi].Lat, c[r.hi].Lon
	}
	p, q := &c[i], &c[i+1]
	f := 0.0
	if d := q.TS.Sub(p.TS); d > 0 {
		f = float64(t.Sub(p.TS)) / float64(d)
	}
	dLon := math.Mod(q.Lon-p.Lon+540, 360) - 180
	return p.Lat + f*(q.Lat-p.Lat), math.Mod(p.Lon+f*dLon+540, 360) - 180
}

// stsMid is the point half-way between the two vessels at t.
func stsMid(c []SlowPoint, a, b *stsRun, t time.Time) (lat, lon float64) {
	la, loa := stsAt(c, a, t)
	lb, lob := stsAt(c, b, t)
	dLon := math.Mod(lob-loa+540, 360) - 180
	return (la + lb) / 2, math.Mod(loa+dLon/2+540, 360) - 180
}

// stsEvent makes the event of an encounter of runs a (the lower IMO) and b,
// and reports whether their draughts changed in opposite directions.
func stsEvent(c []SlowPoint, a, b *stsRun, e stsEnc, dataEnd time.Time, draughts func(overwatch.IMO, time.Time) (float64, float64), profiles map[overwatch.IMO]vessel.Profile) (Event, bool) {
	imoA, imoB := c[a.lo].IMO, c[b.lo].IMO
	ev := Event{Type: EventSTS, Subtype: STSPathIntersection, IMO: imoA, Other: imoB, Start: e.start}
	if e.observed >= STSMinDuration {
		ev.Subtype = STSProximity
	}
	lat, lon := stsMid(c, a, b, e.start)
	endLat, endLon := stsMid(c, a, b, e.end)
	ev.Place(lat, lon, endLat, endLon)
	ongoing := e.closesRun && a.tail && b.tail && dataEnd.Sub(e.end) <= STSMaxGap
	if !ongoing {
		end := e.end
		ev.End = &end
	}
	var dA, dB, tonnes float64
	n := 0
	if draughts != nil {
		for k, imo := range []overwatch.IMO{imoA, imoB} {
			before, _ := draughts(imo, e.start)
			_, after := draughts(imo, e.end)
			if !(before > 0 && after > 0) || math.IsInf(before, 0) || math.IsInf(after, 0) {
				continue
			}
			d := after - before
			if k == 0 {
				dA = d
			} else {
				dB = d
			}
			if p, ok := profiles[imo]; ok {
				call := portcall.Call{DraftBefore: before, DraftAfter: after}
				portcall.EstimateCargo(&call, p)
				if (call.Operation == portcall.OpLoad || call.Operation == portcall.OpDischarge) && call.CargoTonnes > 0 && !math.IsInf(call.CargoTonnes, 0) {
					tonnes += call.CargoTonnes
					n++
				}
			}
		}
	}
	if n > 0 {
		tonnes = math.Round(tonnes / float64(n))
	}
	opposite := math.Abs(dA) >= portcall.MinDraftChangeM-1e-9 && math.Abs(dB) >= portcall.MinDraftChangeM-1e-9 && (dA > 0) != (dB > 0)
	conf := ConfidenceMedium
	switch {
	case ev.Subtype == STSProximity && opposite:
		conf = ConfidenceHigh
	case ev.Subtype == STSPathIntersection && !opposite:
		conf = ConfidenceLow
	}
	ev.Severity = map[string]string{ConfidenceHigh: TierHigh, ConfidenceMedium: TierMedium, ConfidenceLow: TierLow}[conf]
	ev.Detail = map[string]any{
		"method":                 ev.Subtype,
		"confidence":             conf,
		"hours":                  math.Round(e.end.Sub(e.start).Hours()*100) / 100,
		"observed_hours":         math.Round(e.observed.Hours()*100) / 100,
		"min_distance_m":         math.Round(e.minDist),
		"other_imo":              imoB,
		"tonnes":                 tonnes,
		"draught_change_m":       math.Round(dA*10) / 10,
		"other_draught_change_m": math.Round(dB*10) / 10,
		"ongoing":                ongoing,
	}
	if area := stsAreaAt(ev.Lat, ev.Lon); area != "" {
		ev.Detail["area"] = area
	}
	return ev, opposite
}

// DraughtLog is each vessel's reported draught over time, kept as its
// changes only (a few per vessel and month), for DetectSTS.
type DraughtLog struct {
	steps map[overwatch.IMO][]draughtStep
}

type draughtStep struct {
	at    int64 // Unix seconds
	draft float64
}

// NewDraughtLog returns an empty log.
func NewDraughtLog() *DraughtLog { return &DraughtLog{steps: map[overwatch.IMO][]draughtStep{}} }

// Add records the changes of reported draught in a vessel's track
// (time-ordered positions; those without a draught are skipped). A
// vessel's tracks are added in time order.
func (l *DraughtLog) Add(imo overwatch.IMO, track []vessel.TrackPoint) {
	s := l.steps[imo]
	for i := range track {
		d := track[i].Draft
		if !(d > 0) || math.IsInf(d, 0) {
			continue
		}
		if n := len(s); n == 0 || s[n-1].draft != d {
			s = append(s, draughtStep{at: track[i].TS.Unix(), draft: d})
		}
	}
	l.steps[imo] = s
}

// Draughts is the vessel's reported draught in force at `at` (before) and
// STSDraughtLag after it (after), 0 when unknown: the draughts argument of
// DetectSTS. When none was reported yet at `at` (the data begin), before
// is the first reported within STSDraughtLag after it.
func (l *DraughtLog) Draughts(imo overwatch.IMO, at time.Time) (before, after float64) {
	s := l.steps[imo]
	in := func(t int64) float64 {
		i := sort.Search(len(s), func(k int) bool { return s[k].at > t })
		if i == 0 {
			return 0
		}
		return s[i-1].draft
	}
	before, after = in(at.Unix()), in(at.Add(STSDraughtLag).Unix())
	if before == 0 && len(s) > 0 && s[0].at <= at.Add(STSDraughtLag).Unix() {
		before = s[0].draft
	}
	return before, after
}
