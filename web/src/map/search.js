// The search box: a name, IMO, MMSI or call sign typed in the sidebar
// asks GET /v1/vessels/search?q= (after a short pause in typing) and lists
// the ranked matches with what each matched on; choosing one centres the
// map on the vessel and selects it (its panel opens). The vessel's
// position comes from its fleet marker, or from GET
// /v1/vessels/positions?imo= when the filters leave it off the map.
import { getJSON } from '../common/api.js';

/** What a match's field is called in the list. */
const FIELD_LABEL = {
  name: 'name', former_name: 'former name', imo_number: 'IMO', imo: 'IMO', mmsi: 'MMSI', call_sign: 'call sign',
};

/** Why a search result matched, as a line of text. */
export function whyMatched(v) {
  const m = v.matched;
  if (!m) return '';
  const label = FIELD_LABEL[m.field] || String(m.field).replace(/_/g, ' ');
  return `matched ${label}${m.text ? ` "${m.text}"` : ''}`;
}

/**
 * Wires the search form: form holds an input named q and a list
 * (#search-results); select(item) centres and selects a vessel item of
 * /v1/vessels/positions; fleetItem(imo) returns the fleet's item or null.
 */
export function mountSearch(form, list, { select, fleetItem, onError }) {
  let timer = 0;
  let asked = 0; // the latest query: answers for an earlier one are dropped
  const input = form.elements.q;

  async function run() {
    const q = input.value.trim();
    const token = ++asked;
    if (q.length < 2) {
      list.replaceChildren();
      form.dataset.state = 'idle';
      return;
    }
    form.dataset.state = 'loading';
    try {
      const r = await getJSON(`/vessels/search?q=${encodeURIComponent(q)}&limit=10`);
      if (token !== asked) return;
      list.replaceChildren(...r.vessels.map((v, i) => row(v, i)));
      if (!r.vessels.length) {
        const li = document.createElement('li');
        li.className = 'note';
        li.textContent = 'No vessel matches.';
        list.append(li);
      }
      form.dataset.query = q;
      form.dataset.state = 'ready';
    } catch (e) {
      if (token !== asked) return;
      list.replaceChildren();
      form.dataset.state = 'error';
      onError(`Search: ${e.message}`);
    }
  }

  function row(v, rank) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.imo = v.imo_number;
    const name = document.createElement('strong');
    name.textContent = `${rank + 1}. ${v.name || 'unnamed'}`;
    const ids = document.createElement('span');
    ids.textContent = [`IMO ${v.imo_number}`, v.mmsi != null ? `MMSI ${v.mmsi}` : '', v.call_sign ? `call sign ${v.call_sign}` : '',
      v.category ? v.category.replace(/_/g, ' ') : ''].filter(Boolean).join(' · ');
    const why = document.createElement('span');
    why.className = 'why';
    why.textContent = whyMatched(v);
    b.append(name, ids, why);
    b.addEventListener('click', () => choose(v.imo_number));
    li.append(b);
    return li;
  }

  async function choose(imo) {
    let item = fleetItem(imo);
    if (!item) {
      try {
        const r = await getJSON(`/vessels/positions?imo=${imo}&limit=1`);
        item = r.positions[0] || null;
      } catch (e) {
        onError(`Vessel ${imo}: ${e.message}`);
        return;
      }
    }
    if (!item) {
      onError(`Vessel ${imo} has no position on record.`);
      return;
    }
    select(item);
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 250);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(timer);
    run();
  });
  return { choose };
}
