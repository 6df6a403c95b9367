// What every page shares: the API key the user enters once (kept in
// sessionStorage, so it goes when the tab closes), calls to the service's
// own /v1 API with that key in X-API-Key, and the page header with the key
// form. The pages call only their own origin: no CDN, no tile server.

const KEY = 'overwatch.apiKey';

/** The key the user entered in this tab, or '' when none. */
export function apiKey() {
  return sessionStorage.getItem(KEY) || '';
}

/** Keeps key for this tab ('' forgets it). */
export function setAPIKey(key) {
  if (key) sessionStorage.setItem(KEY, key.trim());
  else sessionStorage.removeItem(KEY);
}

/** An error the API answered: status and its {"error": "..."} message. */
export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Calls GET /v1<path> with the key (when there is one) and returns the
 * parsed JSON; a non-2xx answer throws an APIError with the API's message.
 */
export async function getJSON(path, { signal } = {}) {
  return callJSON('GET', path, undefined, signal);
}

/**
 * Calls POST /v1<path> with body as JSON and the key; returns the parsed
 * answer, or throws an APIError with the API's message.
 */
export async function postJSON(path, body, { signal } = {}) {
  return callJSON('POST', path, body, signal);
}

/** One call of the /v1 API with a JSON answer (and body, when given). */
async function callJSON(method, path, body, signal) {
  const headers = { Accept: 'application/json' };
  const key = apiKey();
  if (key) headers['X-API-Key'] = key;
  const init = { method, headers, signal };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const resp = await fetch('/v1' + path, init);
  const text = await resp.text();
  let answer = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    answer = null;
  }
  if (!resp.ok) {
    throw new APIError(resp.status, (answer && answer.error) || `HTTP ${resp.status}`);
  }
  return answer;
}

/**
 * Downloads GET /v1<path> (an export: CSV) with the key, as a file named
 * by the answer's Content-Disposition or by fallback.
 */
export async function download(path, fallback) {
  const headers = {};
  const key = apiKey();
  if (key) headers['X-API-Key'] = key;
  const resp = await fetch('/v1' + path, { headers });
  if (!resp.ok) {
    let msg = `HTTP ${resp.status}`;
    try {
      msg = (await resp.json()).error || msg;
    } catch {}
    throw new APIError(resp.status, msg);
  }
  const blob = await resp.blob();
  const m = /filename="?([^";]+)"?/.exec(resp.headers.get('Content-Disposition') || '');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = m ? m[1] : fallback;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/**
 * Fills the page's <header id="top"> with the navigation and the key form;
 * onKey runs when the user enters or forgets a key.
 */
export function mountHeader(current, onKey) {
  const top = document.getElementById('top');
  top.className = 'ow-top';
  const nav = document.createElement('nav');
  for (const [href, label] of [['/docs', 'API docs'], ['/map', 'Map'], ['/dashboard', 'Dashboard']]) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = label;
    if (href === '/' + current) a.setAttribute('aria-current', 'page');
    nav.appendChild(a);
  }
  const brand = document.createElement('strong');
  brand.textContent = 'Overwatch';
  const form = document.createElement('form');
  form.className = 'ow-key';
  const input = document.createElement('input');
  input.type = 'password';
  input.name = 'key';
  input.placeholder = 'API key (X-API-Key)';
  input.autocomplete = 'off';
  input.value = apiKey();
  const save = document.createElement('button');
  save.type = 'submit';
  save.textContent = 'Use key';
  const forget = document.createElement('button');
  forget.type = 'button';
  forget.textContent = 'Forget';
  form.append(input, save, forget);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setAPIKey(input.value);
    onKey && onKey(apiKey());
  });
  forget.addEventListener('click', () => {
    input.value = '';
    setAPIKey('');
    onKey && onKey('');
  });
  top.replaceChildren(brand, nav, form);
}

/** Shows msg in the page's status line (<p id="status">); '' clears it. */
export function status(msg, isError = false) {
  const el = document.getElementById('status');
  if (!el) return;
  el.textContent = msg;
  el.classList.toggle('ow-error', isError);
}
