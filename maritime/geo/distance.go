package geo

import "math"

// DistanceKM is the great-circle distance between two points in kilometres
// (haversine, mean Earth radius 6371.0088 km).
func DistanceKM(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0088
	const rad = math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
}

// Intermediate is the point at fraction f of the great circle from one
// point to another (degrees).
func Intermediate(lat1, lon1, lat2, lon2, f float64) (lat, lon float64) {
	ax, ay, az := unitVec(lat1, lon1)
	bx, by, bz := unitVec(lat2, lon2)
	theta := angleBetween(ax, ay, az, bx, by, bz)
	if theta < 1e-12 {
		return lat1, lon1
	}
	s := math.Sin(theta)
	wa, wb := math.Sin((1-f)*theta)/s, math.Sin(f*theta)/s
	return vecLatLon(wa*ax+wb*bx, wa*ay+wb*by, wa*az+wb*bz)
}
