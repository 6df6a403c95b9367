package earnings

import (
	"time"

	"overwatch"
	"overwatch/maritime/emissions"
)

// FuelLeg is a leg of voyage_emissions: the fuel the emissions model
// estimated between two consecutive port calls of a vessel, the method it
// used, the vessel's deadweight it used (0: unknown) and the model's input
// (nil when not kept).
type FuelLeg struct {
	IMO                overwatch.IMO
	Departure, Arrival time.Time
	FuelTonnes         Bounds
	DistanceNM         float64
	DWT                float64
	Method             string
	Input              *emissions.VoyageInput
}

// Fuel is the leg's fuel and distance. A leg whose AIS track was too
// sparse for the bottom-up model (the GLEC default intensity, which knows
// neither speed nor size) is computed again by the same model with the
// speed the leg's times imply: its sea-lane distance over the time from
// the departure to the arrival (the speed_knots override of
// GET /v1/emissions); the stored result stands when that cannot be done.
func (l FuelLeg) Fuel() (Bounds, float64) {
	if l.Method != string(emissions.MethodDefaultIntensity) || l.Input == nil {
		return l.FuelTonnes, l.DistanceNM
	}
	in := *l.Input
	if hours := l.Arrival.Sub(l.Departure).Hours(); in.SeaLaneDistanceNM > 0 && hours > 0 && in.SpeedKnots <= 0 {
		in.SpeedKnots = in.SeaLaneDistanceNM / hours
		if res := emissions.ComputeVoyage(in); res.Method == emissions.MethodBottomUp {
			return Bounds{Low: res.FuelTonnes.Low, Central: res.FuelTonnes.Central, High: res.FuelTonnes.High}, res.DistanceNM
		}
	}
	return l.FuelTonnes, l.DistanceNM
}

// legSlack is how far a leg's ends may lie outside a voyage's and still
// be one of its legs (the port calls' times are the same ones, rounded by
// storage to the second).
const legSlack = time.Hour

// FuelOf sums the fuel and distance of the vessel's legs (sorted or not)
// that lie within the voyage from departure to arrival; ok is false when
// none does. dwt is the first known deadweight of those legs.
func FuelOf(legs []FuelLeg, imo overwatch.IMO, departure, arrival time.Time) (fuel Bounds, distanceNM, dwt float64, ok bool) {
	for _, l := range legs {
		if l.IMO != imo || l.Departure.Before(departure.Add(-legSlack)) || l.Arrival.After(arrival.Add(legSlack)) {
			continue
		}
		f, d := l.Fuel()
		fuel = fuel.Add(f)
		distanceNM += d
		if dwt == 0 {
			dwt = l.DWT
		}
		ok = true
	}
	return fuel, distanceNM, dwt, ok
}
