// /map: the fleet's latest positions, the 40 ports with their anchorages
// and berth zones, and the risk events, on a basemap drawn from the
// service's own land polygons. Everything comes from this service: no tile
// server. The page shows what the key's plan gives: without exact
// coordinates (Free) it lists the ports with their counts instead of
// placing vessels.
//
// A search box finds a vessel and selects it; the selected vessel's panel
// shows its track with playback (track.js) and its predicted next port
// (prediction.js); the risk events are those under way in a chosen range
// (the 7 days up to the data's newest position by default); an area drawn
// on the map becomes an export (exportarea.js).
//
// For tests and benchmarks it exposes window.__map (the Leaflet map, the
// marker count, a vessel's position, load timings, the track, prediction,
// export and event-range states) and #map's data-markers / data-state
// attributes.
import L from 'leaflet';
import { apiKey, getJSON, mountHeader, status } from '../common/api.js';
import { FleetLayer, loadFleet, TYPE_COLOURS, TIER_COLOURS } from './fleet.js';
import { drawLand, drawPorts, drawEvents, loadEvents, EVENT_STYLE } from './overlays.js';
import { openPanel, closePanel } from './panel.js';
import { mountSearch } from './search.js';
import { trackSection, trackState } from './track.js';
import { predictionSection, predictionState } from './prediction.js';
import { mountExportArea, exportState } from './exportarea.js';

const mapEl = document.getElementById('map');
const form = document.getElementById('filters');
const counts = document.getElementById('counts');

const map = L.map(mapEl, {
  preferCanvas: true, minZoom: 2, maxZoom: 14, zoomSnap: 0.5,
  maxBounds: [[-85, -240], [85, 240]], maxBoundsViscosity: 0.8,
}).setView([20, 10], 2);
map.attributionControl.setPrefix('<a href="/licenses/leaflet.txt">Leaflet</a>');
map.attributionControl.addAttribution('Land: Natural Earth');

const selection = L.layerGroup().addTo(map); // the selected vessel's track and predicted route
let stopTrack = () => {};
const fleet = new FleetLayer(map, (item) => select(item, false));
let ports = [];
let newest = null; // the newest position's time (ms) of the fleet loaded
let eventRange = null; // the risk events' {start, end} drawn
let rangeTouched = false; // the user chose the events' dates
let portLayer = null;
let eventLayer = null;
let loading = null; // the AbortController of the load under way
let fleetState = { total: 0, exact: true, shown: 0 };
let eventSummary = ''; // the risk events' counts, for the counts line
const timings = {};
// The basemap, drawn once; a failure stays in the status line.
let landError = '';
const landDrawn = drawLand(map).catch((e) => {
  landError = `Land polygons: ${e.message}`;
  status(landError, true);
});

/** The hook tests and benchmarks read. */
window.__map = {
  map,
  timings,
  get markerCount() { return fleet.count; },
  get state() { return mapEl.dataset.state; },
  /** The [lat, lng] of a vessel's marker, or null. */
  latLngOf(imo) {
    const m = fleet.markers.get(imo);
    return m ? [m.getLatLng().lat, m.getLatLng().lng] : null;
  },
  imos() { return [...fleet.markers.keys()]; },
  get selected() { return document.getElementById('panel').dataset.imo || null; },
  track: trackState,
  prediction: predictionState,
  exportArea: exportState,
  get eventRange() { return eventRange; },
  /** The [lat, lng] points of the drawn dark-gap lines. */
  gapLines() {
    const out = [];
    if (eventLayer) eventLayer.eachLayer((l) => { if (l.options.gap) out.push(l.getLatLngs().map((p) => [p.lat, p.lng])); });
    return out;
  },
};

/**
 * Selects a vessel (an item of /v1/vessels/positions): its panel with its
 * track and prediction; centre moves the map to it.
 */
function select(item, centre) {
  stopTrack();
  selection.clearLayers();
  if (centre && item.latitude != null) map.setView([item.latitude, item.longitude], Math.max(map.getZoom(), 6), { animate: false });
  const sections = [];
  if (item.latitude != null) {
    const track = trackSection(map, selection, item);
    stopTrack = track.stop;
    sections.push(track.section);
  }
  const bySlug = new Map(ports.map((p) => [p.slug, p]));
  sections.push(predictionSection(selection, item, (slug) => bySlug.get(slug) || null));
  openPanel(item, sections);
}

/** Closes the panel and takes the selection's lines off the map. */
function unselect() {
  stopTrack();
  selection.clearLayers();
  closePanel();
}

function filters() {
  const f = new FormData(form);
  return { type: f.get('type'), tier: f.get('tier'), port: f.get('port') };
}

function setState(s) {
  mapEl.dataset.state = s;
  mapEl.dataset.markers = String(fleet.count);
}

/** Shows the legend of the current colouring and the event types. */
function legend() {
  const by = new FormData(form).get('colour');
  const entries = Object.entries(by === 'tier' ? TIER_COLOURS : TYPE_COLOURS)
    .map(([k, c]) => [k === 'null' ? (by === 'tier' ? 'not scored' : 'unknown type') : k.replace(/_/g, ' '), c]);
  const items = entries.map(([label, colour]) => {
    const li = document.createElement('li');
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = colour;
    li.append(sw, label);
    return li;
  });
  for (const s of Object.values(EVENT_STYLE)) {
    const li = document.createElement('li');
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.border = `2px solid ${s.color}`;
    li.append(sw, s.label);
    items.push(li);
  }
  document.getElementById('legend').replaceChildren(...items);
}

function showCounts() {
  const { total, exact, shown } = fleetState;
  counts.textContent = exact
    ? `${shown.toLocaleString()} vessels on the map (the API reports ${total.toLocaleString()}).${eventSummary}`
    : `${total.toLocaleString()} vessels match; this plan gives no exact coordinates, so none are placed.${eventSummary}`;
}

/** Lists the ports with their congestion counts (plans without coordinates). */
async function showPortLevel(signal) {
  const section = document.getElementById('port-level');
  section.hidden = false;
  let byPort = {};
  try {
    const c = await getJSON('/congestion', { signal });
    for (const r of c.congestion) byPort[r.port] = r;
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    byPort = {};
  }
  const rows = ports.map((p) => {
    const tr = document.createElement('tr');
    const r = byPort[p.slug];
    for (const [v, num] of [[p.name], [p.country], [r ? r.in_port : '–', true], [r ? r.waiting : '–', true]]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      if (num) td.className = 'num';
      tr.appendChild(td);
    }
    return tr;
  });
  section.querySelector('tbody').replaceChildren(...rows);
}

/** Loads the ports (once per key) and fills the port filter. */
async function loadPorts(signal) {
  ports = (await getJSON('/ports', { signal })).ports;
  const select = form.elements.port;
  const keep = select.value;
  select.replaceChildren(new Option('all', ''), ...ports.map((p) => new Option(`${p.name} (${p.country})`, p.slug)));
  select.value = keep;
  if (portLayer) portLayer.remove();
  portLayer = drawPorts(ports);
  if (form.elements.ports.checked) portLayer.addTo(map);
}

/**
 * Loads and draws the vessels the filters select; before (when given)
 * runs once they are drawn, before the map is ready.
 */
async function loadVessels(signal, before) {
  timings.fleetStart = performance.now();
  setState('loading');
  const { items, total, exact } = await loadFleet(filters(), {
    signal, onPage: (n, t) => status(`Loading vessels: ${n.toLocaleString()} of ${t.toLocaleString()}…`),
  });
  timings.fleetLoaded = performance.now();
  fleet.draw(exact ? items : []);
  newest = items.reduce((m, i) => (i.timestamp ? Math.max(m ?? 0, Date.parse(i.timestamp)) : m), null);
  fleetState = { total, exact, shown: fleet.count };
  if (!form.elements.vessels.checked) fleet.group.remove();
  // The first frame after the markers were added has drawn them.
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  timings.firstRender = performance.now();
  // Without exact coordinates (the fleet's or the ports'), list the ports.
  const portLevel = !exact || (ports.length > 0 && ports[0].latitude == null);
  document.getElementById('port-level').hidden = !portLevel;
  if (portLevel) await showPortLevel(signal);
  if (before) await before();
  await landDrawn; // ready means the basemap is there too
  showCounts();
  setState('ready');
  status(landError, landError !== '');
}

/** Loads everything for the key entered: ports, events, vessels. */
async function loadAll() {
  if (loading) loading.abort();
  loading = new AbortController();
  const { signal } = loading;
  unselect();
  setState('loading');
  try {
    await loadPorts(signal);
    if (!apiKey()) {
      fleet.draw([]);
      if (eventLayer) eventLayer.remove();
      document.getElementById('port-level').hidden = true;
      counts.textContent = '';
      status('Enter an API key above to see vessels and risk events.');
      setState('nokey');
      return;
    }
    await loadVessels(signal, () => drawRiskEvents(signal));
  } catch (e) {
    if (e.name === 'AbortError') return;
    status(e.message, true);
    setState('error');
  }
}

/**
 * The risk events' range from the date inputs, set to the 7 days up to
 * the data's newest position unless the user chose dates.
 */
function riskRange() {
  const f = form.elements;
  if (!rangeTouched || !f.evstart.value || !f.evend.value) {
    const t = newest ?? Date.now();
    f.evend.value = new Date(t).toISOString().slice(0, 10);
    f.evstart.value = new Date(t - 7 * 86400000).toISOString().slice(0, 10);
  }
  return { start: `${f.evstart.value}T00:00:00Z`, end: `${f.evend.value}T23:59:59Z` };
}

/** Loads and draws the risk events of the chosen range. */
async function drawRiskEvents(signal) {
  const range = riskRange();
  const ev = await loadEvents(signal, range);
  const c = ev.counts;
  eventRange = range;
  eventSummary = ` Risk events under way ${range.start.slice(0, 10)} to ${range.end.slice(0, 10)}: dark gaps ${c.ais_gap}, STS transfers ${c.sts_transfer}, loitering ${c.loitering}.`;
  if (eventLayer) eventLayer.remove();
  eventLayer = drawEvents(ev.events);
  if (form.elements.events.checked) eventLayer.addTo(map);
  fleet.toFront();
}

/** Reloads only the risk events (their range changed). */
async function reloadEvents() {
  if (!apiKey() || mapEl.dataset.state !== 'ready') return;
  const f = form.elements;
  if (!f.evstart.value || !f.evend.value || f.evend.value < f.evstart.value) {
    status('Choose the risk events\' dates: the start not after the end.', true);
    return;
  }
  setState('loading');
  try {
    await drawRiskEvents(undefined);
    showCounts();
    setState('ready');
    status('');
  } catch (e) {
    status(e.message, true);
    setState('error');
  }
}

/** Reloads only the vessels (a filter changed). */
async function reloadVessels() {
  if (!apiKey()) return;
  if (loading) loading.abort();
  loading = new AbortController();
  try {
    await loadVessels(loading.signal);
  } catch (e) {
    if (e.name === 'AbortError') return;
    status(e.message, true);
    setState('error');
  }
}

form.addEventListener('change', (e) => {
  const name = e.target.name;
  if (name === 'colour') {
    fleet.colourBy(e.target.value);
    legend();
  } else if (['type', 'tier', 'port'].includes(name)) {
    unselect();
    reloadVessels();
  } else if (name === 'evstart' || name === 'evend') {
    rangeTouched = true;
    reloadEvents();
  } else {
    const layer = { vessels: fleet.group, ports: portLayer, events: eventLayer }[name];
    if (layer && e.target.checked) layer.addTo(map);
    else if (layer) layer.remove();
    if (e.target.checked && name !== 'vessels') fleet.toFront();
  }
});
form.addEventListener('submit', (e) => e.preventDefault());
document.getElementById('refresh').addEventListener('click', loadAll);
document.getElementById('panel-close').addEventListener('click', unselect);
mountSearch(document.getElementById('search'), document.getElementById('search-results'), {
  select: (item) => select(item, true),
  fleetItem: (imo) => (fleet.markers.has(imo) ? fleet.markers.get(imo).item : null),
  onError: (msg) => status(msg, true),
});
mountExportArea(map, document.getElementById('export-area'), () => newest);

// A fleet that fits in one page is refreshed every 5 minutes while the tab
// is shown (288 requests a day, within Starter's 1,000); larger ones, and
// the risk events, on demand (Refresh), to spare the plan's daily quota.
setInterval(() => {
  if (document.visibilityState === 'visible' && mapEl.dataset.state === 'ready' && fleetState.exact && fleetState.total <= 500) {
    reloadVessels();
  }
}, 5 * 60000);

mountHeader('map', loadAll);
legend();
loadAll();
