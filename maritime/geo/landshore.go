package geo

import "math"

// DistanceToShoreKM is the great-circle distance in kilometres from the point
// to the nearest coastline of the Natural Earth 1:10m land polygons (the
// nearest point of any coast segment, segments taken as great-circle arcs
// between their vertices); 0 on the coast. For a point on land it is the
// distance to the coast as well, so callers that need a signed distance
// combine it with OnLand. The cuts of the data along the antimeridian and
// Antarctica's closure along the pole are not coast. A NaN or infinite
// coordinate gives NaN.
func DistanceToShoreKM(lat, lon float64) float64 {
	if !finite(lat, lon) {
		return math.NaN()
	}
	lat, lon = landNorm(lat, lon)
	return landData().distanceToShore(lat, lon)
}

// shoreQuery is one distance search: the point, the best squared chord
// (unit sphere) found so far and the search limit, an angle no smaller than
// the answer.
type shoreQuery struct {
	m          *landIndex
	lat, lon   float64
	sinLat     float64
	cosLat     float64
	px, py, pz float64
	best       float64 // squared chord
	limit      float64 // radians
}

func (m *landIndex) distanceToShore(lat, lon float64) float64 {
	q := shoreQuery{m: m, lat: lat, lon: lon, best: math.Inf(1), limit: math.Pi}
	q.sinLat, q.cosLat = math.Sincos(lat * degToRad)
	q.px, q.py, q.pz = unitVec(lat, lon)
	r, c := landCell(lat, lon)
	br, bc := r/landBlock, c/landBlock
	// Upper bound from the block's seed, a nearby block that holds coast.
	sb := int(m.seed[br*landBCols+bc])
	sx, sy, sz := m.blockCentre(sb/landBCols, sb%landBCols)
	q.limit = min(math.Pi, angleBetween(q.px, q.py, q.pz, sx, sy, sz)+m.blockRho[sb/landBCols])
	// Block rows outwards from the point's, north and south, each while its
	// latitude gap is within the limit.
	q.blockRow(br, bc)
	for _, dir := range [2]int{1, -1} {
		for b := br + dir; b >= 0 && b < landBRows; b += dir {
			const bdeg = landCellDeg * landBlock
			gap := q.lat - (-90 + float64(b+1)*bdeg) // above the band
			if dir > 0 {
				gap = -90 + float64(b)*bdeg - q.lat // below the band
			}
			if gap*degToRad > q.limit {
				break
			}
			q.blockRow(b, bc)
		}
	}
	return chordKM(q.best)
}

// angleBetween is the angle in radians between two unit vectors.
func angleBetween(ax, ay, az, bx, by, bz float64) float64 {
	cx, cy, cz := ay*bz-az*by, az*bx-ax*bz, ax*by-ay*bx
	return math.Atan2(math.Sqrt(cx*cx+cy*cy+cz*cz), ax*bx+ay*by+az*bz)
}

// chordKM converts a squared chord of the unit sphere to kilometres on Earth.
func chordKM(c2 float64) float64 {
	if math.IsInf(c2, 1) {
		return math.Inf(1)
	}
	return 2 * earthRadiusKM * math.Asin(min(1, math.Sqrt(c2)/2))
}

// lonReach is the largest longitude difference, in degrees, at which a point
// of the latitude band [lo, hi] (degrees) lies within the search limit; 180
// when the whole band may.
func (q *shoreQuery) lonReach(lo, hi float64) float64 {
	if q.limit >= math.Pi/2 || math.Abs(q.lat)*degToRad+q.limit >= math.Pi/2-1e-9 {
		return 180
	}
	cb := math.Cos(q.limit)
	// The cap is widest at the latitude psi with sin psi = sin lat / cos limit.
	psi := math.Asin(max(-1, min(1, q.sinLat/cb)))
	psi = max(lo*degToRad, min(hi*degToRad, psi))
	sp, cp := math.Sincos(psi)
	den := q.cosLat * cp
	if den <= 0 {
		return 180
	}
	x := (cb - q.sinLat*sp) / den
	if x <= -1 {
		return 180
	}
	if x >= 1 {
		return 0
	}
	return math.Acos(x) / degToRad
}

// blockRow visits the coast blocks of block row b within the limit,
// outwards from block column bc.
func (q *shoreQuery) blockRow(b, bc int) {
	const bdeg = landCellDeg * landBlock
	m := q.m
	lo := -90 + float64(b)*bdeg
	reach := q.lonReach(lo, lo+bdeg)
	// Columns within reach of the point's longitude, plus one for the
	// point's offset within its own block.
	k := int(reach/bdeg) + 2
	if k >= landBCols/2 {
		k = landBCols / 2
	}
	cosLim := math.Cos(min(math.Pi, q.limit+m.blockRho[b]))
	for off := 0; off <= k; off++ {
		for _, s := range [2]int{1, -1} {
			if off == 0 && s < 0 || off == landBCols/2 && s < 0 {
				continue
			}
			c := ((bc+s*off)%landBCols + landBCols) % landBCols
			if !m.coastBlock[b*landBCols+c] {
				continue
			}
			x, y, z := m.blockCentre(b, c)
			if q.px*x+q.py*y+q.pz*z < cosLim {
				continue // the whole block lies beyond the limit
			}
			q.block(b, c)
			cosLim = math.Cos(min(math.Pi, q.limit+m.blockRho[b]))
		}
	}
}

// block visits the coast cells of block (b, c) within the limit.
func (q *shoreQuery) block(b, c int) {
	m := q.m
	for r := b * landBlock; r < (b+1)*landBlock; r++ {
		cosLim := math.Cos(min(math.Pi, q.limit+m.cellRho[r]))
		sr, cr := m.rowSin[r], m.rowCos[r]
		for cc := c * landBlock; cc < (c+1)*landBlock; cc++ {
			k := r*landCols + cc
			if m.coastCell[k/64]&(1<<(k%64)) == 0 {
				continue
			}
			if q.px*cr*m.colCos[cc]+q.py*cr*m.colSin[cc]+q.pz*sr < cosLim {
				continue
			}
			if q.cellEdges(k) {
				cosLim = math.Cos(min(math.Pi, q.limit+m.cellRho[r]))
			}
		}
	}
}

// landStepKM is the longest piece of a great circle that CrossesLand treats
// as straight in longitude/latitude: its bulge is under 10 m below 75°.
const landStepKM = 10

// CrossesLand reports whether the great-circle segment between the two
// points touches land: an end on land, or a crossing of (or contact with) a
// land polygon edge. The great circle is cut into pieces of at most
// landStepKM, each tested exactly against the polygon edges of the grid
// cells it meets; the antimeridian is handled. Canals and rivers are land in
// this data. For antipodal points, whose great circle is not unique, one
// through a point a quarter turn from both is used. A NaN or infinite
// coordinate gives false.
func CrossesLand(lat1, lon1, lat2, lon2 float64) bool {
	if !finite(lat1, lon1, lat2, lon2) {
		return false
	}
	m := landData()
	lat1, lon1 = landNorm(lat1, lon1)
	lat2, lon2 = landNorm(lat2, lon2)
	if m.onLand(lat1, lon1) || m.onLand(lat2, lon2) {
		return true
	}
	return m.arcTouches(lat1, lon1, lat2, lon2)
}

func (m *landIndex) arcTouches(lat1, lon1, lat2, lon2 float64) bool {
	ax, ay, az := unitVec(lat1, lon1)
	bx, by, bz := unitVec(lat2, lon2)
	cx, cy, cz := ay*bz-az*by, az*bx-ax*bz, ax*by-ay*bx
	sinT := math.Sqrt(cx*cx + cy*cy + cz*cz)
	theta := math.Atan2(sinT, ax*bx+ay*by+az*bz)
	if theta > math.Pi-1e-6 {
		// Antipodes: go through a point a quarter turn away.
		px, py, pz := -ay, ax, 0.0
		if math.Hypot(px, py) < 1e-9 {
			px, py, pz = 1, 0, 0
		}
		mlat, mlon := vecLatLon(px, py, pz)
		return m.onLand(mlat, mlon) || m.arcTouches(lat1, lon1, mlat, mlon) || m.arcTouches(mlat, mlon, lat2, lon2)
	}
	n := max(1, int(math.Ceil(theta*earthRadiusKM/landStepKM)))
	pLat, pLon := lat1, lon1
	for i := 1; i <= n; i++ {
		lat, lon := lat2, lon2
		if i < n {
			t := float64(i) / float64(n)
			wa, wb := math.Sin((1-t)*theta)/sinT, math.Sin(t*theta)/sinT
			lat, lon = vecLatLon(wa*ax+wb*bx, wa*ay+wb*by, wa*az+wb*bz)
		}
		if m.planarTouches(pLat, pLon, lat, lon) {
			return true
		}
		pLat, pLon = lat, lon
	}
	return false
}

// vecLatLon is the latitude/longitude in degrees of a (not necessarily unit)
// vector, the longitude in [-180, 180).
func vecLatLon(x, y, z float64) (lat, lon float64) {
	lat = math.Atan2(z, math.Hypot(x, y)) / degToRad
	lon = math.Atan2(y, x) / degToRad
	return landNorm(lat, lon)
}

// planarTouches tests the straight longitude/latitude segment, split at the
// antimeridian, against the edges of the cells its bounding box meets.
func (m *landIndex) planarTouches(lat1, lon1, lat2, lon2 float64) bool {
	if math.Abs(lon2-lon1) > 180 {
		e, lon2u := 180.0, lon2+360
		if lon1 < 0 {
			e, lon2u = -180, lon2-360
		}
		latX := lat1 + (e-lon1)/(lon2u-lon1)*(lat2-lat1)
		return m.planarTouches(lat1, lon1, latX, e) || m.planarTouches(latX, -e, lat2, lon2)
	}
	r0, c0 := landCell(min(lat1, lat2), min(lon1, lon2))
	r1, c1 := landCell(max(lat1, lat2), max(lon1, lon2))
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			k := r*landCols + c
			for _, e := range m.cellEdge[m.cellStart[k]:m.cellStart[k+1]] {
				i := e &^ landArtificial
				if segmentsTouch(lon1, lat1, lon2, lat2,
					float64(m.lon[i]), float64(m.lat[i]), float64(m.lon[i+1]), float64(m.lat[i+1])) {
					return true
				}
			}
		}
	}
	return false
}

// segmentsTouch reports whether the plane segments ab and cd share a point.
func segmentsTouch(ax, ay, bx, by, cx, cy, dx, dy float64) bool {
	if max(ax, bx) < min(cx, dx) || max(cx, dx) < min(ax, bx) ||
		max(ay, by) < min(cy, dy) || max(cy, dy) < min(ay, by) {
		return false
	}
	d1 := orient(cx, cy, dx, dy, ax, ay)
	d2 := orient(cx, cy, dx, dy, bx, by)
	d3 := orient(ax, ay, bx, by, cx, cy)
	d4 := orient(ax, ay, bx, by, dx, dy)
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	// Touching or collinear: an end lies on the other segment (the bounding
	// boxes overlap, so a zero orientation means contact).
	return (d1 == 0 && within(cx, cy, dx, dy, ax, ay)) || (d2 == 0 && within(cx, cy, dx, dy, bx, by)) ||
		(d3 == 0 && within(ax, ay, bx, by, cx, cy)) || (d4 == 0 && within(ax, ay, bx, by, dx, dy))
}

func orient(ax, ay, bx, by, cx, cy float64) float64 {
	return (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
}

// within reports whether c, collinear with ab, lies in ab's bounding box.
func within(ax, ay, bx, by, cx, cy float64) bool {
	return cx >= min(ax, bx) && cx <= max(ax, bx) && cy >= min(ay, by) && cy <= max(ay, by)
}

// cellEdges updates the best squared chord and the limit with the coast
// edges of cell k, and reports whether they improved.
func (q *shoreQuery) cellEdges(k int) bool {
	m := q.m
	px, py, pz := q.px, q.py, q.pz
	best := q.best
	for _, e := range m.cellEdge[m.cellStart[k]:m.cellStart[k+1]] {
		if e&landArtificial != 0 {
			continue
		}
		j := 3 * int(e)
		ax, ay, az := float64(m.xyz[j]), float64(m.xyz[j+1]), float64(m.xyz[j+2])
		bx, by, bz := float64(m.xyz[j+3]), float64(m.xyz[j+4]), float64(m.xyz[j+5])
		// Squared chords to the two ends.
		da := (px-ax)*(px-ax) + (py-ay)*(py-ay) + (pz-az)*(pz-az)
		db := (px-bx)*(px-bx) + (py-by)*(py-by) + (pz-bz)*(pz-bz)
		d := min(da, db)
		// The arc's interior: with n = a×b, the foot of the point on the
		// great circle lies between a and b when (a×p)·n >= 0 and
		// (p×b)·n >= 0; its distance is asin(|p·n|/|n|).
		nx, ny, nz := ay*bz-az*by, az*bx-ax*bz, ax*by-ay*bx
		n2 := nx*nx + ny*ny + nz*nz
		if n2 > 0 {
			pa := px*ax + py*ay + pz*az
			pb := px*bx + py*by + pz*bz
			ab := ax*bx + ay*by + az*bz
			if (ax*ax+ay*ay+az*az)*pb-ab*pa >= 0 && (bx*bx+by*by+bz*bz)*pa-ab*pb >= 0 {
				pn := px*nx + py*ny + pz*nz
				s2 := min(1, pn*pn/n2)
				d = min(d, 2*s2/(1+math.Sqrt(1-s2)))
			}
		}
		best = min(best, d)
	}
	if best >= q.best {
		return false
	}
	q.best = best
	if a := 2 * math.Asin(min(1, math.Sqrt(best)/2)); a < q.limit {
		q.limit = a
	}
	return true
}
