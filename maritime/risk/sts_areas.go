package risk

import "overwatch/maritime/geo"

// stsArea is a known ship-to-ship transfer area: open water where
// transfers are routinely reported, a circle radiusKM around its point.
type stsArea struct {
	name     string
	lat, lon float64
	radiusKM float64
}

// stsAreas are the transfer hubs named in public reporting on the shadow
// fleet (Lloyd's List, Windward, the 2020 US advisory's examples) that lie
// on the trades of the reference ports; the simulator stations its
// shuttles in the same four.
var stsAreas = []stsArea{
	{"Gulf of Laconia", 36.55, 22.85, 15},               // off Kalamata and Gytheio, Greece
	{"Off Lome", 5.70, 1.50, 15},                        // Togo's offshore anchorage
	{"Eastern OPL, Johor", 1.30, 104.55, 15},            // outside port limits, off Malaysia
	{"Gulf of Oman, off Khor Fakkan", 25.35, 56.70, 15}, // off Fujairah and Khor Fakkan
}

// stsAreaAt is the name of the known transfer area containing the point,
// or "".
func stsAreaAt(lat, lon float64) string {
	for _, a := range stsAreas {
		if geo.DistanceKM(lat, lon, a.lat, a.lon) <= a.radiusKM {
			return a.name
		}
	}
	return ""
}
