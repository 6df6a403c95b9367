// The selected vessel's track: the panel's "Track" section asks GET
// /v1/vessels/{imo}/track?format=geojson over the chosen dates (by
// default the 7 days up to the vessel's newest fix), draws each segment
// (the API splits the track at reporting gaps) as a line taken the short
// way across the antimeridian, and plays it back: play/pause, a slider
// over the track's time, a marker moving along the fixes, and a speed.
import L from 'leaflet';
import { getJSON } from '../common/api.js';
import { unwrap } from './geo.js';

const DAY = 86400000;

/** Playback speeds: track time per second of playback. */
const SPEEDS = [['1 h/s', 3600e3], ['6 h/s', 6 * 3600e3], ['1 day/s', DAY], ['3 days/s', 3 * DAY]];

/** The state the tests read (window.__map.track). */
export const trackState = { imo: null, state: 'none', segments: 0, fixes: 0, start: null, end: null, t: null, playing: false, at: null, path: null };

/** YYYY-MM-DD of a time in ms. */
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

/** The fix at time t: interpolated between two fixes of one segment, else the last fix before t. */
export function positionAt(fixes, t) {
  if (!fixes.length) return null;
  if (t <= fixes[0].t) return [fixes[0].lat, fixes[0].lng];
  let lo = 0, hi = fixes.length - 1;
  if (t >= fixes[hi].t) return [fixes[hi].lat, fixes[hi].lng];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fixes[mid].t <= t) lo = mid;
    else hi = mid;
  }
  const a = fixes[lo], b = fixes[hi];
  if (a.seg !== b.seg || b.t === a.t) return [a.lat, a.lng];
  const f = (t - a.t) / (b.t - a.t);
  return [a.lat + f * (b.lat - a.lat), a.lng + f * (b.lng - a.lng)];
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/**
 * The panel's track section for a vessel item of /v1/vessels/positions;
 * the lines and the playback marker go into group (on map).
 */
export function trackSection(map, group, item) {
  const imo = item.imo_number;
  const newest = item.timestamp ? Date.parse(item.timestamp) : null;
  Object.assign(trackState, { imo, state: 'none', segments: 0, fixes: 0, start: null, end: null, t: null, playing: false, at: null, path: null });
  const section = el('section', null, 'track');
  const form = el('form', null, 'track-range');
  const start = el('input');
  start.type = 'date';
  start.name = 'start';
  const end = el('input');
  end.type = 'date';
  end.name = 'end';
  if (newest != null) {
    end.value = day(newest);
    start.value = day(newest - 7 * DAY);
  }
  const show = el('button', 'Show track');
  show.type = 'submit';
  const lFrom = el('label', 'From ');
  lFrom.append(start);
  const lTo = el('label', 'to ');
  lTo.append(end);
  form.append(lFrom, lTo, show);
  const note = el('p', null, 'note');
  const player = el('div', null, 'player');
  player.hidden = true;
  section.append(el('h3', 'Track'), form, note, player);

  let lines = null, marker = null, fixes = [], raf = 0, last = 0, token = 0;
  const play = el('button', 'Play');
  play.type = 'button';
  play.name = 'play';
  const slider = el('input');
  slider.type = 'range';
  slider.name = 'time';
  const speed = el('select');
  speed.name = 'speed';
  for (const [label, v] of SPEEDS) speed.append(new Option(label, String(v)));
  speed.value = String(6 * 3600e3);
  const clock = el('span', null, 'clock');
  const lSpeed = el('label', 'Speed ');
  lSpeed.append(speed);
  player.append(play, slider, lSpeed, clock);

  function seek(t) {
    trackState.t = t;
    slider.value = String(t);
    const at = positionAt(fixes, t);
    trackState.at = at;
    if (at && marker) marker.setLatLng(at);
    clock.textContent = `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }
  function pause() {
    cancelAnimationFrame(raf);
    trackState.playing = false;
    play.textContent = 'Play';
  }
  function tick(now) {
    const t = Math.min(Number(slider.max), trackState.t + ((now - last) / 1000) * Number(speed.value));
    last = now;
    seek(t);
    if (t >= Number(slider.max)) pause();
    else raf = requestAnimationFrame(tick);
  }
  play.addEventListener('click', () => {
    if (trackState.playing) return pause();
    if (trackState.t >= Number(slider.max)) seek(Number(slider.min));
    trackState.playing = true;
    play.textContent = 'Pause';
    last = performance.now();
    raf = requestAnimationFrame(tick);
  });
  slider.addEventListener('input', () => seek(Number(slider.value)));

  async function load(fit) {
    const mine = ++token;
    pause();
    if (lines) lines.remove();
    if (marker) marker.remove();
    lines = marker = null;
    player.hidden = true;
    if (!start.value || !end.value) {
      note.textContent = 'Choose the dates of the track.';
      return;
    }
    if (end.value < start.value) {
      note.textContent = 'The end date is before the start date.';
      return;
    }
    trackState.state = 'loading';
    note.textContent = 'Asking for the track…';
    try {
      const q = `start=${start.value}T00:00:00Z&end=${end.value}T23:59:59Z`;
      const f = await getJSON(`/vessels/${imo}/track?format=geojson&${q}`);
      if (mine !== token) return;
      draw(f, fit);
    } catch (e) {
      if (mine !== token) return;
      trackState.state = 'error';
      note.textContent = `Track: ${e.message}`;
    }
  }

  function draw(f, fit) {
    const coords = f.geometry ? f.geometry.coordinates : [];
    const times = f.properties.timestamps || [];
    fixes = [];
    const paths = [];
    let near = item.longitude ?? null;
    coords.forEach((line, s) => {
      const pts = unwrap(line.map(([lng, lat]) => [lat, lng]), fixes.length ? fixes[fixes.length - 1].lng : near);
      pts.forEach(([lat, lng], i) => fixes.push({ t: Date.parse(times[s][i]), lat, lng, seg: s }));
      paths.push(pts);
    });
    Object.assign(trackState, { state: 'ready', segments: paths.length, fixes: fixes.length, path: paths });
    if (!fixes.length) {
      note.textContent = f.geometry === null && f.properties.fixes > 0
        ? 'This plan gives no exact coordinates: the track cannot be drawn.'
        : 'No position reported in these dates.';
      return;
    }
    lines = L.polyline(paths, { color: '#0b5cad', weight: 2, opacity: 0.85, interactive: false }).addTo(group);
    marker = L.circleMarker([fixes[0].lat, fixes[0].lng], { radius: 6, weight: 2, color: '#fff', fillColor: '#e8590c', fillOpacity: 1 }).addTo(group);
    slider.min = String(fixes[0].t);
    slider.max = String(fixes[fixes.length - 1].t);
    slider.step = 'any';
    Object.assign(trackState, { start: fixes[0].t, end: fixes[fixes.length - 1].t });
    player.hidden = false;
    seek(fixes[0].t);
    note.textContent = `${fixes.length.toLocaleString()} fixes in ${paths.length} segment${paths.length === 1 ? '' : 's'} (split at reporting gaps over ${f.properties.gap_hours} h).`;
    if (fit) map.fitBounds(lines.getBounds(), { padding: [30, 30], maxZoom: 10 });
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    load(true);
  });
  load(false);
  return { section, stop: pause };
}
