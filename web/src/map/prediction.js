// The selected vessel's prediction: the panel's "Next port" section asks
// for the vessel's predicted next ports and shows the most probable one
// with its ETA and interval; the map draws the route to it, dashed, taken
// the short way across the antimeridian, with the port marked and its ETA
// on hover: the answer's route along the sea lanes, or, when it has none
// (no last port, the vessel off the lanes), the great circle from the
// vessel to the port.
//
// A vessel placed on the map is first looked up in GET /v1/predictions
// within a small box around its position: a vessel not under way is then
// an empty list, where GET /v1/vessels/{imo}/prediction answers 404, which
// the browser logs as a failed load on every click of a moored vessel. A
// vessel found there, and every vessel without coordinates (Free), is
// asked from GET /v1/vessels/{imo}/prediction, which gives the routes.
import L from 'leaflet';
import { getJSON } from '../common/api.js';
import { greatCircle, unwrap } from './geo.js';

/** The state the tests read (window.__map.prediction); by is 'sea lanes' or 'great circle'. */
export const predictionState = { imo: null, state: 'none', port: null, eta: null, path: null, by: null };

const when = (iso) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '–');

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** The vessel's prediction (with next_ports and their routes), or null when it has none. */
async function ask(item) {
  const imo = item.imo_number;
  if (item.latitude != null) {
    const d = 0.25, lat = item.latitude, lon = item.longitude;
    const box = [Math.max(-180, lon - d), Math.max(-90, lat - d), Math.min(180, lon + d), Math.min(90, lat + d)].map((v) => v.toFixed(5));
    const r = await getJSON(`/predictions?bbox=${box.join(',')}&limit=1000`);
    if (!r.predictions.some((p) => p.imo_number === imo)) return null;
  }
  return (await getJSON(`/vessels/${imo}/prediction`)).prediction;
}

/**
 * The panel's prediction section for a vessel item; the route goes into
 * group. portOf(slug) gives a port of /v1/ports (with its coordinates when
 * the plan gives them) or null.
 */
export function predictionSection(group, item, portOf) {
  const imo = item.imo_number;
  Object.assign(predictionState, { imo, state: 'loading', port: null, eta: null, path: null, by: null });
  const section = el('section', null, 'prediction');
  const body = el('p', 'Asking for the prediction…', 'note');
  section.append(el('h3', 'Next port'), body);
  ask(item).then((pred) => {
    if (predictionState.imo !== imo) return;
    const next = ((pred && pred.next_ports) || []).slice().sort((a, b) => b.probability - a.probability);
    if (!next.length) {
      predictionState.state = 'none';
      body.textContent = 'No next port predicted (the vessel is not under way to a port the model knows).';
      return;
    }
    const top = next[0];
    const port = portOf(top.port);
    const name = top.port_name || (port && port.name) || top.port;
    const dl = el('dl');
    for (const [k, v] of [
      ['Port', `${name} (${Math.round(top.probability * 100)}%)`],
      ['ETA', when(top.eta)],
      ['Between', top.eta_low ? `${when(top.eta_low)} and ${when(top.eta_high)}` : null],
      ['Distance', top.distance_nm == null ? null : `${Math.round(top.distance_nm).toLocaleString()} nm`],
      ['Other ports', next.slice(1, 4).map((n) => `${n.port_name || n.port} ${Math.round(n.probability * 100)}%`).join(', ') || null],
    ]) {
      if (v != null) dl.append(el('dt', k), el('dd', v));
    }
    const from = item.latitude != null ? [item.latitude, item.longitude] : null;
    const to = port && port.latitude != null ? [port.latitude, port.longitude] : null;
    let path = null, by = null;
    if (top.route && top.route.length > 1) {
      path = unwrap(top.route);
      by = 'sea lanes';
    } else if (from && to) {
      path = greatCircle(from, to);
      by = 'great circle';
    }
    if (path) {
      L.polyline(path, { color: '#2b8a3e', weight: 2, dashArray: '6 5', interactive: false }).addTo(group);
      L.circleMarker(path[path.length - 1], { radius: 7, weight: 2, color: '#2b8a3e', fillColor: '#fff', fillOpacity: 1 })
        .bindTooltip(`${name}: ETA ${when(top.eta)}`).addTo(group);
    }
    Object.assign(predictionState, { state: 'ready', port: top.port, eta: top.eta, path, by });
    const how = { 'sea lanes': 'Drawn along the sea lanes from the vessel to the port.',
      'great circle': 'Drawn as the great circle from the vessel to the port (no sea-lane route known).' }[by] || '';
    body.replaceWith(dl, el('p', how, 'note'));
  }).catch((e) => {
    if (predictionState.imo !== imo) return;
    predictionState.state = 'error';
    body.textContent = `Prediction: ${e.message}`;
  });
  return section;
}
