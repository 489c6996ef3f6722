// The record view: the decoded content of the selected tree node (a ROS message, BDDF POD values
// or protobuf fields, CARLA packet fields) as a collapsible tree. Values are inserted as text,
// each formatted by its unit from the answer's `units` (docs/report.md, "Query results"); inside
// a value of unit `data` (the file's own content) names are the file's and values are shown as
// they are.
import { h, clear } from './dom.js';
import { formatUnit } from './format.js';

const MAX_ITEMS = 200;

// A member's path: the names from the answer's top joined by "."; array elements keep their list's.
const pathOf = (parent, key, inArray) => (inArray ? parent : parent === null || parent === '' ? String(key) : `${parent}.${key}`);

function leaf(key, value, unit) {
  const type = value === null ? 'null' : typeof value;
  const { text, title } = unit === 'data' && type === 'string' ? { text: JSON.stringify(value).slice(0, 2000) } : formatUnit(unit || 'data', value);
  return h('div.rv-leaf', {}, key !== null ? h('span.rv-key', {}, String(key)) : null, h(`span.rv-val.rv-${type}`, { title }, text));
}

// `units`: the answer's units, or null inside the file's content; `path`: the value's path.
function node(key, value, depth, units = null, path = '') {
  const unit = units ? units[path] ?? null : 'data';
  if (unit === 'data') units = null; // the file's content: its names are not ours
  if (value === null || typeof value !== 'object') return leaf(key, value, unit);
  const entries = (Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value))
    .filter(([k]) => !(units && path === '' && k === 'units' && !Array.isArray(value)));
  const kind = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const box = h('details.rv-node', { open: depth < 2 || undefined },
    h('summary', {}, key !== null ? h('span.rv-key', {}, String(key)) : null, h('span.rv-type', {}, kind)));
  let rendered = 0;
  const more = () => {
    const end = Math.min(entries.length, rendered + MAX_ITEMS);
    const items = entries.slice(rendered, end).map(([k, v]) => node(k, v, depth + 1, units, units ? pathOf(path, k, Array.isArray(value)) : ''));
    rendered = end;
    box.append(...items);
    if (rendered < entries.length) box.append(h('button.link.rv-more', { type: 'button', onclick: (e) => { /** @type {Element} */ (e.target).remove(); more(); } }, `Show ${Math.min(MAX_ITEMS, entries.length - rendered)} more of ${entries.length - rendered}`));
  };
  // Children are built when first opened, so a big array costs nothing until looked at.
  if (box.open) more();
  else box.addEventListener('toggle', () => { if (box.open && !rendered) more(); }, { once: false });
  return box;
}

// A decoded value as a collapsible tree (also used by the Data tab): a typed answer (its own
// `units`), a part of one (`units` and the part's `path`), or the file's content (no units).
export const recordTree = (value, openDepth = 2, { units = value?.units ?? null, path = '' } = {}) => node(null, value, 2 - openDepth, units, path);

export class RecordView {
  constructor(root) { this.root = root; this.showEmpty(); }

  showEmpty(text = 'Select a node in the structure tree to see its decoded content.') {
    clear(this.root).append(h('div.panel-head', {}, h('h3', {}, 'Record')), h('p.muted.small', {}, text));
  }

  showLoading(label) {
    clear(this.root).append(h('div.panel-head', {}, h('h3', {}, 'Record'), h('span.muted.small', {}, label)), h('p.muted.small', {}, 'Decoding…'));
  }

  show(label, decoded) {
    const body = decoded && decoded.error ? h('p.error-text', {}, decoded.error) : node(null, decoded, 0, decoded?.units ?? null);
    clear(this.root).append(h('div.panel-head', {}, h('h3', {}, 'Record'), h('span.muted.small.rv-label', {}, label)), h('div.rv', { id: 'record-tree' }, body));
  }
}
