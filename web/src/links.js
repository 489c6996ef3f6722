// Deep links: the view state lives in the page's query string, next to ?url=, so a copied link
// opens the same place. Keys:
//   url   the remote file (http/https)             file  the name of a local file (a hint only)
//   tab   a tab's name (overview, problems, data, explore)  node  the selected structure node (tree id)
//   row   the selected table row, "<table>:<first cell>" (a series, topic, actor or frame)
//   at    the hex cursor (hex offset)              sel   the hex selection, "<start>-<end>" (hex)
//   t0, t1  the time range brushed on the timeline (ns since the epoch, as the file's stamps)
//   plot  the plotted topic, series or actor       fields  its plotted fields, comma-separated
//   image the Images tab's frame, "<topic>@<ns>" (its time, ns since the epoch)
//   cameras the topics of the Images tab's other cameras, beside the first, comma-separated
// Other parameters (nodemo...) are kept as they are.
const VIEW_KEYS = ['tab', 'node', 'row', 'at', 'sel', 't0', 't1', 'plot', 'fields', 'image', 'cameras'];

/**
 * The view a link carries.
 * @typedef {{tab?: string, node?: string, row?: {table: string, key: string}, at?: number, sel?: {start: number, end: number},
 *   range?: {t0: bigint, t1: bigint}, plot?: string, fields?: string[], image?: {topic: string, t: bigint},
 *   cameras?: string[]}} LinkView
 */
/** What changed in the view (null or undefined: gone). @typedef {{[K in keyof LinkView]?: LinkView[K] | null}} ViewUpdate */

/** @type {(n: number) => string} */
const hex = (n) => `0x${n.toString(16)}`;
/** @type {(text: string | null) => number | null} */
const parseNumber = (text) => {
  if (text == null || text === '') return null;
  const n = /^0x[0-9a-f]+$/i.test(text) ? parseInt(text.slice(2), 16) : Number(text);
  return Number.isFinite(n) && n >= 0 ? n : null;
};

// The view state a query string carries ({} when none); tabs: the names a tab may have.
/**
 * @param {string} search
 * @param {string[]} tabs
 * @returns {LinkView}
 */
export function parseView(search, tabs) {
  const params = new URLSearchParams(search);
  /** @type {LinkView} */
  const view = {};
  const tab = params.get('tab');
  if (tabs.includes(/** @type {string} */ (tab))) view.tab = /** @type {string} */ (tab);
  if (params.get('node')) view.node = /** @type {string} */ (params.get('node'));
  const row = /^([^:]+):(.*)$/s.exec(params.get('row') || '');
  if (row) view.row = { table: row[1], key: row[2] };
  const at = parseNumber(params.get('at'));
  if (at !== null) view.at = at;
  const sel = /^(0x[0-9a-f]+|\d+)-(0x[0-9a-f]+|\d+)$/i.exec(params.get('sel') || '');
  if (sel) {
    const start = parseNumber(sel[1]);
    const end = parseNumber(sel[2]);
    // (Both parse: the pattern matched.)
    if (/** @type {number} */ (end) > /** @type {number} */ (start)) view.sel = { start: /** @type {number} */ (start), end: /** @type {number} */ (end) };
  }
  const t0 = params.get('t0'), t1 = params.get('t1');
  if (/^\d{1,20}$/.test(t0 || '') && /^\d{1,20}$/.test(t1 || '') && BigInt(/** @type {string} */ (t1)) >= BigInt(/** @type {string} */ (t0))) view.range = { t0: BigInt(/** @type {string} */ (t0)), t1: BigInt(/** @type {string} */ (t1)) };
  if (params.get('plot')) {
    view.plot = /** @type {string} */ (params.get('plot'));
    view.fields = (params.get('fields') || '').split(',').filter(Boolean);
  }
  const image = /^(.+)@(\d{1,20})$/s.exec(params.get('image') || '');
  if (image) view.image = { topic: image[1], t: BigInt(image[2]) };
  const cameras = (params.get('cameras') || '').split(',').filter(Boolean);
  if (cameras.length) view.cameras = cameras;
  return view;
}

export class LinkState {
  // tabs: the page's tab names (a link to another tab carries no view).
  /** @param {{tabs: string[]}} options */
  constructor({ tabs }) {
    const params = new URLSearchParams(location.search);
    this.params = params;
    // The view the page was opened with, applied once to the first file that opens.
    this.pending = parseView(location.search, tabs);
    this.remote = params.get('url');
    this.fileHint = params.get('file');
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {boolean | undefined} while a link's view is applied: no update is recorded */
    this.applying;
  }

  get hasView() { return Object.keys(this.pending || {}).length > 0; }

  /** @param {string | null} url */
  setRemote(url) {
    if (url) { this.params.set('url', url); this.params.delete('file'); } else this.params.delete('url');
    this.flush();
  }

  /** @param {string | null} name */
  setLocalName(name) {
    if (name) this.params.set('file', name); else this.params.delete('file');
    this.flush();
  }

  // A new file: its view starts empty (unless a link's pending view is about to be applied).
  clearView() {
    for (const key of VIEW_KEYS) this.params.delete(key);
    this.flush();
  }

  /** @param {ViewUpdate} view */
  update(view) {
    if (this.applying) return;
    for (const [key, value] of Object.entries(view)) {
      // (Each key's value is the type LinkView gives it.)
      if (key === 'range') {
        for (const end of /** @type {const} */ (['t0', 't1'])) if (value) this.params.set(end, /** @type {{t0: bigint, t1: bigint}} */ (value)[end].toString()); else this.params.delete(end);
      } else if (value === null || value === undefined || value === '' || (Array.isArray(value) && key === 'cameras' && !value.length)) this.params.delete(key);
      else if (key === 'fields' || key === 'cameras') this.params.set(key, /** @type {string[]} */ (value).join(','));
      else if (key === 'at') this.params.set('at', hex(/** @type {number} */ (value)));
      else if (key === 'sel') this.params.set('sel', `${hex(/** @type {{start: number, end: number}} */ (value).start)}-${hex(/** @type {{start: number, end: number}} */ (value).end)}`);
      else if (key === 'image') this.params.set('image', `${/** @type {{topic: string, t: bigint}} */ (value).topic}@${/** @type {{topic: string, t: bigint}} */ (value).t}`);
      else if (key === 'row') this.params.set('row', `${/** @type {{table: string, key: string}} */ (value).table}:${/** @type {{table: string, key: string}} */ (value).key}`);
      else this.params.set(key, String(value));
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), 150);
  }

  flush() {
    clearTimeout(this.timer);
    const query = this.params.toString();
    const next = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
    if (next === `${location.pathname}${location.search}${location.hash}`) return;
    try { history.replaceState(history.state, '', next); } catch { /* some file:// pages refuse it */ }
  }

  // The link to share: the current address with the view state written out.
  href() {
    this.flush();
    return location.href;
  }

  // Takes the pending view (once).
  take() {
    const view = this.pending;
    this.pending = {};
    return view;
  }
}
