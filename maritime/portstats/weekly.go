package portstats

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// BerthWeek is a row of berth_weekly: one berth zone and ISO week.
type BerthWeek struct {
	Week                          time.Time // its Monday
	Port, ZoneID, ZoneName        string
	Capacity                      int
	OccupiedHours, AvailableHours float64
	Utilization                   float64
	Vessels, Stays                int
	MeanDwellHours                float64
}

// BerthWeeks computes the utilisation of every berth zone in each week:
// the vessel-hours at berth in the week over the hours of the week (up to
// the end of the data, for the week in progress) times the zone's
// capacity in berths; vessels served (distinct), stays that ended in the
// week and their mean length.
func BerthWeeks(calls []portcall.Call, weeks []time.Time, dataEnd time.Time) []BerthWeek {
	var out []BerthWeek
	for _, p := range seaport.All() {
		for _, z := range p.Berths {
			for _, w := range weeks {
				end := w.Add(7 * day)
				span := math.Max(0, minTime(end, dataEnd).Sub(w).Hours())
				row := BerthWeek{Week: w, Port: p.Slug, ZoneID: z.ID, ZoneName: z.Name, Capacity: max(1, z.Capacity)}
				row.AvailableHours = span * float64(row.Capacity)
				seen := map[overwatch.IMO]bool{}
				var dwell float64
				for i := range calls {
					c := &calls[i]
					if c.Port != p.Slug || c.BerthZone != z.ID || c.BerthStart == nil || !c.Published() {
						continue
					}
					until := minTime(c.BerthUntil(), dataEnd)
					o := minTime(until, end).Sub(maxTime(*c.BerthStart, w)).Hours()
					if o <= 0 && !within(*c.BerthStart, w, end) && !within(until, w, end) {
						continue
					}
					row.OccupiedHours += math.Max(0, o)
					seen[c.IMO] = true
					if c.Departure != nil && within(until, w, end) {
						row.Stays++
						dwell += until.Sub(*c.BerthStart).Hours()
					}
				}
				row.Vessels = len(seen)
				if row.AvailableHours > 0 {
					row.Utilization = math.Min(1, row.OccupiedHours/row.AvailableHours)
				}
				if row.Stays > 0 {
					row.MeanDwellHours = dwell / float64(row.Stays)
				}
				out = append(out, row)
			}
		}
	}
	return out
}

// AgeBucket is a fleet-age bucket: ages in [Lo, Hi) years.
type AgeBucket struct {
	Name   string
	Lo, Hi int
}

// AgeBuckets are the fleet-age buckets, youngest first; the last has no
// real upper bound.
var AgeBuckets = []AgeBucket{{"0-5", 0, 5}, {"5-10", 5, 10}, {"10-15", 10, 15}, {"15-20", 15, 20}, {"20-25", 20, 25}, {"25+", 25, 1000}}

// FleetAgeWeek is a row of fleet_age_weekly: the vessels calling a port in
// a week, of a category ("all" for every vessel), in one age bucket.
type FleetAgeWeek struct {
	Week             time.Time
	Port, VesselType string
	Bucket           string
	Vessels          int
	Estimated        int // of which the build year is estimated from the IMO number
	MeanAge          float64
}

// FleetAgeWeeks computes, per port, week and category, the distinct
// vessels with a published call overlapping the week in each age bucket
// (age = the week's year less the build year).
func FleetAgeWeeks(calls []portcall.Call, weeks []time.Time) []FleetAgeWeek {
	types := append([]string{AllTypes}, vessel.CategoryNames()...)
	var out []FleetAgeWeek
	for _, p := range seaport.All() {
		for _, w := range weeks {
			end := w.Add(7 * day)
			vessels := map[overwatch.IMO]*portcall.Call{}
			for i := range calls {
				c := &calls[i]
				if c.Port == p.Slug && c.Published() && c.Arrival.Before(end) && (c.Departure == nil || !c.Departure.Before(w)) {
					vessels[c.IMO] = c
				}
			}
			for _, vt := range types {
				rows := make([]FleetAgeWeek, len(AgeBuckets))
				for i, b := range AgeBuckets {
					rows[i] = FleetAgeWeek{Week: w, Port: p.Slug, VesselType: vt, Bucket: b.Name}
				}
				for _, c := range vessels {
					if vt != AllTypes && c.Category != vt {
						continue
					}
					age := max(0, w.Year()-c.BuildYear)
					for i, b := range AgeBuckets {
						if age >= b.Lo && age < b.Hi {
							rows[i].Vessels++
							rows[i].MeanAge += float64(age)
							if c.BuildYearEstimated {
								rows[i].Estimated++
							}
						}
					}
				}
				for i := range rows {
					if rows[i].Vessels > 0 {
						rows[i].MeanAge /= float64(rows[i].Vessels)
					}
				}
				out = append(out, rows...)
			}
		}
	}
	return out
}

// EstimateWeek is a row of estimates_weekly: a port's exports in an ISO
// week, from the calls that departed in it.
type EstimateWeek struct {
	Week             time.Time
	Port             string
	ISOYear, ISOWeek int
	Vessels          int // distinct vessels that loaded
	Calls            int // calls that ended in the week
	CallsWithDraught int // of which with a draught on arrival and departure
	Tonnage          float64
	Confidence       float64
}

// Confidence weights of a call's draught data.
var draughtWeight = map[string]float64{portcall.CargoMeasured: 1, portcall.CargoAssumed: 0.75, portcall.CargoNoDraught: 0.25}

// EstimateWeeks computes each port's weekly exports: the tonnage loaded by
// the published calls that departed in the week. Confidence, 0 to 1, is
// the mean over those calls of (call confidence / 4) x the weight of its
// draught data (1 measured, 0.75 with an assumed ballast draught, 0.25
// without draughts); 0 for a week without calls.
func EstimateWeeks(calls []portcall.Call, weeks []time.Time) []EstimateWeek {
	var out []EstimateWeek
	for _, p := range seaport.All() {
		for _, w := range weeks {
			end := w.Add(7 * day)
			row := EstimateWeek{Week: w, Port: p.Slug}
			row.ISOYear, row.ISOWeek = w.ISOWeek()
			loaders := map[overwatch.IMO]bool{}
			var conf float64
			for i := range calls {
				c := &calls[i]
				if c.Port != p.Slug || !c.Published() || c.Departure == nil || !within(*c.Departure, w, end) {
					continue
				}
				row.Calls++
				conf += float64(c.Confidence) / 4 * draughtWeight[c.CargoQuality]
				if c.CargoQuality != portcall.CargoNoDraught {
					row.CallsWithDraught++
				}
				if c.Operation == portcall.OpLoad {
					row.Tonnage += c.CargoTonnes
					loaders[c.IMO] = true
				}
			}
			row.Vessels = len(loaders)
			if row.Calls > 0 {
				row.Confidence = math.Round(conf/float64(row.Calls)*100) / 100
			}
			out = append(out, row)
		}
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
