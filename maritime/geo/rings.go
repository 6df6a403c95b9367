package geo

// LandRings calls fn with each ring of the land mask, as the longitudes and
// latitudes of its vertices (closed: the last vertex repeats the first).
// Rings are in planar longitude/latitude, cut along the antimeridian, and
// fill by the even-odd rule (a lake is a ring inside a ring). fn must not
// keep or change the slices. The map's basemap is drawn from them.
func LandRings(fn func(lon, lat []float32)) {
	m := landData()
	for r := 0; r+1 < len(m.ringStart); r++ {
		a, b := m.ringStart[r], m.ringStart[r+1]
		fn(m.lon[a:b:b], m.lat[a:b:b])
	}
}
