// The record view: the decoded content of the selected tree node (a ROS message, BDDF POD values
// or protobuf fields, CARLA packet fields) as a collapsible tree. Values are inserted as text.
import { h, clear, valueText } from './dom.js';
import { isIdKey, isNsTimeKey, nsToUtc } from './format.js';

const MAX_ITEMS = 200;

// Numbers named like ids, offsets or raw clocks stay plain digits; ns timestamps get a UTC tooltip.
function numberText(key, value) {
  if (typeof key !== 'string' || !Number.isInteger(value)) return { text: valueText(value) };
  if (isNsTimeKey(key) && value > 9.46e17) return { text: String(value), title: nsToUtc(value) };
  return isIdKey(key) || isNsTimeKey(key) ? { text: String(value) } : { text: valueText(value) };
}

function leaf(key, value) {
  const type = value === null ? 'null' : typeof value;
  const { text, title } = type === 'number' ? numberText(key, value) : { text: type === 'string' ? JSON.stringify(value).slice(0, 2000) : valueText(value) };
  return h('div.rv-leaf', {}, key !== null ? h('span.rv-key', {}, String(key)) : null, h(`span.rv-val.rv-${type}`, { title }, text));
}

function node(key, value, depth) {
  if (value === null || typeof value !== 'object') return leaf(key, value);
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const kind = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const box = h('details.rv-node', { open: depth < 2 || undefined },
    h('summary', {}, key !== null ? h('span.rv-key', {}, String(key)) : null, h('span.rv-type', {}, kind)));
  let rendered = 0;
  const more = () => {
    const end = Math.min(entries.length, rendered + MAX_ITEMS);
    const items = entries.slice(rendered, end).map(([k, v]) => node(k, v, depth + 1));
    rendered = end;
    box.append(...items);
    if (rendered < entries.length) box.append(h('button.link.rv-more', { type: 'button', onclick: (e) => { /** @type {Element} */ (e.target).remove(); more(); } }, `Show ${Math.min(MAX_ITEMS, entries.length - rendered)} more of ${entries.length - rendered}`));
  };
  // Children are built when first opened, so a big array costs nothing until looked at.
  if (box.open) more();
  else box.addEventListener('toggle', () => { if (box.open && !rendered) more(); }, { once: false });
  return box;
}

// A decoded value as a collapsible tree (also used by the Data tab).
export const recordTree = (value, openDepth = 2) => node(null, value, 2 - openDepth);

export class RecordView {
  constructor(root) { this.root = root; this.showEmpty(); }

  showEmpty(text = 'Select a node in the structure tree to see its decoded content.') {
    clear(this.root).append(h('div.panel-head', {}, h('h3', {}, 'Record')), h('p.muted.small', {}, text));
  }

  showLoading(label) {
    clear(this.root).append(h('div.panel-head', {}, h('h3', {}, 'Record'), h('span.muted.small', {}, label)), h('p.muted.small', {}, 'Decoding…'));
  }

  show(label, decoded) {
    const body = decoded && decoded.error ? h('p.error-text', {}, decoded.error) : node(null, decoded, 0);
    clear(this.root).append(h('div.panel-head', {}, h('h3', {}, 'Record'), h('span.muted.small.rv-label', {}, label)), h('div.rv', { id: 'record-tree' }, body));
  }
}
