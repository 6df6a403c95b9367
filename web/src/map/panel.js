// The vessel panel: a clicked vessel's identity, latest position and risk
// score (from its fleet item), its risk factors (GET /v1/risk/vessel/{imo},
// for a scored vessel) and its recent events (GET /v1/risk/events?vessel=).
import { getJSON } from '../common/api.js';

const panel = () => document.getElementById('panel');
const body = () => document.getElementById('panel-body');
let shown = 0; // the latest opening: answers for an earlier one are dropped

/** An element with text content and optional class. */
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** A definition list of [term, value] pairs, leaving out null values. */
function facts(pairs) {
  const dl = el('dl');
  for (const [k, v] of pairs) {
    if (v == null || v === '') continue;
    dl.append(el('dt', k), el('dd', String(v)));
  }
  return dl;
}

const fixed = (v, n) => (v == null ? null : Number(v).toFixed(n));

/**
 * Opens the panel on a vessel item of /v1/vessels/positions; sections
 * (elements: the track, the prediction) follow its latest position.
 */
export async function openPanel(item, sections = []) {
  const token = ++shown;
  const p = panel();
  p.hidden = false;
  p.dataset.imo = item.imo_number;
  const title = el('h2', item.name || `IMO ${item.imo_number}`);
  const tier = item.risk_tier ? el('span', item.risk_tier, `tier tier-${item.risk_tier}`) : el('span', 'not scored', 'tier');
  const risk = el('p');
  risk.append('Risk score ', el('strong', item.risk_score == null ? '–' : String(item.risk_score)), ' ', tier);
  const factors = el('div');
  const events = el('div');
  events.append(el('h3', 'Recent events'), el('p', 'Loading…', 'note'));
  body().replaceChildren(
    title,
    facts([['IMO', item.imo_number], ['MMSI', item.mmsi], ['Flag', item.flag], ['Type', item.category],
      ['Ship type', item.vessel_type], ['Destination', item.destination]]),
    el('h3', 'Latest position'),
    facts([['Latitude', fixed(item.latitude, 5)], ['Longitude', fixed(item.longitude, 5)], ['Speed', item.speed == null ? null : `${item.speed} kn`],
      ['Course', item.course == null ? null : `${item.course}°`], ['Status', item.nav_status], ['In port', item.port], ['Reported', item.timestamp]]),
    ...sections,
    el('h3', 'Risk'),
    risk,
    factors,
    events,
  );
  const imo = item.imo_number;
  const profile = item.risk_tier ? getJSON(`/risk/vessel/${imo}`).catch((e) => e) : Promise.resolve(null);
  const recent = getJSON(`/risk/events?vessel=${imo}&limit=10`).catch((e) => e);
  const [prof, ev] = await Promise.all([profile, recent]);
  if (token !== shown) return;
  if (prof && !(prof instanceof Error)) {
    const top = prof.vessel.factors.filter((f) => f.contribution > 0).sort((a, b) => b.contribution - a.contribution).slice(0, 4);
    if (top.length) {
      const ul = el('ul');
      for (const f of top) ul.append(el('li', `${f.name}: +${f.contribution.toFixed(1)} (${f.reason})`));
      factors.replaceChildren(ul);
    }
  } else if (prof instanceof Error) {
    factors.replaceChildren(el('p', `Risk profile: ${prof.message}`, 'note'));
  }
  if (ev instanceof Error) {
    events.replaceChildren(el('h3', 'Recent events'), el('p', ev.message, 'note'));
    return;
  }
  const list = el('ul');
  for (const e of ev.events) {
    list.append(el('li', `${e.start.slice(0, 16).replace('T', ' ')} ${e.type.replace(/_/g, ' ')}${e.subtype ? ` (${e.subtype})` : ''}, ${e.severity}${e.ongoing ? ', ongoing' : ''}`));
  }
  events.replaceChildren(el('h3', 'Recent events'), ev.events.length ? list : el('p', 'None recorded.', 'note'));
}

/** Closes the panel. */
export function closePanel() {
  shown++;
  panel().hidden = true;
  delete panel().dataset.imo;
}
