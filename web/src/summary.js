// The summary: key facts, the checksum card and the index tables (series, topics, actors...).
import { h, clear, formatBytes, formatCount, humanize, valueText } from './dom.js';
import { formatUnit, commonFacts } from './format.js';

// A nested value of a checksum result: its own line when the codec gives one ({text}), else its
// fields as "name value" pairs.
/** @param {unknown} v */
function objectText(v) {
  if (v === null) return valueText(v);
  const o = /** @type {{[k: string]: unknown}} */ (v);
  if (typeof o.text === 'string') return o.text;
  return Object.entries(o).map(([k, x]) => `${humanize(k)} ${typeof x === 'object' && x !== null ? JSON.stringify(x) : valueText(x)}`).join(' · ');
}

const TABLE_ROWS = 200;

// One fact: label, formatted text, the raw value in data-value and title (tooltip), in the
// contract's unit (docs/report.md).
/**
 * @param {string} label
 * @param {string} key
 * @param {unknown} value
 * @param {string} unit
 */
export function factItem(label, key, value, unit) {
  const { text, title, sub } = formatUnit(unit, value, 'fact');
  const raw = typeof value === 'number' || (/_ns$/.test(unit) && value != null) ? { value: String(value) } : null;
  return h('div.fact', { dataset: { key, ...(unit ? { unit } : {}) } }, h('dt', {}, label),
    h('dd', { title: title || null, dataset: raw }, text, sub ? h('span.fact-sub', {}, sub) : null));
}

// The facts as an object key -> value (the contract sends them as a list with units).
export const factValues = (report) => Object.fromEntries((report?.facts || []).map((f) => [f.key, f.value]));

// The common facts (size, start, end, duration, counts), then the format's own, each in its unit.
// extra: facts computed elsewhere and filled in later, as [{key, node}].
export function renderFacts(root, report, file, extra = []) {
  const common = commonFacts(report?.file || { size_bytes: file.size });
  const items = common.map(([key, label, value, unit]) => factItem(label, key, value, unit));
  for (const { key, value, unit } of report?.facts || []) {
    if (extra.some((e) => e.key === key)) continue;
    items.push(factItem(humanize(key), key, value, unit));
  }
  for (const e of extra) items.push(e.node);
  clear(root).append(h('dl.facts', { id: 'facts' }, items));
}

// A table cell in its column's unit.
export function cell(value, unit) {
  const numeric = typeof value === 'number' || (unit === 'duration_ns' && value != null);
  const { text, title } = formatUnit(unit, value, 'cell');
  const long = typeof value === 'string' && value.length > 40;
  const raw = numeric || text !== valueText(value);
  return h(numeric ? 'td.num' : 'td', { title: title || (long ? value : null), dataset: raw && value !== null && typeof value !== 'object' ? { value } : null }, text);
}

export function tableCard(table) {
  const tbody = h('tbody');
  let shown = 0;
  const more = h('button.link', { type: 'button' });
  const addRows = () => {
    const end = Math.min(table.rows.length, shown + TABLE_ROWS);
    for (const row of table.rows.slice(shown, end)) tbody.append(h('tr', {}, row.map((v, i) => cell(v, table.units[i]))));
    shown = end;
    more.hidden = shown >= table.rows.length;
    more.textContent = `Show ${Math.min(TABLE_ROWS, table.rows.length - shown)} more of ${formatCount(table.rows.length - shown)}`;
  };
  more.addEventListener('click', addRows);
  addRows();
  const numericColumn = (i) => table.rows.some((r) => typeof r[i] === 'number');
  return h('section.card.table-card', { dataset: { table: table.name } },
    h('div.card-head', {}, h('h3', {}, humanize(table.name)), h('span.muted.small', {}, `${formatCount(table.rows.length)} ${table.rows.length === 1 ? 'row' : 'rows'}`)),
    // An empty table says so rather than showing its head alone (an MCAP without attachments).
    table.rows.length ? h('div.table-wrap', {}, h('table.data', {}, h('thead', {}, h('tr', {}, table.columns.map((c, i) => h(numericColumn(i) ? 'th.num' : 'th', {}, humanize(c), table.units[i] === 'hz' && !/_hz$/.test(c) ? ' (Hz)' : '')))), tbody))
      : h('p.muted.small.table-empty', {}, `None in this file.`),
    more);
}

export function renderTables(root, report) {
  clear(root);
  for (const table of report?.tables || []) root.append(tableCard(table));
}

const CHECKSUM_TEXT = {
  valid: ['ok', 'Checksum verified', 'The stored checksum matches the file contents.'],
  mismatch: ['bad', 'Checksum mismatch', 'The file contents do not match the stored checksum: the file was changed or damaged after it was written.'],
  none: ['neutral', 'No checksum to verify', 'The file carries no checksum (this format has none, or the file stored none), so its contents cannot be verified against one.'],
  absent: ['warn', 'No checksum stored', 'This file has no stored checksum (the part that holds it is missing).'],
  not_applicable: ['neutral', 'Not applicable', 'Checksums do not apply to this file.'],
  cancelled: ['neutral', 'Verification cancelled', 'Start it again when you like.'],
};

// A digest (SHA1's 40 hex digits) is one token: broken anywhere it reads as two values.
/** @param {unknown} v */
const isDigest = (v) => typeof v === 'string' && /^[0-9a-f]{32,}$/i.test(v);

// state: {status: 'idle'|'running'|'done'|'error', result, threshold, size, onVerify}
export function renderChecksum(root, state) {
  /** @type {HTMLElement[]} */
  const parts = [h('div.card-head', {}, h('h3', {}, 'Checksum'))];
  if (state.status === 'done' && state.result) {
    const result = state.result;
    const [tone, title, text] = CHECKSUM_TEXT[result.status] || ['neutral', String(result.status), ''];
    parts.push(h('div.check-status', { class: `tone-${tone}`, id: 'checksum-status', dataset: { status: result.status } }, h('span.dot'), h('strong', {}, title)));
    if (text) parts.push(h('p.muted.small', {}, result.message || text));
    const rows = Object.entries(result).filter(([k]) => !['status', 'message'].includes(k));
    if (rows.length) parts.push(h('table.kv', {}, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', {}, humanize(k)), h(isDigest(v) ? 'td.mono.digest' : 'td.mono.wrap', {}, typeof v === 'object' ? objectText(v) : valueText(v)))))));
    if (result.status === 'cancelled') parts.push(h('button.button', { type: 'button', id: 'verify-checksum', onclick: state.onVerify }, 'Verify checksum'));
  } else if (state.status === 'running') {
    parts.push(h('div.check-status.tone-neutral', { id: 'checksum-status', dataset: { status: 'running' } }, h('span.dot.pulse'), h('strong', {}, 'Verifying…')));
    parts.push(h('p.muted.small', {}, 'Reading the whole file; progress is shown at the bottom of the window.'));
  } else if (state.status === 'error') {
    parts.push(h('div.check-status.tone-bad', { id: 'checksum-status', dataset: { status: 'error' } }, h('span.dot'), h('strong', {}, 'Could not verify')), h('p.small', {}, state.error), h('button.button', { type: 'button', id: 'verify-checksum', onclick: state.onVerify }, 'Try again'));
  } else {
    parts.push(h('div.check-status.tone-neutral', { id: 'checksum-status', dataset: { status: 'idle' } }, h('span.dot'), h('strong', {}, 'Not verified yet')));
    parts.push(h('p.muted.small', {}, `Verification reads the whole file (${formatBytes(state.size)}); files above ${formatBytes(state.threshold)} are verified on request.`));
    parts.push(h('button.button', { type: 'button', id: 'verify-checksum', onclick: state.onVerify }, 'Verify checksum'));
  }
  clear(root).append(...parts);
}
