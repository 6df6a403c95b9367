package track

import "math"

// Point is a position in degrees.
type Point struct{ Lat, Lon float64 }

// earthRadiusM is the mean Earth radius in metres.
const earthRadiusM = 6371008.8

// Simplify returns the indexes of the points kept by Douglas–Peucker with
// a tolerance in metres: the first and the last always, and every point
// farther than tolerance from the chord of the points kept around it.
// Distances are measured on a local equirectangular projection of each
// chord (longitudes taken the short way across the antimeridian), exact
// enough at the scale of a track's legs. A tolerance of zero or less keeps
// every point.
func Simplify(pts []Point, tolerance float64) []int {
	n := len(pts)
	if n <= 2 || tolerance <= 0 {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all
	}
	keep := make([]bool, n)
	keep[0], keep[n-1] = true, true
	stack := [][2]int{{0, n - 1}}
	for len(stack) > 0 {
		lo, hi := stack[len(stack)-1][0], stack[len(stack)-1][1]
		stack = stack[:len(stack)-1]
		if hi-lo < 2 {
			continue
		}
		far, at := -1.0, -1
		for i := lo + 1; i < hi; i++ {
			if d := chordDistance(pts[lo], pts[hi], pts[i]); d > far {
				far, at = d, i
			}
		}
		if far > tolerance {
			keep[at] = true
			stack = append(stack, [2]int{lo, at}, [2]int{at, hi})
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// chordDistance is the distance in metres from p to the chord a-b, on the
// equirectangular projection centred on a.
func chordDistance(a, b, p Point) float64 {
	cos := math.Cos(a.Lat * math.Pi / 180)
	project := func(q Point) (x, y float64) {
		dLon := q.Lon - a.Lon
		if dLon > 180 {
			dLon -= 360
		} else if dLon < -180 {
			dLon += 360
		}
		return dLon * math.Pi / 180 * cos * earthRadiusM, (q.Lat - a.Lat) * math.Pi / 180 * earthRadiusM
	}
	bx, by := project(b)
	px, py := project(p)
	l2 := bx*bx + by*by
	if l2 == 0 {
		return math.Hypot(px, py)
	}
	t := math.Max(0, math.Min(1, (px*bx+py*by)/l2))
	return math.Hypot(px-t*bx, py-t*by)
}
