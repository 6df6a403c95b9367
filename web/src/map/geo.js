// Geometry for the lines the map draws: longitudes unwrapped so that a
// line crossing the antimeridian goes the short way (from 179° to 181°,
// not back across the whole map), and great-circle paths.

/**
 * Returns the [lat, lng] points with each longitude shifted by a multiple
 * of 360° to lie within 180° of the previous one, so that no step of the
 * line is longer than half the world east or west. The first point keeps
 * its longitude unless near, given, is a longitude to stay close to.
 */
export function unwrap(points, near) {
  const out = [];
  let prev = near;
  for (const [lat, lng] of points) {
    let x = lng;
    if (prev != null) {
      while (x - prev > 180) x -= 360;
      while (prev - x > 180) x += 360;
    }
    out.push([lat, x]);
    prev = x;
  }
  return out;
}

const rad = (d) => (d * Math.PI) / 180;
const deg = (r) => (r * 180) / Math.PI;

/** The great-circle distance between two [lat, lng] points, in nautical miles. */
export function distanceNM([lat1, lng1], [lat2, lng2]) {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(a))) * 3440.065;
}

/**
 * The great circle from a to b ([lat, lng]) as n+1 points, unwrapped so
 * that it is drawn the short way.
 */
export function greatCircle(a, b, n = 64) {
  const [p1, l1, p2, l2] = [rad(a[0]), rad(a[1]), rad(b[0]), rad(b[1])];
  const d = 2 * Math.asin(Math.min(1, Math.sqrt(Math.sin((p2 - p1) / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin((l2 - l1) / 2) ** 2)));
  if (d < 1e-9) return [a, b];
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const f = i / n;
    const A = Math.sin((1 - f) * d) / Math.sin(d), B = Math.sin(f * d) / Math.sin(d);
    const x = A * Math.cos(p1) * Math.cos(l1) + B * Math.cos(p2) * Math.cos(l2);
    const y = A * Math.cos(p1) * Math.sin(l1) + B * Math.cos(p2) * Math.sin(l2);
    const z = A * Math.sin(p1) + B * Math.sin(p2);
    pts.push([deg(Math.atan2(z, Math.hypot(x, y))), deg(Math.atan2(y, x))]);
  }
  return unwrap(pts, a[1]);
}

/** The longest east-west step of a line of [lat, lng] points, in degrees. */
export function longestStep(points) {
  let m = 0;
  for (let i = 1; i < points.length; i++) m = Math.max(m, Math.abs(points[i][1] - points[i - 1][1]));
  return m;
}
