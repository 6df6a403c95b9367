// The layers under the vessels: the land drawn from the service's own
// polygons (GET /map/land.geojson), the ports with their port areas,
// anchorages and berth zones (GET /v1/ports), and the risk events (dark
// gaps, ship-to-ship transfers, loitering: GET /v1/risk/...).
import L from 'leaflet';
import { getJSON } from '../common/api.js';
import { unwrap } from './geo.js';

/**
 * The land as a grid layer drawn in the browser: each 256 px tile is a
 * canvas on which the rings crossing it are drawn, filled together by the
 * even-odd rule (so lakes stay water). Tiles are drawn once per zoom level
 * and kept while the map pans, so panning redraws no coastline. The rings
 * are held in Web Mercator's unit square ([0, 1] on both axes) with their
 * bounding boxes, so a tile takes only a multiply and an add per vertex.
 */
const LandLayer = L.GridLayer.extend({
  initialize(rings, options) {
    L.GridLayer.prototype.initialize.call(this, options);
    this.rings = rings.map((ring) => {
      const xy = new Float64Array(ring.length * 2);
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      ring.forEach(([lon, lat], i) => {
        const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
        const x = (lon + 180) / 360;
        const y = 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      });
      return { xy, x0, y0, x1, y1 };
    });
  },

  createTile(coords) {
    const size = this.getTileSize();
    const tile = document.createElement('canvas');
    tile.width = size.x;
    tile.height = size.y;
    const ctx = tile.getContext('2d');
    const scale = size.x * 2 ** coords.z; // pixels of the whole world at this zoom
    const ox = coords.x * size.x, oy = coords.y * size.y; // the tile's origin in them
    // The tile's box in unit-square coordinates, with a pixel of margin for the stroke.
    const bx0 = (ox - 2) / scale, bx1 = (ox + size.x + 2) / scale, by0 = (oy - 2) / scale, by1 = (oy + size.y + 2) / scale;
    ctx.beginPath();
    for (const r of this.rings) {
      if (r.x1 < bx0 || r.x0 > bx1 || r.y1 < by0 || r.y0 > by1) continue;
      let px = r.xy[0] * scale - ox, py = r.xy[1] * scale - oy;
      ctx.moveTo(px, py);
      for (let i = 2; i < r.xy.length; i += 2) {
        const x = r.xy[i] * scale - ox, y = r.xy[i + 1] * scale - oy;
        if (Math.abs(x - px) + Math.abs(y - py) < 0.7) continue; // under a pixel: skip
        ctx.lineTo(x, y);
        px = x; py = y;
      }
      ctx.closePath();
    }
    ctx.fillStyle = '#f3f0e7';
    ctx.fill('evenodd');
    ctx.lineWidth = 0.6;
    ctx.strokeStyle = '#a8a290';
    ctx.stroke();
    return tile;
  },
});

/** Loads the land polygons and draws them under everything else. */
export async function drawLand(map) {
  const resp = await fetch('/map/land.geojson');
  if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
  const doc = await resp.json();
  const rings = doc.features[0].geometry.coordinates.map((poly) => poly[0]);
  return new LandLayer(rings, { keepBuffer: 4, updateWhenZooming: false }).addTo(map);
}

/** A tooltip's content as text (never parsed as HTML). */
function tip(...lines) {
  const el = document.createElement('div');
  lines.filter(Boolean).forEach((line, i) => {
    if (i) el.appendChild(document.createElement('br'));
    el.appendChild(document.createTextNode(line));
  });
  return el;
}

/**
 * Draws the ports that have coordinates (plans with exact coordinates):
 * the port area dashed, anchorages light blue, berth zones dark, the port
 * itself a white dot with its name on hover. Returns the layer group.
 */
export function drawPorts(ports) {
  const group = L.layerGroup();
  for (const p of ports) {
    if (p.latitude == null) continue;
    const circle = (z, style) => L.circle([z.latitude, z.longitude], { radius: z.radius_km * 1000, interactive: false, ...style });
    if (p.area) group.addLayer(circle(p.area, { color: '#5c7080', weight: 1, dashArray: '4 4', fill: false }));
    for (const z of p.anchorages || []) group.addLayer(circle(z, { color: '#3b7bbf', weight: 1, fillOpacity: 0.1 }));
    for (const z of p.berths || []) group.addLayer(circle(z, { color: '#0b3d66', weight: 1, fillColor: '#0b3d66', fillOpacity: 0.3 }));
    group.addLayer(L.circleMarker([p.latitude, p.longitude], { radius: 5, weight: 2, color: '#0b3d66', fillColor: '#fff', fillOpacity: 1 })
      .bindTooltip(tip(`${p.name} (${p.country})`, `${(p.anchorages || []).length} anchorages, ${(p.berths || []).length} berth zones`)));
  }
  return group;
}

/** How each event type is drawn. */
const EVENT_STYLE = {
  ais_gap: { label: 'dark gap', color: '#c92a2a' },
  sts_transfer: { label: 'STS transfer', color: '#7048e8' },
  loitering: { label: 'loitering', color: '#e8590c' },
};

/**
 * Loads the risk events under way between range.start and range.end (ISO
 * times, the endpoints' start and end): AIS gaps (from /risk/events, every
 * type, newest first), STS transfers and loitering (their own endpoints),
 * up to 500 of each. Returns them with the counts by type.
 */
export async function loadEvents(signal, range) {
  const q = `limit=500&start=${encodeURIComponent(range.start)}&end=${encodeURIComponent(range.end)}`;
  const [all, sts, loiter] = await Promise.all([
    getJSON(`/risk/events?${q}`, { signal }),
    getJSON(`/risk/sts?${q}`, { signal }),
    getJSON(`/risk/loitering?${q}`, { signal }),
  ]);
  const events = [...all.events.filter((e) => e.type === 'ais_gap'), ...sts.events, ...loiter.events];
  const counts = { ais_gap: 0, sts_transfer: 0, loitering: 0 };
  for (const e of events) counts[e.type] = (counts[e.type] || 0) + 1;
  return { events, counts };
}

/**
 * Draws the events that have coordinates: a gap as a dashed line from
 * where the vessel went dark to where it reappeared (the short way: a gap
 * across the antimeridian ends beyond ±180° rather than crossing the
 * whole map), a transfer as a violet ring, loitering as an orange dashed
 * ring.
 */
export function drawEvents(events) {
  const group = L.layerGroup();
  for (const e of events) {
    const s = EVENT_STYLE[e.type];
    if (!s || e.position.lat == null) continue;
    const at = [e.position.lat, e.position.lon];
    const who = e.vessel.name ? `${e.vessel.name} (${e.vessel.imo})` : e.vessel.imo;
    const text = tip(`${s.label}, ${e.severity}${e.ongoing ? ', ongoing' : ''}`, who, `from ${e.start}${e.end ? ` to ${e.end}` : ''}`);
    if (e.type === 'ais_gap' && e.end_position && e.end_position.lat != null) {
      const line = unwrap([at, [e.end_position.lat, e.end_position.lon]]);
      group.addLayer(L.polyline(line, { color: s.color, weight: 1.5, dashArray: '3 4', interactive: false, gap: true }));
    }
    const dash = e.type === 'loitering' ? '2 3' : null;
    group.addLayer(L.circleMarker(at, { radius: 7, weight: 2, color: s.color, fill: false, dashArray: dash }).bindTooltip(text));
  }
  return group;
}

export { EVENT_STYLE };
