// The expected arrivals card of /dashboard: the vessels predicted to
// arrive at the picked port in the next 7 days (GET
// /v1/ports/{slug}/arrivals?days=7), as a table: vessel, category, DWT,
// ETA with its interval, probability. Its state is kept in
// window.__arrivals for the browser test.
import { getJSON } from '../common/api.js';

/** What the card holds: state, the path called, the rows shown, the error. */
export const arrivalsState = { state: 'idle', path: null, rows: null, error: null };
window.__arrivals = arrivalsState;

const when = (iso) => (iso ? iso.slice(0, 16).replace('T', ' ') : '–');

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** The card: a section to place in the dashboard's grid, and its loader. */
export function arrivalsCard() {
  const card = el('section', 'dash-card dash-wide');
  card.dataset.chart = 'arrivals';
  const body = el('div', 'dash-table');
  const note = el('p', 'dash-note');
  card.append(el('div', 'dash-head'), body, note);
  card.firstChild.append(el('h2', null, 'Expected arrivals, next 7 days'));
  let asked = 0;

  /** Loads the arrivals of port (a slug); '' shows msg instead. */
  async function load(port, msg) {
    const token = ++asked;
    Object.assign(arrivalsState, { state: 'loading', path: null, rows: null, error: null });
    card.dataset.state = 'loading';
    note.textContent = '';
    if (!port) {
      body.replaceChildren(el('p', 'dash-msg', msg || 'No port.'));
      arrivalsState.state = 'empty';
      card.dataset.state = 'empty';
      return;
    }
    const path = `/ports/${encodeURIComponent(port)}/arrivals?days=7`;
    arrivalsState.path = path;
    try {
      const r = await getJSON(path);
      if (token !== asked) return;
      const rows = r.arrivals.map((a) => ({
        imo: a.imo_number, vessel: a.name || `IMO ${a.imo_number}`, category: a.category, dwt: a.dwt,
        eta: a.eta, eta_low: a.eta_low, eta_high: a.eta_high, probability: a.probability,
      }));
      arrivalsState.rows = rows;
      if (!rows.length) {
        arrivalsState.state = 'empty';
        body.replaceChildren(el('p', 'dash-msg', 'No vessel is predicted to arrive in the next 7 days.'));
      } else {
        arrivalsState.state = 'ok';
        body.replaceChildren(table(rows));
        note.textContent = 'ETA in UTC; the interval is the prediction\'s 80% range. From the next-port model.';
      }
    } catch (err) {
      if (token !== asked) return;
      arrivalsState.state = 'error';
      arrivalsState.error = { status: err.status || 0, message: err.message };
      body.replaceChildren(el('p', 'dash-msg ow-error', err.status ? `${err.message} (HTTP ${err.status})` : err.message));
    }
    card.dataset.state = arrivalsState.state;
  }
  return { card, load };
}

function table(rows) {
  const t = el('table', 'arrivals');
  const head = el('tr');
  for (const h of ['Vessel', 'Category', 'DWT', 'ETA (UTC)', 'Interval', 'Probability']) head.append(el('th', null, h));
  t.append(el('thead'), el('tbody'));
  t.tHead.append(head);
  for (const r of rows) {
    const tr = el('tr');
    tr.dataset.imo = r.imo;
    const cells = [
      [`${r.vessel} (${r.imo})`], [r.category ? r.category.replace(/_/g, ' ') : '–'],
      [r.dwt == null ? '–' : Math.round(r.dwt).toLocaleString('en-US'), 'num'], [when(r.eta)],
      [r.eta_low ? `${when(r.eta_low)} – ${when(r.eta_high)}` : '–'], [`${Math.round(r.probability * 100)}%`, 'num'],
    ];
    for (const [v, cls] of cells) tr.append(el('td', cls, v));
    t.tBodies[0].append(tr);
  }
  return t;
}
