// /dashboard: charts for analysts, drawn with uPlot from the service's own
// /v1 API with the key the user entered (sessionStorage, see common/api.js).
//
// Each chart is a card: a title, the "Download CSV" buttons of the export
// paths that cover its data (or a note that none does), and the plot. A
// chart fetches its endpoint(s), turns the JSON into uPlot's column arrays
// and draws them; an API error (401, 403 on a plan, 429 on the daily
// limit...) shows in the chart's place with the API's own message.
//
// What each chart holds is kept in window.__charts[name] (the API paths
// called, the arrays handed to uPlot, its state), so that the browser test
// compares the plotted numbers with what the API answers.

import uPlot from 'uplot';
import { apiKey, download, getJSON, mountHeader, status } from '../common/api.js';
import { arrivalsCard } from './arrivals.js';

/** Chart state by name, for the browser test and for debugging. */
const charts = {};
window.__charts = charts;

const DAY = 86400;
const COLORS = ['#0b5cad', '#d9480f', '#2b8a3e', '#862e9c', '#e67700', '#1098ad', '#5c940d', '#c2255c'];

// ---- helpers -------------------------------------------------------------

/** Seconds since the epoch of an ISO date ("2026-03-02") or date-time. */
function secs(iso) {
  return Date.parse(iso.length === 10 ? iso + 'T00:00:00Z' : iso) / 1000;
}

/** Thousands separated: 12345.6 -> "12,346" (digits: decimals shown). */
function fmt(v, digits = 0) {
  if (v == null || Number.isNaN(v)) return '–';
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** A DOM element with a class and text. */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** The query string of params, leaving out empty values. */
function qs(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v != null) p.set(k, String(v));
  const s = p.toString();
  return s ? '?' + s : '';
}

/**
 * A time x scale over the weeks or days xs (seconds), padded by pad
 * seconds either side: fixed, as uPlot's own range for a lone point
 * spans years.
 */
function timeScale(xs, pad) {
  return { time: true, range: [Math.min(...xs) - pad, Math.max(...xs) + pad] };
}

/** A y scale from 0 (or below, for negative values) to a little over the largest value. */
const fromZero = () => ({ range: (u, min, max) => [Math.min(0, min ?? 0), max > 0 ? max * 1.08 : 1] });

/** s cut to at most n characters, ending in "…" when cut. */
function cut(s, n) {
  return s.length <= n ? s : s.slice(0, Math.max(1, n - 1)) + '…';
}

/**
 * Options of a category chart: x is 0..n-1, labelled by labels (cut to
 * the width of a bar's slot; the legend shows the whole label).
 */
function categoryX(labels) {
  return {
    scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
    axes: [
      {
        splits: () => labels.map((_, i) => i),
        values: (u, splits) => {
          const slot = u.bbox.width / (window.devicePixelRatio || 1) / labels.length;
          return splits.map((i) => cut(labels[i] ?? '', Math.max(3, Math.floor(slot / 7))));
        },
        gap: 4,
        size: 36,
      },
    ],
  };
}

/** A bar series (uPlot's bars path builder). */
function bars(label, color, extra = {}) {
  return { label, stroke: color, fill: color + 'b0', width: 1, paths: uPlot.paths.bars({ size: [0.6, 80] }), points: { show: false }, ...extra };
}

/** A line series with its points shown (the data are sparse weeks/days). */
function line(label, color, extra = {}) {
  return { label, stroke: color, width: 2, points: { show: true, size: 5, fill: color }, spanGaps: false, ...extra };
}

/** A series drawn as markers only (no line). */
function markers(label, color, extra = {}) {
  return { label, stroke: color, fill: color, width: 0, paths: () => null, points: { show: true, size: 9, fill: color, stroke: color }, ...extra };
}

// ---- the charts ------------------------------------------------------------
//
// Each definition: name, title, load(ctx) -> {data, series, opts?, note?}
// (or {empty: "why"}), and csv: the export downloads ([{label, path}]) or
// nocsv: why there is none. ctx has port and method (the pickers) and
// get(path), which records the path in the chart's state.

const defs = [
  {
    name: 'congestion',
    title: 'Congestion, last 30 days',
    // The daily congestion rows are derived from the port calls; the visits
    // export is the API's CSV of those calls (there is no CSV of the daily rows).
    csv: (c) => [{ label: 'Download CSV (port calls)', path: '/export' + qs({ type: 'visits', port: c.port, limit: 10000 }) }],
    async load(c) {
      const j = await c.get('/congestion/history' + qs({ port: c.port, days: 30 }));
      const h = j.history;
      if (!h.length) return { empty: `No daily congestion rows for ${j.port_name} yet.` };
      return {
        data: [
          h.map((d) => secs(d.date)),
          h.map((d) => d.waiting),
          h.map((d) => d.at_berth),
          h.map((d) => d.arrivals),
          h.map((d) => d.departures),
          h.map((d) => d.median_wait_hours),
        ],
        series: [
          line('At anchor', COLORS[1]),
          line('At berth', COLORS[0]),
          line('Arrivals', COLORS[2]),
          line('Departures', COLORS[3]),
          line('Median wait (h)', COLORS[4], { scale: 'h', dash: [4, 3] }),
        ],
        opts: {
          scales: { x: timeScale(h.map((d) => secs(d.date)), DAY / 2) },
          axes: [{}, { label: 'vessels' }, { scale: 'h', side: 1, label: 'hours', grid: { show: false } }],
        },
      };
    },
  },
  {
    name: 'berths',
    title: 'Berth utilisation, trailing 7 days, by berth zone',
    csv: (c) => [{ label: 'Download CSV (port calls)', path: '/export' + qs({ type: 'visits', port: c.port, limit: 10000 }) }],
    async load(c) {
      const j = await c.get('/berth-utilization' + qs({ port: c.port }));
      const z = j.berth_utilization;
      if (!z.length) return { empty: 'This port has no berth zones.' };
      const labels = z.map((r) => r.zone_name);
      return {
        labels,
        data: [z.map((_, i) => i), z.map((r) => Math.round(r.utilization * 1000) / 10)],
        series: [bars('Utilisation (%)', COLORS[0])],
        opts: { ...categoryX(labels), axes: [categoryX(labels).axes[0], { label: '% of berth hours' }] },
        note: z.map((r) => `${r.zone_name}: ${fmt(r.occupied_hours, 1)} of ${fmt(r.available_hours)} berth-hours, ${r.vessels_served} vessels`).join(' · '),
      };
    },
  },
  {
    name: 'fleetAge',
    title: 'Fleet age of the vessels calling, trailing 90 days',
    csv: (c) => [{ label: 'Download CSV', path: '/fleet-age' + qs({ port: c.port, format: 'csv' }) }],
    async load(c) {
      const j = await c.get('/fleet-age' + qs({ port: c.port }));
      const f = j.fleet_age[0];
      if (!f || !f.vessels) return { empty: 'No vessel with a known build year called in the period.' };
      const labels = f.buckets.map((b) => b.bucket + ' y');
      return {
        labels,
        data: [f.buckets.map((_, i) => i), f.buckets.map((b) => b.vessels)],
        series: [bars('Vessels', COLORS[5])],
        opts: { ...categoryX(labels), axes: [categoryX(labels).axes[0], { label: 'vessels' }] },
        note: `${f.vessels} vessels, mean age ${fmt(f.mean_age_years, 1)} years; ${fmt(f.risk.over_20_pct, 1)} % are 20 years or older.`,
      };
    },
  },
  {
    name: 'estimates',
    title: 'Weekly export estimates against the official actuals (tonnes)',
    csv: (c) => [{ label: 'Download CSV', path: '/export' + qs({ type: 'estimates', port: c.port, limit: 10000 }) }],
    async load(c) {
      const j = await c.get('/estimates' + qs({ port: c.port, limit: 52 }));
      const e = j.estimates.slice().reverse(); // the API gives the newest week first
      if (!e.length) return { empty: 'No weekly estimates for this port yet.' };
      return {
        data: [e.map((r) => secs(r.week_start)), e.map((r) => r.tonnage), e.map((r) => r.calibrated_tonnage), e.map((r) => r.usda_actuals)],
        series: [line('Estimate', COLORS[0]), line('Calibrated', COLORS[5], { dash: [5, 4] }), line('Official actuals', COLORS[1])],
        opts: { scales: { x: timeScale(e.map((r) => secs(r.week_start)), 4 * DAY), y: fromZero() }, axes: [{}, { label: 'tonnes', size: 70 }] },
        note: e.some((r) => r.usda_actuals != null) ? '' : 'No official actuals imported for these weeks.',
      };
    },
  },
  {
    name: 'forecast',
    title: 'Exports: history, forecast with its 95% interval, anomalies marked',
    csv: (c) => [
      { label: 'Download CSV (forecasts)', path: '/forecasts' + qs({ port: c.port, method: c.method, format: 'csv', limit: 200 }) },
      { label: 'Download CSV (anomalies)', path: '/anomalies' + qs({ port: c.port, format: 'csv', limit: 500 }) },
    ],
    async load(c) {
      const [est, fc, an] = await Promise.all([
        c.get('/estimates' + qs({ port: c.port, limit: 52 })),
        c.get('/forecasts' + qs({ port: c.port, method: c.method, limit: 200 })),
        c.get('/anomalies' + qs({ port: c.port, limit: 500 })),
      ]);
      // One x axis: every week of the history, the forecast and the anomalies.
      const hist = new Map(est.estimates.map((r) => [secs(r.week_start), r.tonnage]));
      const fcs = new Map(fc.forecasts.map((r) => [secs(r.week_start), r]));
      const anom = new Map();
      for (const a of an.anomalies) {
        const x = secs(a.week_start);
        // Several types may flag a week: keep the strongest deviation.
        if (!anom.has(x) || Math.abs(a.deviation_pct) > Math.abs(anom.get(x).deviation_pct)) anom.set(x, a);
      }
      const xs = [...new Set([...hist.keys(), ...fcs.keys(), ...anom.keys()])].sort((a, b) => a - b);
      if (!xs.length) return { empty: 'No export history, forecast or anomaly for this port yet.' };
      const pick = (m, f) => xs.map((x) => (m.has(x) ? f(m.get(x)) : null));
      const model = fc.forecasts.length ? fc.forecasts[0].model : 'none';
      return {
        data: [
          xs,
          pick(hist, (v) => v),
          pick(fcs, (r) => r.tonnes),
          pick(fcs, (r) => r.lower),
          pick(fcs, (r) => r.upper),
          pick(anom, (a) => a.observed),
        ],
        series: [
          line('Estimated exports', COLORS[0]),
          line(`Forecast (${c.method}: ${model})`, COLORS[2]),
          { label: 'Lower 95%', stroke: COLORS[2] + '80', width: 1, dash: [3, 3], points: { show: false } },
          { label: 'Upper 95%', stroke: COLORS[2] + '80', width: 1, dash: [3, 3], points: { show: false } },
          markers('Anomaly', '#c92a2a'),
        ],
        // The interval: the area between the upper (series 4) and lower (3) bounds.
        bands: [{ series: [4, 3], fill: 'rgba(43, 138, 62, 0.15)' }],
        opts: { scales: { x: timeScale(xs, 4 * DAY), y: fromZero() }, axes: [{}, { label: 'tonnes', size: 70 }] },
        note:
          (fc.forecasts.length ? '' : 'No forecast for this port (its history is too short). ') +
          (an.anomalies.length
            ? an.anomalies.map((a) => `${a.week_start}: ${a.type} ${a.direction} ${fmt(a.deviation_pct, 1)} % (${a.severity})`).join(' · ')
            : 'No anomaly.'),
      };
    },
  },
  {
    name: 'flows',
    title: 'Trade flows from this port: tonnes by week of departure and destination',
    csv: (c) => [{ label: 'Download CSV', path: '/routes/flows' + qs({ origin: c.port, format: 'csv', limit: 500 }) }],
    async load(c) {
      const j = await c.get('/routes/flows' + qs({ origin: c.port, limit: 500 }));
      const f = j.flows;
      if (!f.length) return { empty: 'No completed laden voyage from this port yet.' };
      // The 5 destinations with the most tonnes, one series each; the rest as "other".
      const byDest = new Map();
      for (const r of f) byDest.set(r.destination_name, (byDest.get(r.destination_name) || 0) + r.tonnes);
      const top = [...byDest.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map((e) => e[0]);
      const names = byDest.size > top.length ? [...top, 'Other'] : top;
      const xs = [...new Set(f.map((r) => secs(r.week_start)))].sort((a, b) => a - b);
      const cols = names.map(() => xs.map(() => null));
      for (const r of f) {
        const k = top.includes(r.destination_name) ? names.indexOf(r.destination_name) : names.length - 1;
        const i = xs.indexOf(secs(r.week_start));
        cols[k][i] = (cols[k][i] || 0) + r.tonnes;
      }
      return {
        data: [xs, ...cols],
        series: names.map((n, i) => line(n, COLORS[i % COLORS.length])),
        opts: { scales: { x: timeScale(xs, 4 * DAY), y: fromZero() }, axes: [{}, { label: 'tonnes', size: 70 }] },
      };
    },
  },
  {
    name: 'river',
    title: 'River levels: newest gauge reading (feet)',
    csv: () => [{ label: 'Download CSV', path: '/river-levels' + qs({ format: 'csv' }) }],
    async load(c) {
      const j = await c.get('/river-levels');
      const r = j.readings;
      if (!r.length) return { empty: `No gauge readings (${j.source.status}: ${j.source.message})` };
      const labels = r.map((g) => g.name.replace(/,.*$/, ''));
      return {
        labels,
        data: [r.map((_, i) => i), r.map((g) => g.level_ft), r.map((g) => g.flood_stage_ft), r.map((g) => g.low_ft)],
        series: [bars('Level (ft)', COLORS[0]), markers('Flood stage', '#c92a2a'), markers('Low water', '#e67700')],
        opts: { ...categoryX(labels), axes: [categoryX(labels).axes[0], { label: 'feet' }] },
        note: j.alerts.length ? j.alerts.map((a) => `${a.name}: ${a.status} since ${a.since}`).join(' · ') : 'No river alert in force.',
      };
    },
  },
];

// ---- the page -------------------------------------------------------------

const app = document.getElementById('app');
const tools = el('form', 'dash-tools');
const portSel = el('select');
portSel.name = 'port';
const methodSel = el('select');
methodSel.name = 'method';
for (const m of ['statistical', 'ml', 'pipeline']) methodSel.append(new Option(m, m));
const portLabel = el('label', null, 'Port ');
portLabel.append(portSel);
const methodLabel = el('label', null, 'Forecast method ');
methodLabel.append(methodSel);
tools.append(portLabel, methodLabel);
const grid = el('div', 'dash-grid');
app.append(tools, grid);

// One card per chart.
const cards = {};
for (const d of defs) {
  const card = el('section', 'dash-card');
  card.dataset.chart = d.name;
  const head = el('div', 'dash-head');
  head.append(el('h2', null, d.title));
  const buttons = el('div', 'dash-csv');
  head.append(buttons);
  const plot = el('div', 'dash-plot');
  const note = el('p', 'dash-note');
  card.append(head, plot, note);
  grid.append(card);
  cards[d.name] = { card, buttons, plot, note };
}
// The port's expected arrivals, a table after the charts.
const arrivals = arrivalsCard();
grid.append(arrivals.card);

let generation = 0; // a newer load makes an older one's answers stale

/** Shows msg in the chart's place (an API error when isError). */
function showMessage(name, msg, isError) {
  const c = cards[name];
  c.plot.replaceChildren(el('p', isError ? 'dash-msg ow-error' : 'dash-msg', msg));
}

/** The CSV buttons of a chart for the current port and method. */
function fillButtons(d, ctx) {
  const c = cards[d.name];
  c.buttons.replaceChildren();
  if (d.nocsv) {
    const b = el('button', null, 'No CSV');
    b.type = 'button';
    b.disabled = true;
    b.title = d.nocsv;
    c.buttons.append(b);
    return;
  }
  for (const { label, path } of d.csv(ctx)) {
    const b = el('button', null, label);
    b.type = 'button';
    b.dataset.path = path;
    b.addEventListener('click', async () => {
      b.disabled = true;
      c.note.classList.remove('ow-error');
      try {
        await download(path, `overwatch-${d.name}.csv`);
        charts[d.name].downloaded = path;
      } catch (err) {
        // The API's message (403 for a plan without CSV export...) in the card.
        c.note.textContent = `CSV download failed: ${err.message}`;
        c.note.classList.add('ow-error');
        charts[d.name].csvError = { status: err.status, message: err.message };
      } finally {
        b.disabled = false;
      }
    });
    c.buttons.append(b);
  }
}

/** Loads and draws one chart. */
async function drawChart(d, port, method, gen) {
  const c = cards[d.name];
  const st = { state: 'loading', paths: [], data: null, labels: null, error: null };
  charts[d.name] = st;
  c.card.dataset.state = 'loading';
  c.note.textContent = '';
  c.note.classList.remove('ow-error');
  const ctx = {
    port,
    method,
    get: (path) => {
      st.paths.push(path);
      return getJSON(path);
    },
  };
  fillButtons(d, ctx);
  try {
    const r = await d.load(ctx);
    if (gen !== generation) return;
    if (r.empty) {
      st.state = 'empty';
      showMessage(d.name, r.empty, false);
    } else {
      st.state = 'ok';
      st.data = r.data;
      st.labels = r.labels || null;
      const width = Math.max(300, c.plot.clientWidth || 560);
      const opts = {
        width,
        height: 260,
        series: [{ label: r.labels ? 'Item' : 'Date', value: r.labels ? (u, v) => r.labels[v] ?? '' : undefined }, ...r.series],
        bands: r.bands,
        legend: { live: true },
        cursor: { points: { size: 7 } },
        ...r.opts,
      };
      c.plot.replaceChildren();
      st.plot = new uPlot(opts, r.data, c.plot);
      c.note.textContent = r.note || '';
    }
  } catch (err) {
    if (gen !== generation) return;
    // The API's message in the chart's place: 401 without a valid key, 429
    // past the plan's daily requests, 403 where the plan does not allow it.
    st.state = 'error';
    st.error = { status: err.status || 0, message: err.message };
    showMessage(d.name, err.status ? `${err.message} (HTTP ${err.status})` : err.message, true);
  }
  c.card.dataset.state = st.state;
}

/** Loads every chart for the picked port and method. */
async function drawAll() {
  const gen = ++generation;
  const port = portSel.value;
  document.body.dataset.ready = 'false';
  await Promise.all([...defs.map((d) => drawChart(d, port, methodSel.value, gen)), arrivals.load(port)]);
  if (gen === generation) document.body.dataset.ready = 'true';
}

/** Fills the port picker (and picks the busiest port), then draws. */
async function start() {
  status('');
  document.body.dataset.ready = 'false';
  if (!apiKey()) {
    status('Enter an API key to see the charts.');
    for (const d of defs) showMessage(d.name, 'No API key.', false);
    arrivals.load('', 'No API key.');
    document.body.dataset.ready = 'true';
    return;
  }
  try {
    const [ports, cong] = await Promise.all([getJSON('/ports'), getJSON('/congestion')]);
    const keep = portSel.value;
    portSel.replaceChildren(...ports.ports.map((p) => new Option(`${p.name} (${p.country})`, p.slug)));
    // Default: the port with the most vessels in port now.
    const busiest = cong.congestion.slice().sort((a, b) => b.in_port - a.in_port || b.arrivals_7d - a.arrivals_7d)[0];
    portSel.value = keep || new URLSearchParams(location.search).get('port') || (busiest ? busiest.port : ports.ports[0].slug);
    if (!portSel.value) portSel.selectedIndex = 0;
  } catch (err) {
    // No chart can load either (401 for a key the service does not know,
    // 429 once the plan's daily requests are used up): each says so.
    status(`The ports could not be loaded: ${err.message}`, true);
    for (const d of defs) {
      charts[d.name] = { state: 'error', paths: [], data: null, error: { status: err.status || 0, message: err.message } };
      cards[d.name].card.dataset.state = 'error';
      showMessage(d.name, err.status ? `${err.message} (HTTP ${err.status})` : err.message, true);
    }
    arrivals.load('', err.message);
    document.body.dataset.ready = 'true';
    return;
  }
  await drawAll();
}

portSel.addEventListener('change', drawAll);
methodSel.addEventListener('change', drawAll);
tools.addEventListener('submit', (e) => e.preventDefault());
mountHeader('dashboard', start);
start();
