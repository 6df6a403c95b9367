package terminals

import (
	"math"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// Window is the trailing window of the dashboards' departures and
// volumes.
const Window = 7 * 24 * time.Hour

// Activity is what a terminal's calls add up to at a moment.
type Activity struct {
	Terminal      Terminal
	CarriersNow   int                // open calls at the terminal's berths, or waiting at its port with the sector's vessel category
	Departures    int                // calls at its berths that left within the window
	ByCommodity   map[string]int     // departures by the commodity of the berth
	VolumeTonnes  float64            // estimated cargo of the loaded departures
	VolumeBy      map[string]float64 // volume by commodity
	LoadedDeparts int                // departures that loaded
}

// Active reports whether the terminal has a carrier now or a departure
// in the window.
func (a Activity) Active() bool { return a.CarriersNow > 0 || a.Departures > 0 }

// sectorCategory is the vessel category of the sector's carriers
// (maritime/vessel): LNG carriers report tanker ship types (80–89), bulk
// carriers cargo types (70–79).
func sectorCategory(sector string) string {
	if sector == SectorLNG {
		return "tanker"
	}
	return "cargo"
}

// Summarise adds up the calls at each terminal at now: a call at a
// terminal's berth zone that left in (now-Window, now] is a departure of
// the berth's commodity; an open call (no departure, arrived by now) at a
// terminal's berth, or at its port without a berth yet by a vessel of the
// sector's category, is a carrier at the terminal now, unless its vessel's
// latest position is stale or away from the port (stillThere). A call at another
// berth of the port (Ras Laffan's crude berth, Dampier's LNG jetty for the
// mining dashboard) counts for no terminal of the sector.
func Summarise(ts []Terminal, calls []Call, now time.Time) []Activity {
	out := make([]Activity, len(ts))
	idx := map[string]int{}
	for i, t := range ts {
		out[i] = Activity{Terminal: t, ByCommodity: map[string]int{}, VolumeBy: map[string]float64{}}
		for _, c := range t.Commodities {
			out[i].ByCommodity[c], out[i].VolumeBy[c] = 0, 0
		}
		idx[t.ID] = i
	}
	from := now.Add(-Window)
	for _, c := range calls {
		i, ok := idx[c.Port]
		if !ok || c.Arrival.After(now) {
			continue
		}
		a := &out[i]
		commodity := a.Terminal.CommodityOf(c.BerthZone)
		if c.Departure == nil || c.Departure.After(now) {
			if !stillThere(c, a.Terminal, now) {
				continue
			}
			if commodity != "" || (c.BerthZone == "" && c.Category == sectorCategory(a.Terminal.Sector)) {
				a.CarriersNow++
			}
			continue
		}
		if commodity == "" || !c.Departure.After(from) {
			continue
		}
		a.Departures++
		a.ByCommodity[commodity]++
		if v := c.VolumeTonnes(commodity); v > 0 {
			a.LoadedDeparts++
			a.VolumeTonnes += v
			a.VolumeBy[commodity] += v
		}
	}
	for i := range out {
		out[i].VolumeTonnes = math.Round(out[i].VolumeTonnes)
		for k, v := range out[i].VolumeBy {
			out[i].VolumeBy[k] = math.Round(v)
		}
	}
	return out
}

// CarrierStale is how old the latest position of a vessel with an open
// call may be for it to count at the terminal now.
const CarrierStale = 24 * time.Hour

// NearPortKM is how far outside the port's area, anchorages and berth
// zones a vessel with an open call may last have been seen.
const NearPortKM = 5.0

// stillThere reports whether an open call's vessel is at the port now by
// its latest position: reported within CarrierStale of now and within
// NearPortKM of one of the port's zones. A call whose vessel has no stored
// latest position counts on the call alone.
func stillThere(c Call, t Terminal, now time.Time) bool {
	if c.Seen == nil {
		return true
	}
	if now.Sub(*c.Seen) > CarrierStale {
		return false
	}
	zones := append(append([]seaport.Zone{t.Port.Area}, t.Port.Anchorages...), t.Port.Berths...)
	for _, z := range zones {
		if geo.DistanceKM(z.Lat, z.Lon, c.SeenLat, c.SeenLon) <= z.RadiusKM+NearPortKM {
			return true
		}
	}
	return false
}

// Ports are the service ports of the terminals (each once).
func Ports(ts []Terminal) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t.Port.Slug] {
			seen[t.Port.Slug] = true
			out = append(out, t.Port.Slug)
		}
	}
	return out
}
