// An area drawn on the map becomes an export: "Draw an area" lets the
// next drag on the map draw a rectangle (the map does not pan meanwhile);
// the form then sends POST /v1/exports with the positions in that box
// between the chosen dates, in the chosen format, and follows the export
// (GET /v1/exports/{id}) until it is completed, then offers its file
// (GET /v1/exports/{id}/download). A plan without exports gets the API's
// message (403).
import L from 'leaflet';
import { download, getJSON, postJSON } from '../common/api.js';

/** The state the tests read (window.__map.exportArea). */
export const exportState = { state: 'idle', bbox: null, request: null, export: null, error: null };

const wrap = (lng) => ((((lng + 180) % 360) + 360) % 360) - 180;
const round = (v) => Math.round(v * 1e4) / 1e4;

/**
 * The box of two corners ([lat, lng]) as the position filter's bbox
 * (west,south,east,north): longitudes within ±180, west above east when
 * the box crosses the antimeridian.
 */
export function bboxOf(a, b) {
  const west = Math.min(a[1], b[1]), east = Math.max(a[1], b[1]);
  const south = Math.max(-90, Math.min(a[0], b[0])), north = Math.min(90, Math.max(a[0], b[0]));
  if (east - west >= 360) return `-180,${round(south)},180,${round(north)}`;
  return [wrap(west), south, east === 180 ? 180 : wrap(east), north].map(round).join(',');
}

/**
 * Wires the export section (section holds #draw-area, #export-form and
 * #export-status) to the map; newest() gives the data's newest time (ms)
 * for the default dates (the 7 days up to it).
 */
export function mountExportArea(map, section, newest) {
  const drawBtn = section.querySelector('#draw-area');
  const form = section.querySelector('#export-form');
  const out = section.querySelector('#export-status');
  let rect = null, from = null, poll = 0;

  function setStatus(text, isError = false) {
    out.replaceChildren(document.createTextNode(text));
    out.classList.toggle('ow-error', isError);
  }

  function finishDraw() {
    map.dragging.enable();
    map.getContainer().classList.remove('drawing');
    map.off('mousedown', down);
    drawBtn.disabled = false;
  }
  function down(e) {
    from = e.latlng;
    if (rect) rect.remove();
    rect = L.rectangle(L.latLngBounds(from, from), { color: '#0b5cad', weight: 2, dashArray: '5 4', fillOpacity: 0.08, interactive: false }).addTo(map);
    map.on('mousemove', move);
    map.once('mouseup', up);
  }
  function move(e) {
    rect.setBounds(L.latLngBounds(from, e.latlng));
  }
  function up(e) {
    map.off('mousemove', move);
    finishDraw();
    rect.setBounds(L.latLngBounds(from, e.latlng));
    exportState.bbox = bboxOf([from.lat, from.lng], [e.latlng.lat, e.latlng.lng]);
    exportState.state = 'drawn';
    form.hidden = false;
    if (!form.elements.start.value) {
      const t = newest() ?? Date.now();
      form.elements.end.value = new Date(t).toISOString().slice(0, 10);
      form.elements.start.value = new Date(t - 7 * 86400000).toISOString().slice(0, 10);
    }
    setStatus(`Area ${exportState.bbox} (west, south, east, north).`);
  }

  drawBtn.addEventListener('click', () => {
    clearInterval(poll);
    drawBtn.disabled = true;
    map.dragging.disable();
    map.getContainer().classList.add('drawing');
    exportState.state = 'drawing';
    setStatus('Drag on the map to draw the area.');
    map.on('mousedown', down);
  });

  function show(x) {
    exportState.export = x;
    if (x.status === 'completed') {
      clearInterval(poll);
      exportState.state = 'completed';
      const a = document.createElement('a');
      a.href = `/v1/exports/${x.id}/download`;
      a.id = 'export-download';
      a.textContent = `Download (${x.rows == null ? '?' : x.rows.toLocaleString()} rows, ${x.format})`;
      a.addEventListener('click', (ev) => {
        ev.preventDefault();
        download(`/exports/${x.id}/download`, `overwatch-export-${x.id}.${x.format}`).catch((err) => setStatus(err.message, true));
      });
      out.replaceChildren(document.createTextNode(`Export ${x.id} completed. `), a);
      out.classList.remove('ow-error');
    } else if (x.status === 'failed' || x.status === 'expired') {
      clearInterval(poll);
      exportState.state = x.status;
      setStatus(`Export ${x.id} ${x.status}${x.error ? `: ${x.error}` : ''}.`, true);
    } else {
      exportState.state = x.status;
      const pct = x.progress == null ? '' : ` ${Math.round(x.progress * 100)}%`;
      setStatus(`Export ${x.id} ${x.status}${pct}…`);
    }
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearInterval(poll);
    const f = form.elements;
    const body = {
      dataset: 'positions',
      filters: { bbox: exportState.bbox, start: `${f.start.value}T00:00:00Z`, end: `${f.end.value}T23:59:59Z` },
      format: f.format.value,
    };
    exportState.request = body;
    exportState.error = null;
    exportState.state = 'sending';
    setStatus('Sending the export…');
    try {
      const r = await postJSON('/exports', body);
      show(r.export);
      if (!['completed', 'failed', 'expired'].includes(r.export.status)) {
        poll = setInterval(async () => {
          try {
            const j = await getJSON(`/exports/${r.export.id}`);
            show(j.export || j);
          } catch (err) {
            clearInterval(poll);
            setStatus(`Export ${r.export.id}: ${err.message}`, true);
          }
        }, 2000);
      }
    } catch (err) {
      // 403: the plan's message (exports need Pro or above); 400 names the field.
      exportState.state = 'refused';
      exportState.error = { status: err.status || 0, message: err.message };
      setStatus(err.status ? `${err.message} (HTTP ${err.status})` : err.message, true);
    }
  });
}
